"""A heuristic All Hands on Deck player: hire toward the best reachable combination.

It values a crew by the best final lay-out of the cards it holds (captains'
penalties included) plus a small bonus for progress toward sets and the
street, so it keeps the card that extends its best potential combination and
leaves a lone captain to the others. It reads only its observation: it knows
the top of a drawing pile only when it put that card back there itself.

Equal values are settled by a fixed order that depends on no designed value
(issue 33): kinds in the data's order (`kinds:`, crew before captains), and
piles and rivals clockwise from the bot's own seat (its own pile first, then
the next seat's), so no seat is favoured and no rng is drawn. A random
tie-break let a sweep measure the tie-break: when two combinations came to
score the same, which one a crew pursued was a coin toss, and every draw
of that coin shifted the rest of the game; now a value that decides no
choice leaves the games exactly as they were.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import Bot
from generator.engine.games.all_hands.rules import AllHandsRules
from generator.engine.search import SearchBot, ranked_by

PROGRESS = 0.45  # bonus per crew card toward a set (up to two of a kind)
VARIETY = 0.6  # bonus per different crew kind toward a street (up to its size)


def potential(rules: AllHandsRules, counts: tuple[int, ...]) -> float:
    """A crew's worth: its best final lay-out, plus progress toward sets and the street."""
    config = rules.config
    value = float(rules.best_layout(counts)[0])
    crew = counts[:config.crew]
    value += PROGRESS * sum(min(c, 2) for c in crew)
    value += VARIETY * min(sum(1 for c in crew if c), 5)
    return value


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, rules: AllHandsRules, seat: int, rng: random.Random) -> None:
        super().__init__(rules, seat, rng)
        self.ahod: AllHandsRules = rules
        self.kind_index = {k: i for i, k in enumerate(rules.config.kinds)}
        self.worth: dict[tuple[int, ...], float] = {}  # potential by crew counts, for this bot's game

    def potential(self, counts: tuple[int, ...]) -> float:
        value = self.worth.get(counts)
        if value is None:
            value = self.worth[counts] = potential(self.ahod, counts)
        return value

    def _counts(self, observation: Mapping[str, Any]) -> list[int]:
        counts = [0] * len(self.ahod.config.kinds)
        for name in observation["crew"]:
            counts[self.kind_index[name]] += 1
        return counts

    def _gain(self, counts: list[int], kind: int) -> float:
        counts[kind] += 1
        value = self.potential(tuple(counts))
        counts[kind] -= 1
        return value

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        space = self.ahod.space
        phase = observation["phase"]
        counts = self._counts(observation)
        if phase == "hire":  # equal gains: the kind first in the data's order
            return max(legal, key=lambda a: (self._gain(counts, a - space.keep), -a))
        if phase in ("stock", "extra stock"):
            return self._pick_pile(observation, legal, counts)
        if phase == "all hands on deck":
            return self._go_out(legal, counts, observation["curses"][self.seat] > 0)
        if phase in ("snatch", "curse"):
            base = space.snatch if phase == "snatch" else space.curse
            targets = [a for a in legal if a != space.skip]
            points, sizes = observation["points"], observation["crew_sizes"]
            if not targets:
                return space.skip
            return max(targets, key=lambda a: (points[a - base], sizes[a - base], self._clockwise(a - base, observation["players"])))
        return legal[0]

    def ranked(self, observation: Mapping[str, Any], legal: list[int]) -> list[int]:
        """The moves worth weighing, best first (for the search bot's candidates). A draw while no pile
        shows this seat a card it knows is a draw from unseen cards: only the chosen pile is offered, so
        the search spends its samples where what the seat knows makes the piles differ."""
        phase = observation["phase"]
        space = self.ahod.space
        if phase in ("stock", "extra stock"):
            base = space.draw if phase == "stock" else space.extra
            piles = observation["piles"]
            known = any(piles[a - base] and piles[a - base][-1] is not None for a in legal if a != space.skip)
            if not known:
                return [self.choose(observation, legal)]
        first = self.choose(observation, legal)
        if phase == "hire":
            counts = self._counts(observation)
            rest = ranked_by([a for a in legal if a != first], lambda a: self._gain(counts, a - space.keep), self.rng)
            return [first, *rest]
        return [first, *ranked_by([a for a in legal if a != first], lambda a: 0, self.rng)]

    def _pick_pile(self, observation: Mapping[str, Any], legal: list[int], counts: list[int]) -> int:
        """Draw a known good card if one lies on top; avoid known bad tops; else the biggest pile."""
        space = self.ahod.space
        base = space.draw if observation["phase"] == "stock" else space.extra
        now = self.potential(tuple(counts))

        def value(action: int) -> tuple[float, int]:
            pile = observation["piles"][action - base]
            top = pile[-1] if pile else None
            gain = 0.5 if top is None else self._gain(counts, self.kind_index[top]) - now
            return gain, len(pile)

        draws = [a for a in legal if a != space.skip]
        return max(draws, key=lambda a: (*value(a), self._clockwise(a - base, observation["players"]))) if draws else legal[0]

    def _clockwise(self, seat: int, players: int) -> int:
        """The fixed tie order over seats and their piles: this bot's own first, then clockwise (a higher
        key comes first)."""
        return -((seat - self.seat) % players)

    def _go_out(self, legal: list[int], counts: list[int], cursed: bool) -> int:
        """Lay out what cannot grow (full crews, the biggest sets) and fresh action pairs; keep the rest.
        A mending pair waits while there is no curse point of ours to mend (its cards may yet grow)."""
        space = self.ahod.space
        biggest_set = max((c.size for c in self.ahod.config.combinations if c.shape == "set"), default=0)
        for action in legal:
            if action == space.done:
                continue
            combo = self.ahod.options[action - space.layout].combination
            if combo.shape == "full-crew" or (combo.shape == "set" and combo.size == biggest_set):
                return action
            if combo.shape == "pair" and combo.kind is not None and counts[combo.kind] == 2 \
                    and (combo.action != "mend" or cursed):
                return action
        return space.done


def evaluate(state: Any) -> list[float]:
    """Each seat's points so far (laid out, less curses) plus its crew's `potential` as the heuristic weighs
    it (its best final lay-out and progress toward sets and the street): where the search bot's
    play-outs stop, a few moves on, the position is judged by this."""
    rules = state.rules
    curse = rules.config.curse_points
    return [state.points[p] - curse * state.curses[p] + potential(rules, tuple(state.counts[p]))
            for p in range(state.players)]


# search guided by the heuristic: sequential halving over its 4 best moves, play-outs cut after a few moves.
# IS-MCTS with progressive widening (`widening=`) was weaker here at more cost: 61.0-61.5% of 100 games
# against the heuristic at 2.2 s a game, against this bot's 68% at 1.3 s on the same deals (docs/bots.md).
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=48, candidates=4, horizon=10,
                          evaluate=evaluate)
