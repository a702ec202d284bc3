"""Every game as a PettingZoo AEC environment (generator/engine/rl.py): the official API test, masks, rewards."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra: pip install '.[rl]'")

import numpy as np
from pettingzoo.test import api_test, seed_test

from generator.engine.base import IllegalAction
from generator.engine.rl import FEATURES, encode, game_env
from tests.engine.test_engine_contract import PROJECT

GAMES = PROJECT.game_ids()

# The API test warns that a Dict observation (vector + action mask, as PettingZoo's own card games use) is not
# a bare array: expected here, not a fault.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_passes_the_pettingzoo_api_test(game_id: str) -> None:
    api_test(game_env(game_id, root=PROJECT.root), num_cycles=100, verbose_progress=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_random_policy_plays_to_the_end_on_masks_that_are_the_legal_actions(game_id: str) -> None:
    env = game_env(game_id, root=PROJECT.root)
    env.reset(seed=7)
    rng = random.Random(7)
    steps = 0
    final = {}
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert observation["observation"].shape == (FEATURES,)
        assert np.flatnonzero(mask).tolist() == env.game.legal_actions()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert env.game.is_terminal() and not env.agents
    winners = env.game.result().winners
    assert steps == len(env.game.history)
    assert final == {f"player_{s}": 1.0 if s in winners else -1.0 for s in range(env.players)}


def test_same_seed_same_game_and_the_seed_test_passes() -> None:
    seed_test(lambda: game_env("pirate-tricks", players=3, root=PROJECT.root), num_cycles=30)


def test_an_illegal_action_is_refused_with_the_rule_it_breaks() -> None:
    env = game_env("pirates-under-fire", root=PROJECT.root)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction):
        env.step(illegal)


def test_the_encoding_has_a_fixed_length_and_depends_only_on_what_is_seen() -> None:
    first = encode({"hand": [3, 7], "phase": "bid", "rows": [{"loon": 2}]})
    again = encode({"rows": [{"loon": 2}], "phase": "bid", "hand": [3, 7]})
    other = encode({"hand": [3, 8], "phase": "bid", "rows": [{"loon": 2}]})
    assert first.shape == (FEATURES,) and np.array_equal(first, again) and not np.array_equal(first, other)


def test_human_rendering_names_the_agent_who_made_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    """It used to name the agent to act next, so nearly every line named the wrong player."""
    env = game_env("pirate-tricks", players=3, root=PROJECT.root, render_mode="human")
    env.reset(seed=4)
    movers, shown = [], []
    for _ in range(12):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        movers.append(agent)
        env.step(int(np.flatnonzero(mask)[0]))
        shown.append(capsys.readouterr().out)
    assert [line.split(":")[0] for line in shown] == movers
    assert all(line.count("\n") == 1 for line in shown)
