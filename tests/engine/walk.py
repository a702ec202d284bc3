"""Random walks through a game, shared by every engine's property tests."""

from __future__ import annotations

import random

from generator.engine.base import State


def random_walk(state: State, rng: random.Random, steps: int | None = None) -> State:
    """Play uniformly random legal actions: `steps` of them, or to the end when None.

    Also asserts the interface's promise on the way: legal actions are sorted and
    never empty before the end.
    """
    taken = 0
    while not state.is_terminal() and (steps is None or taken < steps):
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        state.apply_action(legal[rng.randrange(len(legal))])
        taken += 1
    return state
