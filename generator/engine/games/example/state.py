"""A game of Nim in progress: the pile, whose turn, and (alone) the tide still to come."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.engine.base import IllegalAction, InvariantBroken, Observation, Result, State

if TYPE_CHECKING:
    from generator.engine.games.example.rules import NimRules


class NimState(State):
    def __init__(self, rules: NimRules, players: int, heap: int, tide: list[int], check: bool) -> None:
        self.rules = rules
        self.players = players
        self.start_heap = heap
        self.heap = heap
        self.tide = tide  # solo: what the sea takes after each of your turns (never mutated)
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
        return list(range(1, min(self.rules.config.take_max, self.heap) + 1))

    def apply_action(self, action: int) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        take_max = self.rules.config.take_max
        if not 1 <= action <= take_max:
            raise IllegalAction(f"seat {self.seat} took {action} but may take 1 to {take_max}")
        if action > self.heap:
            raise IllegalAction(f"seat {self.seat} took {action} but only {self.heap} doubloons are left")
        self.history.append(action)
        self.heap -= action
        if self.heap == 0:
            self.winner, self.over = self.seat, True
        elif self.players == 1:
            self.heap -= min(self.heap, self.tide[len(self.history) - 1])
            self.over = self.heap == 0  # the sea took the last one: you lose
        else:
            self.seat = (self.seat + 1) % self.players
        if self.check:
            self.check_invariants()

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise IllegalAction("the game is not over yet")
        scores = tuple(1.0 if seat == self.winner else 0.0 for seat in range(self.players))
        return Result(scores, () if self.winner is None else (self.winner,))

    def observation(self, player: int) -> Mapping[str, Any]:
        """Nim hides nothing: the pile, the limit and whose seat this is."""
        return Observation({"heap": self.heap, "take_max": self.rules.config.take_max, "seat": player},
                           self.information_set(player))

    def action_to_string(self, action: int) -> str:
        return self.rules.space.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.rules.space.parse(text)

    def copy(self) -> NimState:
        other = NimState(self.rules, self.players, self.heap, self.tide, self.check)
        other.start_heap = self.start_heap
        other.history, other.seat, other.winner, other.over = list(self.history), self.seat, self.winner, self.over
        return other

    def determinize(self, seat: int, rng: random.Random) -> NimState:
        """Nim hides only the future: alone, the tide still to come is rolled anew (one to take_max each)."""
        new = self.copy()
        if self.players == 1:
            done = len(self.history)
            take_max = self.rules.config.take_max
            new.tide = self.tide[:done] + [rng.randint(1, take_max) for _ in self.tide[done:]]
        return new

    def check_invariants(self) -> None:
        """Doubloons are neither made nor lost: the pile plus everything taken is the starting pile."""
        taken = sum(self.history)
        if self.players == 1:
            taken += sum(min(t, max(0, self.start_heap - sum(self.history[:i + 1]) - sum(self.tide[:i])))
                         for i, t in enumerate(self.tide[:len(self.history)]))
        if self.heap < 0 or self.heap + taken != self.start_heap:
            raise InvariantBroken(f"pile {self.heap} + taken {taken} is not the starting pile {self.start_heap}")

    def stats(self) -> Mapping[str, float]:
        """`turns` (game length), `points.last_stone` (a group) and `card.take-K.played` (a per-card table)."""
        figures: dict[str, float] = {"turns": len(self.history),
                                     "points.last_stone": 1 if self.winner is not None else 0}
        for take in range(1, self.rules.config.take_max + 1):
            figures[f"card.take-{take}.played"] = self.history.count(take)
        return figures
