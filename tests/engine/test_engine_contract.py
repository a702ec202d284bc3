"""The interface every engine promises (base.py), checked the same way for every game in the registry.

The cases come from the registry and the project's data, never from a list in
this file: a new game is tested as soon as it is registered. The checks are
plain functions, so `test_fifth_game.py` runs the very same ones on a game
added in a fixture.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from generator.engine.base import IllegalAction, Result, Rules
from generator.engine.registry import REGISTRY, Registry
from generator.load import load_game
from generator.project import Project
from tests.engine.walk import random_walk

PROJECT = Project.at(Path(__file__).resolve().parents[2])


def engine_cases(registry: Registry, project: Project) -> list[tuple[str, int]]:
    """(game id, player count) for every game of the project, at every player count its data allows."""
    cases = []
    for game_id in project.game_ids():
        registry.module_of(game_id)  # a game without an engine fails here, loudly
        game = load_game(project, game_id)
        cases += [(game_id, players) for players in game.player_range]
    return cases


def build_rules(registry: Registry, project: Project) -> dict[str, Rules[Any]]:
    return {game_id: registry.engine(game_id).rules(load_game(project, game_id)) for game_id in project.game_ids()}


CASES = engine_cases(REGISTRY, PROJECT)


@pytest.fixture(scope="module")
def rules_of() -> dict[str, Rules[Any]]:
    return build_rules(REGISTRY, PROJECT)


def actions_read_back(rules: Rules[Any], players: int) -> None:
    for seed in range(3):
        state = rules.new_game(players, seed, check=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in legal:
                assert state.string_to_action(state.action_to_string(action)) == action
            random_walk(state, rng, 1 + rng.randrange(6))
        assert isinstance(state.result(), Result)


def deal_survives_json(rules: Rules[Any], players: int) -> None:
    deal = rules.random_deal(players, random.Random(7))
    copied = json.loads(json.dumps(deal))
    first = random_walk(rules.new_state(players, deal), random.Random(1))
    second = rules.new_state(players, copied)
    for action in first.history:
        second.apply_action(action)
    assert second.is_terminal() and second.result() == first.result()
    assert 0 <= first.opener() < players


def observations_and_gibberish(rules: Rules[Any], players: int) -> None:
    state = rules.new_game(players, 3)
    for seat in range(players):
        assert isinstance(state.observation(seat), Mapping)
    assert 0 <= state.current_player() < players
    with pytest.raises(IllegalAction):
        state.string_to_action("hoist the jolly roger")


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players", CASES)
def test_every_legal_action_reads_back_from_its_text(rules_of: dict, game_id: str, players: int) -> None:
    actions_read_back(rules_of[game_id], players)


@pytest.mark.parametrize("game_id,players", CASES)
def test_a_deal_survives_json_and_replays_the_same_game(rules_of: dict, game_id: str, players: int) -> None:
    deal_survives_json(rules_of[game_id], players)


@pytest.mark.parametrize("game_id,players", CASES)
def test_every_seat_observes_a_mapping_and_gibberish_is_refused(rules_of: dict, game_id: str, players: int) -> None:
    observations_and_gibberish(rules_of[game_id], players)


def test_the_shipped_registry_plays_exactly_the_shipped_games() -> None:
    engines = REGISTRY.verify(PROJECT)  # every game folder has an engine, and every engine loads
    assert [e.game_id for e in engines] == PROJECT.game_ids()
    assert set(REGISTRY.game_ids) == set(PROJECT.game_ids())
