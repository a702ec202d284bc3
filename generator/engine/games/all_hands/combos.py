"""Lay-out options (one concrete way to form a combination) and the best final lay-out.

Cards of one kind are interchangeable for scoring, so an option is a need
vector (cards per kind) plus the combination it forms: "a street without
navigators", "a full crew under Blackheart without cooks", "a gang of three cooks".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from generator.engine.games.all_hands.config import AhodConfig, Combination


@dataclass(frozen=True)
class Option:
    """One concrete lay-out: which cards (`need[kind]`) form which combination."""

    index: int
    combination: Combination
    need: tuple[int, ...]
    parts: tuple[tuple[int, int], ...]  # (kind, count) with count > 0, for fast tests
    text: str  # readable tail of the action: "street without navigator"


def build_options(config: AhodConfig) -> tuple[Option, ...]:
    """Every concrete lay-out, in the combination table's order then by kind."""
    kinds = len(config.kinds)
    crew = range(config.crew)
    out: list[Option] = []

    def add(combo: Combination, counts: dict[int, int], text: str) -> None:
        need = tuple(counts.get(k, 0) for k in range(kinds))
        parts = tuple((k, n) for k, n in enumerate(need) if n)
        out.append(Option(len(out), combo, need, parts, text))

    for combo in config.combinations:
        if combo.shape == "pair":
            assert combo.kind is not None
            add(combo, {combo.kind: 2}, combo.id)
        elif combo.shape == "set":
            for k in crew:
                add(combo, {k: combo.size}, f"{combo.id} {config.kinds[k]}")
        elif combo.shape == "captain-pair":
            for c in config.captains:
                add(combo, {c: 2}, f"{combo.id} {config.kinds[c]}")
        else:
            for chosen in itertools.combinations(crew, combo.size):
                left = [config.kinds[k] for k in crew if k not in chosen]
                tail = f" without {' '.join(left)}" if left else ""
                heads = config.captains if combo.shape == "full-crew" else [None]
                for head in heads:
                    counts = {k: 1 for k in chosen}
                    name = combo.id
                    if head is not None:
                        counts[head] = 1
                        name += f" {config.kinds[head]}"
                    add(combo, counts, name + tail)
    return tuple(out)


def formable(options: Sequence[Option], counts: Sequence[int]) -> list[Option]:
    return [o for o in options if all(counts[k] >= n for k, n in o.parts)]


def final_scorer(config: AhodConfig,
                 options: Sequence[Option]) -> Callable[[tuple[int, ...]], tuple[int, tuple[int, ...]]]:
    """`best(counts) -> (points, option indices)`: the highest-scoring lay-out of a whole crew pile.

    At the end every card is laid out and a player would always pick the best
    partition, so the engine picks it for them. Lone captains count their
    penalty. Options are tried in index order only (no permutations), memoised.
    """
    penalties = config.captain_penalty
    opts = tuple(options)

    @lru_cache(maxsize=200_000)
    def best(counts: tuple[int, ...], start: int = 0) -> tuple[int, tuple[int, ...]]:
        score = -sum(penalties[k] * n for k, n in enumerate(counts) if n)
        chosen: tuple[int, ...] = ()
        for i in range(start, len(opts)):
            option = opts[i]
            if all(counts[k] >= n for k, n in option.parts):
                rest = tuple(c - n for c, n in zip(counts, option.need, strict=False))
                sub, picks = best(rest, i)
                if sub + option.combination.points > score:
                    score = sub + option.combination.points
                    chosen = (i, *picks)
        return score, chosen

    return best
