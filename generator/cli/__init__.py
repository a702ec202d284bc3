"""The `pnp` command: thin. It parses options, calls the library, prints.

Each subcommand lives in its own module under `generator.cli`; they are
imported lazily so that `pnp list` does not pay for ReportLab or the engines,
and `pnp --help` imports none of them: it lists the commands from `SUMMARIES`
(a test keeps that table equal to each command's own help).

It may import every layer below it (build, validate, render, engine, load, starter, model, the ground
floor); nothing imports it.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from generator import __version__
from generator.errors import PnpError

if TYPE_CHECKING:
    from generator.engine.registry import Registry

# command name -> module under generator.cli that defines a click command of that name.
COMMANDS: dict[str, str] = {
    "init": "new",
    "new": "new",
    "list": "info",
    "show": "info",
    "validate": "validate",
    "build": "build",
    "check": "check",
    "simulate": "simulate",
    "play": "play",
    "sweep": "sweep",
    "watch": "watch",
    "serve": "serve",
    "export-items": "export_items",
}

# command name -> the first paragraph of its help, for `pnp --help` without importing every command.
SUMMARIES: dict[str, str] = {
    "init": "Make a new project in DIR: data/, templates/, fonts/, art/ and a README, to add games to with pnp new.",
    "new": "Add a game to the project: game.yaml, a deck of cards, its layouts and a rulebook, ready to build.",
    "list": "The games, their components and counts.",
    "show": "One game in detail: components, contents, player counts, design notes and decisions.",
    "validate": "Check every deck against its game's rules: counts, deals, effects, layouts, text fit.",
    "build": "Write every printable to output/<game>/: cards, tiles, tokens, rulebooks, sheets, boards.",
    "check": "Replay the game(s) recorded in LOG and confirm every action was legal and every game complete.",
    "play": "Play GAME against the bots in the terminal: your seat's view, the legal moves numbered, undo and hints.",
    "simulate": "Play GAME many times with bots and report win rates (95% Wilson intervals), scores and lengths.",
    "watch": "Watch data/ and templates/; validate and rebuild what changed on every save.",
    "serve": "Serve output/ with the gallery on http://127.0.0.1:8000/, rebuilding on every save.",
    "export-items": "Write a component's items as CSV: one row per item, one column per field.",
    "sweep": "Simulate GAME at every combination of the --vary values and report the chosen metrics.",
}


class LazyGroup(click.Group):
    """Subcommands imported on first use. A command that fails to import raises (with its
    traceback: that is a bug in the package), it never silently disappears from `pnp`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return self._find(name) if name in COMMANDS else None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is refused with the likely one it misspells (`pnp biuld`: did you mean 'build'?)."""
        name = args[0] if args else ""
        if name and name not in COMMANDS and not name.startswith("-") and not ctx.resilient_parsing:
            from generator.errors import did_you_mean

            ctx.fail(f"no such command {name!r}{did_you_mean(name, COMMANDS)}")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands section of `pnp --help`, as click writes it, from `SUMMARIES` where it can
        (importing a command for its one line of help would cost `--help` ReportLab's import)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            summary = SUMMARIES.get(name)
            if summary is None:  # a command added without a summary still shows, the slow way
                rows.append((name, self._find(name).get_short_help_str(limit)))
            else:
                rows.append((name, click.Command(name, help=summary).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

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
    from generator.cli.context import Context

    given = None
    if ctx.obj is not None:  # a registry passed to main(); the installed one is discovered only when needed
        from generator.engine.registry import Registry

        given = ctx.obj if isinstance(ctx.obj, Registry) else None
    ctx.obj = Context.create(root, quiet, given)


def main(argv: list[str] | None = None, registry: Registry | None = None) -> Any:
    """Entry point: user errors print one line and exit non-zero, without a traceback.

    SIGTERM is handled like Ctrl-C, so a `kill` unwinds the same way: temporary
    files are removed and nothing half-written is left. `registry` replaces the
    shipped game -> engine registry (a project or test with a game of its own).
    Without `argv` (the `pnp` script, `python -m generator`) the process exits here with the
    command's status; with `argv` (tests, scripts) it returns or raises SystemExit.
    """
    if argv is not None:
        return _run(argv, registry)
    import gc

    # A command's run allocates in bursts (imports, loaded games, drawn pages) and frees little of it as
    # cycles: collecting every 700 new objects cost a cold build 0.2 s and a one-card edit 0.04 s (mostly
    # while importing), every 50,000 costs 0.08 s and 0.015 s, for a few MB more at the peak. This is a
    # documented knob of the collector, not a patch.
    gc.set_threshold(50_000, 10, 10)
    try:
        status = _run(None, registry)
    finally:
        # The command is done and the process ends: the collections the interpreter runs while it shuts
        # down would walk every object still alive (the loaded games, ReportLab's tables) to find cycles
        # nobody will use again, 0.2-0.3 s of a cold build. Frozen objects are left out of every collection
        # (the documented `gc.freeze`); atexit handlers and finalizers still run, so temporaries are removed.
        gc.freeze()
    sys.exit(status)


class _NeverRaised(click.UsageError):
    """Stands in for click 8.2's NoArgsIsHelpError under click 8.1, which prints a group's help itself."""


# Click 8.2+ raises this UsageError for a group called without a command: it shows the help, not an error.
_NO_ARGS_IS_HELP: type[click.UsageError] = getattr(click.exceptions, "NoArgsIsHelpError", _NeverRaised)


def _run(argv: list[str] | None, registry: Registry | None) -> Any:
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
    except _NO_ARGS_IS_HELP as exc:  # bare `pnp` (click 8.2+): its help, as click shows it, not an error line
        exc.show()
        sys.exit(exc.exit_code)
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
        from generator.project import write_error

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
