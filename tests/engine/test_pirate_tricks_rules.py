"""Pirate Tricks rules of seed 003, scenario by scenario, on hand-built 3-player deals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generator.engine.base import IllegalAction
from generator.engine.games.pirate_tricks import RULES
from generator.engine.games.pirate_tricks.state import BID, CHOOSE, DITCH, PLAY, PREDICT, TIE
from generator.load import load_game
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "pirate-tricks")
R = RULES(GAME)
T = R.config
SP = R.space


def card(name: str) -> int:
    return T.card_names.index(name)


def colour(name: str, ranks) -> list[str]:
    return [f"{r} {name}" for r in ranks]


def order_of(deck: list, wanted: list[str]) -> list[int]:
    return [next(i for i, x in enumerate(deck) if x.id == w) for w in wanted]


def deal(players: int, hands: list[list[str]] | None = None, rows: list[list[str]] | None = None,
         recruitment: list[str] = (), capture: list[str] = (), treasure: list[str] = ()) -> dict:
    """A deal whose first round puts the named cards in the named hands and rows (the rest fill in)."""
    in_play = list(T.in_play[players])
    hands = hands or [[] for _ in range(players)]
    rows = rows or [[] for _ in range(players)]
    named = [card(n) for group in (*hands, *rows) for n in group]
    spare = [c for c in in_play if c not in named]
    order: list[int] = []
    for group, size in [(h, T.hand_size) for h in hands] + [(r, T.row_size) for r in rows]:
        cards = [card(n) for n in group]
        order += cards + [spare.pop(0) for _ in range(size - len(cards))]
    assert sorted(order) == sorted(in_play)

    def deck(component: str, first: list[str]) -> list[int]:
        items = getattr(T, component)
        head = order_of(list(items), list(first))
        return head + [i for i in range(len(items)) if i not in head]

    return {"rounds": 3, "crew": [order] + [sorted(in_play)] * 2,
            "recruitment": deck("recruitment", recruitment), "capture": deck("capture", capture),
            "treasure": deck("treasure", treasure)}


def bid(state, *amounts: int) -> None:
    """Each bidding seat, in seat order, bids the next amount."""
    for amount in amounts:
        assert state.phase == BID
        state.apply_action(SP.bid + amount)


class TestBidding:
    def test_a_clear_winner_pays_the_bank_takes_the_row_and_the_go_first_marker(self) -> None:
        state = R.new_state(3, deal(3), check=True)
        row0 = list(state.rows[0])
        bid(state, 3, 1, 0)
        assert state.loon == [9, 12, 12]
        assert set(row0) <= set(state.hands[0]) and len(state.hands[0]) == 12
        assert state.go_first == 0
        assert state.bid_row == 1 and state.bidders == [1, 2]

    def test_a_bid_above_your_loon_is_refused(self) -> None:
        state = R.new_state(3, deal(3), check=True)
        assert max(state.legal_actions()) == SP.bid + 12
        with pytest.raises(IllegalAction, match="holds only 12"):
            state.apply_action(SP.bid + 13)

    def test_sealed_bids_are_hidden_until_all_have_bid(self) -> None:
        state = R.new_state(3, deal(3))
        bid(state, 5)
        obs = state.observation(1)
        assert obs["have_bid"] == [0] and obs["my_bid"] == -1
        assert 5 not in [b for _, bids in obs["last_bids"] for b in bids]
        bid(state, 1, 0)
        assert state.observation(1)["last_bids"] == [(0, [5, 1, 0])]

    def test_a_tie_is_broken_by_a_tie_card_red_beating_green_on_equal_numbers(self) -> None:
        state = R.new_state(3, deal(3, hands=[["15 green"], ["15 red"], []]), check=True)
        bid(state, 2, 2, 0)
        assert state.phase == TIE and state.tied == [0, 1]
        state.apply_action(SP.tie + card("15 green"))
        assert state.observation(1)["my_tie_card"] == -1          # seat 0's card stays hidden
        state.apply_action(SP.tie + card("15 red"))
        assert state.row_owner[0] == 1 and state.go_first == 1
        assert state.loon == [12, 10, 12]
        assert card("15 green") in state.hands[0] and card("15 red") in state.hands[1]   # tie cards go back

    def test_higher_number_wins_a_tie_before_colour(self) -> None:
        state = R.new_state(3, deal(3, hands=[["16 blue"], ["15 red"], []]))
        bid(state, 1, 1, 0)
        state.apply_action(SP.tie + card("16 blue"))
        state.apply_action(SP.tie + card("15 red"))
        assert state.row_owner[0] == 0

    def test_zero_ties_add_loon_then_a_second_pass_where_the_tie_winner_chooses(self) -> None:
        state = R.new_state(3, deal(3, hands=[[], ["20 red"], ["20 green"]]), check=True)
        bid(state, 0, 0, 0)                       # row 1: zero tie
        assert state.row_loon[0] == T.zero_tie_loon and state.bid_row == 1
        bid(state, 1, 0, 0)                       # row 2: seat 0 wins
        assert state.row_owner[1] == 0
        bid(state, 0, 0)                          # row 3: zero tie between seats 1 and 2
        assert state.row_loon[2] == T.zero_tie_loon
        assert state.bid_pass == 2 and state.bid_row == 0 and state.bidders == [1, 2]
        bid(state, 0, 0)                          # second bid on row 1: zero tie again
        assert state.phase == TIE
        state.apply_action(SP.tie + card("20 red"))
        state.apply_action(SP.tie + card("20 green"))
        assert state.phase == CHOOSE and state.current_player() == 1
        assert state.legal_actions() == [SP.choose + 1, SP.choose + 2]
        state.apply_action(SP.choose + 2)         # seat 1 hands row 1 (and its loon) to seat 2
        assert state.row_owner[0] == 2 and state.go_first == 2
        # the one row left goes free to seat 1, with the loon lying on it
        assert state.row_owner[2] == 1 and state.phase == DITCH
        assert state.loon == [11, 14, 14]
        assert state.bid_count[0] == [1, 2, 2]
        assert max(max(row) for row in state.bid_count) <= T.max_bids_per_row

    def test_the_last_row_goes_free(self) -> None:
        state = R.new_state(3, deal(3), check=True)
        bid(state, 4, 0, 0)
        bid(state, 3, 1)
        assert state.row_owner == [0, 1, 2] and state.loon == [8, 9, 12]
        assert state.bid_count[2] == [0, 0, 0] and state.phase == DITCH


def scripted_round_one() -> tuple:
    """Seat 0 holds every green, seat 1 every red, seat 2 every blue (3 players: numbers 9-20)."""
    hands = [colour("green", range(20, 15, -1)), colour("red", range(20, 15, -1)), colour("blue", range(20, 15, -1))]
    rows = [colour("green", range(15, 8, -1)), colour("red", range(15, 8, -1)), colour("blue", range(15, 8, -1))]
    d = deal(3, hands, rows, recruitment=["vulper-recruits", "mustel-recruits"], capture=["landlubber"],
             treasure=["tempt-fortune"])
    state = R.new_state(3, d, check=True)
    bid(state, 12, 0, 0)      # seat 0 spends everything on row 1
    bid(state, 1, 0)          # row 2 to seat 1; row 3 goes free to seat 2
    for seat in range(3):
        for name in ("9", "10"):
            assert state.current_player() == seat
            state.apply_action(SP.ditch + card(f"{name} {('green', 'red', 'blue')[seat]}"))
    return state


class TestRound:
    def test_ditching_leaves_ten_cards_and_predictions_start_with_go_first(self) -> None:
        state = scripted_round_one()
        assert [len(h) for h in state.hands] == [10, 10, 10]
        assert state.phase == PREDICT and state.predict_order == [0, 1, 2]
        assert state.legal_actions() == list(range(SP.predict, SP.predict + 11))

    def test_full_round_trump_follow_settle_and_top_up(self) -> None:
        state = scripted_round_one()
        for guess in (5, 10, 0):
            state.apply_action(SP.predict + guess)
        assert state.phase == PLAY
        # recruitment paid after the predictions: ten reds / ten blues make three groups of three
        assert state.loon == [0, 11 + 6, 12 + 6]
        shown = state.observation(2)["shown"]
        assert shown[0] == [] and len(shown[1]) == 9 and len(shown[2]) == 9   # three groups of three
        assert state.current_player() == 0                     # the Go First player leads
        state.apply_action(card("20 green"))
        assert state.legal_actions() == state.hands[1]         # no green: any card may be played
        state.apply_action(card("11 red"))
        state.apply_action(card("20 blue"))
        assert state.trick_winners == [1]                      # the lowest red trumps two 20s
        while state.round == 0:
            legal = state.legal_actions()
            state.apply_action(legal[0])
        assert state.total_tricks == [0, 10, 0]
        # landlubber: seats 0 and 2 tie for fewest and both pay 5; tempt fortune: 5 off pays 10, exact pays 8.
        # seat 0 owes 15 with nothing left and pays nothing; then tops up to 5 for round 2.
        assert state.gains["capture"][1] == 0
        assert state.loon == [T.top_up, 17 + 8, 18 - 5 + 8]
        assert state.gains["top_up"] == [T.top_up, 0, 0]
        assert state.phase == BID and state.round == 1

    def test_must_follow_the_led_colour(self) -> None:
        for seed in range(50):
            state = R.new_game(4, seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.phase == PLAY and state.trick_cards:
                    seat = state.current_player()
                    led = T.card_colour[state.trick_cards[0]]
                    hand = state.hands[seat]
                    follow = [c for c in hand if T.card_colour[c] == led]
                    off = [c for c in hand if T.card_colour[c] != led]
                    assert state.legal_actions() == (follow or hand)
                    if follow and off:
                        rule = f"seat {seat} played .* but holds .* and must follow {T.colours[led]}"
                        with pytest.raises(IllegalAction, match=rule):
                            state.apply_action(off[0])
                        return
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        raise AssertionError("no must-follow situation found")


class TestText:
    def test_actions_round_trip(self) -> None:
        state = R.new_state(3, deal(3))
        for text in ("play 14 red", "tie card 12 green", "ditch 9 blue", "predict 4", "give row to seat 2", "bid 3"):
            assert state.action_to_string(state.string_to_action(text)) == text
        with pytest.raises(IllegalAction, match="unreadable action"):
            state.string_to_action("bid lots")

    def test_an_action_of_the_wrong_phase_names_the_rule(self) -> None:
        state = R.new_state(3, deal(3))
        with pytest.raises(IllegalAction, match=r"seat 0 cannot .* now: in the bid phase they must bid 0\.\.12"):
            state.apply_action(SP.ditch + state.hands[0][0])


def test_longer_games_play_the_optional_rounds() -> None:
    rules = RULES(GAME, rounds=5)
    state = rules.new_game(4, seed=2, check=True)
    rng = random.Random(2)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert state.rounds_played == 5
