"""Pirate Tricks invariants over random legal games, plus its composition checks."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.base import IllegalAction
from generator.engine.games.pirate_tricks import BOTS, RULES, composition_checks
from generator.engine.games.pirate_tricks.state import PLAY
from generator.load import load_game
from generator.project import Project
from tests.engine.walk import random_walk

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "pirate-tricks")
R = RULES(GAME)
T = R.config
SP = R.space

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.sampled_from([3, 4, 5])


def trick_winner(cards: list[int], leader: int, players: int) -> int:
    """Independent statement of the trick rule: highest red if any red, else highest of the led colour."""
    reds = [i for i, c in enumerate(cards) if T.card_colour[c] == T.trump]
    pool = reds or [i for i, c in enumerate(cards) if T.card_colour[c] == T.card_colour[cards[0]]]
    best = max(pool, key=lambda i: T.card_rank[cards[i]])
    return (leader + best) % players


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(p=players, seed=seeds)
def test_random_legal_games_keep_every_invariant(p: int, seed: int) -> None:
    state = R.new_game(p, seed, check=True)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        if state.phase == PLAY and len(state.trick_cards) == p - 1:
            action = legal[rng.randrange(len(legal))]
            expected = trick_winner([*state.trick_cards, action], state.leader, p)
            state.apply_action(action)
            assert state.last_trick is not None and state.last_trick[2] == expected
            continue
        state.apply_action(legal[rng.randrange(len(legal))])
    result = state.result()
    assert state.rounds_played == R.rounds
    assert result.winners == tuple(s for s in range(p) if state.loon[s] == max(state.loon))
    assert all(x >= 0 for x in state.loon)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(p=players, seed=seeds, steps=st.integers(0, 200), pick=st.integers(0, 10**6))
def test_an_illegal_action_is_refused_and_changes_nothing(p: int, seed: int, steps: int, pick: int) -> None:
    state = R.new_game(p, seed, check=True)
    random_walk(state, random.Random(seed), steps)
    legal = set(state.legal_actions())
    illegal = [a for a in range(SP.bid + 40) if a not in legal]
    before = (list(state.history), [h[:] for h in state.hands], list(state.loon), state.phase)
    action = illegal[pick % len(illegal)]
    try:
        state.apply_action(action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"{state.action_to_string(action)} was accepted")
    assert before == (state.history, state.hands, state.loon, state.phase)


@settings(max_examples=60, deadline=None)
@given(p=players, seed=seeds, steps=st.integers(0, 150))
def test_copy_is_independent(p: int, seed: int, steps: int) -> None:
    state = R.new_game(p, seed)
    random_walk(state, random.Random(seed), steps)
    twin = state.copy()
    snapshot = repr(dict(state.observation(0))), list(state.owner), list(state.loon), list(state.history)
    while not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[-1])
    assert snapshot == (repr(dict(state.observation(0))), state.owner, state.loon, state.history)
    state.check_invariants()


@settings(max_examples=60, deadline=None)
@given(p=players, seed=seeds)
def test_same_deal_and_actions_give_the_same_result(p: int, seed: int) -> None:
    state = R.new_game(p, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    replay = R.new_state(p, R.random_deal(p, random.Random(seed)))
    for action in state.history:
        replay.apply_action(action)
    assert replay.result() == state.result() and replay.stats() == state.stats()


def test_observation_hides_other_hands_face_down_cards_and_pending_choices() -> None:
    state = R.new_game(4, 11)
    obs = state.observation(0)
    text = repr(dict(obs))
    assert obs["hand"] == state.hands[0]
    assert all(isinstance(r["face_down"], int) for r in obs["rows"])
    assert "hands" not in obs and obs["hand_sizes"] == [5, 5, 5, 5]
    assert "loon" in obs and isinstance(obs["loon"], int)    # only one's own loon: the rest sit behind screens
    assert text


def test_the_data_passes_every_composition_check() -> None:
    assert [c for c in composition_checks(GAME) if not c.ok] == []


def test_a_wrong_removal_fails_the_deal_check_with_its_yaml_line() -> None:
    three = GAME.player_counts[3]
    crew = GAME.component("crew")
    from generator.model.game import Condition, Filter
    wrong = dataclasses.replace(three, remove=(Filter("crew", (Condition("rank", min=1, max=7),), three.location),))
    broken = dataclasses.replace(GAME, player_counts={**GAME.player_counts, 3: wrong})
    failed = [c for c in composition_checks(broken) if not c.ok]
    assert failed and all("with 3 players" in c.actual for c in failed)  # refused by the engine (engine.playable)
    assert all(c.location == three.location and c.location.line > 0 for c in failed)
    assert crew  # unchanged


def test_a_short_bank_fails_by_denomination() -> None:
    loon = GAME.component("loon")
    ones = next(i for i in loon.items if i["value"] == 1)
    fewer = dataclasses.replace(ones, count=30)
    short = dataclasses.replace(loon, items=tuple(fewer if i is ones else i for i in loon.items))
    broken = dataclasses.replace(GAME, components=tuple(short if c.id == "loon" else c for c in GAME.components))
    failed = [c for c in composition_checks(broken) if not c.ok]
    assert [c.name for c in failed] == ["bank has 7 x 1-loon coin(s) for each of 5 players"]
    assert failed[0].location == loon.location


def test_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(40):
        state = R.new_game(4, seed, check=seed < 3)
        rng = random.Random(seed)
        bots = [BOTS["heuristic" if s == 0 else "random"](R, s, rng) for s in range(4)]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
        wins += 0 in state.result().winners
    assert wins > 20
