"""A rule-of-thumb Pirate Tricks player: bids by what a row adds to its hand, ditches its weakest
cards, predicts from its strong cards, and in tricks wins cheaply or ducks as its goal needs.

How strong a card is depends on its number relative to the highest number printed
(`config.max_rank`, 20 in the shipped deck), so a deck with other numbers plays sensibly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from generator.engine.base import Bot
from generator.engine.games.pirate_tricks import scoring
from generator.engine.games.pirate_tricks.rules import PirateTricksRules

# Chance that a card takes a trick, by its number as a share of the highest number printed:
# (share at least, chance) from the top down; below the last step the chance is 0 (0.3 for trumps).
TRUMP_CHANCES = ((0.85, 0.9), (0.65, 0.6), (0.0, 0.3))
SIDE_CHANCES = ((0.95, 0.6), (0.85, 0.3))
TRUMP_BONUS = 0.8    # strength of a trump over a side card of the same number


class HeuristicBot(Bot):
    name = "heuristic"
    bid_share = 0.6      # share of a row's estimated worth the bot will pay
    reserve = 2          # loon kept back from any bid

    def __init__(self, rules: PirateTricksRules, seat: int, rng: random.Random) -> None:
        super().__init__(rules, seat, rng)
        self.t = rules.config
        self.sp = rules.space
        top = self.t.max_rank
        self.trump_steps = tuple((_at_least(share, top), chance) for share, chance in TRUMP_CHANCES)
        self.side_steps = tuple((_at_least(share, top), chance) for share, chance in SIDE_CHANCES)
        self.items = {i.id: i for i in (*self.t.recruitment, *self.t.capture, *self.t.treasure)}
        self.recruit = {i.id: (self.t.recruitment_specs[n], self.t.recruitment_payouts[n])
                        for n, i in enumerate(self.t.recruitment)}

    # -- valuations -------------------------------------------------------------
    def strength(self, card: int) -> float:
        """How likely a card is to take a trick: red (trump) and high numbers."""
        rank = self.t.card_rank[card]
        return rank / self.t.max_rank + (TRUMP_BONUS if self.t.card_colour[card] == self.t.trump else 0.0)

    def recruit_value(self, obs: Mapping[str, Any], cards: Sequence[int]) -> int:
        total = 0
        for card_id in obs["recruitment"]:
            spec, payout = self.recruit[card_id]
            total += scoring.recruitment_count(self.t, spec, cards) * payout
        return total

    def hand_value(self, obs: Mapping[str, Any], cards: Sequence[int]) -> float:
        wants_tricks = self._wants_tricks(obs)
        top = sorted((self.strength(c) for c in cards), reverse=True)[:self.t.tricks]  # the cards that get played
        return self.recruit_value(obs, cards) + (1.5 * sum(top) if wants_tricks else 0.0)

    def _wants_tricks(self, obs: Mapping[str, Any]) -> bool:
        treasure = self.items[obs["treasure"]]
        return treasure["effect"] != "fewest_tricks"

    # -- choices --------------------------------------------------------------------
    def choose(self, obs: Mapping[str, Any], legal: list[int]) -> int:
        phase = obs["phase"]
        sp = self.sp
        if phase == "bid":
            row = obs["rows"][obs["bid_row"]]
            hand = obs["hand"]
            worth = self.hand_value(obs, hand + row["face_up"]) - self.hand_value(obs, hand) + row["loon"]
            worth += 0.5 * row["face_down"] if isinstance(row["face_down"], int) else 0
            bid = int(max(0.0, worth * self.bid_share))
            bid = max(0, min(bid, obs["loon"] - self.reserve))
            return sp.bid + bid if sp.bid + bid in legal else legal[0]
        if phase == "tie":
            return max(legal, key=lambda a: self.t.card_key[a - sp.tie])
        if phase == "choose":
            own = sp.choose + self.seat
            return own if own in legal else legal[self.rng.randrange(len(legal))]  # no seat favoured
        if phase == "ditch":
            hand = obs["hand"]
            # ditch the card whose loss hurts least (ties: the lowest card id, for determinism)
            return max(legal, key=lambda a: (self.hand_value(obs, [c for c in hand if c != a - sp.ditch]), -a))
        if phase == "predict":
            guess = round(sum(self._win_chance(c) for c in obs["hand"]))
            guess = min(max(guess, self.t.prediction_min), self.t.prediction_max)
            return sp.predict + guess
        if phase == "play":
            return self._play(obs, legal)
        return legal[0]

    def _win_chance(self, card: int) -> float:
        rank = self.t.card_rank[card]
        steps = self.trump_steps if self.t.card_colour[card] == self.t.trump else self.side_steps
        return next((chance for lowest, chance in steps if rank >= lowest), 0.0)

    def _play(self, obs: Mapping[str, Any], legal: list[int]) -> int:
        t = self.t
        taken = obs["trick_winners"].count(self.seat)
        prediction = obs["predictions"][self.seat]
        want = self._wants_tricks(obs) and (prediction is None or taken < prediction)
        trick = obs["trick"]
        by_strength = sorted(legal, key=self.strength)
        if not trick:
            strong = [c for c in legal if self._win_chance(c) >= 0.6]
            return (strong[-1] if strong else by_strength[0]) if want else by_strength[0]
        led = t.card_colour[trick[0]]

        def beats(card: int) -> bool:
            for other in trick:
                oc, cc = t.card_colour[other], t.card_colour[card]
                if oc == cc and t.card_rank[other] > t.card_rank[card]:
                    return False
                if oc != cc and (oc == t.trump or (cc != t.trump and cc != led)):
                    return False
            return True

        winners = [c for c in by_strength if beats(c)]
        losers = [c for c in by_strength if not beats(c)]
        if want and winners:
            return winners[0]
        if not want and losers:
            return losers[-1]
        return by_strength[0]


def _at_least(share: float, top: int) -> int:
    """The lowest number that is at least `share` of `top` (17 for 0.85 of 20)."""
    return math.ceil(share * top - 1e-9)
