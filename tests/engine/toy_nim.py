"""Nim, as a complete little engine: the test bed of the simulator, the log format and `pnp check`.

It implements the whole engine interface (`RULES`, `BOTS`) in a few lines, so
the runner, the logs and `pnp check` can be tested without depending on the
real games. Its numbers come from the game's `rules:` (heap_min, heap_max,
take_max) like any engine's. Players take 1..take_max stones in turn; whoever
takes the last stone wins. Alone, you play against the tide: after each of
your moves the sea takes the amount the deal says, and you must take the last
stone yourself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import Bot, IllegalAction, RandomBot, Result, Rules, State
from generator.model import Game


class NimRules(Rules):
    game_id = "nim"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.heap_min: int = game.rule("heap_min", int)
        self.heap_max: int = game.rule("heap_max", int)
        self.take_max: int = game.rule("take_max", int)

    def random_deal(self, players: int, rng: random.Random) -> dict[str, Any]:
        heap = rng.randint(self.heap_min, self.heap_max)
        deal: dict[str, Any] = {"heap": heap}
        if players == 1:
            deal["tide"] = [rng.randint(1, self.take_max) for _ in range(heap)]
        return deal

    def new_state(self, players: int, deal: Mapping[str, Any], check: bool = False) -> NimState:
        return NimState(self, players, int(deal["heap"]), list(deal.get("tide", [])), check)


class NimState(State):
    def __init__(self, rules: NimRules, players: int, heap: int, tide: list[int], check: bool) -> None:
        self.rules = rules
        self.players = players
        self.heap = heap
        self.tide = tide
        self.check = check
        self.history: list[int] = []
        self.seat = 0
        self.winner: int | None = None
        self.over = False

    def current_player(self) -> int:
        return self.seat

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        return list(range(1, min(self.rules.take_max, self.heap) + 1))

    def apply_action(self, action: int) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        if not 1 <= action <= self.rules.take_max:
            raise IllegalAction(f"seat {self.seat} took {action} but may take 1 to {self.rules.take_max}")
        if action > self.heap:
            raise IllegalAction(f"seat {self.seat} took {action} but only {self.heap} stones are left")
        self.history.append(action)
        self.heap -= action
        if self.heap == 0:
            self.winner, self.over = self.seat, True
            return
        if self.players == 1:
            self.heap -= min(self.heap, self.tide[len(self.history) - 1])
            if self.heap == 0:
                self.over = True
        else:
            self.seat = (self.seat + 1) % self.players

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> Result:
        scores = tuple(1.0 if seat == self.winner else 0.0 for seat in range(self.players))
        return Result(scores, () if self.winner is None else (self.winner,))

    def observation(self, player: int) -> Mapping[str, Any]:
        return {"heap": self.heap, "take_max": self.rules.take_max, "seat": player}

    def action_to_string(self, action: int) -> str:
        return f"take {action}"

    def string_to_action(self, text: str) -> int:
        verb, _, number = text.strip().partition(" ")
        if verb != "take" or not number.strip().isdigit():
            raise IllegalAction(f"{text!r} is not an action (write: take N)")
        return int(number)

    def copy(self) -> NimState:
        other = NimState(self.rules, self.players, self.heap, self.tide, self.check)
        other.history, other.seat, other.winner, other.over = list(self.history), self.seat, self.winner, self.over
        return other

    def stats(self) -> Mapping[str, float]:
        figures: dict[str, float] = {"turns": len(self.history), "points.last_stone": 1 if self.winner is not None else 0}
        for take in range(1, self.rules.take_max + 1):
            figures[f"card.take-{take}.played"] = self.history.count(take)
        return figures


class HeuristicNimBot(Bot):
    """Leaves a multiple of take_max + 1 when it can: the textbook strategy for two players."""

    name = "heuristic"

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        best = observation["heap"] % (observation["take_max"] + 1)
        return best if best in legal else legal[0]


RULES = NimRules
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicNimBot}


def composition_checks(game: Game) -> list[Any]:
    return []


# A game folder for the toy, for tests and examples: write it to <root>/data/nim/game.yaml
# and map "nim" to this module in generator.engine.registry.ENGINES.
GAME_YAML = """\
game:
  id: nim
  title: Nim
  players: {min: 1, max: 3}
  play_time: 5
  age: 6
rules:
  heap_min: 9
  heap_max: 21
  take_max: 3
"""
