"""Which engine package plays which game: one list, checked loudly.

Each engine package `generator.engine.<name>` (or any importable module) defines three hooks:

    RULES: type[Rules]                          the rules bound to the YAML game; RULES.game_id names it
    BOTS: Mapping[str, type[Bot]]               at least "random" and "heuristic"
    composition_checks(game) -> list[Check]     the game's own deck checks for `pnp validate`

`Registry.engine(game_id)` imports a package and checks those hooks; every way
of getting it wrong (a game folder with no engine, a package that does not
import, a hook missing or misspelt, RULES naming another game, a bot missing)
is one `EngineError` line, raised before any work starts. `Registry.verify`
checks every game of a project at once (the test suite runs it on the real
project, so a broken registry fails CI).

The registry is an immutable value. The shipped one is `REGISTRY`; a project or
a test that plays a game of its own makes `REGISTRY.with_engine(game_id, module)`
and passes it to the CLI (`generator.cli.main(argv, registry=...)`) or the library.
Nothing here changes at run time.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING

from generator.errors import PnpError
from generator.project import Project

if TYPE_CHECKING:
    from generator.checks import Check
    from generator.engine.base import Bot, Rules
    from generator.model import Game

HOOKS = ("RULES", "BOTS", "composition_checks")
REQUIRED_BOTS = ("random", "heuristic")

# game id -> engine module. Adding a game's engine is one line here.
SHIPPED: Mapping[str, str] = MappingProxyType({
    "counterattack": "generator.engine.games.counterattack",
    "pirate-tricks": "generator.engine.games.pirate_tricks",
    "all-hands-on-deck": "generator.engine.games.all_hands",
    "pirates-under-fire": "generator.engine.games.under_fire",
})


class EngineError(PnpError):
    """A game and its engine do not fit together: the project cannot run (exit 2)."""


@dataclass(frozen=True)
class Engine:
    """A game's engine, imported and checked: what every caller needs from it, typed."""

    game_id: str
    module: str
    rules: type[Rules]
    bots: Mapping[str, type[Bot]]
    composition_checks: Callable[[Game], list[Check]]


class Registry:
    """Game id -> engine module path, in the order games are listed. Immutable, and picklable
    (a build's worker processes receive it), so it is passed along rather than looked up globally."""

    __slots__ = ("_entries",)
    _entries: tuple[tuple[str, str], ...]

    def __init__(self, engines: Mapping[str, str] = SHIPPED) -> None:
        object.__setattr__(self, "_entries", tuple(engines.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Registry cannot change: make a new one with with_engine()")

    def __reduce__(self) -> tuple[type[Registry], tuple[dict[str, str]]]:
        return (Registry, (dict(self._entries),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Registry) and other._entries == self._entries

    def __hash__(self) -> int:
        return hash(self._entries)

    def __repr__(self) -> str:
        return f"Registry({dict(self._entries)!r})"

    @property
    def engines(self) -> Mapping[str, str]:
        return MappingProxyType(dict(self._entries))

    @property
    def game_ids(self) -> tuple[str, ...]:
        return tuple(game_id for game_id, _module in self._entries)

    def with_engine(self, game_id: str, module: str) -> Registry:
        """A new registry that also (or instead) plays `game_id` with `module`."""
        return Registry({**self.engines, game_id: module})

    def module_of(self, game_id: str) -> str:
        """The engine module path of a game; EngineError when the game has none."""
        if game_id not in self.engines:
            raise EngineError(f"game {game_id!r} has no rules engine: map it to its engine package in "
                              f"generator/engine/registry.py (engines: {', '.join(self.engines) or 'none'})")
        return self.engines[game_id]

    def engine(self, game_id: str) -> Engine:
        """Import and check the engine of `game_id` (imports are cached by Python, checks are cheap)."""
        return load_engine(game_id, self.module_of(game_id))

    def require(self, project: Project, game_ids: Iterable[str] = ()) -> None:
        """Every named game (every game under data/ when none are named) must have an engine."""
        for game_id in list(game_ids) or project.game_ids():
            if game_id not in self.engines:
                folder = project.display(project.data_dir / game_id)
                raise EngineError(f"{folder}/ has no rules engine: map {game_id!r} to its engine package in "
                                  f"generator/engine/registry.py (engines: {', '.join(self.engines) or 'none'})")

    def verify(self, project: Project) -> list[Engine]:
        """Check the whole project at start-up: every game folder has an engine and every engine loads."""
        self.require(project)
        return [self.engine(game_id) for game_id in project.game_ids()]


REGISTRY = Registry()


def load_engine(game_id: str, module_path: str) -> Engine:
    """Import `module_path` and check its hooks against `game_id`; one EngineError line for any misfit."""
    from generator.engine.base import Bot, Rules

    module = _import(game_id, module_path)
    missing = [hook for hook in HOOKS if not hasattr(module, hook)]
    if missing:
        raise EngineError(f"engine {module_path} (game {game_id!r}) does not define {', '.join(missing)}"
                          f"{_near_misses(module, missing)}; an engine defines {', '.join(HOOKS)}")
    rules = module.RULES
    if not (isinstance(rules, type) and issubclass(rules, Rules)):
        raise EngineError(f"engine {module_path}: RULES must be a subclass of generator.engine.base.Rules, "
                          f"got {rules!r}")
    declared = getattr(rules, "game_id", None)
    if declared != game_id:
        raise EngineError(f"engine {module_path}: {rules.__name__}.game_id is {declared!r}, but it is registered "
                          f"for game {game_id!r} (the data folder's name): make them the same")
    bots = module.BOTS
    if not isinstance(bots, Mapping):
        raise EngineError(f"engine {module_path}: BOTS must map bot names to Bot classes, got {type(bots).__name__}")
    lacking = [name for name in REQUIRED_BOTS if name not in bots]
    if lacking:
        raise EngineError(f"engine {module_path}: BOTS lacks {', '.join(map(repr, lacking))} (has "
                          f"{', '.join(map(repr, bots)) or 'none'}); every engine offers {', '.join(REQUIRED_BOTS)}")
    for name, bot in bots.items():
        if not (isinstance(bot, type) and issubclass(bot, Bot)):
            raise EngineError(f"engine {module_path}: BOTS[{name!r}] must be a subclass of "
                              f"generator.engine.base.Bot, got {bot!r}")
    checks = module.composition_checks
    if not callable(checks):
        raise EngineError(f"engine {module_path}: composition_checks must be a function game -> list of checks")
    return Engine(game_id, module_path, rules, MappingProxyType(dict(bots)), checks)


def _import(game_id: str, module_path: str) -> ModuleType:
    try:
        return importlib.import_module(module_path)
    except ModuleNotFoundError as exc:
        if exc.name and module_path.startswith(exc.name):
            raise EngineError(f"engine {module_path} for game {game_id!r} is not installed (no module "
                              f"{exc.name!r}): fix its entry in generator/engine/registry.py") from None
        raise  # the engine exists but imports something missing: a bug, keep the traceback


def _near_misses(module: ModuleType, missing: list[str]) -> str:
    """' (found compositon_checks: a misspelt hook?)' when a public name is close to a missing hook."""
    public = [name for name in vars(module) if not name.startswith("_")]
    found = [close for hook in missing for close in difflib.get_close_matches(hook, public, n=1, cutoff=0.75)]
    return f" (found {', '.join(found)}: a misspelt hook?)" if found else ""
