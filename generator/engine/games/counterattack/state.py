"""Counterattack as a state machine: you (or two co-captains) against the pirate's face-down pile.

Rule readings (also noted in the data):
* The exposed port stack, literally as the rule text says: the top card is
  turned up at setup and its suit is trump; a flip turns up the next card, whose
  suit becomes trump; turning up the last card empties the stack, and from then
  on there is no trump and no flip for the rest of the game
  (`CounterattackConfig.trump_at`, `can_flip`).
* You need not follow suit (the text says you may play any card).
* Ports carry distinct numbers, so at most one port can be exploited per hand;
  exploiting it is automatic.
* Two players (co-captains): your ten cards are dealt five and five; the
  co-captains play alternately, and the one whose turn it is decides the flips.
  Seat 0 plays first in even hands, seat 1 in odd hands.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from generator.engine.base import IllegalAction, InvariantBroken, LazyObservation, Result, State, shuffled
from generator.engine.games.counterattack.actions import ActionSpace
from generator.engine.games.counterattack.config import NO_TRUMP, CounterattackConfig

PHASE_PLAY = 0
PHASE_OVER = 1

# Where a main card is (the owner array): a seat's hand is HAND + seat.
DECK, PIRATE_DOWN, PIRATE_UP, PLAYED, SET_ASIDE, HAND = 0, 1, 2, 3, 4, 10


def win_tables(t: CounterattackConfig) -> tuple[tuple[bool, ...], ...]:
    """WIN[trump + 1][mine * N + pirate]: does my card beat the pirate's under that trump (-1 = none)?

    You win if you played trump and the pirate did not, or both played trump and
    yours is higher, or nobody played trump and you followed the pirate's suit
    with a higher card. Otherwise the pirate wins.
    """
    n = len(t.card_suit)
    tables = []
    for trump in range(-1, len(t.suit_names)):
        row = []
        for mine in range(n):
            for theirs in range(n):
                ms, ts = t.card_suit[mine], t.card_suit[theirs]
                higher = t.card_rank[mine] > t.card_rank[theirs]
                if trump >= 0 and ms == trump:
                    row.append(ts != trump or higher)
                elif trump >= 0 and ts == trump:
                    row.append(False)
                else:
                    row.append(ms == ts and higher)
        tables.append(tuple(row))
    return tuple(tables)


class CounterattackState(State):
    """One game in progress. Cards are indices into `game.deck("main")`."""

    __slots__ = (
        "check",
        "config",
        "exploited",
        "exposed",
        "exposed_pos",
        "first",
        "flips",
        "hand_in_pass",
        "hand_tricks",
        "hands",
        "hands_played",
        "history",
        "lost",
        "n",
        "owner",
        "pass_no",
        "passes",
        "phase",
        "pirate",
        "players",
        "ports_open",
        "space",
        "tph",
        "trick",
        "trump_now",
        "victory",
        "win",
        "won",
    )

    def __init__(self, config: CounterattackConfig, space: ActionSpace, win: tuple[tuple[bool, ...], ...],
                 players: int, exposed: list[int], passes: list[list[int]], check: bool = False) -> None:
        self.config = config
        self.space = space
        self.win = win
        self.players = players
        self.check = check
        self.history: list[int] = []
        self.exposed = exposed              # exposed port stack, top first
        self.passes = passes                # one shuffled main deck per pass
        self.phase = PHASE_PLAY
        self.pass_no = 0
        self.hand_in_pass = 0
        self.hands_played = 0               # hands finished
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.pirate: list[int] = []         # the pirate's pile; pirate[trick] is face up
        self.trick = 0
        self.won = 0
        self.lost = 0
        self.exposed_pos = 0                # exposed[exposed_pos] is the last card turned up
        self.ports_open = [True] * len(config.port_tricks)
        self.owner = [DECK] * len(config.card_suit)
        self.hand_tricks: list[int] = []    # tricks won in each finished hand
        self.exploited: list[int] = []      # port exploited by each finished hand
        self.flips = 0
        self.victory = False
        self.n = len(config.card_suit)          # also the id of the flip action
        self.tph = config.tricks_per_hand
        self.trump_now = config.trump_at(exposed, 0)
        self._deal_hand()
        if check:
            self.check_invariants()

    # -- dealing -------------------------------------------------------------
    def _deal_hand(self) -> None:
        t = self.config
        owner = self.owner
        mine, self.pirate, aside = t.cut(self.passes[self.pass_no], self.hand_in_pass)
        if self.players == 1:
            self.hands[0] = sorted(mine)
            for c in mine:
                owner[c] = HAND
        else:
            each = t.cards_each_2p
            for seat in range(self.players):
                part = mine[seat * each:(seat + 1) * each]
                self.hands[seat] = sorted(part)
                for c in part:
                    owner[c] = HAND + seat
        for c in self.pirate:
            owner[c] = PIRATE_DOWN
        owner[self.pirate[0]] = PIRATE_UP
        for c in aside:
            owner[c] = SET_ASIDE
        self.trick = 0
        self.won = 0
        self.lost = 0
        # co-captains: who plays the first trick of this hand
        self.first = self.hands_played % self.players if t.alternate_first else 0

    # -- the interface -------------------------------------------------------
    def current_player(self) -> int:
        if self.players == 1:
            return 0
        return (self.trick + self.first) % self.players

    @property
    def trump(self) -> int:
        """Suit index of the trump, or NO_TRUMP (-1) once the exposed port stack is empty."""
        return self.config.trump_at(self.exposed, self.exposed_pos)

    def legal_actions(self) -> list[int]:
        if self.phase != PHASE_PLAY:
            return []
        hand = self.hands[(self.trick + self.first) % self.players] if self.players > 1 else self.hands[0]
        if self.exposed_pos < len(self.exposed) - 1:  # a card is left face down to flip
            return [*hand, self.n]
        return hand[:]

    def apply_action(self, action: int) -> None:
        if self.phase != PHASE_PLAY:
            raise IllegalAction("the game is over: no more actions")
        n = self.n
        if action == n:
            if not self.config.can_flip(self.exposed, self.exposed_pos):
                raise IllegalAction("cannot flip: the exposed port stack is empty (its last card is turned up, "
                                    "so there is no trump for the rest of the game)")
            self.exposed_pos += 1
            self.flips += 1
            self.trump_now = self.config.trump_at(self.exposed, self.exposed_pos)
            self.history.append(action)
            if self.check:
                self.check_invariants()
            return
        seat = (self.trick + self.first) % self.players if self.players > 1 else 0
        try:
            self.hands[seat].remove(action)
        except ValueError:
            name = self.config.card_names[action] if 0 <= action < n else str(action)
            raise IllegalAction(f"cannot play {name}: it is not in the hand of seat {seat}") from None
        trick = self.trick
        pirate_card = self.pirate[trick]
        owner = self.owner
        owner[action] = PLAYED
        owner[pirate_card] = PLAYED
        if self.win[self.trump_now + 1][action * n + pirate_card]:
            self.won += 1
        else:
            self.lost += 1
        trick += 1
        self.trick = trick
        self.history.append(action)
        if trick == self.tph:
            self._end_hand()
        else:
            owner[self.pirate[trick]] = PIRATE_UP
        if self.check:
            self.check_invariants()

    def _end_hand(self) -> None:
        """Exploit the open port whose number equals the tricks won, or lose; then deal on."""
        t = self.config
        self.hands_played += 1
        self.hand_tricks.append(self.won)
        hit = -1
        for port, open_ in enumerate(self.ports_open):
            if open_ and t.port_tricks[port] == self.won:
                hit = port
                break
        self.exploited.append(hit)
        if hit < 0:
            self.phase = PHASE_OVER
            return
        self.ports_open[hit] = False
        if self.ports_exploited == t.ports_to_win or not any(self.ports_open):
            self.phase = PHASE_OVER
            self.victory = True
            return
        self.hand_in_pass += 1
        if self.hand_in_pass == t.hands_per_pass:
            self.hand_in_pass = 0
            self.pass_no += 1
            self.owner = [DECK] * len(self.owner)   # reshuffle: every card back in the deck
        self._deal_hand()

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def result(self) -> Result:
        if self.phase != PHASE_OVER:
            raise IllegalAction("the game is not over yet")
        ports = float(self.ports_exploited)
        winners = tuple(range(self.players)) if self.victory else ()
        return Result((ports,) * self.players, winners, {"victory": self.victory, "hands": self.hands_played})

    @property
    def ports_exploited(self) -> int:
        return sum(1 for p in self.exploited if p >= 0)

    # -- what a seat sees ----------------------------------------------------
    def observation(self, player: int) -> Mapping[str, Any]:
        return LazyObservation(self._observe, player, self.information_set(player))

    def _observe(self, player: int) -> dict[str, Any]:
        # Cards seen face up in this pass: both sides of every finished trick.
        seen = [c for c, o in enumerate(self.owner) if o == PLAYED]
        over = self.phase == PHASE_OVER
        return {
            "seat": player,
            "players": self.players,
            "phase": "over" if over else "play",
            "hand": list(self.hands[player]),
            "partner_hand_size": [len(h) for h in self.hands],
            "pirate_card": None if over else self.pirate[self.trick],
            "pirate_hidden": 0 if over else len(self.pirate) - self.trick - 1,
            "trump": self.trump,
            "exposed_seen": list(self.exposed[:self.exposed_pos + 1]),  # turned up so far, the last one on top
            "exposed_left": max(0, len(self.exposed) - self.exposed_pos - 1),  # still face down
            "can_flip": self.config.can_flip(self.exposed, self.exposed_pos),
            "exposed_pos": self.exposed_pos,
            "ports_open": [i for i, o in enumerate(self.ports_open) if o],
            "trick": self.trick,
            "won": self.won,
            "lost": self.lost,
            "hand_in_pass": self.hand_in_pass,
            "pass": self.pass_no,
            "hands_played": self.hands_played,
            "seen_this_pass": seen,
            "current": self.current_player(),
            "first": self.first,
        }

    # -- text ----------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return self.space.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.space.parse(text)

    # -- search support ------------------------------------------------------
    def copy(self) -> CounterattackState:
        new = CounterattackState.__new__(CounterattackState)
        new.config = self.config
        new.space = self.space
        new.win = self.win
        new.players = self.players
        new.check = self.check
        new.history = self.history[:]
        new.exposed = self.exposed            # never mutated
        new.passes = self.passes              # never mutated
        new.phase = self.phase
        new.pass_no = self.pass_no
        new.hand_in_pass = self.hand_in_pass
        new.hands_played = self.hands_played
        new.hands = [h[:] for h in self.hands]
        new.pirate = self.pirate              # never mutated (a slice of the pass)
        new.trick = self.trick
        new.won = self.won
        new.lost = self.lost
        new.exposed_pos = self.exposed_pos
        new.ports_open = self.ports_open[:]
        new.owner = self.owner[:]
        new.hand_tricks = self.hand_tricks[:]
        new.exploited = self.exploited[:]
        new.flips = self.flips
        new.victory = self.victory
        new.n = self.n
        new.tph = self.tph
        new.trump_now = self.trump_now
        new.first = self.first
        return new

    def determinize(self, seat: int, rng: random.Random) -> CounterattackState:
        """Redraw what `seat` cannot see: the pirate's face-down cards, the co-captain's hand, the cards
        still to come this pass, the later passes and the face-down exposed ports.

        The unseen cards are gathered in card order and shuffled, then handed out to the unseen places
        in deck order, so the sample depends only on what the seat sees.
        """
        new = self.copy()
        if self.phase != PHASE_PLAY:
            return new
        unseen = {DECK, PIRATE_DOWN, SET_ASIDE} | {HAND + s for s in range(self.players) if s != seat}
        old_owner = self.owner
        pool = [c for c, o in enumerate(old_owner) if o in unseen]
        fresh = iter([pool[i] for i in shuffled(len(pool), rng)])
        deck = self.passes[self.pass_no][:]
        owner = new.owner
        for position, card in enumerate(self.passes[self.pass_no]):
            place = old_owner[card]
            if place in unseen:
                drawn = next(fresh)
                deck[position] = drawn
                owner[drawn] = place
        n = len(owner)
        new.passes = [*self.passes[:self.pass_no], deck,
                      *(shuffled(n, rng) for _ in self.passes[self.pass_no + 1:])]
        size = self.config.hand_size
        start = self.hand_in_pass * 2 * size
        new.pirate = deck[start + size:start + 2 * size]
        for s in range(self.players):
            if s != seat:
                new.hands[s] = [c for c in range(n) if owner[c] == HAND + s]
        down = sorted(self.exposed[self.exposed_pos + 1:])
        new.exposed = self.exposed[:self.exposed_pos + 1] + [down[i] for i in shuffled(len(down), rng)]
        return new

    # -- checks --------------------------------------------------------------
    def check_invariants(self) -> None:
        """Every card in exactly one place, the piles agreeing with the owner array, counts and ports right."""
        t = self.config
        owner = self.owner
        if len(owner) != len(t.card_suit):
            raise InvariantBroken("the owner array changed length: cards were created or lost")
        claimed: dict[int, int] = {}
        def claim(card: int, place: int) -> None:
            if card in claimed:
                raise InvariantBroken(f"{t.card_names[card]} is in two places ({claimed[card]} and {place})")
            claimed[card] = place
        for seat, hand in enumerate(self.hands):
            if hand != sorted(hand):
                raise InvariantBroken(f"hand of seat {seat} is not sorted: {hand}")
            for c in hand:
                claim(c, HAND + seat)
        if self.phase == PHASE_PLAY:
            for i, c in enumerate(self.pirate):
                claim(c, PLAYED if i < self.trick else PIRATE_UP if i == self.trick else PIRATE_DOWN)
            for c, o in enumerate(owner):
                if o in (DECK, SET_ASIDE, PLAYED) and c not in claimed:
                    claimed[c] = o
            for c, o in enumerate(owner):
                if claimed.get(c) != o:
                    raise InvariantBroken(f"{t.card_names[c]}: owner array says {o}, the piles say {claimed.get(c)}")
            left = t.tricks_per_hand - self.trick
            counts = [0] * (HAND + self.players)
            for o in owner:
                counts[o] += 1
            size = t.hand_size
            expected_played = 2 * (self.hand_in_pass * size + self.trick)
            last = self.hand_in_pass == t.hands_per_pass - 1
            expected = {
                PLAYED: expected_played,
                PIRATE_UP: 1,
                PIRATE_DOWN: left - 1,
                SET_ASIDE: t.set_aside if last else 0,
                DECK: len(owner) - 2 * size * (self.hand_in_pass + 1) - (t.set_aside if last else 0),
            }
            for place, count in expected.items():
                if counts[place] != count:
                    raise InvariantBroken(f"{counts[place]} cards in place {place}, expected {count}")
            if sum(len(h) for h in self.hands) != left:
                raise InvariantBroken(f"hands hold {sum(len(h) for h in self.hands)} cards, expected {left}")
            if self.players > 1 and max(len(h) for h in self.hands) - min(len(h) for h in self.hands) > 1:
                raise InvariantBroken("co-captains' hands differ by more than one card")
            if self.won + self.lost != self.trick:
                raise InvariantBroken("won + lost tricks differ from the tricks played")
        closed = [p for p in self.exploited if p >= 0]
        if sorted(closed) != [i for i, o in enumerate(self.ports_open) if not o]:
            raise InvariantBroken("exploited ports do not match the closed ports")
        for tricks, port in zip(self.hand_tricks, self.exploited, strict=True):
            if port >= 0 and t.port_tricks[port] != tricks:
                raise InvariantBroken(f"port {t.port_names[port]} exploited with {tricks} tricks")
        if -1 in self.exploited[:-1] or (self.phase == PHASE_PLAY and -1 in self.exploited):
            raise InvariantBroken("play went on after a hand that exploited no port")
        if self.victory != (len(closed) == t.ports_to_win or not any(self.ports_open)):
            raise InvariantBroken("victory flag disagrees with the ports exploited")
        if not 0 <= self.exposed_pos <= max(0, len(self.exposed) - 1) or self.flips != self.exposed_pos:
            raise InvariantBroken("exposed port stack position and flips disagree")
        if self.trump_now != self.trump:
            raise InvariantBroken("cached trump differs from the exposed port stack")

    def stats(self) -> Mapping[str, float]:
        hands = len(self.hand_tricks)
        return {
            "victory": float(self.victory),
            "ports_exploited": float(self.ports_exploited),
            "hands_played": float(hands),
            "lost_at_hand": float(hands if not self.victory and self.phase == PHASE_OVER else 0),
            "mean_tricks_per_hand": sum(self.hand_tricks) / hands if hands else 0.0,
            "flips": float(self.flips),
            "no_trump_reached": float(self.trump_now == NO_TRUMP),
            "passes": float(self.pass_no + 1),
        }
