"""Pirate Tricks' search bot solves the rest of a round on bare lists (pirate_tricks.bots.TrickSolver):
its moves must take back exactly, its play-outs must settle the round as the engine does, and its
alpha-beta (pruning, transposition table) must find the same value as plain minimax."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from generator.engine.games.pirate_tricks.bots import HeuristicBot, TrickSolver
from generator.engine.games.pirate_tricks.state import PLAY
from generator.engine.registry import REGISTRY
from generator.load import load_game
from tests.engine.test_engine_contract import PROJECT


@pytest.fixture(scope="module")
def rules() -> Any:
    return REGISTRY.engine("pirate-tricks").rules(load_game(PROJECT, "pirate-tricks"))


def trick_positions(rules: Any, players: int, games: int, last_round: bool = False) -> Iterator[Any]:
    """Positions in the tricks of seeded heuristic games (of the last round only, when asked)."""
    for seed in range(games):
        state = rules.new_game(players, seed)
        bots = [HeuristicBot(rules, s, random.Random(seed)) for s in range(players)]
        while not state.is_terminal():
            if state.phase == PLAY and (not last_round or state.round == state.rounds - 1):
                yield state.copy()
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))


def snapshot(solver: TrickSolver) -> tuple[Any, ...]:
    return ([h[:] for h in solver.hands], solver.trick[:], solver.leader, solver.winners[:],
            [c[:] for c in solver.captured])


def minimax(solver: TrickSolver) -> float:
    """The paranoid value the slow way: every line, no pruning, no table."""
    if solver.over():
        return solver.value()
    mine = solver.to_move() == solver.me
    values = []
    for card in list(solver.legal()):
        done = solver.play(card)
        values.append(minimax(solver))
        solver.undo(card, done)
    return max(values) if mine else min(values)


@pytest.mark.parametrize("players", [3, 4])
def test_moves_take_back_exactly_and_play_outs_leave_the_position_as_it_was(rules: Any, players: int) -> None:
    rng = random.Random(players)
    bot = HeuristicBot(rules, 0, random.Random(0))
    checked = 0
    for state in trick_positions(rules, players, games=2):
        solver = TrickSolver(bot, state.copy(), state.current_player())
        before = snapshot(solver)
        moves = []
        while not solver.over() and rng.random() < 0.9:
            card = solver.legal()[rng.randrange(len(solver.legal()))]
            moves.append((card, solver.play(card)))
        for card, done in reversed(moves):
            solver.undo(card, done)
        assert snapshot(solver) == before
        first = solver.rollout()
        assert snapshot(solver) == before and solver.rollout() == first
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [3, 4])
def test_a_play_out_settles_the_last_round_as_the_engine_does(rules: Any, players: int) -> None:
    """The solver's policy moves, replayed in the engine, end the game with the loon the solver counted."""
    bot = HeuristicBot(rules, 0, random.Random(0))
    for state in list(trick_positions(rules, players, games=2, last_round=True))[::5]:
        me = state.current_player()
        solver = TrickSolver(bot, state.copy(), me)
        game = state.copy()
        while not solver.over():
            card = solver.policy()
            solver.play(card)
            game.apply_action(card)
        assert game.is_terminal()
        rivals = max(game.loon[s] for s in range(players) if s != me)
        assert solver.value() == game.loon[me] - rivals


@pytest.mark.parametrize("players", [3, 4])
def test_alpha_beta_finds_the_minimax_value_of_the_last_tricks(rules: Any, players: int) -> None:
    bot = HeuristicBot(rules, 0, random.Random(0))
    solved = 0
    for state in trick_positions(rules, players, games=3):
        if len(state.trick_winners) < rules.config.tricks - 2:
            continue
        solver = TrickSolver(bot, state.copy(), (state.current_player() + 1) % players)
        exact = minimax(solver)
        assert solver.solve() == exact
        assert solver.solve(-math.inf, math.inf) == exact  # again, from the table
        solved += 1
    assert solved > 10
