"""Counterattack's end-of-hand solver (`solve_hand`): the best play of a known deal, checked by brute force,
and the search bot that uses it choosing legal moves, the same for the same seed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generator.engine.games.counterattack import BOTS, RULES
from generator.engine.games.counterattack.bots import HeuristicBot, solve_hand
from generator.engine.games.counterattack.state import CounterattackState
from generator.load import load_game
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
R = RULES(load_game(Project.at(ROOT), "counterattack"))


def late_in_a_hand(players: int, seed: int, left: int, hands: int) -> CounterattackState | None:
    """A position with `left` tricks to play in hand `hands` (the heuristic plays the hands before, so
    fewer ports are open and a miss is possible; random moves then), or None if the game ended first."""
    state = R.new_game(players, seed)
    rng = random.Random(seed)
    bots = [HeuristicBot(R, seat, rng) for seat in range(players)]
    while not state.is_terminal() and state.hands_played < hands:
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    if state.is_terminal():
        return None
    while state.config.tricks_per_hand - state.trick > left:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def brute_force(state: CounterattackState, charge: float, hand: int) -> float:
    """Every way to play the rest of hand `hand`, through the engine itself: the best outcome less flips."""
    if state.hands_played > hand:
        return 1.0 if state.exploited[hand] >= 0 else 0.0
    best = -1.0
    for action in state.legal_actions():
        after = state.copy()
        after.apply_action(action)
        best = max(best, brute_force(after, charge, hand) - (charge if action == state.n else 0.0))
    return best


@pytest.mark.parametrize("players", [1, 2])
def test_the_solver_finds_the_best_play_of_a_known_deal(players: int) -> None:
    """Solved values equal an exhaustive search through the engine, with and without a charge for flips,
    for solo play and co-captains taking turns; among them hands that can and cannot hit a port."""
    values = []
    for seed in range(40):
        state = late_in_a_hand(players, seed, 4, seed % 4)
        if state is None:
            continue
        ports = [p for p, open_ in enumerate(state.ports_open) if open_]
        for charge in (0.0, 0.2):
            solved = solve_hand(state.config, R.win, [h[:] for h in state.hands], state.first, state.trick,
                                state.pirate[state.trick:], state.exposed, state.exposed_pos, state.won, ports,
                                charge)
            assert solved == pytest.approx(brute_force(state, charge, state.hands_played)), f"seed {seed}, charge {charge}"
            values.append(round(solved, 6))
    assert {0.0, 1.0} <= set(values)  # hands that can and cannot still hit a port


def test_the_search_bot_solving_the_end_plays_legal_moves_the_same_for_the_same_seed() -> None:
    quick = type("Quick", (BOTS["search"],), {"rounds": (4, 8)})
    state = late_in_a_hand(1, 2, 2, 0)
    assert state is not None
    legal = state.legal_actions()
    moves = [quick(R, 0, random.Random(s)).choose(state.observation(0), legal) for s in (0, 1, 0, 1)]
    assert moves[:2] == moves[2:] and set(moves) <= set(legal)
    assert BOTS["search"].exact == 2
