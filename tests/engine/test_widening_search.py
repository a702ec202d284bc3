"""The IS-MCTS with progressive widening (generator/engine/search.py `widening_tree`) and the worlds it
draws: the same moves for the same seed, legal moves only, alternatives entering in the heuristic's
order, and determinizations that never move a card the seat has seen (All Hands on Deck, hypothesis)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.base import RandomBot
from generator.engine.games.all_hands import RULES
from generator.engine.games.all_hands.bots import HeuristicBot, evaluate
from generator.engine.games.all_hands.state import HIRE, SNATCH, AllHandsState
from generator.engine.search import SearchBot, widening_tree
from generator.load import load_game
from generator.project import Project
from tests import fifth_game

ROOT = Path(__file__).resolve().parents[2]
R = RULES(load_game(Project.at(ROOT), "all-hands-on-deck"))
# the shipped bot's search, on a small budget (the same code at any budget)
QUICK = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=12, horizon=6, evaluate=evaluate,
                         widening=1.0)

Place = tuple[str, int, int]  # (where, seat or pile, position)


def walk_and_watch(players: int, seed: int, steps: int, seat: int) -> tuple[AllHandsState, dict[int, Place]]:
    """A random game `steps` moves in, and where `seat` has seen each card it knows the place of, worked out
    from what it was shown along the way (not from the engine's own marks): its own stock and crew, every
    laid-out card, the cards it put back on its pile while they lie there, those of them it saw a rival
    draw into that rival's stock this round, and the cards snatched from it or by it."""
    state = R.new_game(players, seed)
    rng = random.Random(seed)
    put_back: set[int] = set()  # cards this seat put back on its pile and has not seen leave its sight
    in_stock: dict[int, int] = {}  # card -> rival seen drawing it this round
    in_crew: dict[int, int] = {}  # card -> rival seen snatching it from this seat (or from whom it snatched it)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        mover, phase = state.current_player(), state.phase
        before = [pile[:] for pile in state.piles]
        stock_before = state.stock[seat][:]
        if phase == SNATCH and action != R.space.skip:
            victim = action - R.space.snatch
            card = state.crew[victim][-1]
            in_crew.pop(card, None)  # taken on: a third seat's snatch is not seen
            if seat in (mover, victim):
                in_crew[card] = mover
        state.apply_action(action)
        for p, pile in enumerate(before):
            for card in pile[len(state.piles[p]):] if len(state.piles[p]) < len(pile) else ():
                if card in put_back:
                    put_back.discard(card)
                    if mover != seat:
                        in_stock[card] = mover
        if phase == HIRE:
            in_stock = {c: r for c, r in in_stock.items() if r != mover}  # hired: kept or put back, unseen
            if mover == seat:
                put_back |= set(stock_before) - set(state.crew[seat])
    seen: dict[int, Place] = {}
    for i, c in enumerate(state.stock[seat]):
        seen[c] = ("stock", seat, i)
    for i, c in enumerate(state.crew[seat]):
        seen[c] = ("crew", seat, i)
    for p in range(players):
        for i, c in enumerate(state.laid_cards[p]):
            seen[c] = ("laid", p, i)
        for i, c in enumerate(state.piles[p]):
            if c in put_back:
                seen[c] = ("pile", p, i)
        for i, c in enumerate(state.stock[p]):
            if in_stock.get(c) == p:
                seen[c] = ("stock", p, i)
        for i, c in enumerate(state.crew[p]):
            if in_crew.get(c) == p:
                seen[c] = ("crew", p, i)
    return state, seen


def card_at(state: AllHandsState, place: Place) -> int:
    where, who, i = place
    return {"stock": state.stock, "crew": state.crew, "laid": state.laid_cards, "pile": state.piles}[where][who][i]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 160),
       seat=st.integers(0, 3), draw=st.integers(0, 2**32 - 1))
def test_a_world_never_moves_a_card_the_seat_has_seen(players: int, seed: int, steps: int, seat: int,
                                                      draw: int) -> None:
    """Every card the seat has seen stays where it saw it in a determinized world, and (every card being
    in exactly one place) so no other place, another seat's hand included, holds one of them."""
    seat %= players
    state, seen = walk_and_watch(players, seed, steps, seat)
    world = state.determinize(seat, random.Random(draw))
    world.check_invariants()
    for card, place in seen.items():
        assert card_at(world, place) == card, f"card {card}, seen at {place}, moved in the world"
    assert dict(world.observation(seat)) == dict(state.observation(seat))


def decision(seed: int) -> tuple[AllHandsState, int, list[int]]:
    """A position of a heuristic game where the seat to move has a real choice."""
    state = R.new_game(2, seed)
    bots = [HeuristicBot(R, s, random.Random(s)) for s in range(2)]
    rng = random.Random(seed)
    while True:
        legal = state.legal_actions()
        seat = state.current_player()
        if len(legal) > 1 and state.phase == HIRE and rng.random() < 0.3:
            return state, seat, legal
        state.apply_action(bots[seat].choose(state.observation(seat), legal))


@pytest.mark.parametrize("seed", [3, 8])
def test_the_widening_search_plays_the_same_legal_move_for_the_same_seed(seed: int) -> None:
    state, seat, legal = decision(seed)
    moves = [QUICK(R, seat, random.Random(s)).choose(state.observation(seat), legal) for s in (0, 1, 0, 1)]
    assert moves[:2] == moves[2:]
    assert set(moves) <= set(legal)


def test_a_node_offers_its_movers_favourites_first_and_more_as_its_visits_grow() -> None:
    """At the root, after n iterations only the heuristic's first about sqrt(n) moves were ever tried."""
    state, seat, legal = decision(8)
    order = HeuristicBot(R, seat, random.Random(0)).ranked(state.observation(seat), legal)
    info = state.observation(seat).information  # type: ignore[attr-defined]
    for iterations, width in ((1, 1), (3, 1), (8, 2)):
        bot = type("Few", (QUICK,), {"iterations": iterations})(R, seat, random.Random(0))
        root = widening_tree(bot, order, info, random.Random(0))
        assert set(root.children) == set(order[:width])
        assert sum(child.visits for child in root.children.values()) == root.visits == iterations


def test_the_widening_search_finds_the_winning_take_at_nim(tmp_path: Any) -> None:
    """From 7 doubloons, with a random bot as the prior and play-outs to the end: taking 3 wins."""
    root = fifth_game.make_project(tmp_path)
    rules = fifth_game.REGISTRY.engine("nim").rules(load_game(root, "nim"))
    state = rules.new_state(2, {"heap": 7})
    seat, legal = state.current_player(), state.legal_actions()
    bot = SearchBot.guided(prior=RandomBot, iterations=300, widening=2.0)
    assert [bot(rules, seat, random.Random(s)).choose(state.observation(seat), legal) for s in range(3)] == [3] * 3


def test_widening_without_a_prior_is_refused() -> None:
    with pytest.raises(ValueError, match="prior"):
        SearchBot.guided(widening=1.0)
