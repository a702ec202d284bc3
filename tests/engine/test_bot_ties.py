"""Bots that balance sweeps can trust (issue 33): heuristic ties settled by a fixed order, search bots
that play the same moves for the same seed on any number of worker processes.

A sweep varies one designed value and reads every source's share of the points. If a bot settled
equal values with a coin (its rng), a value that came to equal another would change which coins
are drawn, and with them the rest of every game: the sweep would measure the bot's tie-break.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice
from typing import Any

import pytest

from generator.engine.games.all_hands.stats import balance
from generator.engine.registry import REGISTRY
from generator.engine.simulate.runner import EngineSource, SimSpec, play_game, simulate
from generator.load import load_game
from generator.load.overrides import parse_overrides
from tests.engine.test_engine_contract import PROJECT
from tests.engine.test_search import positions

ALL_HANDS = "all-hands-on-deck"


def all_hands_rules(*settings: str) -> Any:
    return REGISTRY.engine(ALL_HANDS).rules(load_game(PROJECT, ALL_HANDS, parse_overrides(settings)))


@pytest.mark.parametrize("players", [2, 4])
def test_the_all_hands_heuristic_settles_ties_by_a_fixed_order_not_by_its_rng(players: int) -> None:
    """Every choice (hire, pile, snatch and curse targets) is the same whatever the bot's rng: equal values go
    by the data's kind order and by seats clockwise from the bot, never by a draw."""
    rules = all_hands_rules()
    heuristic = REGISTRY.engine(ALL_HANDS).bots["heuristic"]
    phases: Counter[str] = Counter()
    for state in islice(positions(rules, players, games=4, every=3), 200):
        seat, legal = state.current_player(), state.legal_actions()
        if len(legal) < 2:
            continue
        observation = state.observation(seat)
        choices = {heuristic(rules, seat, random.Random(s)).choose(observation, legal) for s in range(4)}
        assert len(choices) == 1, f"the heuristic's choice in the {observation['phase']} phase depends on its rng"
        phases[observation["phase"]] += 1
    assert phases["hire"] and phases["stock"], phases


def source_points(rules: Any, games: int, players: int = 2) -> tuple[Counter[str], list[tuple[int, ...]]]:
    """Points by source over seeded heuristic games, and each game's actions."""
    heuristic = REGISTRY.engine(ALL_HANDS).bots["heuristic"]
    points: Counter[str] = Counter()
    played = []
    for seed in range(games):
        state, _ = play_game(rules, players, [heuristic] * players, seed, False)
        for seat_points in balance(state).points:
            points.update(seat_points)
        played.append(tuple(state.history))
    return points, played


@pytest.mark.slow
def test_raising_one_combination_leaves_the_unrelated_sources_where_they_were() -> None:
    """Five of a kind from 10 to 12 points: only games where a crew nears five of a kind may change, and every
    source that is not a gang (the full crew, the street, the action pairs) earns what it earned (a seeded
    sweep of 30 games a point). The smaller gangs are related: a crew on its way to five passes four."""
    before, games_before = source_points(all_hands_rules("combinations.five-of-a-kind.points=10"), 30)
    after, games_after = source_points(all_hands_rules("combinations.five-of-a-kind.points=12"), 30)
    changed = sum(a != b for a, b in zip(games_before, games_after, strict=True))
    assert changed <= 3, f"{changed} of 30 games changed"
    for source in set(before) | set(after):
        if source.endswith("-of-a-kind") or source in ("captain_penalty", "curse"):
            continue
        assert abs(after[source] - before[source]) <= max(2, 0.1 * abs(before[source])), \
            f"{source}: {before[source]} points before, {after[source]} after"


def _search(game_id: str) -> Any:
    return REGISTRY.engine(game_id).bots["search"]


# The shipped search bots on small budgets (the same code at any budget), as `module:Class` bot specs.
QuickTricks = type("QuickTricks", (_search("pirate-tricks"),), {"samples": 3})
QuickFire = type("QuickFire", (_search("pirates-under-fire"),), {"iterations": 8})
QuickHands = type("QuickHands", (_search(ALL_HANDS),), {"iterations": 8})
QuickCounter = type("QuickCounter", (_search("counterattack"),), {"rounds": (4, 8)})


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players", "bot"), [("pirate-tricks", 3, "QuickTricks"),
                                                         ("pirates-under-fire", 2, "QuickFire"),
                                                         ("counterattack", 1, "QuickCounter"),
                                                         (ALL_HANDS, 2, "QuickHands")])
def test_the_search_bot_plays_the_same_moves_for_the_same_seed_on_one_or_two_processes(game_id: str, players: int,
                                                                                     bot: str) -> None:
    """Budgets are counts, never time: a seeded run's logs (every move of every game) are identical run
    again and on two worker processes."""
    bots = (f"{__name__}:{bot}", *(["heuristic"] * (players - 1)))
    spec = SimSpec(EngineSource(str(PROJECT.root), game_id, REGISTRY.module_of(game_id)), players, bots, seed=3,
                   games=2, log=True)
    runs = []
    for jobs in (1, 1, 2):
        lines: list[str] = []
        simulate(spec, jobs=jobs, log_sink=lines.append)
        runs.append(lines)
    assert len(runs[0]) == 2
    assert runs[0] == runs[1] == runs[2]
