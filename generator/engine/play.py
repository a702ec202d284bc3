"""A person at the table against bots: one game played move by move, with undo and hints, for any engine.

`PlaySession` knows no game. It deals from a seed, lets the bots move until it is the person's turn,
takes the person's move (a number from the list or an action's text, read as `pnp check` reads it),
and keeps the game as a deal plus an action list, so that:

* `undo` replays that list, shortened to the person's previous decision, from the same deal: nothing is
  dealt again, and a bot asked again at the same point answers the same (its rng is seeded by the seed,
  its seat and the move number);
* `record()` is the log `pnp check` replays, finished or not.

What it hands out for the person to see comes from `State.observation(seat)` only (through the game's
view, `generator.engine.view`), and another seat's move is told as that game's `secret` allows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.engine.base import Bot, IllegalAction, Result, Rules, State
from generator.engine.replay import GameRecord, result_dict
from generator.engine.view import TableView, ViewHooks, generic_table, public


@dataclass(frozen=True)
class Event:
    """One move as the person saw it: who made it and what the table learnt of it."""

    seat: int
    text: str
    index: int  # the move's number in the game, from 0
    notes: tuple[str, ...] = ()  # what came of it, as the person's seat saw ('the pirate wins the trick')

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "text": self.text, "index": self.index, "notes": list(self.notes)}


@dataclass(frozen=True)
class Hint:
    """The search bot's move for the person, and why, in one line."""

    action: str
    why: str


class PlaySession:
    """One game: seat `seat` is the person, every other seat the bot class given for it."""

    def __init__(self, rules: Rules, game_id: str, players: int, seat: int, bots: Sequence[type[Bot] | None],
                 bot_names: Sequence[str], seed: int, hooks: ViewHooks | None = None,
                 advisor: type[Bot] | None = None) -> None:
        if not 0 <= seat < players or len(bots) != players or bots[seat] is not None:
            raise ValueError("one bot per seat, none for the person's seat")
        self.rules = rules
        self.game_id = game_id
        self.players = players
        self.seat = seat
        self.bots = tuple(bots)
        self.bot_names = tuple(bot_names)
        self.seed = seed
        self.hooks = hooks or ViewHooks(generic_table, public)
        self.advisor = advisor
        self.deal = rules.random_deal(players, random.Random(seed))
        self.actions: list[int] = []
        self.actors: list[int] = []
        self.texts: list[str] = []
        self.log: list[Event] = []
        self.state = self._fresh()

    # --- the game ------------------------------------------------------------------------------

    def _fresh(self) -> State:
        return self.rules.new_state(self.players, self.deal, check=True)

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def to_act(self) -> int | None:
        """The seat to act now, or None once the game is over."""
        return None if self.over else self.state.current_player()

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def legal(self) -> list[tuple[int, str]]:
        """The person's legal moves as (action, text), in the engine's order; [] when it is not their turn."""
        if not self.my_turn:
            return []
        state = self.state
        return [(a, state.action_to_string(a)) for a in state.legal_actions()]

    def _apply(self, action: int) -> Event:
        state = self.state
        actor = state.current_player()
        text = state.action_to_string(action)
        narrate = self.hooks.narrate
        before = dict(state.observation(self.seat)) if narrate is not None else None
        state.apply_action(action)
        notes: tuple[str, ...] = ()
        if narrate is not None and before is not None:
            notes = tuple(narrate(self.rules, before, dict(state.observation(self.seat))))
        self.actions.append(action)
        self.actors.append(actor)
        self.texts.append(text)
        if actor != self.seat:
            hidden = self.hooks.secret(text)
            if hidden is not None:
                text = hidden
        event = Event(actor, text, len(self.actions) - 1, notes)
        self.log.append(event)
        return event

    def bot_move(self) -> Event | None:
        """One bot move, if a bot is to act; None when the person is to act or the game is over."""
        actor = self.to_act
        if actor is None or actor == self.seat:
            return None
        bot_class = self.bots[actor]
        assert bot_class is not None
        bot = bot_class(self.rules, actor, self._rng(actor))
        legal = self.state.legal_actions()
        action = bot.choose(self.state.observation(actor), legal)
        if action not in legal:
            raise IllegalAction(f"bot {self.bot_names[actor]!r} chose {action}, which is not a legal action")
        return self._apply(action)

    def _rng(self, seat: int) -> random.Random:
        """A bot's randomness at this point of the game: the same after an undo, so it answers the same."""
        return random.Random(f"{self.seed}/{seat}/{len(self.actions)}")

    def parse(self, answer: str) -> int:
        """The person's move from a number in the list or an action's text; IllegalAction when neither."""
        legal = self.legal()
        text = answer.strip()
        if not legal:
            raise IllegalAction("it is not your turn")
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1][0]
            raise IllegalAction(f"there is no move {number}: choose 1 to {len(legal)}")
        action = self.state.string_to_action(text)
        if action not in (a for a, _ in legal):
            raise IllegalAction(f"{self.state.action_to_string(action)!r} is not a legal move now")
        return action

    def play(self, answer: str) -> Event:
        """Play the person's move (see `parse`)."""
        return self._apply(self.parse(answer))

    def undo(self) -> bool:
        """Back to the person's previous decision, replayed from the same deal; False when there is none.

        While it is the person's turn, the previous decision is the last one they made; after the end of
        the game too."""
        mine = [i for i, actor in enumerate(self.actors) if actor == self.seat]
        if not mine:
            return False
        keep = mine[-1]
        actions = self.actions[:keep]
        self.actions, self.actors, self.texts, self.log = [], [], [], []
        self.state = self._fresh()
        for action in actions:
            self._apply(action)
        return True

    def events(self) -> list[Event]:
        """Every move so far as the person saw it (another seat's secret moves told as the game allows)."""
        return list(self.log)

    # --- what the person sees -----------------------------------------------------------------

    def observation(self) -> Mapping[str, Any]:
        return self.state.observation(self.seat)

    def view(self) -> TableView:
        return self.hooks.table(self.rules, self.observation())

    def result(self) -> Result | None:
        return self.state.result() if self.over else None

    def name(self, seat: int) -> str:
        """A seat as the person reads it: 'you', or 'seat 2 (heuristic)'."""
        return "you" if seat == self.seat else f"seat {seat + 1} ({self.bot_names[seat]})"

    def hint(self) -> Hint:
        """What the search bot would play for the person now, and why in a line."""
        legal = self.state.legal_actions() if self.my_turn else []
        if not legal:
            raise IllegalAction("it is not your turn")
        text = self.state.action_to_string
        if len(legal) == 1:
            return Hint(text(legal[0]), "it is the only legal move")
        if self.advisor is None:
            raise IllegalAction("this game has no search bot to ask")
        bot = self.advisor(self.rules, self.seat, random.Random(f"{self.seed}/hint/{len(self.actions)}"))
        action = bot.choose(self.observation(), legal)
        figures: Mapping[int, tuple[int, float]] = getattr(bot, "figures", {}) or {}
        return Hint(text(action), _why(action, figures, text))

    # --- the log ---------------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a log `pnp check` replays (with the result once it is over)."""
        texts = self.texts
        names = tuple(self.name(s) for s in range(self.players))
        bots = tuple("person" if s == self.seat else self.bot_names[s] for s in range(self.players))
        result = result_dict(self.state.result()) if self.over else None
        return GameRecord(game=self.game_id, players=self.players, actions=tuple(texts), deal=self.deal,
                          seed=self.seed, bots=bots, result=result, names=names,
                          action_lines=(1,) * len(texts), one_line=True)  # as one line of a JSON-lines log


def _why(action: int, figures: Mapping[int, tuple[int, float]], text: Any) -> str:
    """One line from the search bot's figures (per move weighed: play-outs and mean payoff, 1 = a sure win
    by a wide margin): how the move did, against the best of the others."""
    if action not in figures or not figures[action][0]:
        return "the search bot's choice from deals consistent with what you see"
    plays, mean = figures[action]
    total = sum(n for n, _ in figures.values())
    others = sorted(((m, a) for a, (n, m) in figures.items() if a != action and n), reverse=True)
    line = f"in {total} play-outs from deals consistent with what you see, it scored {mean:.2f} in {plays}"
    if others:
        best, other = others[0]
        line += f" against {best:.2f} for '{text(other)}'"
        if best > mean:  # a move seldom tried can look better by luck: the search trusts the one it tried most
            line += f" ({figures[other][0]} tries only)"
    return line + " (payoff 0 to 1: a win and the margin)"
