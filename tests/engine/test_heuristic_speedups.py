"""The faster heuristic bots decide exactly as the plain versions they replace (kept in tests/engine/reference/).

Caches and incremental line scoring only change how fast a choice is found: the
same seed must give the same game, action for action, at every player count.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from generator.engine.base import Bot, Rules
from generator.engine.games.pirate_tricks.bots import HeuristicBot as FastTricks
from generator.engine.games.under_fire.bots import HeuristicBot as FastFire
from generator.engine.registry import REGISTRY
from generator.load import load_game
from tests.engine.reference.pirate_tricks_bot import HeuristicBot as PlainTricks
from tests.engine.reference.under_fire_bot import HeuristicBot as PlainFire
from tests.engine.test_engine_contract import PROJECT

PAIRS = {"pirate-tricks": (PlainTricks, FastTricks), "pirates-under-fire": (PlainFire, FastFire)}


def game_log(rules: Rules[Any], players: int, bot: type[Bot], seed: int) -> list[str]:
    """Every action of a seeded game with `bot` in every seat, checked as it goes, as readable text."""
    state = rules.new_game(players, seed, check=True)
    rng = random.Random(seed)
    bots = [bot(rules, seat, rng) for seat in range(players)]
    log = []
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].choose(state.observation(seat), state.legal_actions())
        log.append(state.action_to_string(action))
        state.apply_action(action)
    return log


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(PAIRS))
def test_the_faster_heuristic_plays_the_very_same_games(game_id: str) -> None:
    rules = REGISTRY.engine(game_id).rules(load_game(PROJECT, game_id))
    plain, fast = PAIRS[game_id]
    for players in rules.player_counts:
        for seed in range(3):
            assert game_log(rules, players, fast, seed) == game_log(rules, players, plain, seed), \
                f"{game_id} with {players} players, seed {seed}: the faster bot chose differently"
