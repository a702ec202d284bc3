"""The worked examples of seed 003, and the score cards' arithmetic, read from the data."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.games.pirate_tricks import RULES, scoring
from generator.load import load_game
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "pirate-tricks")
R = RULES(GAME)
T = R.config


def cards(*names: str) -> list[int]:
    return [T.card_names.index(n) for n in names]


def item(component: str, item_id: str):
    return GAME.component(component).item(item_id)


def test_bountiful_booty_ties_share_a_place_and_the_next_group_takes_the_next() -> None:
    # Troy and Luke 3 tricks each, Faith and Drake 2 each: 6, 6, 4, 4 and nobody collects 2.
    pays = scoring.treasure_payouts(item("treasure", "bountiful-booty"), [3, 3, 2, 2], [None] * 4)
    assert pays == [6, 6, 4, 4]
    assert 2 not in pays


def test_bountiful_booty_pays_three_places_from_the_card() -> None:
    places = list(item("treasure", "bountiful-booty")["places"])
    assert scoring.ranked_places([4, 3, 2, 1, 0], places) == [*places, 0, 0]
    assert scoring.ranked_places([5, 5, 0], places) == [6, 6, 0]   # no trick, no place


def test_gang_of_three_never_reuses_a_card() -> None:
    hand = cards("15 red", "16 red", "17 red", "18 red")
    gang = item("recruitment", "gang-of-three")
    assert scoring.recruitment_payout(T, gang, hand) == 3        # one run, not two sharing 16 and 17
    assert scoring.recruitment_payout(T, gang, hand + cards("19 red", "20 red")) == 6


def test_gang_of_two_makes_two_runs_from_four_in_a_row() -> None:
    hand = cards("15 red", "16 red", "17 red", "18 red")
    assert scoring.recruitment_payout(T, item("recruitment", "gang-of-two"), hand) == 2


def test_runs_are_of_one_colour() -> None:
    hand = cards("15 red", "16 green", "17 red")
    assert scoring.recruitment_payout(T, item("recruitment", "gang-of-two"), hand) == 0


def test_partners_in_crime_pays_one_pair_for_three_colours_of_a_number() -> None:
    hand = cards("13 red", "13 green", "13 blue")
    assert scoring.recruitment_payout(T, item("recruitment", "partners-in-crime"), hand) == 2


def test_one_card_may_serve_two_different_recruitment_cards() -> None:
    hand = cards("13 red", "14 red", "15 red", "13 green")
    gang = scoring.recruitment_payout(T, item("recruitment", "gang-of-three"), hand)
    partners = scoring.recruitment_payout(T, item("recruitment", "partners-in-crime"), hand)
    assert (gang, partners) == (3, 2)


def test_designed_recruitment_cards() -> None:
    reds = cards("9 red", "10 red", "11 red", "12 red", "13 red", "14 red", "15 red")
    assert scoring.recruitment_payout(T, item("recruitment", "vulper-recruits"), reds) == 4
    assert scoring.recruitment_payout(T, item("recruitment", "old-salts"), cards("16 red", "20 blue", "15 red")) == 2
    assert scoring.recruitment_payout(T, item("recruitment", "triple-trouble"),
                                      cards("9 red", "9 green", "9 blue", "10 red")) == 5
    assert scoring.recruitment_payout(T, item("recruitment", "motley-crew"),
                                      cards("9 red", "10 red", "9 green", "9 blue", "10 blue")) == 1
    assert scoring.recruitment_payout(T, item("recruitment", "gang-of-four"),
                                      cards("9 blue", "10 blue", "11 blue", "12 blue", "13 blue")) == 6


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(st.integers(0, 59), min_size=0, max_size=14, unique=True),
       index=st.integers(0, len(T.recruitment) - 1))
def test_fast_count_agrees_with_the_best_assignment(hand: list[int], index: int) -> None:
    spec = T.recruitment_specs[index]
    combos = scoring.recruitment_combos(T, spec, hand)
    assert scoring.recruitment_count(T, spec, hand) == len(combos)
    used = [c for combo in combos for c in combo]
    assert len(used) == len(set(used)) and set(used) <= set(hand)   # no card used twice


def test_capture_cards() -> None:
    piles = [cards("20 red", "13 green", "18 blue"), cards("13 red", "5 green"), []]
    winners = [0, 1, 0]
    pay = lambda card_id: scoring.capture_payouts(T, item("capture", card_id), piles, winners)  # noqa: E731
    assert pay("vulper-ransom") == [1, 1, 0]
    assert pay("admirals-ransom") == [4, 0, 0]
    assert pay("big-fish") == [2, 0, 0]
    assert pay("mutineers") == [-3, -3, 0]
    assert pay("landlubber") == [0, 0, -5]
    assert pay("first-blood") == [3, 0, 0]
    assert pay("last-broadside") == [5, 0, 0]


def test_ties_on_a_capture_card_all_collect() -> None:
    piles = [[], [], []]
    assert scoring.capture_payouts(T, item("capture", "landlubber"), piles, [0, 0]) == [0, -5, -5]


def test_prediction_cards() -> None:
    tempt = item("treasure", "tempt-fortune")
    loot = item("treasure", "extra-loot")
    assert scoring.treasure_payouts(tempt, [3, 2, 5], [3, 4, 5]) == [8, -4, 8]
    assert scoring.treasure_payouts(loot, [3, 2, 5], [3, 4, 5]) == [6, 0, 8]


def test_other_treasure_cards() -> None:
    tricks = [4, 3, 3, 0]
    assert scoring.treasure_payouts(item("treasure", "captains-share"), tricks, [None] * 4) == [8, 0, 0, 0]
    assert scoring.treasure_payouts(item("treasure", "lean-pickings"), tricks, [None] * 4) == [0, 0, 0, 6]
    assert scoring.treasure_payouts(item("treasure", "doubloon-dividend"), tricks, [None] * 4) == [4, 3, 3, 0]
    assert scoring.treasure_payouts(item("treasure", "fair-share"), tricks, [None] * 4) == [0, 5, 5, 0]


def test_paying_at_most_what_you_have() -> None:
    assert scoring.settle([3, 10, 0], [-10, -4, 5]) == [0, 6, 5]
