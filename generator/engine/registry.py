"""Which engine plays which game: engines are plugins, found by entry point, checked loudly.

An engine is optional: a game with no engine builds, validates its data, layouts and
documents, and shows in the gallery; only playing it (`pnp simulate`, `sweep`, `check`,
`play`) needs one. An engine is a module that defines three hooks:

    RULES: type[Rules]                          the rules bound to the YAML game; RULES.game_id names it
    BOTS: Mapping[str, type[Bot]]               at least "random" and "heuristic"
    composition_checks(game) -> list[Check]     the game's own deck checks for `pnp validate`

and registers itself, as pytest's and Flask's plugins do, in its distribution's metadata under the
entry-point group `pirate_press.engines`: the name is the game id (its data folder's name), the value
`package.module:RULES` (or the module path alone). The four shipped engines register so in this
package's pyproject.toml; a designer's engine is a package of its own (`pip install` it), and nothing
in a project folder is ever imported.

`Registry()` reads the installed entry points once, when it is made (`importlib.metadata`), and is
an immutable value from then on: `REGISTRY` is the one made when this module is imported; a test
or a library caller with a game of its own makes `REGISTRY.with_engine(game_id, module)` and passes
it to the CLI (`generator.cli.main(argv, registry=...)`) or the library. `Registry.engine(game_id)`
imports a module and checks its hooks; every way of getting one wrong (a module that does not
import, a hook missing or misspelt, RULES naming another game, a bot missing, two plugins claiming
one game) is one `EngineError` line about that game alone: the other games still run.
"""

from __future__ import annotations

import difflib
import importlib
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING

from generator.errors import PnpError
from generator.project import GAME_IDS, Project

if TYPE_CHECKING:
    from generator.checks import Check
    from generator.engine.base import Bot, Rules
    from generator.model import Game

GROUP = "pirate_press.engines"  # the entry-point group engines register in
HOOKS = ("RULES", "BOTS", "composition_checks")
REQUIRED_BOTS = ("random", "heuristic")
HOW_TO_ADD = f"install a package that registers it in the entry-point group {GROUP} (see docs/new-game.md)"


class EngineError(PnpError):
    """A game and its engine do not fit together: that game cannot be played (exit 2)."""


@dataclass(frozen=True)
class Engine:
    """A game's engine, imported and checked: what every caller needs from it, typed."""

    game_id: str
    module: str  # the module path that defines the hooks (worker processes import it again by this name)
    rules: type[Rules]
    bots: Mapping[str, type[Bot]]
    composition_checks: Callable[[Game], list[Check]]


Entry = tuple[str, str, str]  # (game id, entry-point value, the distribution that registered it, or "")


class Registry:
    """Game id -> engine entry point, sorted by game id. Immutable, and picklable (a build's worker
    processes receive it), so it is passed along rather than looked up globally.

    `Registry()` discovers the installed engines; `Registry({"game": "module"})` names them instead
    (nothing discovered)."""

    __slots__ = ("_clashes", "_entries")
    _entries: tuple[Entry, ...]
    _clashes: tuple[tuple[str, str], ...]  # (game id, what is wrong): two plugins claiming one game

    def __init__(self, engines: Mapping[str, str] | None = None) -> None:
        if engines is None:
            entries, clashes = discover()
        else:
            entries, clashes = tuple((game_id, value, "") for game_id, value in sorted(engines.items())), ()
        object.__setattr__(self, "_entries", entries)
        object.__setattr__(self, "_clashes", clashes)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Registry cannot change: make a new one with with_engine()")

    def __reduce__(self) -> tuple[Callable[..., Registry], tuple[tuple[Entry, ...], tuple[tuple[str, str], ...]]]:
        return (_made_of, (self._entries, self._clashes))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Registry) and (other._entries, other._clashes) == (self._entries, self._clashes)

    def __hash__(self) -> int:
        return hash((self._entries, self._clashes))

    def __repr__(self) -> str:
        return f"Registry({dict(self.engines)!r})"

    @property
    def engines(self) -> Mapping[str, str]:
        """Game id -> entry-point value (`module` or `module:RULES`)."""
        return MappingProxyType({game_id: value for game_id, value, _origin in self._entries})

    @property
    def game_ids(self) -> tuple[str, ...]:
        """The games that have an engine (or that two plugins claim, which is an error when played)."""
        return tuple(sorted({game_id for game_id, *_ in self._entries} | {game_id for game_id, _ in self._clashes}))

    def with_engine(self, game_id: str, module: str) -> Registry:
        """A new registry that also (or instead) plays `game_id` with `module` (`module` or `module:RULES`)."""
        entries = tuple(sorted([*(e for e in self._entries if e[0] != game_id), (game_id, module, "")]))
        return _made_of(entries, tuple(c for c in self._clashes if c[0] != game_id))

    def has_engine(self, game_id: str) -> bool:
        return game_id in self.game_ids

    def origin(self, game_id: str) -> str:
        """The distribution whose metadata registers the game's engine ("" when given by hand)."""
        return next((origin for known, _value, origin in self._entries if known == game_id), "")

    def module_of(self, game_id: str) -> str:
        """The engine module path of a game; EngineError when the game has none."""
        for known, problem in self._clashes:
            if known == game_id:
                raise EngineError(problem)
        value = self.engines.get(game_id)
        if value is None:
            raise EngineError(no_engine(game_id))
        return value.partition(":")[0]

    def engine(self, game_id: str) -> Engine:
        """Import and check the engine of `game_id` (imports are cached by Python, checks are cheap);
        EngineError, one line, when it has none or it does not fit."""
        self.module_of(game_id)  # no engine, or two plugins claiming it
        return load_engine(game_id, self.engines[game_id], self.origin(game_id))

    def engine_or_none(self, game_id: str) -> Engine | None:
        """The game's engine, or None for a game without one (a data-only game); EngineError when
        the game has one that does not load or fit."""
        return self.engine(game_id) if self.has_engine(game_id) else None

    def verify(self, project: Project) -> list[Engine]:
        """Every engine the project's games have, loaded and checked (EngineError for the first that is
        broken): what a test runs to keep the shipped registrations working."""
        return [self.engine(game_id) for game_id in project.game_ids() if self.has_engine(game_id)]


def _made_of(entries: tuple[Entry, ...], clashes: tuple[tuple[str, str], ...]) -> Registry:
    """A registry holding exactly these entries (unpickling, `with_engine`): nothing discovered."""
    registry = Registry({})
    object.__setattr__(registry, "_entries", entries)
    object.__setattr__(registry, "_clashes", clashes)
    return registry


def discover() -> tuple[tuple[Entry, ...], tuple[tuple[str, str], ...]]:
    """The installed engines: every entry point in `GROUP`, by game id; a game two distributions
    register differently is a clash (its own error when played, the others unaffected).

    The working folder is left out of the search (`python -m` puts it first on sys.path): a project
    folder is data, and a `*.dist-info` dropped into one never makes pnp import anything. Every copy of
    a package on the path is read, so a stale copy without our entry points (an old egg-info in a
    checkout) hides nothing, and copies that disagree are a clash, not a silent pick."""
    import os
    import sys
    from importlib.metadata import distributions  # here: a command that never makes a registry (pnp list) skips it

    here = os.path.realpath(os.getcwd())
    paths = [p for p in sys.path if p and os.path.realpath(p) != here]
    found: dict[str, list[tuple[str, str]]] = {}
    for dist in distributions(path=paths):
        try:
            points = dist.entry_points.select(group=GROUP)
            name = dist.metadata["Name"] if points else ""  # parsed only for the few that register an engine
        except Exception:  # unreadable metadata of some other package: not an engine of ours
            continue
        for point in points:
            claims = found.setdefault(point.name, [])
            if all(value != point.value for value, _origin in claims):  # two copies of one package agree
                claims.append((point.value, name or ""))
    entries, clashes = [], []
    for game_id, claims in sorted(found.items()):
        if len(claims) == 1:
            entries.append((game_id, *claims[0]))
        else:
            named = "; ".join(f"{origin or '?'} ({value})" for value, origin in sorted(claims, key=lambda c: c[1]))
            clashes.append((game_id, f"game {game_id!r} has an engine in more than one installed package: {named}; "
                                     "uninstall all but one"))
    return tuple(entries), tuple(clashes)


def no_engine(game_id: str) -> str:
    """The one line for a game with no rules engine, where one is needed."""
    if game_id in GAME_IDS:  # a shipped game: its registration is in this package's own metadata
        return (f"{game_id} has no rules engine registered: the installed pirate-press metadata lacks its entry "
                f"point in {GROUP}; reinstall the package (pip install -e . in a checkout)")
    return (f"{game_id} has no rules engine, so it cannot be simulated, swept, checked or played (it builds and "
            f"validates without one); to add one, {HOW_TO_ADD}")


REGISTRY = Registry()


def load_engine(game_id: str, value: str, origin: str = "") -> Engine:
    """Import the engine `value` names (`module` or `module:RULES`) and check its hooks against
    `game_id`; one EngineError line for any misfit. `origin`: the distribution that registered it."""
    from generator.engine.base import Bot, Rules

    module_path, _, attribute = value.partition(":")
    if attribute not in ("", "RULES"):
        raise EngineError(f"engine entry point {game_id} = {value!r}{_of(origin)} must name a module or "
                          f"'module:RULES', not {attribute!r}")
    module = _import(game_id, module_path, origin)
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


def _of(origin: str) -> str:
    return f" (registered by {origin})" if origin else ""


def _import(game_id: str, module_path: str, origin: str) -> ModuleType:
    """The engine module; a plugin that does not import is one line naming the place, not a traceback,
    so that one broken plugin never stops a command about the other games."""
    try:
        return importlib.import_module(module_path)
    except ModuleNotFoundError as exc:
        if exc.name and (module_path == exc.name or module_path.startswith(exc.name + ".")):
            fix = f"reinstall {origin} or fix its entry point" if origin else "fix its registry entry"
            raise EngineError(f"engine {module_path} for game {game_id!r}{_of(origin)} is not installed (no "
                              f"module {exc.name!r}): {fix} (group {GROUP})") from None
        problem: Exception = exc
    except Exception as exc:  # a plugin is third-party code: any failure on import is that game's error
        problem = exc
    frame = traceback.extract_tb(problem.__traceback__)[-1] if problem.__traceback__ else None
    where = f" at {frame.filename}:{frame.lineno}" if frame else ""
    raise EngineError(f"engine {module_path} for game {game_id!r}{_of(origin)} fails to import: "
                      f"{type(problem).__name__}: {' '.join(str(problem).split())}{where}; fix the engine or "
                      "uninstall it") from None


def _near_misses(module: ModuleType, missing: list[str]) -> str:
    """' (found compositon_checks: a misspelt hook?)' when a public name is close to a missing hook."""
    public = [name for name in vars(module) if not name.startswith("_")]
    found = [close for hook in missing for close in difflib.get_close_matches(hook, public, n=1, cutoff=0.75)]
    return f" (found {', '.join(found)}: a misspelt hook?)" if found else ""
