"""Pirate Tricks as a state machine: bidding for rows, ditching, predictions, recruitment, ten tricks, settling.

Simultaneous choices (sealed bids, tie cards) are asked seat by seat in seat
order; the observation hides what the others chose until all have chosen.

Rule readings where the seed text is ambiguous (also `designed:` in the data):
* A second pass over the unclaimed rows happens whenever two or more rows are
  still unclaimed after the first pass ("more than two rows" in the text).
  The last unclaimed row always goes free to the one player left.
* A row's winner (by bid, by tie card, by choice, or free) also takes any
  loon lying on it. A tie on a non-zero bid is won by the tie card, and that
  winner pays the tied bid.
* The zero-bid tie of the second pass involves every remaining bidder (all
  bid zero); the tie-card winner chooses any one of them, themself included.
* Predictions are made before recruitment is scored (the text's order), so
  nobody has seen the others' recruitment cards yet when predicting.
* Capture and treasure cards are settled together (net), clamped at zero.
* Top-up to `top_up` loon at the start of rounds 2+ is automatic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from generator.engine.base import IllegalAction, InvariantBroken, KeyedObservation, Result, State, shuffled
from generator.engine.games.pirate_tricks import scoring
from generator.engine.games.pirate_tricks.actions import ActionSpace
from generator.engine.games.pirate_tricks.config import PirateTricksConfig

BID, TIE, CHOOSE, DITCH, PREDICT, PLAY, OVER = range(7)
PHASE_NAMES = ("bid", "tie", "choose", "ditch", "predict", "play", "over")

# Owner array codes for crew cards.
OUT, DECK, ROW, HAND, DITCHED, TABLE, CAPTURED = 0, 1, 10, 20, 30, 40, 50

SOURCES = ("recruitment", "capture", "treasure", "bids", "row_loon", "top_up")


class PirateTricksState(State):
    """One game in progress. Cards are indices into `game.deck("crew")`."""

    __slots__ = (
        "bid_count",
        "bid_pass",
        "bid_row",
        "bidders",
        "bids",
        "cap_order",
        "capture_card",
        "captured",
        "check",
        "chooser",
        "colour",
        "crew_orders",
        "ditched",
        "events",
        "gains",
        "go_first",
        "hands",
        "history",
        "laid",
        "last_bids",
        "last_ties",
        "last_trick",
        "leader",
        "loon",
        "max_tricks",
        "owner",
        "phase",
        "players",
        "predict_order",
        "predictions",
        "rec_order",
        "recruit_cards",
        "round",
        "rounds",
        "rounds_played",
        "row_loon",
        "row_owner",
        "rows",
        "shown",
        "sp",
        "step",
        "t",
        "tie_bid",
        "tie_cards",
        "tie_choose",
        "tied",
        "to_move",
        "total_tricks",
        "tre_order",
        "treasure_card",
        "trick_cards",
        "trick_winners",
    )

    def __init__(self, config: PirateTricksConfig, space: ActionSpace, players: int, deal: Mapping[str, Any],
                 check: bool = False) -> None:
        self.t = config
        self.sp = space
        self.players = players
        self.check = check
        self.history: list[int] = []
        self.colour = config.card_colour
        self.step = 0                      # progress through a seat-by-seat step (bids, tie cards, predictions)
        self.to_move = -1
        self.rounds = int(deal["rounds"])
        self.crew_orders: list[list[int]] = deal["crew"]
        self.rec_order: list[int] = deal["recruitment"]
        self.cap_order: list[int] = deal["capture"]
        self.tre_order: list[int] = deal["treasure"]
        self.round = 0
        self.phase = BID
        self.loon = [config.start_loon] * players
        # loon by source, per seat: recruitment/capture/treasure are what was actually collected or paid
        self.gains = {name: [0] * players for name in SOURCES}
        self.owner = [OUT] * len(config.card_colour)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.rounds_played = 0
        self.total_tricks = [0] * players
        self.max_tricks: list[int] = []    # most tricks one player took, per round
        self.events = {"zero_ties": 0, "tie_cards": 0, "second_passes": 0}
        self.last_trick: tuple[list[int], int, int] | None = None   # (cards, leader, winner), public
        self.laid: list[list[int]] | None = None   # per seat, the cards laid out for recruitment this round
        self._start_round()
        if check:
            self.check_invariants()

    # -- round set-up ----------------------------------------------------------
    def _start_round(self) -> None:
        t, p = self.t, self.players
        if self.round > 0:
            for s in range(p):
                if self.loon[s] < t.top_up:
                    self.gains["top_up"][s] += t.top_up - self.loon[s]
                    self.loon[s] = t.top_up
        r = self.round
        per = t.per_round
        self.recruit_cards = self.rec_order[r * per["recruitment"]:(r + 1) * per["recruitment"]]
        self.capture_card = self.cap_order[r * per["capture"]]
        self.treasure_card = self.tre_order[r * per["treasure"]]
        order = self.crew_orders[r]
        owner = self.owner
        for c in order:
            owner[c] = DECK
        hs = t.hand_size
        self.hands = []
        for s in range(p):
            hand = sorted(order[s * hs:(s + 1) * hs])
            for c in hand:
                owner[c] = HAND + s
            self.hands.append(hand)
        rs = t.row_size
        base = p * hs
        self.rows = [order[base + i * rs:base + (i + 1) * rs] for i in range(p)]
        for i, row in enumerate(self.rows):
            for c in row:
                owner[c] = ROW + i
        self.row_owner = [-1] * p
        self.row_loon = [0] * p
        self.bid_count = [[0] * p for _ in range(p)]
        self.go_first = -1
        self.bid_pass = 1
        self.bid_row = -1
        self.bidders: list[int] = []
        self.bids = [-1] * p
        self.tied: list[int] = []
        self.tie_cards = [-1] * p
        self.tie_choose = False
        self.tie_bid = 0
        self.chooser = -1
        self.last_bids: list[tuple[int, list[int]]] = []     # (row, bids by seat, -1 = not bidding)
        self.last_ties: list[tuple[int, list[int]]] = []     # (row, tie card by seat)
        self.ditched: list[list[int]] = [[] for _ in range(p)]
        self.predictions: list[int | None] = [None] * p
        self.predict_order: list[int] = []
        self.shown: list[list[int]] = [[] for _ in range(p)]  # each hand as scored for recruitment
        self.leader = -1
        self.trick_cards: list[int] = []
        self.trick_winners: list[int] = []
        self.captured: list[list[int]] = [[] for _ in range(p)]
        self.laid = None
        self._next_row()

    # -- bidding ---------------------------------------------------------------
    def _next_row(self) -> None:
        """Move bidding to the next unclaimed row, or hand out the last row free, or end bidding."""
        open_rows = [r for r, o in enumerate(self.row_owner) if o < 0]
        if not open_rows:
            self._start_ditch()
            return
        if len(open_rows) == 1:
            seat = next(s for s in range(self.players) if s not in self.row_owner)
            self._award(open_rows[0], seat, 0)
            self._start_ditch()
            return
        later = [r for r in open_rows if r > self.bid_row]
        if not later:
            self.bid_pass = 2
            self.events["second_passes"] += 1
            later = open_rows
        self.bid_row = later[0]
        self.bidders = [s for s in range(self.players) if s not in self.row_owner]
        self.bids = [-1] * self.players
        self.step = 0                      # how many of the bidders have bid
        self.to_move = self.bidders[0]
        self.phase = BID

    def _award(self, row: int, seat: int, price: int) -> None:
        self.loon[seat] -= price
        self.gains["bids"][seat] -= price
        self.loon[seat] += self.row_loon[row]
        self.gains["row_loon"][seat] += self.row_loon[row]
        self.row_loon[row] = 0
        self.row_owner[row] = seat
        for c in self.rows[row]:
            self.owner[c] = HAND + seat
        self.hands[seat] = sorted(self.hands[seat] + self.rows[row])
        if row == 0:
            self.go_first = seat

    def _resolve_bids(self) -> None:
        row = self.bid_row
        self.last_bids.append((row, self.bids[:]))
        top = max(self.bids[s] for s in self.bidders)
        tied = [s for s in self.bidders if self.bids[s] == top]
        if len(tied) == 1:
            self._award(row, tied[0], top)
            self._next_row()
        elif top > 0 or self.bid_pass == 2:
            self.phase = TIE
            self.events["tie_cards"] += 1
            self.tied = tied
            self.step = 0
            self.to_move = tied[0]
            self.tie_cards = [-1] * self.players
            self.tie_choose = top == 0
            self.tie_bid = top
        else:
            self.events["zero_ties"] += 1
            self.row_loon[row] += self.t.zero_tie_loon
            self._next_row()

    def _resolve_tie(self) -> None:
        key = self.t.card_key
        winner = max(self.tied, key=lambda s: key[self.tie_cards[s]])
        self.last_ties.append((self.bid_row, self.tie_cards[:]))
        if self.tie_choose:
            self.chooser = winner
            self.to_move = winner
            self.phase = CHOOSE
        else:
            self._award(self.bid_row, winner, self.tie_bid if self.t.tie_winner_pays else 0)
            self._next_row()

    # -- ditch, predictions, recruitment ---------------------------------------
    def _start_ditch(self) -> None:
        self.phase = DITCH
        self.to_move = 0

    def _after_ditch(self) -> None:
        item = self.t.treasure[self.treasure_card]
        if item["effect"] == "prediction":
            first = self.go_first
            self.predict_order = [(first + i) % self.players for i in range(self.players)]
            self.step = 0
            self.to_move = first
            self.phase = PREDICT
        else:
            self._start_tricks()

    def _start_tricks(self) -> None:
        t = self.t
        for s in range(self.players):
            masks = scoring.rank_masks(t, self.hands[s])
            for index in self.recruit_cards:
                count = scoring.recruitment_count(t, t.recruitment_specs[index], (), masks)
                gain = max(count * t.recruitment_payouts[index], -self.loon[s])  # never below zero loon
                self.loon[s] += gain
                self.gains["recruitment"][s] += gain
            self.shown[s] = self.hands[s][:]   # the cards laid out are worked out when someone looks
        self.laid = None                   # ... once per round, on the first look (see `_shown`)
        self.leader = self.go_first
        self.trick_cards = []
        self.to_move = -1                  # in play the seat to move follows from the leader
        self.phase = PLAY

    # -- tricks ------------------------------------------------------------------
    def _finish_trick(self) -> None:
        """The highest red wins if any red was played, else the highest card of the led colour.

        Walking the cards while keeping the best so far: a card beats it by being
        higher in the same colour, or by being red when the best is not.
        """
        t = self.t
        cards = self.trick_cards
        trump = t.trump
        best = 0
        colour, rank = t.card_colour, t.card_rank
        best_colour, best_rank = colour[cards[0]], rank[cards[0]]
        for i in range(1, len(cards)):
            c = cards[i]
            cc = colour[c]
            if cc == best_colour:
                if rank[c] > best_rank:
                    best, best_rank = i, rank[c]
            elif cc == trump:
                best, best_colour, best_rank = i, cc, rank[c]
        winner = (self.leader + best) % self.players
        owner = self.owner
        code = CAPTURED + winner
        for c in cards:
            owner[c] = code
        self.captured[winner].extend(cards)
        self.trick_winners.append(winner)
        self.last_trick = (cards, self.leader, winner)   # `cards` is never changed again: a new list follows
        self.trick_cards = []
        self.leader = winner
        if len(self.trick_winners) == t.tricks:
            self._settle_round()

    def _settle_round(self) -> None:
        t, p = self.t, self.players
        tricks = [self.trick_winners.count(s) for s in range(p)]
        self.max_tricks.append(max(tricks))
        cap = scoring.capture_payouts(t, t.capture[self.capture_card], self.captured, self.trick_winners)
        tre = scoring.treasure_payouts(t.treasure[self.treasure_card], tricks, self.predictions)
        if t.net_settlement:
            after = scoring.settle(self.loon, [a + b for a, b in zip(cap, tre, strict=False)])
        else:   # capture card first, then treasure card, each clamped at what is held
            after = scoring.settle(scoring.settle(self.loon, cap), tre)
        for s in range(p):
            actual = after[s] - self.loon[s]
            # split what was really paid between the two cards in proportion; keep the total exact
            nominal = cap[s] + tre[s]
            part_cap = cap[s] if nominal == actual else (round(actual * cap[s] / nominal) if nominal else 0)
            self.gains["capture"][s] += part_cap
            self.gains["treasure"][s] += actual - part_cap
            self.total_tricks[s] += tricks[s]
        self.loon = after
        self.rounds_played += 1
        if self.round + 1 >= self.rounds:
            self.phase = OVER
            self.to_move = -1
            return
        self.round += 1
        self._start_round()

    # -- the interface -------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == PLAY:
            return (self.leader + len(self.trick_cards)) % self.players
        return self.to_move

    def legal_actions(self) -> list[int]:
        phase = self.phase
        sp = self.sp
        if phase == PLAY:
            trick = self.trick_cards
            hand = self.hands[(self.leader + len(trick)) % self.players]
            if trick:
                colour = self.colour
                led = colour[trick[0]]
                follow = [c for c in hand if colour[c] == led]
                if follow:
                    return follow
            return hand[:]
        seat = self.to_move
        if phase == BID:
            return list(range(sp.bid, sp.bid + min(self.loon[seat], sp.max_bid) + 1))
        if phase == DITCH:
            return [sp.ditch + c for c in self.hands[seat]]
        if phase == TIE:
            return [sp.tie + c for c in self.hands[seat]]
        if phase == PREDICT:
            return list(range(sp.predict + self.t.prediction_min, sp.predict + self.t.prediction_max + 1))
        if phase == CHOOSE:
            return [sp.choose + s for s in self.tied]
        return []

    def apply_action(self, action: int) -> None:
        phase = self.phase
        sp = self.sp
        if phase == PLAY:
            trick = self.trick_cards
            seat = (self.leader + len(trick)) % self.players
            hand = self.hands[seat]
            if action not in hand:
                self._refuse(action, seat)
            if trick:
                colour = self.colour
                led = colour[trick[0]]
                if colour[action] != led:
                    for c in hand:
                        if colour[c] == led:
                            raise IllegalAction(
                                f"seat {seat} played {self.t.card_names[action]} but holds {self.t.card_names[c]}"
                                f" and must follow {self.t.colours[led]}")
            hand.remove(action)
            self.owner[action] = TABLE
            trick.append(action)
            self.history.append(action)
            if len(trick) == self.players:
                self._finish_trick()
            if self.check:
                self.check_invariants()
            return
        if phase == OVER:
            raise IllegalAction("the game is over: no more actions")
        seat = self.to_move
        if phase == BID:
            amount = action - sp.bid
            if not 0 <= amount <= sp.max_bid:
                self._refuse(action, seat)
            if amount > self.loon[seat]:
                raise IllegalAction(f"cannot bid {amount}: seat {seat} holds only {self.loon[seat]} loon")
            if self.bid_count[self.bid_row][seat] >= self.t.max_bids_per_row:
                raise IllegalAction(f"seat {seat} has already bid {self.t.max_bids_per_row} times for row "
                                    f"{self.bid_row + 1}")
            self.bids[seat] = amount
            self.bid_count[self.bid_row][seat] += 1
            self.history.append(action)
            self.step += 1
            if self.step == len(self.bidders):
                self._resolve_bids()
            else:
                self.to_move = self.bidders[self.step]
        elif phase == TIE:
            card = action - sp.tie
            if not 0 <= card < sp.cards or card not in self.hands[seat]:
                self._refuse(action, seat)
            self.tie_cards[seat] = card
            self.history.append(action)
            self.step += 1
            if self.step == len(self.tied):
                self._resolve_tie()
            else:
                self.to_move = self.tied[self.step]
        elif phase == CHOOSE:
            target = action - sp.choose
            if target not in self.tied:
                self._refuse(action, seat)
            self.history.append(action)
            self._award(self.bid_row, target, 0)
            self._next_row()
        elif phase == DITCH:
            card = action - sp.ditch
            if not 0 <= card < sp.cards or card not in self.hands[seat]:
                self._refuse(action, seat)
            self.hands[seat].remove(card)
            self.ditched[seat].append(card)
            self.owner[card] = DITCHED + seat
            self.history.append(action)
            if len(self.ditched[seat]) == self.t.ditch:
                if seat + 1 == self.players:
                    self._after_ditch()
                else:
                    self.to_move = seat + 1
        elif phase == PREDICT:
            guess = action - sp.predict
            if not self.t.prediction_min <= guess <= self.t.prediction_max:
                self._refuse(action, seat)
            self.predictions[seat] = guess
            self.history.append(action)
            self.step += 1
            if self.step == self.players:
                self._start_tricks()
            else:
                self.to_move = self.predict_order[self.step]
        if self.check:
            self.check_invariants()

    def _refuse(self, action: int, seat: int) -> None:
        """Name the phase's rule an unusable action breaks."""
        phase = PHASE_NAMES[self.phase]
        try:
            text = self.action_to_string(action)
        except IllegalAction:
            text = f"action {action}"
        expected = {
            "play": "play a card from their hand",
            "bid": f"bid 0..{self.loon[seat]} (their loon)",
            "tie": "put down a tie card from their hand",
            "choose": f"give the row to one of seats {self.tied}",
            "ditch": "ditch a card from their hand",
            "predict": f"predict {self.t.prediction_min}..{self.t.prediction_max} tricks",
        }.get(phase, "nothing")
        raise IllegalAction(f"seat {seat} cannot '{text}' now: in the {phase} phase they must {expected}")

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over yet")
        best = max(self.loon)
        winners = tuple(s for s in range(self.players) if self.loon[s] == best)
        return Result(tuple(float(x) for x in self.loon), winners,
                      {"gains": {k: list(v) for k, v in self.gains.items()}})

    # -- observation -------------------------------------------------------------
    def observation(self, player: int) -> Mapping[str, Any]:
        """Each entry is worked out when first read (`OBSERVED`): a bot reads a handful of the 36."""
        return KeyedObservation(OBSERVED, self, player, self.information_set(player))

    def _observe(self, player: int) -> dict[str, Any]:
        """The whole observation at once."""
        return {key: field(self, player) for key, field in OBSERVED.items()}

    def _rows_seen(self, player: int) -> list[dict[str, Any]]:
        up = self.t.row_up
        return [{"face_up": list(row[:up]),
                 "face_down": list(row[up:]) if self.row_owner[r] == player else len(row) - up,
                 "owner": self.row_owner[r],
                 "loon": self.row_loon[r]} for r, row in enumerate(self.rows)]

    def _shown(self, seat: int) -> list[int]:
        """The crew cards `seat` laid face up for recruitment this round (one best assignment).

        Worked out for every seat on the first look in a round and kept: they cannot change until the
        next round, and a heuristic bot looks on every decision (random games never look).
        """
        if self.laid is None:
            self.laid = [self._lay_out(s) for s in range(self.players)]
        return list(self.laid[seat])

    def _lay_out(self, seat: int) -> list[int]:
        cards: set[int] = set()
        for index in self.recruit_cards:
            for combo in scoring.recruitment_combos(self.t, self.t.recruitment_specs[index], self.shown[seat]):
                cards.update(combo)
        return sorted(cards)

    # -- text ------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return self.sp.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.sp.parse(text)

    # -- search support ------------------------------------------------------------------
    def copy(self) -> PirateTricksState:
        new = PirateTricksState.__new__(PirateTricksState)
        for name in PirateTricksState.__slots__:   # immutable values and shared never-mutated deal lists
            setattr(new, name, getattr(self, name))
        new.history = self.history[:]
        new.loon = self.loon[:]
        new.gains = {k: v[:] for k, v in self.gains.items()}
        new.owner = self.owner[:]
        new.hands = [h[:] for h in self.hands]
        new.total_tricks = self.total_tricks[:]
        new.max_tricks = self.max_tricks[:]
        new.events = dict(self.events)
        new.recruit_cards = list(self.recruit_cards)
        new.rows = [r[:] for r in self.rows]
        new.row_owner = self.row_owner[:]
        new.row_loon = self.row_loon[:]
        new.bid_count = [b[:] for b in self.bid_count]
        new.bidders = self.bidders[:]
        new.bids = self.bids[:]
        new.tied = self.tied[:]
        new.tie_cards = self.tie_cards[:]
        new.last_bids = [(r, b[:]) for r, b in self.last_bids]
        new.last_ties = [(r, c[:]) for r, c in self.last_ties]
        new.ditched = [d_[:] for d_ in self.ditched]
        new.predictions = self.predictions[:]
        new.predict_order = self.predict_order[:]
        new.shown = [s[:] for s in self.shown]
        new.trick_cards = self.trick_cards[:]
        new.trick_winners = self.trick_winners[:]
        new.captured = [c[:] for c in self.captured]
        return new

    def determinize(self, seat: int, rng: random.Random) -> PirateTricksState:
        """Redraw what `seat` cannot see: the others' hands and ditched cards (keeping the face-up row
        cards they won and the cards they laid out for recruitment), the face-down cards of unclaimed
        rows, sealed bids and tie cards not yet revealed, and every later round's cards.

        Unseen cards are gathered in card order, shuffled, and handed out in a fixed order of places,
        so the sample depends only on what the seat sees. (Voids shown by not following suit in
        earlier tricks are not kept: the observation does not show who played what.)
        """
        new = self.copy()
        if self.phase == OVER:
            return new
        t, p = self.t, self.players
        owner = self.owner
        up = t.row_up
        others = [s for s in range(p) if s != seat]
        laid = {s: set(self._shown(s)) for s in others} if self.phase == PLAY else {s: set() for s in others}
        known: dict[int, tuple[list[int], list[int]]] = {}   # per rival: (surely in hand, in hand or ditched)
        pool: list[int] = []
        for s in others:
            mine = (HAND + s, DITCHED + s)
            in_hand = sorted(c for c in laid[s] if owner[c] == HAND + s)
            won_up = sorted(c for r, row in enumerate(self.rows) if self.row_owner[r] == s
                            for c in row[:up] if owner[c] in mine and c not in laid[s])
            known[s] = (in_hand, won_up)
            kept = set(in_hand) | set(won_up)
            pool += [c for c in self.hands[s] + self.ditched[s] if c not in kept]
        for r, row in enumerate(self.rows):
            if self.row_owner[r] < 0:
                pool += row[up:]
        pool.sort()
        fresh = iter([pool[i] for i in shuffled(len(pool), rng)])
        for r, row in enumerate(self.rows):
            if self.row_owner[r] < 0:
                new.rows[r] = row[:up] + [next(fresh) for _ in row[up:]]
                for c in new.rows[r][up:]:
                    new.owner[c] = ROW + r
        for s in others:
            in_hand, won_up = known[s]
            size, ditch = len(self.hands[s]), len(self.ditched[s])
            hand = (in_hand + won_up)[:size]
            ditched = (in_hand + won_up)[size:]
            hand += [next(fresh) for _ in range(size - len(hand))]
            ditched += [next(fresh) for _ in range(ditch - len(ditched))]
            new.hands[s] = sorted(hand)
            new.ditched[s] = ditched
            for c in hand:
                new.owner[c] = HAND + s
            for c in ditched:
                new.owner[c] = DITCHED + s
            if self.phase == PLAY:
                new.shown[s] = sorted(laid[s])
                new.laid = self.laid   # what everyone laid out, as everyone saw it
            if self.phase == TIE and s in self.tied and self.tie_cards[s] >= 0:
                new.tie_cards[s] = new.hands[s][rng.randrange(size)]
            if self.phase == BID and s in self.bidders and self.bids[s] >= 0:
                new.bids[s] = rng.randint(0, min(self.loon[s], self.sp.max_bid))
        crew = t.in_play[p]
        new.crew_orders = [*self.crew_orders[:self.round + 1],
                           *([crew[i] for i in shuffled(len(crew), rng)] for _ in self.crew_orders[self.round + 1:])]
        per = t.per_round
        new.rec_order = _redraw_rest(self.rec_order, (self.round + 1) * per["recruitment"], rng)
        new.cap_order = _redraw_rest(self.cap_order, (self.round + 1) * per["capture"], rng)
        new.tre_order = _redraw_rest(self.tre_order, (self.round + 1) * per["treasure"], rng)
        return new

    # -- checks ------------------------------------------------------------------------
    def check_invariants(self) -> None:
        """Every crew card in exactly one place that agrees with the owner array; sizes; loon from scratch."""
        t, p = self.t, self.players
        in_play = set(t.in_play[p])
        places: dict[int, int] = {}

        def put(cards: Sequence[int], place: int) -> None:
            for c in cards:
                if c in places:
                    raise InvariantBroken(f"{t.card_names[c]} is in two places ({places[c]} and {place})")
                if c not in in_play:
                    raise InvariantBroken(f"{t.card_names[c]} is not in play at {p} players")
                places[c] = place

        for s in range(p):
            if self.hands[s] != sorted(self.hands[s]):
                raise InvariantBroken(f"hand of seat {s} is not sorted")
            put(self.hands[s], HAND + s)
            put(self.ditched[s], DITCHED + s)
            put(self.captured[s], CAPTURED + s)
        for r, row in enumerate(self.rows):
            if self.row_owner[r] < 0:
                put(row, ROW + r)
        put(self.trick_cards, TABLE)
        if self.phase != OVER and len(places) != len(in_play):
            raise InvariantBroken(f"{len(places)} crew cards accounted for, {len(in_play)} in play")
        for c, o in enumerate(self.owner):
            expected = places.get(c, OUT if c not in in_play else None)
            if expected is None:
                continue  # game over: cards left where the last round put them
            if o != expected:
                raise InvariantBroken(f"{t.card_names[c]}: owner array says {o}, the piles say {expected}")
        # hand sizes by phase
        full = t.hand_size + t.row_size
        for s in range(p):
            size = len(self.hands[s])
            if self.phase in (BID, TIE, CHOOSE):
                want = t.hand_size + (t.row_size if s in self.row_owner else 0)
            elif self.phase == DITCH:
                want = full - len(self.ditched[s])
            elif self.phase == PREDICT:
                want = full - t.ditch
            elif self.phase == PLAY:
                played = len(self.trick_winners) + (1 if (s - self.leader) % p < len(self.trick_cards) else 0)
                want = full - t.ditch - played
            else:
                want = size
            if size != want:
                raise InvariantBroken(f"seat {s} holds {size} cards in the {PHASE_NAMES[self.phase]} phase, "
                                      f"expected {want}")
            if sum(1 for row in self.row_owner if row == s) > 1:
                raise InvariantBroken(f"seat {s} won two rows")
        for r in range(p):
            for s in range(p):
                if self.bid_count[r][s] > t.max_bids_per_row:
                    raise InvariantBroken(f"seat {s} bid {self.bid_count[r][s]} times for row {r}")
        # loon recomputed from its sources
        for s in range(p):
            total = t.start_loon + sum(self.gains[name][s] for name in SOURCES)
            if total != self.loon[s]:
                raise InvariantBroken(f"seat {s} has {self.loon[s]} loon but its sources add up to {total}")
            if self.loon[s] < 0:
                raise InvariantBroken(f"seat {s} has negative loon")
        if self.phase == PLAY and self.go_first < 0:
            raise InvariantBroken("tricks started without a Go First player")
        if self.current_player() != self._seat_to_move_from_scratch():
            raise InvariantBroken(f"seat to move is {self.current_player()}, "
                                  f"the rules say {self._seat_to_move_from_scratch()}")

    def _seat_to_move_from_scratch(self) -> int:
        """Who acts now, worked out from the records rather than the cached `to_move`."""
        phase = self.phase
        if phase == BID:
            return next(s for s in self.bidders if self.bids[s] < 0)
        if phase == TIE:
            return next(s for s in self.tied if self.tie_cards[s] < 0)
        if phase == CHOOSE:
            return self.chooser
        if phase == DITCH:
            return next(s for s in range(self.players) if len(self.ditched[s]) < self.t.ditch)
        if phase == PREDICT:
            return next(s for s in self.predict_order if self.predictions[s] is None)
        if phase == PLAY:
            return (self.leader + len(self.trick_cards)) % self.players
        return -1

    def stats(self) -> Mapping[str, float]:
        out: dict[str, float] = {"rounds": float(self.rounds_played)}
        p = self.players
        for name in SOURCES:
            out[f"loon_{name}"] = sum(self.gains[name]) / p
        out["most_tricks_in_a_round"] = sum(self.max_tricks) / max(1, len(self.max_tricks))
        for name, count in self.events.items():
            out[name] = float(count)
        out["winning_loon"] = float(max(self.loon))
        out["spread"] = float(max(self.loon) - min(self.loon))
        out["shared_victory"] = float(sum(1 for x in self.loon if x == max(self.loon)) > 1)
        return out


def _redraw_rest(order: list[int], seen: int, rng: random.Random) -> list[int]:
    """A score deck whose first `seen` cards are known and whose rest is shuffled anew."""
    rest = sorted(order[seen:])
    return order[:seen] + [rest[i] for i in shuffled(len(rest), rng)]


# What a seat sees, entry by entry: (state, seat) -> value.
OBSERVED: Mapping[str, Callable[[PirateTricksState, int], Any]] = MappingProxyType({
    "seat": lambda st, p: p,
    "players": lambda st, p: st.players,
    "phase": lambda st, p: PHASE_NAMES[st.phase],
    "round": lambda st, p: st.round,
    "rounds": lambda st, p: st.rounds,
    "hand": lambda st, p: list(st.hands[p]),
    "hand_sizes": lambda st, p: [len(h) for h in st.hands],
    "loon": lambda st, p: st.loon[p],
    "rows": PirateTricksState._rows_seen,
    "bid_row": lambda st, p: st.bid_row,
    "bid_pass": lambda st, p: st.bid_pass,
    "bidders": lambda st, p: list(st.bidders) if st.phase == BID else [],
    "have_bid": lambda st, p: [s for s in st.bidders if st.bids[s] >= 0] if st.phase == BID else [],
    "my_bid": lambda st, p: st.bids[p] if st.phase == BID else -1,
    "last_bids": lambda st, p: [(r, list(b)) for r, b in st.last_bids],
    "tied": lambda st, p: list(st.tied) if st.phase in (TIE, CHOOSE) else [],
    "tie_bid": lambda st, p: st.tie_bid if st.phase in (TIE, CHOOSE) else 0,
    "my_tie_card": lambda st, p: st.tie_cards[p] if st.phase == TIE else -1,
    "last_ties": lambda st, p: [(r, list(c)) for r, c in st.last_ties],
    "go_first": lambda st, p: st.go_first,
    "ditched": lambda st, p: list(st.ditched[p]),
    "recruitment": lambda st, p: [st.t.recruitment[i].id for i in st.recruit_cards],
    "capture": lambda st, p: st.t.capture[st.capture_card].id,
    "treasure": lambda st, p: st.t.treasure[st.treasure_card].id,
    "predictions": lambda st, p: list(st.predictions),
    "shown": lambda st, p: ([st._shown(s) for s in range(st.players)] if st.phase in (PLAY, OVER)
                            else [[] for _ in range(st.players)]),
    "leader": lambda st, p: st.leader,
    "trick": lambda st, p: list(st.trick_cards),
    "trick_winners": lambda st, p: list(st.trick_winners),
    "last_trick": lambda st, p: (None if st.last_trick is None else
                                 (list(st.last_trick[0]), st.last_trick[1], st.last_trick[2])),
    "captured": lambda st, p: [list(c) for c in st.captured],
    "current": lambda st, p: st.current_player(),
})
