"""The one small interface every game engine implements (after OpenSpiel's game/state split).

* `Rules` is built once from the YAML `Game` (the very cards that get printed)
  and makes states. It never changes.
* `State` is a mutable game in progress: whose turn, legal actions, apply an
  action, over or not, the result, and what one seat may observe.

Chance is taken out of play: `Rules.random_deal(players, rng)` draws every
shuffle the game will need up front into a JSON-able `deal`, and
`Rules.new_state(players, deal)` plays from it. A replay log is therefore the
deal plus the action list, and does not depend on the random generator.

Actions are small integers from a fixed per-game action space, with a readable
text form (`play 14 red`, `bid 3`) for logs and `pnp check`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from generator.engine.playable import Playable
from generator.engine.playable import check as check_playable
from generator.errors import DataError, PnpError
from generator.model import Game


class IllegalAction(PnpError):
    """An action the rules forbid; the message names the rule it breaks."""

    exit_code = 1


class InvariantBroken(AssertionError):
    """The engine itself went wrong (a card created or lost...): a bug, never the user's fault."""


@dataclass(frozen=True)
class Result:
    """Final outcome. `winners` holds every seat sharing the victory after tie-breaks."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)


class State(ABC):
    """A game in progress. Seats are 0..players-1."""

    players: int
    history: list[int]
    check: bool  # when true, invariants are verified after every action

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act now (games with simultaneous choices ask seats one at a time)."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the current player; empty only when the game is over."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play an action; an illegal one raises IllegalAction naming the broken rule."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """Scores and winners; only valid once `is_terminal()`."""

    @abstractmethod
    def observation(self, player: int) -> Mapping[str, Any]:
        """Everything seat `player` may see at the table, and nothing more."""

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse the readable form back; raises IllegalAction for unreadable text."""

    @abstractmethod
    def copy(self) -> State:
        """A cheap independent copy (hand-written, not deepcopy) for search bots."""

    def opener(self) -> int:
        """The seat that opened the game (start position 1). Seat 0 unless the deal draws it (a race, a lot):
        the simulator reports win rates by start position as well as by seat."""
        return 0

    def check_invariants(self) -> None:  # noqa: B027 - optional: games override it, the default checks nothing
        """Verify conservation and bookkeeping; raise InvariantBroken. Games override."""

    def stats(self) -> Mapping[str, float]:
        """Per-game numbers for the simulator (tricks, rounds, points by source...)."""
        return {}

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full, playable copy of this game in which everything `seat` cannot see is drawn anew at random,
        consistent with its observation: the search bot's only way to look ahead.

        Games with hidden information override it. The sample must depend only on what the seat sees
        (gather the unseen cards in a fixed order, then shuffle them with `rng`), so that two states
        the seat cannot tell apart give the same sample for the same rng. The default suits games
        that hide nothing.
        """
        return self.copy()

    def information_set(self, seat: int) -> InformationSet:
        """What `seat` knows, as a sampler: attach it to the observation (`Observation`, `LazyObservation`)."""
        return InformationSet(self, seat)


class InformationSet:
    """What one seat knows of a game, offered only as samples of states consistent with it.

    It refers to the live game and is valid while the bot chooses (the game moves on afterwards).
    A bot must not reach behind `sample`: a test hides and reshuffles the unseen cards and checks
    the search bot's choices stay exactly the same.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    def sample(self, rng: random.Random) -> State:
        """A full game consistent with what the seat knows; a scratch copy, so invariant checks are off."""
        sample = self._state.determinize(self.seat, rng)
        sample.check = False
        return sample


class Observation(dict[str, Any]):
    """An observation (a plain dict of what a seat sees) that also carries the seat's `information` set.

    Equality, printing and JSON see only the dict, so observations still compare by what they show.
    """

    __slots__ = ("information",)

    def __init__(self, data: Mapping[str, Any], information: InformationSet | None = None) -> None:
        super().__init__(data)
        self.information = information


def information_of(observation: Mapping[str, Any]) -> InformationSet | None:
    """The information set an observation carries, if its game attaches one."""
    return getattr(observation, "information", None)


StateT = TypeVar("StateT", bound=State)


class Rules(ABC, Generic[StateT]):
    """A game's rules bound to its YAML definition; `Rules[MyState]` makes states of type MyState."""

    game_id: ClassVar[str]
    # the rules values this engine can play (its config's PLAYABLE table), refused at their line before any game
    playable: ClassVar[Sequence[Playable]] = ()

    def __init__(self, game: Game) -> None:
        if game.id != self.game_id:
            raise DataError(f"the {type(self).__name__} engine plays {self.game_id!r}, not {game.id!r}: "
                            "check the registry entry", game.location)
        check_playable(game, self.playable)
        self.game = game

    @abstractmethod
    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        """Every chance outcome of a whole game, drawn now, as JSON-able data."""

    @abstractmethod
    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> StateT: ...

    def new_game(self, players: int, seed: int, check: bool = False) -> StateT:
        return self.new_state(players, self.random_deal(players, random.Random(seed)), check)

    def dealt_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> StateT:
        """A state from a deal this rules object's `random_deal` has just drawn (never one read from a
        log or a person): engines override it to skip re-validating what they drew themselves, which
        in a short random game costs as much as several moves."""
        return self.new_state(players, deal, check)

    @property
    def player_counts(self) -> Sequence[int]:
        return tuple(self.game.player_range)


def shuffled(n: int, rng: random.Random) -> list[int]:
    """A uniformly random order of 0..n-1: sort by random keys (several times faster than
    `rng.shuffle`, whose per-swap integer draws dominate a whole random game)."""
    keys = [rng.random() for _ in range(n)]
    return sorted(range(n), key=keys.__getitem__)


class Bot(ABC):
    """A player. It sees only `state.observation(seat)` plus the legal actions.

    Where a bot's choices tie, it breaks the tie with its own seeded `rng`
    (`pick_best`), never by seat or action order: a tie-break that favours
    the lowest seat would show up as a seat advantage in the simulator.
    """

    name: ClassVar[str]

    def __init__(self, rules: Rules[Any], seat: int, rng: random.Random) -> None:
        self.rules = rules
        self.seat = seat
        self.rng = rng

    def pick_best(self, options: Sequence[int], value: Callable[[int], Any]) -> int:
        """The option of highest `value`; ties broken at random with the bot's seeded rng."""
        best: list[int] = []
        top: Any = None
        for option in options:
            v = value(option)
            if not best or v > top:
                best, top = [option], v
            elif v == top:
                best.append(option)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    @abstractmethod
    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int: ...


class RandomBot(Bot):
    """Picks uniformly among the legal actions: the baseline, and the invariant fuzzer."""

    name = "random"

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        return legal[self.rng.randrange(len(legal))]


class NamedActions:
    """A fixed action space whose actions have readable names: `to_string` and `parse`.

    Subclasses compute their family offsets, build the list of names in action
    order, and call `set_names`. Parsing folds case and runs of spaces; `aliases`
    are further spellings a person may type (`to_string` always gives the name).
    """

    __slots__ = ("examples", "ids", "names", "size")

    names: tuple[str, ...]
    size: int

    def set_names(self, names: Sequence[str], examples: str, aliases: Mapping[str, int] | None = None) -> None:
        if hasattr(self, "size") and len(names) != self.size:
            raise AssertionError(f"{len(names)} action names for a space of {self.size}")
        self.names = tuple(names)
        self.size = len(self.names)
        self.ids = {" ".join(alias.lower().split()): i for alias, i in (aliases or {}).items()}
        self.ids.update({name.lower(): i for i, name in enumerate(self.names)})
        self.examples = examples

    def to_string(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise IllegalAction(f"action {action} is outside the action space 0..{self.size - 1}")
        return self.names[action]

    def parse(self, text: str) -> int:
        key = " ".join(text.strip().lower().split())
        if key not in self.ids:
            raise IllegalAction(f"unreadable action {text!r}: expected e.g. {self.examples}")
        return self.ids[key]


class LazyObservation(Mapping[str, Any]):
    """A read-only mapping built on first access: random bots never read what they see, and
    building it for them on every move would cost more than the move itself."""

    __slots__ = ("_arg", "_build", "_data", "information")

    def __init__(self, build: Callable[[Any], dict[str, Any]], arg: Any = None,
                 information: InformationSet | None = None) -> None:
        self._build = build
        self._arg = arg
        self._data: dict[str, Any] | None = None
        self.information = information  # the seat's information set, for search bots

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._build(self._arg)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"LazyObservation({self._get()!r})"


class KeyedObservation(Mapping[str, Any]):
    """A read-only observation whose entries are each worked out on first read, from a table of
    `key -> field(state, seat)`: a bot that reads five entries of thirty pays for five.

    It reads the live game, so (like `LazyObservation`) it is valid while the bot chooses.
    """

    __slots__ = ("_fields", "_seat", "_state", "_values", "information")

    def __init__(self, fields: Mapping[str, Callable[[Any, int], Any]], state: Any, seat: int,
                 information: InformationSet | None = None) -> None:
        self._fields = fields
        self._state = state
        self._seat = seat
        self._values: dict[str, Any] = {}
        self.information = information  # the seat's information set, for search bots

    def __getitem__(self, key: str) -> Any:
        values = self._values
        if key not in values:
            values[key] = self._fields[key](self._state, self._seat)
        return values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __repr__(self) -> str:
        return f"KeyedObservation({dict(self)!r})"
