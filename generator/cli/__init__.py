"""The `pnp` command: thin. It parses options, calls the library, prints.

Each subcommand lives in its own module under `generator.cli`; they are
imported lazily so that `pnp list` does not pay for ReportLab or the engines.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import click

from generator import __version__
from generator.cli.context import Context
from generator.engine.registry import Registry
from generator.errors import PnpError
from generator.project import write_error

# command name -> module under generator.cli that defines a click command of that name.
COMMANDS: dict[str, str] = {
    "list": "info",
    "show": "info",
    "validate": "validate",
    "build": "build",
    "check": "check",
    "simulate": "simulate",
    "sweep": "sweep",
    "watch": "watch",
    "serve": "serve",
    "export-items": "export_items",
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
    ctx.obj = Context.create(root, quiet, ctx.obj if isinstance(ctx.obj, Registry) else None)


def main(argv: list[str] | None = None, registry: Registry | None = None) -> Any:
    """Entry point: user errors print one line and exit non-zero, without a traceback.

    SIGTERM is handled like Ctrl-C, so a `kill` unwinds the same way: temporary
    files are removed and nothing half-written is left. `registry` replaces the
    shipped game -> engine registry (a project or test with a game of its own).
    """
    previous = _terminate_like_interrupt()
    try:
        return cli.main(args=argv, prog_name="pnp", standalone_mode=False, obj=registry)
    except PnpError as exc:
        click.echo(f"pnp: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort as exc:  # click turns Ctrl-C (and so SIGTERM) into Abort
        interrupted = isinstance(exc.__cause__, KeyboardInterrupt)
        click.echo("pnp: interrupted" if interrupted else "pnp: aborted", err=True)
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
    except OSError as exc:  # a write or read the library did not name: still one line
        path = exc.filename if isinstance(exc.filename, str) else None
        message = str(write_error(exc, Path(path))) if path else f"{exc.strerror or exc}; check the disk and paths"
        click.echo(f"pnp: {message}", err=True)
        sys.exit(2)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminate_like_interrupt() -> Any:
    """Turn SIGTERM into KeyboardInterrupt in this process (not in forked workers)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    owner = os.getpid()

    def interrupt(signum: int, frame: object) -> None:
        if os.getpid() != owner:  # a forked worker: die as SIGTERM means
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)
