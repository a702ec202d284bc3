"""A rule-of-thumb Pirate Tricks player: bids by what a row adds to its hand, ditches its weakest
cards, predicts from its strong cards, and in tricks wins cheaply or ducks as its goal needs."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from generator.engine.base import Bot
from generator.engine.pirate_tricks import scoring
from generator.engine.pirate_tricks.rules import PirateTricksRules


class HeuristicBot(Bot):
    name = "heuristic"
    bid_share = 0.6      # share of a row's estimated worth the bot will pay
    reserve = 2          # loon kept back from any bid

    def __init__(self, rules: PirateTricksRules, seat: int, rng: random.Random) -> None:  # type: ignore[override]
        super().__init__(rules, seat, rng)
        self.t = rules.tables
        self.sp = rules.space
        self.items = {i.id: i for i in (*self.t.recruitment, *self.t.capture, *self.t.treasure)}
        self.recruit = {i.id: (self.t.recruitment_specs[n], self.t.recruitment_payouts[n])
                        for n, i in enumerate(self.t.recruitment)}

    # -- valuations -------------------------------------------------------------
    def strength(self, card: int) -> float:
        """How likely a card is to take a trick: red (trump) and high numbers."""
        rank = self.t.card_rank[card]
        return rank / 20 + (0.8 if self.t.card_colour[card] == self.t.trump else 0.0)

    def recruit_value(self, obs: Mapping[str, Any], cards: Sequence[int]) -> int:
        total = 0
        for card_id in obs["recruitment"]:
            spec, payout = self.recruit[card_id]
            total += scoring.recruitment_count(self.t, spec, cards) * payout
        return total

    def hand_value(self, obs: Mapping[str, Any], cards: Sequence[int]) -> float:
        wants_tricks = self._wants_tricks(obs)
        top = sorted((self.strength(c) for c in cards), reverse=True)[:10]
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
            return own if own in legal else legal[0]
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
        if self.t.card_colour[card] == self.t.trump:
            return 0.9 if rank >= 17 else 0.6 if rank >= 13 else 0.3
        return 0.6 if rank >= 19 else 0.3 if rank >= 17 else 0.0

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
