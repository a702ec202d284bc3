"""What every subcommand shares: the project, quietness, and the games it asked for."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import click

from generator.errors import PnpError, UsageError, did_you_mean
from generator.model import Game
from generator.project import Project

if TYPE_CHECKING:
    from generator.engine.registry import Registry


@dataclass
class Context:
    project: Project
    quiet: bool
    given_registry: Registry | None = None  # which engine plays which game; tests pass their own
    _games: dict[str, Game] = field(default_factory=dict)

    @classmethod
    def create(cls, root: str, quiet: bool, registry: Registry | None = None) -> Context:
        project = Project.at(root)
        if not project.root.is_dir():
            raise UsageError(f"--root {root!r} is not a folder")
        return cls(project, quiet, registry)

    @property
    def registry(self) -> Registry:
        """The given registry, or the installed engines: discovered only by a command that asks
        (`pnp list` never reads the packages' metadata)."""
        if self.given_registry is not None:
            return self.given_registry
        from generator.engine.registry import REGISTRY

        return REGISTRY

    @property
    def show_progress(self) -> bool:
        """Progress bars only for a person at a terminal: not in CI, not with --quiet."""
        return not self.quiet and sys.stderr.isatty() and not os.environ.get("CI")

    def game_ids(self, ids: Iterable[str] = ()) -> list[str]:
        """The named games (all when none are named), each refused unless it is under data/, with the
        likely game a misspelt name meant (`counterattak`: did you mean 'counterattack'?)."""
        known = self.project.game_ids()
        wanted = list(ids) or known
        if not wanted:
            raise UsageError(f"no games under {self.project.display(self.project.data_dir)}/ (is --root right?)")
        for game_id in wanted:
            if game_id not in known:
                raise UsageError(f"unknown game {game_id!r}{did_you_mean(game_id, known)} "
                                 f"(games: {', '.join(known) or 'none'})")
        return wanted

    def games(self, ids: Iterable[str] = ()) -> list[Game]:
        """Load the named games (all when none are named), each once per command; the first that does
        not load stops the command (see `games_apart` for one that goes on without it)."""
        from generator.load import load_game

        wanted = self.game_ids(ids)
        for game_id in wanted:
            if game_id not in self._games:
                self._games[game_id] = load_game(self.project, game_id)
        return [self._games[g] for g in wanted]

    def games_apart(self, ids: Iterable[str] = ()) -> tuple[list[Game], list[PnpError]]:
        """The named games that load, and one error per game that does not: a broken game is its own
        line and never stops the others."""
        loaded, broken = [], []
        for game_id in self.game_ids(ids):
            try:
                (game,) = self.games([game_id])
            except PnpError as exc:
                broken.append(exc)
                continue
            loaded.append(game)
        return loaded, broken

    def fail_for(self, broken: list[PnpError]) -> None:
        """After a command has done what it could: each broken game's error as its own line, and the
        exit code of the worst (nothing when none is broken)."""
        if not broken:
            return
        for error in broken:
            click.echo(f"pnp: {error}", err=True)
        raise click.exceptions.Exit(max(error.exit_code for error in broken))

    def echo(self, message: str = "", **kwargs: object) -> None:
        click.echo(message, **kwargs)  # type: ignore[arg-type]

    def note(self, message: str) -> None:
        """Chatter that --quiet silences (reports and errors always print)."""
        if not self.quiet:
            click.echo(message, err=True)


pass_context = click.make_pass_decorator(Context)
F = TypeVar("F", bound=Callable[..., Any])


def _set_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.ensure_object(Context).quiet = True
    return value


def quiet_option(command: F) -> F:
    """`-q/--quiet` after the subcommand too (`pnp build --quiet`), as users type it."""
    option: F = click.option("-q", "--quiet", "_quiet", is_flag=True, expose_value=False, callback=_set_quiet,
                             help="No progress bars or chatter; errors only.")(command)
    return option


def _set_root(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    found = ctx.find_object(Context)
    if value is not None and found is not None and not ctx.resilient_parsing:
        found.project = Context.create(value, found.quiet, found.registry).project
        found._games.clear()
    return value


def root_option(command: F) -> F:
    """`--root DIR` after the subcommand too (`pnp validate --root ../game`), as users type it."""
    option: F = click.option("--root", "_root", type=click.Path(file_okay=False, path_type=str), default=None,
                             expose_value=False, callback=_set_root,
                             help="Project folder holding data/, templates/ and output/ (as before the command).")(command)
    return option


# --- shell completion (`eval "$(_PNP_COMPLETE=bash_source pnp)"`, README) ---------------------------


def _root_for(ctx: click.Context) -> str:
    """The project folder the command line names so far: a subcommand's --root, else pnp's, else here."""
    while ctx is not None:
        root = ctx.params.get("_root") or ctx.params.get("root")
        if root:
            return str(root)
        ctx = ctx.parent  # type: ignore[assignment]
    return "."


def complete_games(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    """The games under the project's data/ that start with what was typed."""
    try:
        ids = Project.at(_root_for(ctx)).game_ids()
    except (PnpError, OSError):
        return []
    return [game_id for game_id in ids if game_id.startswith(incomplete)]


def complete_presets(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    """The print-service presets shipped (presets.yaml) that start with what was typed."""
    from generator.render.exports.presets import registry

    try:
        return [name for name in registry() if name.startswith(incomplete)]
    except PnpError:
        return []


def complete_bots(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    """The bots every game has, and the named game's own, that start with what was typed."""
    from generator.engine.registry import REGISTRY
    from generator.engine.simulate.bots import COMMON_BOTS

    names = list(COMMON_BOTS)
    game_id = ctx.params.get("game_id")
    if isinstance(game_id, str):
        with contextlib.suppress(PnpError, ImportError):  # not a game with an engine: the common bots
            names += [name for name in REGISTRY.engine(game_id).bots if name not in names]
    return [name for name in names if name.startswith(incomplete)]
