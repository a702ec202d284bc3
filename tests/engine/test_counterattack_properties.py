"""Counterattack invariants over random legal games, plus its composition checks."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.base import IllegalAction
from generator.engine.games.counterattack import BOTS, RULES, composition_checks
from generator.load import load_game
from generator.project import Project
from tests.engine.walk import random_walk

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "counterattack")
R = RULES(GAME)
N = len(R.config.card_suit)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.sampled_from([1, 2])


def random_game(p: int, seed: int, check: bool = True):
    state = R.new_game(p, seed, check=check)
    return random_walk(state, random.Random(seed))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(p=players, seed=seeds)
def test_random_legal_games_keep_every_invariant(p: int, seed: int) -> None:
    state = random_game(p, seed)        # check mode: invariants verified after every action
    result = state.result()
    assert state.legal_actions() == []
    assert result.scores[0] == state.ports_exploited
    assert bool(result.winners) == (state.ports_exploited == R.config.ports_to_win)


@settings(max_examples=150, deadline=None)
@given(p=players, seed=seeds, steps=st.integers(0, 40), pick=st.integers(0, 10**6))
def test_an_illegal_action_is_refused_and_changes_nothing(p: int, seed: int, steps: int, pick: int) -> None:
    state = R.new_game(p, seed, check=True)
    random_walk(state, random.Random(seed), steps)
    illegal = [a for a in range(N + 1) if a not in state.legal_actions()]
    before = (list(state.history), [h[:] for h in state.hands], state.exposed_pos, state.won, state.lost)
    action = illegal[pick % len(illegal)]
    try:
        state.apply_action(action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"{state.action_to_string(action)} was accepted")
    assert before == (state.history, state.hands, state.exposed_pos, state.won, state.lost)


@settings(max_examples=100, deadline=None)
@given(p=players, seed=seeds, steps=st.integers(0, 30))
def test_copy_is_independent(p: int, seed: int, steps: int) -> None:
    state = R.new_game(p, seed)
    random_walk(state, random.Random(seed), steps)
    if state.is_terminal():
        return
    twin = state.copy()
    snapshot = (list(state.history), [h[:] for h in state.hands], list(state.owner), state.trick, state.exposed_pos)
    while not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[-1])
    assert snapshot == (state.history, state.hands, state.owner, state.trick, state.exposed_pos)
    state.check_invariants()


@settings(max_examples=100, deadline=None)
@given(p=players, seed=seeds)
def test_same_deal_and_actions_give_the_same_result(p: int, seed: int) -> None:
    first = random_game(p, seed, check=False)
    deal = R.random_deal(p, random.Random(seed))
    replay = R.new_state(p, deal)
    for action in first.history:
        replay.apply_action(action)
    assert replay.result() == first.result() and replay.stats() == first.stats()


def test_the_data_passes_every_composition_check() -> None:
    failed = [c for c in composition_checks(GAME) if not c.ok]
    assert failed == []


def test_a_repeated_port_number_fails_with_its_yaml_line() -> None:
    ports = GAME.component("port")
    twin = dataclasses.replace(ports.items[1], fields={**ports.items[1].fields, "tricks": ports.items[0]["tricks"]})
    broken_ports = dataclasses.replace(ports, items=(ports.items[0], twin, *ports.items[2:]))
    broken = dataclasses.replace(GAME, components=tuple(broken_ports if c.id == "port" else c for c in GAME.components))
    failed = [c for c in composition_checks(broken) if not c.ok]
    assert [c.name for c in failed] == ["port numbers distinct"]
    assert failed[0].location == ports.location and failed[0].location.line > 0


def test_a_short_main_deck_fails_the_deal_checks() -> None:
    main = GAME.component("main")
    short = dataclasses.replace(main, items=main.items[:-1])
    broken = dataclasses.replace(GAME, components=tuple(short if c.id == "main" else c for c in GAME.components))
    (failed,) = [c for c in composition_checks(broken) if not c.ok]  # the engine cannot deal it: refused first
    assert failed.actual == ("rules: 'hand_size' must be such that 2 x hand_size x hands_per_pass + "
                             "set_aside_after_aft = 43, the main deck's cards, got 2 x 10 x 2 + 4 = 44")
    assert failed.location == GAME.rule_location("hand_size")


def test_heuristic_beats_random_and_planner_plays_legally() -> None:
    def wins(bot: str, games: int) -> int:
        total = 0
        for seed in range(games):
            state = R.new_game(1, seed, check=(seed < 5))
            player = BOTS[bot](R, 0, random.Random(seed))
            while not state.is_terminal():
                state.apply_action(player.choose(state.observation(0), state.legal_actions()))
            total += bool(state.result().winners)
        return total
    assert wins("heuristic", 300) > wins("random", 300)
    planner = BOTS["planner"](R, 0, random.Random(1))
    planner.samples = 4
    state = R.new_game(1, 7, check=True)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(planner.choose(state.observation(0), state.legal_actions()))
