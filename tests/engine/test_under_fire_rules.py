"""Pirates Under Fire: one hand-built scenario per rule."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generator.engine.base import IllegalAction
from generator.engine.games.under_fire import RULES
from generator.engine.games.under_fire.board import bits
from generator.engine.games.under_fire.state import AFTER, MAIN, ORDER, TARGET, UnderFireState
from generator.errors import DataError
from generator.load import load_game
from generator.load.overrides import parse_overrides
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "pirates-under-fire")
R = RULES(GAME)
SPACE = {name.lower(): i for i, name in enumerate(R.geometry.names)}
MERC = {name: m for m, name in enumerate(R.config.merc_names)}
RED, BLUE = 0, 1


def fresh(first: int = RED, seed: int = 1) -> UnderFireState:
    deal = R.random_deal(2, random.Random(seed))
    deal["first"] = first
    return R.new_state(2, deal, check=True)


def tile_of(state: UnderFireState, seat: int, number: int) -> int:
    """Take a ship of that number out of the seat's deck (or hand) without breaking conservation."""
    for place in (state.decks[seat], state.hands[seat]):
        for i, t in enumerate(place):
            if R.config.ship_number[t] == number:
                return place.pop(i)
    raise AssertionError(f"no ship {number} left for seat {seat}")


def put(state: UnderFireState, seat: int, number: int, where: str, burning: bool = False) -> int:
    s = SPACE[where.lower()]
    state.occ[s] = tile_of(state, seat, number)
    state.ships[seat] |= 1 << s
    if burning:
        state.burning |= 1 << s
    return s


def hand(state: UnderFireState, seat: int, *numbers: int) -> None:
    """Replace the seat's hand with ships of these numbers (old hand back on the deck)."""
    state.decks[seat].extend(state.hands[seat])
    state.hands[seat] = []
    for n in numbers:
        state.hands[seat].append(tile_of(state, seat, n))


def act(state: UnderFireState, text: str) -> None:
    state.apply_action(state.string_to_action(text))


def accessible(state: UnderFireState, seat: int) -> set[str]:
    return {R.geometry.names[s] for s in bits(state.accessible(seat))}


def test_first_row_is_accessible_at_the_start() -> None:
    s = fresh()
    assert accessible(s, RED) == {f"red {c}1" for c in "ABCDE"}
    assert accessible(s, BLUE) == {f"blue {c}1" for c in "ABCDE"}


def test_spaces_next_to_own_active_ships_are_accessible_across_onto_the_rival_sea() -> None:
    s = fresh()
    put(s, RED, 5, "red A5")  # row 5 meets the rival's row 5
    assert {"red A4", "red B5", "blue E5"} <= accessible(s, RED)
    assert "blue D5" not in accessible(s, RED)
    s.burning |= 1 << SPACE["red a5"]  # a burning ship gives no reach
    assert accessible(s, RED) == {f"red {c}1" for c in "ABCDE"}


def test_a_burning_ship_next_to_an_active_ship_is_accessible_and_sinks_without_sea_effect() -> None:
    s = fresh()
    put(s, RED, 5, "red C2")
    victim = put(s, BLUE, 4, "red C3", burning=True)  # red C3 is a gold:2 space
    far = put(s, BLUE, 6, "red E1", burning=True)  # first row but not next to a red ship
    assert "red C3" in accessible(s, RED) and "red E1" not in accessible(s, RED)
    hand(s, RED, 8, 8 - 3, 5)
    gold = s.gold[RED]
    burnt = s.occ[victim]
    act(s, "place 5 at red C3")
    assert burnt in s.sunk
    assert s.gold[RED] == gold + 1  # the Merchant's 1 gold; the gold:2 space gives nothing
    assert s.occ[far] != -1


def test_placing_on_an_active_ship_is_refused() -> None:
    s = fresh()
    put(s, BLUE, 4, "red A1")
    hand(s, RED, 5, 5, 5)
    with pytest.raises(IllegalAction, match="not accessible"):
        act(s, "place 5 at red A1")
    with pytest.raises(IllegalAction, match="no ship 9"):
        act(s, "place 9 at red B1")


def test_sea_and_ship_effects_in_either_order_when_it_matters() -> None:
    results = {}
    for choice in ("sea effect first", "ship effect first"):
        s = fresh()
        put(s, RED, 5, "red B2")
        put(s, BLUE, 5, "red C3")
        hand(s, RED, 4, 5, 5)  # 4: Trader, 1 gold per adjacent active tile (either captain's); red B3 sets a rival on fire
        assert R.geometry.effect_key[SPACE["red b3"]] == "ignite"
        gold = s.gold[RED]
        act(s, "place 4 at red B3")
        assert s.phase == ORDER
        assert s.legal_actions() == [R.space.sea_first, R.space.ship_first]
        act(s, choice)
        assert s.burning >> SPACE["red c3"] & 1
        results[choice] = s.gold[RED] - gold
    assert results == {"sea effect first": 1, "ship effect first": 2}


def test_effects_that_cannot_interfere_need_no_order_choice() -> None:
    s = fresh()
    hand(s, RED, 5, 5, 5)
    gold = s.gold[RED]
    act(s, "place 5 at red B1")  # gold:1 space + Merchant
    assert s.gold[RED] == gold + 2
    assert s.phase in (AFTER, MAIN)


def test_fire_with_two_targets_asks_where() -> None:
    s = fresh()
    put(s, RED, 5, "red B2")
    put(s, BLUE, 5, "red A3")
    put(s, BLUE, 6, "red C3")
    hand(s, RED, 7, 5, 5)  # 7: one adjacent rival ship on fire; red B3 is an ignite space too
    act(s, "place 7 at red B3")
    if s.phase == ORDER:
        act(s, "ship effect first")
    assert s.phase == TARGET
    assert sorted(s.legal_actions()) == [R.space.target + SPACE["red a3"], R.space.target + SPACE["red c3"]]
    with pytest.raises(IllegalAction, match="not a target"):
        act(s, "target red B2")
    act(s, "target red C3")
    assert s.burning >> SPACE["red c3"] & 1
    assert s.burning >> SPACE["red a3"] & 1  # the sea's fire took the only ship left


def test_mercenary_bought_before_the_main_action() -> None:
    s = fresh()
    s.gold[RED] = 5
    hand(s, RED, 5, 5, 5)
    act(s, "buy smuggler at red A1")
    assert s.phase == MAIN and s.bought and s.gold[RED] == 3
    assert s.gold[RED] == 3  # no sea effect for a mercenary (red A1 is open sea anyway)
    assert all(not (R.space.buy <= a < R.space.target) for a in s.legal_actions())
    act(s, "place 5 at red B1")
    assert s.current_player() == BLUE  # bought already: the turn ends after the main action


def test_mercenary_bought_after_the_main_action_without_sea_effect() -> None:
    s = fresh()
    s.gold[RED] = 5
    hand(s, RED, 5, 5, 5)
    act(s, "place 5 at red A1")
    assert s.phase == AFTER and s.current_player() == RED
    gold = s.gold[RED]
    act(s, "buy galleon at red B1")  # red B1 is a gold:1 space: not applied to a mercenary
    assert s.gold[RED] == gold - R.config.merc_cost[MERC["galleon"]]
    assert s.current_player() == BLUE
    assert s.merc_owner[MERC["galleon"]] == RED


def test_ram_sinks_a_rival_active_ship() -> None:
    s = fresh()
    s.gold[RED] = 10
    put(s, RED, 5, "red A2")
    target = put(s, BLUE, 4, "red A3")
    tile = s.occ[target]
    hand(s, RED, 5, 5, 5)
    act(s, "buy ram at red A3")
    assert tile in s.sunk and s.mercs[RED] >> target & 1
    with pytest.raises(IllegalAction):
        s2 = fresh()
        s2.gold[RED] = 10
        put(s2, BLUE, 4, "red A3")
        act(s2, "buy fireship at red A3")


def test_each_player_plays_exactly_sixteen_turns() -> None:
    turns = R.config.turns
    full_games = 0
    for seed in range(12):
        s = fresh(first=seed % 2, seed=seed)
        rng = random.Random(seed)
        order = []
        while not s.is_terminal():
            seat = s.current_player()
            legal = s.legal_actions()
            s.apply_action(R.space.end if R.space.end in legal else legal[rng.randrange(len(legal))])
            if not order or order[-1] != seat:
                order.append(seat)
        if s.loser == -1:
            full_games += 1
            assert s.turns == [turns, turns]
            assert order == [seed % 2, 1 - seed % 2] * turns  # strictly alternating, second player last
            assert [len(h) for h in s.hands] == [R.config.hand_size - 1] * 2
    assert full_games > 0


def test_the_last_draw_leaves_one_turn() -> None:
    s = fresh()
    for seat in (RED, BLUE):  # one tile left in each deck; the rest set aside as sunk, so every tile is counted
        s.sunk.extend(s.decks[seat][:-1])
        s.decks[seat] = s.decks[seat][-1:]
    for _ in range(2):  # red draws its last tile; blue too
        s.apply_action(s.legal_actions()[0])
        if s.phase == AFTER:
            act(s, "end turn")
        while s.phase in (ORDER, TARGET):
            s.apply_action(s.legal_actions()[0])
    assert s.decks == [[], []] and not any(s.finished)
    s.apply_action(s.legal_actions()[0])
    while s.phase in (ORDER, TARGET, AFTER):
        s.apply_action(R.space.end if s.phase == AFTER else s.legal_actions()[0])
    assert s.finished == [True, False] and not s.is_terminal()
    s.apply_action(s.legal_actions()[0])
    while s.phase in (ORDER, TARGET, AFTER):
        s.apply_action(R.space.end if s.phase == AFTER else s.legal_actions()[0])
    assert s.is_terminal() and s.turns == [2, 2]


def test_a_player_who_cannot_place_a_ship_loses_at_once() -> None:
    s = fresh(first=BLUE)
    for c in "ABCDE":
        put(s, BLUE, 4 if c in "AB" else 6, f"red {c}1")  # red's whole first row is taken
    hand(s, BLUE, 5, 5, 5)
    assert s.legal_actions()  # blue can still play
    act(s, "place 5 at blue A1")
    if s.phase == AFTER:
        act(s, "end turn")
    assert s.is_terminal() and s.loser == RED
    result = s.result()
    assert result.winners == (BLUE,) and result.details["lost_no_move"] == RED


def test_a_purchase_that_opens_a_space_means_the_player_has_not_lost() -> None:
    s = fresh(first=BLUE)
    for c in "ABCDE":
        put(s, BLUE, 4 if c in "AB" else 6, f"red {c}1")  # red's whole first row is taken
    hand(s, BLUE, 5, 5, 5)
    s.gold[RED] = R.config.merc_cost[MERC["ram"]]  # just enough for the Ram
    act(s, "place 5 at blue A1")
    if s.phase == AFTER:
        act(s, "end turn")
    assert not s.is_terminal() and s.current_player() == RED  # the Ram can sink a ship and open a space
    legal = [s.action_to_string(a) for a in s.legal_actions()]
    assert legal and all(text.startswith("buy ram at red ") for text in legal)  # red must buy first
    act(s, "buy ram at red A1")
    assert s.phase == MAIN and "red A2" in accessible(s, RED)
    act(s, "place " + str(R.config.ship_number[s.hands[RED][0]]) + " at red A2")
    assert not s.is_terminal() or s.loser == -1


def test_a_purchase_that_opens_nothing_does_not_save_the_player() -> None:
    s = fresh(first=BLUE)
    for c in "ABCDE":
        put(s, BLUE, 4 if c in "AB" else 6, f"red {c}1")
    hand(s, BLUE, 5, 5, 5)
    s.gold[RED] = R.config.merc_cost[MERC["ram"]] - 1  # one short of the Ram: no purchase can help
    act(s, "place 5 at blue A1")
    if s.phase == AFTER:
        act(s, "end turn")
    assert s.is_terminal() and s.loser == RED


def _score(build: list[tuple[int, int, str, bool]]) -> dict[str, int]:
    s = fresh()
    for seat, number, where, burning in build:
        put(s, seat, number, where, burning)
    return s.score_seat(RED)


def test_three_and_four_equal_numbers_side_by_side() -> None:
    sets = R.config.sets
    assert _score([(RED, 5, f"red {c}1", False) for c in "ABC"])["sets"] == sets[3]
    assert _score([(RED, 5, f"red {c}1", False) for c in "ABCD"])["sets"] == sets[4]
    assert _score([(RED, 5, f"red A{r}", False) for r in (1, 2, 3)])["sets"] == sets[3]  # vertical too
    assert _score([(RED, 5, "red A1", False), (RED, 5, "red B1", False), (RED, 5, "red D1", False)])["sets"] == 0


def test_runs_ascending_or_descending_in_a_straight_line() -> None:
    runs = R.config.runs
    assert _score([(RED, n, f"red {c}1", False) for n, c in zip((2, 3, 4), "ABC", strict=False)])["runs"] == runs[3]
    assert _score([(RED, n, f"red {c}1", False) for n, c in zip((6, 5, 4, 3), "ABCD", strict=False)])["runs"] == runs[4]
    assert _score([(RED, n, f"red {c}1", False) for n, c in zip((2, 4, 3), "ABC", strict=False)])["runs"] == 0
    across = [(RED, 3, "red A4", False), (RED, 4, "red A5", False), (RED, 5, "blue E5", False)]
    assert _score(across)["runs"] == runs[3]  # a column runs on across the meeting edge
    broken = [(RED, 2, "red A1", False), (RED, 3, "red B1", True), (RED, 4, "red C1", False)]
    assert _score(broken)["runs"] == 0  # a burning ship breaks the line
    mixed = [(RED, 2, "red A1", False), (BLUE, 3, "red B1", False), (RED, 4, "red C1", False)]
    assert _score(mixed)["runs"] == 0  # only one's own ships form lines


def test_every_run_a_column_allows_has_a_value_and_longer_runs_pay_more() -> None:
    column = [f"red A{r}" for r in range(1, 6)] + [f"blue E{r}" for r in range(5, 0, -1)]  # one line of ten
    values = {}
    for length in range(3, 10):
        values[length] = _score([(RED, n, column[n - 1], False) for n in range(1, length + 1)])["runs"]
    assert values[9] > values[8]  # a run of all nine numbers beats a run of eight
    assert all(values[n] > values[n - 1] for n in range(4, 10))
    assert values == {n: R.config.runs[n] for n in range(3, 10)}


def test_active_ships_on_the_rival_sea_score_one_each() -> None:
    score = _score([(RED, 5, "blue A4", False), (RED, 6, "blue C4", False), (RED, 7, "blue E4", True)])
    assert score["rival_sea"] == 2 * R.config.rival_sea_vp


def test_mercenary_vp_tokens_and_the_gold_tie_break() -> None:
    s = fresh()
    s.market[MERC["galleon"]] = False
    s.merc_owner[MERC["galleon"]] = RED
    s.occ[SPACE["red a1"]] = len(R.config.ship_number) + MERC["galleon"]
    s.mercs[RED] |= 1 << SPACE["red a1"]
    s.vp = [0, R.config.merc_vp[MERC["galleon"]]]
    s.gold = [3, 5]
    s._finish()
    assert s.final[RED]["mercenaries"] == R.config.merc_vp[MERC["galleon"]]
    assert s.final[BLUE]["tokens"] == R.config.merc_vp[MERC["galleon"]]
    result = s.result()
    assert result.scores[0] == result.scores[1] and result.winners == (BLUE,)
    s.gold = [5, 5]
    assert s.result().winners == (RED, BLUE)


def test_action_names_round_trip() -> None:
    s = fresh()
    for action in range(0, R.space.size, 7):
        assert s.string_to_action(s.action_to_string(action)) == action
    assert s.string_to_action("Place 7 at RED b2") == R.space.place + 6 * R.space.spaces + SPACE["red b2"]
    with pytest.raises(IllegalAction, match="unreadable"):
        s.string_to_action("fire the cannons")


def test_a_space_on_the_rival_sea_gives_its_effect() -> None:
    s = fresh()
    put(s, RED, 4, "red A5")
    hand(s, RED, 5, 5, 5)
    assert R.geometry.effect_key[SPACE["blue e5"]] == "gold:2"
    gold = s.gold[RED]
    act(s, "place 5 at blue E5")
    assert s.gold[RED] == gold + 2 + 1  # the rival's space, then the Merchant's gold
    assert s.score_seat(RED)["rival_sea"] == R.config.rival_sea_vp


def test_the_heuristic_bot_places_a_mercenary_at_random_among_equally_good_spaces() -> None:
    from generator.engine.games.under_fire.bots import HeuristicBot

    for seed in range(40):  # the first game reaching a purchase where several spaces are worth the same
        s = fresh(seed=seed)
        s.gold = [20, 20]
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.phase == AFTER:
                bot = HeuristicBot(R, s.turn, random.Random(0))
                obs = s.observation(s.turn)
                buys = [a for a in legal if R.space.buy <= a < R.space.target]
                values = {a: bot.buy_value(a, obs["board"], obs) for a in buys}
                best = max(values.values(), default=0.0)
                tied = [a for a, v in values.items() if v == best]
                if len(tied) > 1 and best > 0.3:
                    picks = {HeuristicBot(R, s.turn, random.Random(k)).choose(obs, legal) for k in range(30)}
                    assert picks <= set(tied) and len(picks) > 1  # before: always the lowest space
                    return
            s.apply_action(legal[rng.randrange(len(legal))])
    pytest.fail("no purchase with tied spaces found")


def test_the_captain_who_plays_second_starts_with_the_extra_gold() -> None:
    start = GAME.rules["starting_gold"]
    assert start["second_player"] > 0  # designed: the data makes up for the first move
    for first in (RED, BLUE):
        state = fresh(first)
        assert state.gold[first] == start["value"]
        assert state.gold[1 - first] == start["value"] + start["second_player"]


def test_without_the_extra_gold_both_captains_start_alike() -> None:
    game = load_game(Project.at(ROOT), "pirates-under-fire", parse_overrides(["starting_gold.second_player=0"]))
    rules = RULES(game)
    deal = rules.random_deal(2, random.Random(3))
    state = rules.new_state(2, deal, check=True)
    assert state.gold[0] == state.gold[1] == GAME.rules["starting_gold"]["value"]


def test_negative_extra_gold_is_refused_at_its_line() -> None:
    game = load_game(Project.at(ROOT), "pirates-under-fire", parse_overrides(["starting_gold.second_player=-1"]))
    with pytest.raises(DataError, match=r"game\.yaml:\d+: rules: 'starting_gold\.second_player' must be 0\.\.100, got -1"):
        RULES(game)
