"""The interface every engine promises (base.py), checked the same way for all four games."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from generator.engine.base import IllegalAction, Result
from generator.engine.registry import ENGINES, engine_module
from generator.load import load_game
from generator.project import Project
from tests.engine.walk import random_walk

PROJECT = Project.at(Path(__file__).resolve().parents[2])
CASES = [(game_id, players) for game_id in ENGINES
         for players in range(load_game(PROJECT, game_id).players_min, load_game(PROJECT, game_id).players_max + 1)]


@pytest.fixture(scope="module")
def rules_of() -> dict[str, object]:
    return {game_id: engine_module(game_id).RULES(load_game(PROJECT, game_id)) for game_id in ENGINES}


@pytest.mark.parametrize("game_id,players", CASES)
def test_every_legal_action_reads_back_from_its_text(rules_of: dict, game_id: str, players: int) -> None:
    rules = rules_of[game_id]
    for seed in range(3):
        state = rules.new_game(players, seed, check=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in legal:
                assert state.string_to_action(state.action_to_string(action)) == action
            random_walk(state, rng, 1 + rng.randrange(6))
        assert isinstance(state.result(), Result)


@pytest.mark.parametrize("game_id,players", CASES)
def test_a_deal_survives_json_and_replays_the_same_game(rules_of: dict, game_id: str, players: int) -> None:
    rules = rules_of[game_id]
    deal = rules.random_deal(players, random.Random(7))
    copied = json.loads(json.dumps(deal))
    first = random_walk(rules.new_state(players, deal), random.Random(1))
    second = rules.new_state(players, copied)
    for action in first.history:
        second.apply_action(action)
    assert second.is_terminal() and second.result() == first.result()


@pytest.mark.parametrize("game_id,players", CASES)
def test_every_seat_observes_a_mapping_and_gibberish_is_refused(rules_of: dict, game_id: str, players: int) -> None:
    state = rules_of[game_id].new_game(players, 3)
    for seat in range(players):
        assert isinstance(state.observation(seat), Mapping)
    assert 0 <= state.current_player() < players
    with pytest.raises(IllegalAction):
        state.string_to_action("hoist the jolly roger")
