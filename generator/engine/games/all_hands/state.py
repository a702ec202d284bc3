"""A game of All Hands on Deck in progress: an explicit phase machine over small integers.

A round is: STOCK (one card at a time, clockwise from the start player, from
any drawing pile, until everyone holds three or the piles are empty), EXTRA
(each Crow's Nest laid out last round draws two more at once), HIRE (each seat keeps one card;
the rest go on top of its own pile, which restarts an emptied pile), GO_OUT
(seats lay out complete combinations in call order; Boarding Party and
Broadside act at once through the SNATCH and CURSE phases, Ship's Repairs
mends a curse point at once, Crow's Nest and Set the Course act next round:
extra stock cards, and opening the round). A round starts
only while the drawing piles hold at least one card per player; otherwise
every crew pile is laid out in its best way and the game is scored.

Modelling choices (the table game has races where the engine needs an order):
* The start player card goes to whoever grabs it: at setup, and then to the
  first player to finish hiring each round. Each race is a chance outcome,
  uniform over the players, drawn up front into the deal (`starts`: who opens
  each round), so it is seeded, logged and replayed like every shuffle. A seat
  that lays out Set the Course takes the card from that round's race winner and
  opens the next round; the next round's race is drawn and run as usual.
* Hiring is simultaneous at the table; the engine asks seats one at a time, and
  no observation shows what another seat kept or put back.
* The call-out order is the round's start player first, then clockwise.

Curse cards: the printed game hands them out for rule breaches (peeking,
drawing out of turn, calling without a complete combination). An engine that
refuses every illegal action cannot breach a rule, so curse cards appear here
only through the Broadside action, and leave only through Ship's Repairs.

In-game actions that need no choice (mend, open, extra stock's flag) act as
the pair is laid out; the ones that choose a rival or a pile get a phase.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.engine.base import IllegalAction, InvariantBroken, KeyedObservation, Result, State, shuffled

if TYPE_CHECKING:
    from generator.engine.games.all_hands.rules import AllHandsRules

STOCK, EXTRA, HIRE, GO_OUT, SNATCH, CURSE, OVER = range(7)
PHASE_NAMES = ("stock", "extra stock", "hire", "all hands on deck", "snatch", "curse", "over")


class AllHandsState(State):
    """Mutable game state; `copy()` is hand-written because search bots clone it often."""

    def __init__(self, rules: AllHandsRules, players: int, check: bool = False) -> None:
        self.rules = rules
        self.players = players
        self.check = check
        self.stock_cards = rules.config.stock_cards  # read on every draw
        self._seats = range(players)
        self.history: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(players)]
        self.stock: list[list[int]] = [[] for _ in range(players)]
        self.crew: list[list[int]] = [[] for _ in range(players)]
        self.counts: list[list[int]] = [[0] * len(rules.config.kinds) for _ in range(players)]
        self.laid: list[list[int]] = [[] for _ in range(players)]  # option indices laid out in play
        self.laid_cards: list[list[int]] = [[] for _ in range(players)]
        self.points: list[int] = [0] * players  # from combinations laid out during play
        self.curses: list[int] = [0] * players
        self.extra_next: list[int] = [0] * players  # Crow's Nests laid out this round: extra stock draws next round
        self.extra_now: list[int] = [0] * players  # extra stock draws left this round
        self.open_next: int | None = None  # Set the Course: this seat opens the next round
        self.final: list[tuple[int, tuple[int, ...]]] = []  # per seat: (points, option indices)
        self.box: list[int] = []  # cards not dealt this game
        # per card: bitmask of the seat that put it back on its own drawing pile (read only while it lies there)
        self.marked: list[int] = [0] * len(rules.config.card_kind)
        self.starts: list[int] = [0]  # who opens each round: the deal's start player races
        self.start: int = 0
        self.round: int = 0
        self.phase: int = STOCK
        self.turn: int = 0
        self.step = 0  # position in the current clockwise order (hire, go out, extra)
        self.used = dict.fromkeys(rules.config.actions, 0)  # in-game actions performed, by action key

    # --- the interface -------------------------------------------------------------------------

    def current_player(self) -> int:
        return self.turn

    def opener(self) -> int:
        return self.starts[0]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == STOCK:  # the hot path: draw actions are pile numbers (space.draw == 0)
            piles = self.piles
            if all(piles):  # most draws: every pile holds cards (`all` runs in C, a comprehension does not)
                return list(self._seats)
            return [p for p in self._seats if piles[p]]
        space = self.rules.space
        if phase == HIRE:
            kind = self.rules.config.card_kind
            return sorted({space.keep + kind[c] for c in self.stock[self.turn]})
        if phase == GO_OUT:
            base = space.layout
            out = [base + i for i in self.rules.formable(self.counts[self.turn])]
            out.append(space.done)
            return out
        if phase == EXTRA:
            return [space.extra + p for p, pile in enumerate(self.piles) if pile] + [space.skip]
        if phase == SNATCH:
            return [space.snatch + p for p in range(self.players) if p != self.turn and self.crew[p]] + [space.skip]
        if phase == CURSE:
            return [space.curse + p for p in range(self.players) if p != self.turn] + [space.skip]
        return []

    def apply_action(self, action: int) -> None:
        phase = self.phase
        if phase == STOCK and 0 <= action < self.players:  # the hot path (space.draw == 0): a draw, inline
            piles = self.piles
            cards = piles[action]
            if not cards:
                raise IllegalAction(f"drawing pile {action} is empty: draw from a pile that has cards")
            stock = self.stock
            stock[self.turn].append(cards.pop())
            nxt = self.turn + 1
            if nxt == self.players:
                nxt = 0
            if len(stock[nxt]) >= self.stock_cards or (not cards and not any(piles)):
                self._begin_extra()
            else:
                self.turn = nxt
            self.history.append(action)
            if self.check:
                self.check_invariants()
            return
        space = self.rules.space
        if phase == HIRE and space.keep <= action < space.layout:
            self._keep(action - space.keep)
        elif phase == GO_OUT and space.layout <= action <= space.done:
            if action == space.done:
                self._next_go_out()
            else:
                self._lay_out(action - space.layout)
        elif phase == EXTRA and (space.extra <= action < space.extra + self.players or action == space.skip):
            self._extra(None if action == space.skip else action - space.extra)
        elif phase == SNATCH and (space.snatch <= action < space.snatch + self.players or action == space.skip):
            self._snatch(None if action == space.skip else action - space.snatch)
        elif phase == CURSE and (space.curse <= action < space.curse + self.players or action == space.skip):
            self._curse(None if action == space.skip else action - space.curse)
        else:
            self._refuse(action)
        self.history.append(action)
        if self.check:
            self.check_invariants()

    def _refuse(self, action: int) -> None:
        name = self.rules.space.to_string(action)  # raises for an action outside the space
        if self.phase == OVER:
            raise IllegalAction(f"'{name}': the game is over")
        expected = {
            STOCK: "draw a stock card ('draw from pile N')",
            EXTRA: "draw the extra stock cards ('draw two from pile N') or 'skip'",
            HIRE: "keep one of your stock cards ('keep KIND')",
            GO_OUT: "lay out a combination ('lay out ...') or 'done'",
            SNATCH: "snatch from a rival ('snatch from seat N') or 'skip'",
            CURSE: "curse a rival ('curse seat N') or 'skip'",
        }[self.phase]
        raise IllegalAction(f"'{name}' is not allowed now: seat {self.turn} must {expected}")

    # --- phases ------------------------------------------------------------------------------

    def begin_round(self) -> None:
        """Open a round, or end the game when the piles hold fewer cards than players."""
        if sum(len(p) for p in self.piles) < self.players:
            self.open_next = None  # in-game actions have turned invalid
            self._finish()
            return
        self.round += 1
        self.start = self.starts[self.round - 1] if self.open_next is None else self.open_next
        self.open_next = None
        self.extra_now = self.extra_next
        self.extra_next = [0] * self.players
        self.phase = STOCK
        self.turn = self.start

    def _begin_extra(self) -> None:
        self.phase = EXTRA
        self.step = 0
        self._advance_extra()

    def _advance_extra(self) -> None:
        """Next Crow's Nest holder clockwise from the start player; then hiring."""
        while self.step < self.players:
            seat = (self.start + self.step) % self.players
            self.step += 1
            if self.extra_now[seat] and any(self.piles):
                self.turn = seat
                return
        self.phase = HIRE  # everyone looks at their stock at once (the observation shows each seat its own)
        self.step = 0
        self.turn = self.start

    def _extra(self, pile: int | None) -> None:
        if pile is not None:
            cards = self.piles[pile]
            if not cards:
                raise IllegalAction(f"drawing pile {pile} is empty: draw the extra cards from a pile that has cards")
            take = min(self.rules.config.extra_stock_cards, len(cards))
            for _ in range(take):
                self.stock[self.turn].append(cards.pop())
            self.used["extra-stock"] += 1
        self.extra_now[self.turn] -= 1  # a skip forfeits this draw only
        if not (self.extra_now[self.turn] and any(self.piles)):  # a second Crow's Nest draws again now
            self._advance_extra()

    def _keep(self, kind: int) -> None:
        seat = self.turn
        stock = self.stock[seat]
        card_kind = self.rules.config.card_kind
        for c in stock:
            if card_kind[c] == kind:
                break
        else:
            raise IllegalAction(f"no {self.rules.config.kinds[kind]} among your stock cards: keep one you drew")
        stock.remove(c)
        self.marked[c] = 0  # kept unseen: whoever saw it drawn knows only that it was kept or put back
        self.crew[seat].append(c)
        self.counts[seat][kind] += 1
        bit = 1 << seat
        for rest in stock:  # you know what you put back, while it stays on your pile
            self.marked[rest] = bit
        self.piles[seat].extend(stock)  # the rest go on top of your own pile (a new one if it was empty)
        stock.clear()
        self.step += 1
        if self.step < self.players:
            self.turn = (self.start + self.step) % self.players
        else:
            self.phase = GO_OUT
            self.step = 0
            self._enter_go_out()

    def _enter_go_out(self) -> None:
        """Seat (start + step) calls out next; seats with nothing to lay out pass silently."""
        formable = self.rules.formable
        while self.step < self.players:
            seat = (self.start + self.step) % self.players
            if formable(self.counts[seat]):
                self.phase = GO_OUT
                self.turn = seat
                return
            self.step += 1
        self.begin_round()  # the start player card is with whoever won this round's race (the deal's next start)

    def _next_go_out(self) -> None:
        self.step += 1
        self._enter_go_out()

    def _lay_out(self, index: int) -> None:
        seat = self.turn
        option = self.rules.options[index]
        counts = self.counts[seat]
        if index not in self.rules.formable(counts):
            raise IllegalAction(f"cannot lay out {option.text}: your crew pile lacks the cards for it")
        crew = self.crew[seat]
        card_kind = self.rules.config.card_kind
        laid = self.laid_cards[seat]
        for k, n in option.parts:
            counts[k] -= n
            i = len(crew) - 1
            left = n
            while left:  # the topmost matching cards leave the pile
                if card_kind[crew[i]] == k:
                    laid.append(crew.pop(i))
                    left -= 1
                i -= 1
        self.laid[seat].append(index)
        self.points[seat] += option.combination.points
        action = option.combination.action
        if action == "snatch":
            if any(self.crew[p] for p in range(self.players) if p != seat):
                self.phase = SNATCH
        elif action == "curse":
            self.phase = CURSE
        elif action == "extra-stock":
            self.extra_next[seat] += 1  # two Crow's Nests, two draws (as two Boarding Parties snatch twice)
        elif action == "mend":
            if self.curses[seat]:  # nothing to mend: the action is spent for nothing
                self.curses[seat] -= 1
                self.used["mend"] += 1
        elif action == "open":
            self.open_next = seat  # a later Set the Course this round takes the start player card from you
            self.used["open"] += 1
        if self.phase == GO_OUT:
            self._stay_or_pass()

    def _stay_or_pass(self) -> None:
        """After a lay-out, the seat goes on if it can form more; otherwise the call passes on."""
        self.phase = GO_OUT
        if not self.rules.formable(self.counts[self.turn]):
            self._next_go_out()

    def _snatch(self, victim: int | None) -> None:
        if victim is not None:
            if victim == self.turn or victim >= self.players or not self.crew[victim]:
                raise IllegalAction(f"cannot snatch from seat {victim}: choose a rival whose crew pile has cards")
            card = self.crew[victim].pop()
            self.marked[card] = 1 << victim | 1 << self.turn  # the two of them know where it went
            kind = self.rules.config.card_kind[card]
            self.counts[victim][kind] -= 1
            self.crew[self.turn].append(card)
            self.counts[self.turn][kind] += 1
            self.used["snatch"] += 1
        self._stay_or_pass()

    def _curse(self, victim: int | None) -> None:
        if victim is not None:
            if victim == self.turn or victim >= self.players:
                raise IllegalAction(f"cannot curse seat {victim}: choose a rival")
            self.curses[victim] += 1
            self.used["curse"] += 1
        self._stay_or_pass()

    def _finish(self) -> None:
        best = self.rules.best_layout
        self.final = [best(tuple(c)) for c in self.counts]
        self.phase = OVER
        self.turn = 0

    # --- results -----------------------------------------------------------------------------

    def scores(self) -> list[int]:
        curse = self.rules.config.curse_points
        return [self.points[p] + (self.final[p][0] if self.final else 0) - curse * self.curses[p]
                for p in range(self.players)]

    def captains(self, seat: int) -> int:
        """Captains a seat hired and still holds, laid out or not: the tie-break."""
        config = self.rules.config
        kind = config.card_kind
        return sum(1 for c in self.crew[seat] + self.laid_cards[seat] if kind[c] >= config.crew)

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over yet")
        scores = self.scores()
        top = max(scores)
        leaders = [p for p in range(self.players) if scores[p] == top]
        most = max(self.captains(p) for p in leaders)
        winners = tuple(p for p in leaders if self.captains(p) == most)
        return Result(tuple(float(s) for s in scores), winners,
                      {"captains": [self.captains(p) for p in range(self.players)]})

    def stats(self) -> Mapping[str, float]:
        """Per-game figures; points are means per player, split by where they came from."""
        options = self.rules.options
        pairs = combos = captains = 0
        for p in range(self.players):
            final_points, picks = self.final[p] if self.final else (0, ())
            for index in list(self.laid[p]) + list(picks):
                combination = options[index].combination
                if combination.action:
                    pairs += combination.points
                else:
                    combos += combination.points
            captains += final_points - sum(options[i].combination.points for i in picks)
        n = self.players
        return {
            "rounds": self.round,
            "points_combinations": combos / n,
            "points_action_pairs": pairs / n,
            "points_captains": captains / n,
            "points_curses": -self.rules.config.curse_points * sum(self.curses) / n,
            **{f"actions_{action.replace('-', '_')}": n for action, n in self.used.items()},
            "combinations_in_play": sum(len(x) for x in self.laid),
        }

    # --- what a seat sees --------------------------------------------------------------------

    def observation(self, player: int) -> Mapping[str, Any]:
        """Each entry is worked out when first read (`OBSERVED`): a bot's play-out move reads a handful."""
        return KeyedObservation(OBSERVED, self, player, self.information_set(player))

    def _piles_seen(self, player: int) -> list[list[str | None]]:
        """Drawing piles are face down; a seat knows only the cards it put back on its own pile itself."""
        bit = 1 << player
        marked = self.marked
        kinds, kind = self.rules.config.kinds, self.rules.config.card_kind
        return [[kinds[kind[c]] if marked[c] & bit else None for c in pile] for pile in self.piles]

    def _laid_seen(self) -> list[list[str]]:
        options = self.rules.options
        return [[options[i].text for i in laid] for laid in self.laid]

    def _named(self, cards: list[int]) -> list[str]:
        kinds, kind = self.rules.config.kinds, self.rules.config.card_kind
        return [kinds[kind[c]] for c in cards]

    def action_to_string(self, action: int) -> str:
        return self.rules.space.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.rules.space.parse(text)

    # --- cloning and checking ----------------------------------------------------------------

    def copy(self) -> AllHandsState:
        new = AllHandsState.__new__(AllHandsState)
        new.rules = self.rules
        new.players = self.players
        new.check = self.check
        new.stock_cards = self.stock_cards
        new._seats = self._seats
        new.history = self.history[:]
        new.piles = [p[:] for p in self.piles]
        new.stock = [s[:] for s in self.stock]
        new.crew = [c[:] for c in self.crew]
        new.counts = [c[:] for c in self.counts]
        new.laid = [x[:] for x in self.laid]
        new.laid_cards = [x[:] for x in self.laid_cards]
        new.points = self.points[:]
        new.curses = self.curses[:]
        new.extra_next = self.extra_next[:]
        new.extra_now = self.extra_now[:]
        new.open_next = self.open_next
        new.final = self.final[:]
        new.box = self.box[:]
        new.marked = self.marked[:]
        new.starts = self.starts  # never mutated
        new.start = self.start
        new.round = self.round
        new.phase = self.phase
        new.turn = self.turn
        new.step = self.step
        new.used = dict(self.used)
        return new

    def determinize(self, seat: int, rng: random.Random) -> AllHandsState:
        """Redraw what `seat` cannot see: the drawing piles (but the cards it put back itself), the
        others' stock and crews (but the cards it saw go there), the cards left in the box, and who
        wins the later start-card races.

        Unseen cards are gathered in card order, shuffled, and handed out to the unseen places in a
        fixed order (piles bottom to top, then stocks, crews, box), so the sample depends only on what
        the seat sees. Off the piles a card's mark says who saw it go where it is: a card this seat put
        back and a rival drew this round (hiring clears the mark of the card kept, and a card put back
        takes its new owner's mark), or a card snatched from or by this seat.
        """
        new = self.copy()
        if self.phase == OVER:
            return new
        bit = 1 << seat
        marked = self.marked
        others = [s for s in self._seats if s != seat]
        pool = [c for pile in self.piles for c in pile if not marked[c] & bit]
        for s in others:
            pool += [c for c in self.stock[s] + self.crew[s] if not marked[c] & bit]
        pool += self.box
        pool.sort()
        fresh = iter([pool[i] for i in shuffled(len(pool), rng)])
        for p, pile in enumerate(self.piles):
            for i, c in enumerate(pile):
                if not marked[c] & bit:
                    drawn = next(fresh)
                    new.piles[p][i] = drawn
                    new.marked[drawn] = marked[c]
        kind = self.rules.config.card_kind
        unmark = new.marked  # a redrawn card lands off the piles now: no stale mark may make it look seen
        for s in others:
            new.stock[s] = [c if marked[c] & bit else next(fresh) for c in self.stock[s]]
            new.crew[s] = [c if marked[c] & bit else next(fresh) for c in self.crew[s]]
            counts = [0] * len(self.counts[s])
            for c in new.crew[s]:
                counts[kind[c]] += 1
            new.counts[s] = counts
            for c, was in zip(new.stock[s] + new.crew[s], self.stock[s] + self.crew[s], strict=True):
                if not marked[was] & bit:
                    unmark[c] = 0
        new.box = [next(fresh) for _ in self.box]
        for c in new.box:
            unmark[c] = 0
        players = self.players
        new.starts = self.starts[:self.round] + [rng.randrange(players) for _ in self.starts[self.round:]]
        return new

    def check_invariants(self) -> None:
        """Every card in exactly one place; counts, points and pile sizes agree with a recount."""
        config = self.rules.config
        owner = [-1] * len(config.card_kind)
        places: list[tuple[str, list[int]]] = [("box", self.box)]
        for p in range(self.players):
            places += [(f"pile {p}", self.piles[p]), (f"stock {p}", self.stock[p]),
                       (f"crew {p}", self.crew[p]), (f"laid {p}", self.laid_cards[p])]
        for index, (name, cards) in enumerate(places):
            for c in cards:
                if owner[c] != -1:
                    raise InvariantBroken(f"card {c} is both in {places[owner[c]][0]} and {name}")
                owner[c] = index
        if -1 in owner:
            raise InvariantBroken(f"card {owner.index(-1)} was lost")
        kind = config.card_kind
        for p in range(self.players):
            recount = [0] * len(config.kinds)
            for c in self.crew[p]:
                recount[kind[c]] += 1
            if recount != self.counts[p]:
                raise InvariantBroken(f"seat {p}: crew counts {self.counts[p]} but the pile holds {recount}")
            points = sum(self.rules.options[i].combination.points for i in self.laid[p])
            if points != self.points[p]:
                raise InvariantBroken(f"seat {p}: {self.points[p]} points recorded, laid combinations give {points}")
            need = sum(sum(self.rules.options[i].need) for i in self.laid[p])
            if need != len(self.laid_cards[p]):
                raise InvariantBroken(f"seat {p}: {len(self.laid_cards[p])} cards laid out, combinations need {need}")
            nests = sum(self.rules.options[i].combination.action == "extra-stock" for i in self.laid[p])
            if len(self.stock[p]) > config.stock_cards + config.extra_stock_cards * nests:
                raise InvariantBroken(f"seat {p} holds {len(self.stock[p])} stock cards")
            if self.curses[p] < 0:
                raise InvariantBroken(f"seat {p} holds {self.curses[p]} curse points: mending went below none")
        if self.open_next is not None and self.phase not in (GO_OUT, SNATCH, CURSE):
            raise InvariantBroken(f"seat {self.open_next} still set to open after the round began")
        if self.phase in (GO_OUT, SNATCH, CURSE, OVER) and any(self.stock):
            raise InvariantBroken("stock cards left over after hiring")


# What a seat sees, entry by entry: (state, seat) -> value.
OBSERVED: Mapping[str, Callable[[AllHandsState, int], Any]] = MappingProxyType({
    "seat": lambda st, p: p,
    "players": lambda st, p: st.players,
    "phase": lambda st, p: PHASE_NAMES[st.phase],
    "turn": lambda st, p: st.turn,
    "round": lambda st, p: st.round,
    "start": lambda st, p: st.start,
    "piles": AllHandsState._piles_seen,
    # stock cards are looked at only once hiring begins
    "stock": lambda st, p: st._named(st.stock[p]) if st.phase == HIRE else [],
    "stock_sizes": lambda st, p: [len(s) for s in st.stock],
    "crew": lambda st, p: st._named(st.crew[p]),
    "crew_sizes": lambda st, p: [len(c) for c in st.crew],
    "laid": lambda st, p: st._laid_seen(),
    "points": lambda st, p: list(st.points),
    "curses": lambda st, p: list(st.curses),
    "extra_next": lambda st, p: list(st.extra_next),
    "extra_now": lambda st, p: list(st.extra_now),
    "opens_next": lambda st, p: st.open_next,
})
