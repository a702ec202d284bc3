"""Pirates Under Fire invariants over random legal games (hypothesis), plus its composition checks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.base import IllegalAction
from generator.engine.games.under_fire import BOTS, RULES, composition_checks
from generator.load import load_game
from generator.project import Project
from tests.engine.walk import random_walk
from tests.helpers import edit

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "pirates-under-fire")
R = RULES(GAME)

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(seed: int, check: bool = True):
    state = R.new_game(2, seed, check=check)
    return random_walk(state, random.Random(seed))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(seed=seeds)
def test_random_legal_games_keep_every_invariant(seed: int) -> None:
    state = random_game(seed)  # check mode: invariants verified after every action
    result = state.result()
    assert state.legal_actions() == []
    if state.loser == -1:
        assert state.turns == [R.config.turns] * 2
        assert result.scores == tuple(float(sum(f.values())) for f in state.final)
    else:
        assert result.winners == (1 - state.loser,)


@settings(max_examples=150, deadline=None)
@given(seed=seeds, steps=st.integers(0, 90), pick=st.integers(0, 10**6))
def test_an_illegal_action_is_refused_and_changes_nothing(seed: int, steps: int, pick: int) -> None:
    state = R.new_game(2, seed, check=True)
    random_walk(state, random.Random(seed), steps)
    illegal = sorted(set(range(R.space.size)) - set(state.legal_actions()))
    action = illegal[pick % len(illegal)]
    before = state.copy()
    try:
        state.apply_action(action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"{state.action_to_string(action)!r} was accepted")
    assert state.history == before.history and state.occ == before.occ and state.hands == before.hands
    assert state.gold == before.gold and state.phase == before.phase and state.market == before.market


@settings(max_examples=60, deadline=None)
@given(seed=seeds, steps=st.integers(0, 60))
def test_copy_is_independent(seed: int, steps: int) -> None:
    state = R.new_game(2, seed)
    random_walk(state, random.Random(seed), steps)
    clone = state.copy()
    snapshot = (state.history[:], state.occ[:], [h[:] for h in state.hands], state.gold[:], state.burning,
                state.market[:], state.phase)
    rng2 = random.Random(seed + 1)
    while not clone.is_terminal():
        legal = clone.legal_actions()
        clone.apply_action(legal[rng2.randrange(len(legal))])
    assert (state.history, state.occ, state.hands, state.gold, state.burning, state.market, state.phase) == snapshot


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_same_deal_and_actions_give_the_same_result(seed: int) -> None:
    first = random_game(seed, check=False)
    replay = R.new_state(2, R.random_deal(2, random.Random(seed)))
    for action in first.history:
        replay.apply_action(action)
    assert replay.result() == first.result() and dict(replay.stats()) == dict(first.stats())


def test_heuristic_bot_beats_random_bots() -> None:
    wins = 0.0
    games = 40
    for seed in range(games):
        seat = seed % 2
        state = R.new_game(2, seed)
        bots = [BOTS["heuristic" if s == seat else "random"](R, s, random.Random(seed * 2 + s)) for s in (0, 1)]
        while not state.is_terminal():
            who = state.current_player()
            state.apply_action(bots[who].choose(state.observation(who), state.legal_actions()))
        winners = state.result().winners
        wins += (seat in winners) / len(winners)
    assert wins / games > 0.85


def test_observation_hides_the_rival_hand_deck_and_tokens() -> None:
    state = R.new_game(2, 5)
    obs = state.observation(0)
    assert len(obs["hand"]) == R.config.hand_size and obs["hand_sizes"] == [R.config.hand_size] * 2
    assert "hands" not in obs and "decks" not in obs
    assert isinstance(obs["vp"], int) and obs["tokens"] == [0, 0]


def test_composition_checks_pass_on_the_real_data() -> None:
    checks = composition_checks(GAME)
    assert checks and all(c.ok for c in checks), [c for c in checks if not c.ok]
    names = " ".join(c.name for c in checks)
    assert "red fleet: turns it lasts" in names and "blue fleet: every ship number 1-9" in names
    assert "run of 8 formable" in names and "set of 4 formable" in names


def test_a_fleet_too_small_for_sixteen_turns_fails_at_its_yaml_line(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "tiles.yaml", 'number: 5, count: 4,', 'number: 5, count: 3,')
    failed = [c for c in composition_checks(load_game(project_copy, "pirates-under-fire")) if not c.ok]
    assert [c.actual for c in failed] == ["rules: 'turns' must be the turns the blue fleet lasts: 17 tiles - "
                                          "hand_size 3 + 1 = 15, got 16"]  # the engine refuses it (engine.playable)
    assert all(c.location is not None and c.location.line > 0 for c in failed)


def test_a_missing_ship_number_is_reported(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "tiles.yaml", 'id: "{fleet}-9", number: 9,',
         'id: "{fleet}-9", number: 8,')
    failed = [c for c in composition_checks(load_game(project_copy, "pirates-under-fire")) if not c.ok]
    assert [c.name for c in failed] == ["red fleet: every ship number 1-9", "blue fleet: every ship number 1-9",
                                        "run of 9 formable"]
    assert failed[0].actual == "missing [9]" and failed[0].location.file.endswith("tiles.yaml")


def test_an_unknown_effect_is_reported_at_its_item(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "tiles.yaml", 'ability: "steal:2"', 'ability: "plunder:2"')
    failed = [c for c in composition_checks(load_game(project_copy, "pirates-under-fire")) if not c.ok]
    assert [c.name for c in failed] == ["ship red-2 ability: known to the engine",
                                        "ship blue-2 ability: known to the engine"]
    assert "plunder" in failed[0].actual and failed[0].location.file.endswith("tiles.yaml")


def test_an_unexplained_sea_effect_is_reported(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "game.yaml",
         "    salvage:   {label: Salvage, text: Put out the fire on your adjacent ships.}\n", "")
    failed = [c for c in composition_checks(load_game(project_copy, "pirates-under-fire")) if not c.ok]
    assert [c.name for c in failed] == ["mercenary salvager effect: known and explained"]


def test_a_run_table_that_stops_short_of_the_board_is_refused_at_its_line(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "game.yaml", ", 8: 16, 9: 20}", ", 8: 16}")
    (failed,) = [c for c in composition_checks(load_game(project_copy, "pirates-under-fire")) if not c.ok]
    assert "scoring.runs: no VP for lines of 9 (the board allows 3..9)" in failed.actual
    assert str(failed.location).startswith("data/pirates-under-fire/game.yaml:")


def test_a_run_table_where_a_longer_run_pays_no_more_is_refused(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "game.yaml", ", 8: 16, 9: 20}", ", 8: 16, 9: 16}")
    (failed,) = [c for c in composition_checks(load_game(project_copy, "pirates-under-fire")) if not c.ok]
    assert "a line of 9 pays 16, not more than a line of 8" in failed.actual
