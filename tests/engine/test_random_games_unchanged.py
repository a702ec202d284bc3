"""Seeded random-bot games give the very same results after the engines were made faster.

The digests below were computed by the engines before the rollout speed-ups (commit bf46f2a):
for each game and player count, the scores, winners, number of actions and `stats()` of the
first GAMES seeds, in order. A speed-up that changed one decision, draw or statistic changes
the digest; the first game's figures are kept readable so a failure shows what moved.
The games are played on the data values they were recorded with (`RECORDED_WITH`, applied as
`--set` overrides), so a designed value retuned later does not pass for an engine change.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import pytest

from generator.engine.registry import REGISTRY
from generator.engine.simulate.runner import EngineSource, engine_for, play_game
from generator.load.overrides import parse_overrides
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAMES = 150

# (game, players) -> (first game's (scores, winners, actions), digest of GAMES games), from the engines before the speed-ups
RECORDED: dict[tuple[str, int], tuple[tuple[Any, ...], str]] = {
    ("pirate-tricks", 3): (((6.0, 24.0, 11.0), (1,), 128),
                           "d8983a9f9d221f627c78df4dd523751f115702ff32c66ef9a11efea3b0e86238"),
    ("pirate-tricks", 4): (((0.0, 18.0, 8.0, 7.0), (1,), 177),
                           "262ccbc5c9c14c4cee2ade52049af97fa39114c30acb7e96654374614ce31aeb"),
    ("pirate-tricks", 5): (((7.0, 8.0, 5.0, 12.0, 2.0), (3,), 229),
                           "b479510d141113bf8b65ba61c2c716c0111a3fa0c3731c131a4227da94f4844a"),
    ("all-hands-on-deck", 2): (((16.0, 5.0), (0,), 171),
                               "aaaaf36effec0471b03fc8f46d05d82aff9e0da3ea912713774c3ce17df13702"),
    ("all-hands-on-deck", 4): (((9.0, 8.0, 4.0, 10.0), (3,), 257),
                               "13abd37f1ddd3e5f9bea35e5d51d1ba8bda090ae62623c232b7cb8cbda089ccd"),
    ("all-hands-on-deck", 6): (((10.0, 5.0, 8.0, 7.0, 3.0, 11.0), (5,), 385),
                               "aa3bc2c42a73a97dfe0bec0093f669254be0db54d7b0fd61dadff3be44b78844"),
    ("pirates-under-fire", 2): (((13.0, 9.0), (0,), 41),
                                "8507e3d16c24a0f8b3e2d405db6f32b0da0d555d6e1ccd8ea1a8bd6eb2287711"),
    ("counterattack", 1): (((0.0,), (), 13),
                           "9b9c604ac791aee7f0234a7ba0586bbdac7e7cd7928aa0e0ccc61454e4440341"),
}


# values retuned in the data since the digests were recorded, as they were then
RECORDED_WITH: dict[str, tuple[str, ...]] = {
    "all-hands-on-deck": ("combinations.street.points=8", "combinations.ships-repairs.action=none",
                          "combinations.set-the-course.action=none"),
    "pirates-under-fire": ("items.galleon.cost=5", "items.treasure-ship.cost=9", "items.treasure-ship.vp=4",
                           "items.man-o-war.cost=7", "starting_gold.second_player=0"),
}


def played(game_id: str, players: int, games: int = GAMES) -> tuple[tuple[Any, ...], str]:
    """(first game's outcome, sha256 over every game's scores, winners, actions and stats)."""
    source = EngineSource(str(Project.at(ROOT).root), game_id, REGISTRY.module_of(game_id),
                          parse_overrides(RECORDED_WITH.get(game_id, ())))
    rules, bots = engine_for(source)
    digest = hashlib.sha256()
    first: tuple[Any, ...] = ()
    for seed in range(games):
        state, actions = play_game(rules, players, [bots["random"]] * players, seed, False)
        result = state.result()
        outcome = (result.scores, result.winners, actions)
        first = first or outcome
        digest.update(repr((outcome, sorted(state.stats().items()))).encode())
    return first, digest.hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), sorted(RECORDED))
def test_seeded_random_games_are_unchanged(game_id: str, players: int) -> None:
    first, digest = played(game_id, players)
    want_first, want_digest = RECORDED[(game_id, players)]
    assert first == want_first
    assert digest == want_digest


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), sorted(RECORDED))
def test_a_fresh_deal_skips_validation_but_not_the_rules(game_id: str, players: int) -> None:
    """`dealt_state` (the simulator's way in) makes the very game `new_state` (a log's way in) makes."""
    source = EngineSource(str(Project.at(ROOT).root), game_id, REGISTRY.module_of(game_id))
    rules, _ = engine_for(source)
    for seed in range(5):
        deal = rules.random_deal(players, random.Random(seed))
        fresh, checked = rules.dealt_state(players, deal), rules.new_state(players, deal)
        moves = random.Random(seed)
        while not checked.is_terminal():
            assert fresh.legal_actions() == checked.legal_actions()
            assert [dict(fresh.observation(p)) for p in range(players)] == \
                   [dict(checked.observation(p)) for p in range(players)]
            legal = checked.legal_actions()
            action = legal[moves.randrange(len(legal))]
            fresh.apply_action(action)
            checked.apply_action(action)
        assert fresh.is_terminal()
        assert fresh.result() == checked.result()
