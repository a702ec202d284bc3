"""Score cards read from the data: what each recruitment, capture and treasure card pays.

Pure functions over card lists and trick counts, so the worked examples of the
rule text are tested directly. Every number (payout, run length, places...)
comes from the card's fields in `data/pirate-tricks/score.yaml`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from generator.model import Item

if TYPE_CHECKING:
    from generator.engine.games.pirate_tricks.config import PirateTricksConfig


def _colour_ok(t: PirateTricksConfig, card: int, colour: str) -> bool:
    return colour == "any" or t.colours[t.card_colour[card]] == colour


def recruitment_spec(t: PirateTricksConfig, item: Item) -> tuple[str, int, int, int, int]:
    """(effect, length, colour index or -1 for any, min rank, max rank) of a recruitment card."""
    colour = item.get("colour") or "any"
    return (str(item["effect"]), int(item.get("length") or 1), -1 if colour == "any" else t.colours.index(colour),
            int(item.get("min_rank") or 1), int(item.get("max_rank") or 99))


def recruitment_combos(t: PirateTricksConfig, item: Item | tuple[str, int, int, int, int],
                       cards: Sequence[int]) -> list[list[int]]:
    """The most combinations the card pays for, each crew card used at most once (one best assignment).

    * run: in each colour, a block of n consecutive numbers holds n // length
      disjoint runs, and no assignment does better;
    * set: a number held in c colours makes c // length sets;
    * colour_group: every `length` cards of the colour;
    * rank_range: each card numbered min_rank..max_rank on its own;
    * mixed: one card of every colour per combination.

    `item` may be a precomputed `recruitment_spec` (the engine's hot path).
    """
    effect, length, colour, lo, hi = item if isinstance(item, tuple) else recruitment_spec(t, item)
    card_colour, card_rank = t.card_colour, t.card_rank
    pool = [c for c in cards if (colour < 0 or card_colour[c] == colour) and lo <= card_rank[c] <= hi]
    combos: list[list[int]] = []
    if effect == "run":
        for col in range(len(t.colours)):
            ordered = sorted((card_rank[c], c) for c in pool if card_colour[c] == col)
            block: list[int] = []
            previous = -9
            for rank, card in ordered:
                if rank != previous + 1:
                    combos.extend(block[k:k + length] for k in range(0, len(block) - length + 1, length))
                    block = []
                block.append(card)
                previous = rank
            combos.extend(block[k:k + length] for k in range(0, len(block) - length + 1, length))
    elif effect == "set":
        by_rank: dict[int, list[int]] = {}
        for c in sorted(pool, key=card_colour.__getitem__):
            by_rank.setdefault(card_rank[c], []).append(c)
        for rank in sorted(by_rank):
            group = by_rank[rank]
            combos.extend(group[k:k + length] for k in range(0, len(group) - length + 1, length))
    elif effect == "colour_group":
        in_order = sorted(pool)
        combos.extend(in_order[k:k + length] for k in range(0, len(in_order) - length + 1, length))
    elif effect == "rank_range":
        return [[c] for c in sorted(pool)]
    elif effect == "mixed":
        by_colour = [sorted(c for c in pool if card_colour[c] == col) for col in range(len(t.colours))]
        return [list(group) for group in zip(*by_colour, strict=False)]
    else:  # the loader's enum makes this unreachable
        raise ValueError(f"unknown recruitment effect {effect!r}")
    return combos


def rank_masks(t: PirateTricksConfig, cards: Sequence[int]) -> list[int]:
    """One bitmask of ranks per colour: bit r set when the hand holds number r in that colour."""
    masks = [0] * len(t.colours)
    card_colour, card_rank = t.card_colour, t.card_rank
    for c in cards:
        masks[card_colour[c]] |= 1 << card_rank[c]
    return masks


def recruitment_count(t: PirateTricksConfig, spec: tuple[str, int, int, int, int], cards: Sequence[int],
                      masks: list[int] | None = None) -> int:
    """How many combinations `recruitment_combos` finds, counted on rank bitmasks (the engine's hot path).

    Runs: each block of consecutive set bits of a colour's mask of length n holds n // length runs.
    `masks` may be passed in (from `rank_masks`) when one hand is scored against several cards.
    """
    effect, length, colour, lo, hi = spec
    window = (1 << (hi + 1)) - (1 << lo) if hi >= lo else 0
    full = masks if masks is not None else rank_masks(t, cards)
    if colour >= 0:
        masks = [full[colour] & window]
    else:
        masks = [m & window for m in full]
    if effect == "run":
        total = 0
        for mask in masks:
            m = mask
            while m:
                run = m & ~(m + (m & -m))      # the lowest block of consecutive ranks
                total += run.bit_count() // length
                m ^= run
        return total
    if effect == "set":
        union = 0
        for m in masks:
            union |= m
        total = 0
        while union:
            bit = union & -union
            total += sum(1 for m in masks if m & bit) // length
            union ^= bit
        return total
    if effect == "colour_group":
        return sum(m.bit_count() for m in masks) // length
    if effect == "rank_range":
        return sum(m.bit_count() for m in masks)
    if effect == "mixed":
        return min(m.bit_count() for m in masks) if colour < 0 else 0
    raise ValueError(f"unknown recruitment effect {effect!r}")


def recruitment_payout(t: PirateTricksConfig, item: Item, cards: Sequence[int]) -> int:
    return len(recruitment_combos(t, item, cards)) * int(item["payout"])


def _extreme(counts: Sequence[int], most: bool) -> list[bool]:
    target = max(counts) if most else min(counts)
    return [c == target for c in counts]


def capture_payouts(t: PirateTricksConfig, item: Item, captured: Sequence[Sequence[int]],
                    trick_winners: Sequence[int]) -> list[int]:
    """Loon each seat collects (negative: pays) for the capture card; tied players all collect."""
    players = len(captured)
    effect = item["effect"]
    payout = int(item["payout"])
    tricks = [trick_winners.count(s) for s in range(players)]
    if effect == "per_card":
        colour = item.get("colour") or "any"
        lo, hi = int(item.get("min_rank") or 1), int(item.get("max_rank") or 99)
        return [payout * sum(1 for c in pile if _colour_ok(t, c, colour) and lo <= t.card_rank[c] <= hi)
                for pile in captured]
    if effect in ("most_tricks", "fewest_tricks"):
        return [payout if hit else 0 for hit in _extreme(tricks, effect == "most_tricks")]
    if effect in ("first_trick", "last_trick"):
        if not trick_winners:
            return [0] * players
        seat = trick_winners[0] if effect == "first_trick" else trick_winners[-1]
        return [payout if s == seat else 0 for s in range(players)]
    raise ValueError(f"unknown capture effect {effect!r}")


def ranked_places(tricks: Sequence[int], places: Sequence[int]) -> list[int]:
    """Bountiful Booty: the most tricks take the first amount, the next most the second...

    Tied players share a place and all collect it; the players below take the next
    place (the rule text's example: 3,3,2,2 tricks pay 6,6,4,4 and nobody collects 2).
    A player who took no trick takes no place.
    """
    levels = sorted({n for n in tricks if n > 0}, reverse=True)
    pay = {n: int(places[i]) for i, n in enumerate(levels) if i < len(places)}
    return [pay.get(n, 0) for n in tricks]


def treasure_payouts(item: Item, tricks: Sequence[int], predictions: Sequence[int | None]) -> list[int]:
    effect = item["effect"]
    payout = int(item.get("payout") or 0)
    if effect == "ranked_tricks":
        return ranked_places(tricks, item["places"])
    if effect == "prediction":
        per_trick = int(item.get("per_trick") or 0)
        penalty = int(item.get("penalty") or 0)
        out = []
        for n, guess in zip(tricks, predictions, strict=False):
            if guess is None:
                out.append(0)
            elif guess == n:
                out.append(payout + per_trick * n)
            else:
                out.append(-penalty * abs(guess - n))
        return out
    if effect in ("most_tricks", "fewest_tricks"):
        return [payout if hit else 0 for hit in _extreme(tricks, effect == "most_tricks")]
    if effect == "per_trick":
        return [payout * n for n in tricks]
    if effect == "tricks_range":
        lo, hi = int(item.get("min_tricks") or 0), int(item.get("max_tricks") or 99)
        return [payout if lo <= n <= hi else 0 for n in tricks]
    raise ValueError(f"unknown treasure effect {effect!r}")


def settle(loon: Sequence[int], amounts: Sequence[int]) -> list[int]:
    """Collect or pay each net amount; whoever owes more than they hold pays all they hold."""
    return [max(have + amount, 0) for have, amount in zip(loon, amounts, strict=False)]
