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

from generator.engine.base import Bot, information_of
from generator.engine.games.pirate_tricks import scoring
from generator.engine.games.pirate_tricks.rules import PirateTricksRules
from generator.errors import UsageError

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
        # Worth of a hand, remembered for this game: bids weigh the same hands row after row, and
        # the round's recruitment cards (the key) change only between rounds.
        self.strengths = tuple(self.strength(c) for c in range(len(self.t.card_rank)))
        self.recruit_memo: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {}
        self.strong = tuple(self._win_chance(c) >= 0.6 for c in range(len(self.t.card_rank)))  # worth leading

    # -- valuations -------------------------------------------------------------
    def strength(self, card: int) -> float:
        """How likely a card is to take a trick: red (trump) and high numbers."""
        rank = self.t.card_rank[card]
        return rank / self.t.max_rank + (TRUMP_BONUS if self.t.card_colour[card] == self.t.trump else 0.0)

    def recruit_value(self, obs: Mapping[str, Any], cards: Sequence[int]) -> int:
        key = (tuple(obs["recruitment"]), tuple(cards))
        total = self.recruit_memo.get(key)
        if total is None:
            masks = scoring.rank_masks(self.t, cards)  # one hand, scored against every recruitment card
            total = 0
            for card_id in key[0]:
                spec, payout = self.recruit[card_id]
                total += scoring.recruitment_count(self.t, spec, cards, masks) * payout
            self.recruit_memo[key] = total
        return total

    def hand_value(self, obs: Mapping[str, Any], cards: Sequence[int]) -> float:
        wants_tricks = self._wants_tricks(obs)
        strengths = self.strengths
        top = sorted([strengths[c] for c in cards], reverse=True)[:self.t.tricks]  # the cards that get played
        return self.recruit_value(obs, cards) + (1.5 * sum(top) if wants_tricks else 0.0)

    def _values_without_each(self, obs: Mapping[str, Any], hand: Sequence[int]) -> dict[int, float]:
        """`hand_value` of the hand less each one card, from the whole hand's rank masks and sorted strengths.

        Taking a card away clears one bit (when no two cards of the hand share colour and number) and
        drops one strength from the sorted list, so each value equals `hand_value` of the smaller hand.
        """
        t = self.t
        masks = scoring.rank_masks(t, hand)
        if sum(m.bit_count() for m in masks) != len(hand):   # two alike cards: count each hand afresh
            return {a: self.hand_value(obs, [c for c in hand if c != a]) for a in hand}
        strengths = self.strengths
        ordered = sorted([strengths[c] for c in hand], reverse=True)
        wants = self._wants_tricks(obs)
        specs = [self.recruit[card_id] for card_id in obs["recruitment"]]
        values = {}
        for a in hand:
            less = masks[:]
            less[t.card_colour[a]] &= ~(1 << t.card_rank[a])
            recruit = 0
            for spec, payout in specs:
                recruit += scoring.recruitment_count(t, spec, (), less) * payout
            rest = ordered[:]
            rest.remove(strengths[a])
            values[a] = recruit + (1.5 * sum(rest[:t.tricks]) if wants else 0.0)
        return values

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
            # ditch the card whose loss hurts least (ties: the lowest card id, for determinism)
            losses = self._values_without_each(obs, obs["hand"])
            return max(legal, key=lambda a: (losses[a - sp.ditch], -a))
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


class TrickSolver:
    """The rest of one round's tricks in a sampled deal, on bare lists with play/undo: rollouts and alpha-beta.

    It plays on copies of the sample's hands, trick, winners and captured piles (never on the sample's
    bookkeeping), so one sample serves every candidate card. A finished round is worth the round's
    capture and treasure settlement, as the engine settles it (`scoring`), to the searching seat:
    its loon after the round less the best rival's (paranoid: the rivals are taken to play against it,
    which makes the game two-sided and lets alpha-beta prune).
    """

    __slots__ = (
        "capture",
        "captured",
        "colour",
        "hands",
        "leader",
        "loon",
        "me",
        "net",
        "nodes",
        "players",
        "predictions",
        "rank",
        "strength",
        "strong",
        "t",
        "table",
        "treasure",
        "trick",
        "tricks",
        "trump",
        "wants",
        "winners",
    )

    def __init__(self, bot: HeuristicBot, state: Any, me: int) -> None:
        t = bot.t
        self.t = t
        self.me = me
        self.players = state.players
        self.colour, self.rank, self.trump = t.card_colour, t.card_rank, t.trump
        self.strength = bot.strengths
        self.strong = bot.strong
        self.hands = [h[:] for h in state.hands]
        self.trick: list[int] = state.trick_cards[:]
        self.leader: int = state.leader
        self.winners: list[int] = state.trick_winners[:]
        self.captured = [c[:] for c in state.captured]
        self.loon = state.loon[:]
        self.predictions = state.predictions[:]
        self.capture = t.capture[state.capture_card]
        self.treasure = t.treasure[state.treasure_card]
        self.net = t.net_settlement
        self.tricks = t.tricks
        self.table: dict[Any, float] = {}
        self.nodes = 0   # positions alpha-beta has expanded (for benchmarks)
        self.wants = self.treasure["effect"] != "fewest_tricks"   # as the heuristic reads the treasure card

    # -- moves -----------------------------------------------------------------------
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def legal(self) -> list[int]:
        hand = self.hands[self.to_move()]
        trick = self.trick
        if trick:
            colour = self.colour
            led = colour[trick[0]]
            follow = [c for c in hand if colour[c] == led]
            if follow:
                return follow
        return hand

    def _winning(self, trick: Sequence[int]) -> int:
        colour, rank, trump = self.colour, self.rank, self.trump
        best = 0
        best_colour, best_rank = colour[trick[0]], rank[trick[0]]
        for i in range(1, len(trick)):
            c = trick[i]
            cc = colour[c]
            if cc == best_colour:
                if rank[c] > best_rank:
                    best, best_rank = i, rank[c]
            elif cc == trump:
                best, best_colour, best_rank = i, cc, rank[c]
        return best

    def play(self, card: int) -> list[int] | None:
        """Play `card` for the seat to move; returns the finished trick (for `undo`) when it completes one."""
        seat = self.to_move()
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append(card)
        if len(trick) < self.players:
            return None
        winner = (self.leader + self._winning(trick)) % self.players
        self.winners.append(winner)
        self.captured[winner].extend(trick)
        done, self.trick = trick, []
        done.append(self.leader)   # remember who led, for undo
        self.leader = winner
        return done

    def undo(self, card: int, done: list[int] | None) -> None:
        if done is not None:
            leader = done.pop()
            winner = self.winners.pop()
            del self.captured[winner][-len(done):]
            self.trick = done
            self.leader = leader
        self.trick.pop()
        seat = self.to_move()
        hand = self.hands[seat]
        hand.append(card)
        hand.sort()

    def over(self) -> bool:
        return len(self.winners) == self.tricks

    def value(self) -> float:
        """The searching seat's loon after this round's settlement less the best rival's."""
        p = self.players
        tricks = [self.winners.count(s) for s in range(p)]
        cap = scoring.capture_payouts(self.t, self.capture, self.captured, self.winners)
        tre = scoring.treasure_payouts(self.treasure, tricks, self.predictions)
        if self.net:
            after = scoring.settle(self.loon, [a + b for a, b in zip(cap, tre, strict=False)])
        else:
            after = scoring.settle(scoring.settle(self.loon, cap), tre)
        me = self.me
        return after[me] - max(after[s] for s in range(p) if s != me) if p > 1 else float(after[me])

    # -- a fast play-out policy: the heuristic's trick play on bare lists ------------------
    def policy(self) -> int:
        """Win cheaply when the seat wants tricks (else duck with the strongest loser), lead strong or low."""
        seat = self.to_move()
        legal = self.legal()
        strength = self.strength
        wants = self.wants
        guess = self.predictions[seat]
        if wants and guess is not None:
            wants = self.winners.count(seat) < guess
        trick = self.trick
        if not trick:
            if wants:
                top = max(legal, key=strength.__getitem__)
                if self.strong[top]:
                    return top
            return min(legal, key=strength.__getitem__)
        best = trick[self._winning(trick)]
        colour, rank, trump = self.colour, self.rank, self.trump
        bc, br = colour[best], rank[best]
        win: int | None = None
        lose: int | None = None
        for c in legal:
            cc = colour[c]
            beats = (cc == bc and rank[c] > br) or (cc == trump and bc != trump)
            if beats:
                if win is None or strength[c] < strength[win]:
                    win = c
            elif lose is None or strength[c] > strength[lose]:
                lose = c
        if wants and win is not None:
            return win
        if not wants and lose is not None:
            return lose
        return min(legal, key=strength.__getitem__)

    def rollout(self) -> float:
        """Play the round out with `policy` in every seat; the value; then take every move back."""
        moves: list[tuple[int, list[int] | None]] = []
        while not self.over():
            card = self.policy()
            moves.append((card, self.play(card)))
        value = self.value()
        for card, done in reversed(moves):
            self.undo(card, done)
        return value

    # -- exact: alpha-beta with a transposition table ---------------------------------------
    def solve(self, alpha: float = -math.inf, beta: float = math.inf) -> float:
        """The round's exact value under paranoid play (the searching seat maximises, the rivals minimise)."""
        if self.over():
            return self.value()
        self.nodes += 1
        key = None
        if not self.trick:   # positions between tricks recur through different orders of the same tricks
            key = (tuple(tuple(h) for h in self.hands), self.leader, tuple(self.winners),
                   tuple(tuple(sorted(c)) for c in self.captured))
            hit = self.table.get(key)
            if hit is not None:
                return hit
        mine = self.to_move() == self.me
        value = -math.inf if mine else math.inf
        a, b = alpha, beta
        for card in sorted(self.legal(), key=self.strength.__getitem__, reverse=True):
            done = self.play(card)
            v = self.solve(a, b)
            self.undo(card, done)
            if mine:
                if v > value:
                    value = v
                a = max(a, v)
            else:
                if v < value:
                    value = v
                b = min(b, v)
            if a >= b:
                return value   # a cut-off: not exact, so not stored
        if key is not None and alpha < value < beta:
            self.table[key] = value
        return value


class TrickSearchBot(HeuristicBot):
    """Perfect-information Monte Carlo in the tricks (as Skat and Bridge programs begin), the heuristic elsewhere.

    For a card to play it draws `samples` deals consistent with what the seat has seen (the information
    set's samples), and in each one plays every legal card and finishes the round: exactly, by alpha-beta
    with a transposition table, once at most `exact_tricks` tricks are left; before that with the fast
    play-out policy in every seat. The card with the best total over the samples is played (equal
    totals: the heuristic's order). Budgets are counts of samples, never time.
    """

    name = "search"
    samples = 16
    exact_tricks = 3

    def choose(self, obs: Mapping[str, Any], legal: list[int]) -> int:
        if len(legal) == 1 or obs["phase"] != "play":
            return super().choose(obs, legal)
        info = information_of(obs)
        if info is None:
            raise UsageError("the search bot needs an observation that carries the seat's information set")
        first = super().choose(obs, legal)
        order = [first, *(c for c in legal if c != first)]
        totals = dict.fromkeys(order, 0.0)
        left = self.t.tricks - len(obs["trick_winners"])
        exact = left <= self.exact_tricks
        for _ in range(self.samples):
            solver = TrickSolver(self, info.sample(self.rng), self.seat)
            for card in order:
                done = solver.play(card)
                totals[card] += solver.solve() if exact else solver.rollout()
                solver.undo(card, done)
        # per card: the deals it was played in and its mean margin of loon over the best rival (a hint's why)
        self.figures = {card: (self.samples, totals[card] / self.samples) for card in order}
        return max(order, key=lambda c: (totals[c], -order.index(c)))
