"""The `pnp` command: thin. It parses options, calls the library, prints.

Each subcommand lives in its own module under `generator.cli`; they are
imported lazily so that `pnp list` does not pay for ReportLab or the engines.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from generator import __version__
from generator.cli.context import Context
from generator.errors import PnpError

# command name -> module under generator.cli that defines a click command of that name.
COMMANDS: dict[str, str] = {
    "list": "info",
    "show": "info",
    "validate": "validate",
    "build": "build",
    "check": "check",
    "simulate": "simulate",
    "watch": "watch",
}


class LazyGroup(click.Group):
    """Subcommands imported on first use. A command that fails to import raises (with its
    traceback: that is a bug in the package), it never silently disappears from `pnp`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return self._find(name) if name in COMMANDS else None

    @staticmethod
    def _find(name: str) -> click.Command:
        module = importlib.import_module(f"generator.cli.{COMMANDS[name]}")
        attribute = name.replace("-", "_") + "_command"
        command = getattr(module, attribute, None)
        if not isinstance(command, click.Command):
            raise RuntimeError(f"pnp {name}: generator.cli.{COMMANDS[name]} defines no click command {attribute!r}")
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=str),
    default=".",
    show_default=True,
    help="Project folder holding data/, templates/ and output/.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars or chatter; errors only.")
@click.pass_context
def cli(ctx: click.Context, root: str, quiet: bool) -> None:
    """Pirate Press: print-and-play files, rules checks and simulations for four pirate games.

    Works on the project folder it runs in (data/, templates/, output/), or on --root.
    """
    ctx.obj = Context.create(root, quiet)


def main(argv: list[str] | None = None) -> Any:
    """Entry point: user errors print one line and exit non-zero, without a traceback."""
    try:
        return cli.main(args=argv, prog_name="pnp", standalone_mode=False)
    except PnpError as exc:
        click.echo(f"pnp: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("pnp: aborted", err=True)
        sys.exit(130)
    except click.UsageError as exc:  # one line, like every other error
        command = exc.ctx.command_path if exc.ctx else "pnp"
        click.echo(f"{command}: {exc.format_message()} (see '{command} --help')", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("pnp: interrupted", err=True)
        sys.exit(130)
