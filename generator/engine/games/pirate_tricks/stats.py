"""Pirate Tricks' balance hook for the simulator: loon by source and ties.

Sources are the engine's ledger of where loon came from (`SOURCES`: recruitment,
capture, treasure, row loon, top-ups, and bids as a negative source); the
starting loon is common to every seat and left out. Pirate Tricks has no
tie-break: a tie on loon is a shared victory. No optional purchases are
reported yet.
"""

from __future__ import annotations

from generator.engine.games.pirate_tricks.state import SOURCES, PirateTricksState
from generator.engine.simulate.balance import SHARED, GameBalance


def balance(state: PirateTricksState) -> GameBalance:
    """The finished game's loon by source, per seat."""
    points = [{name: state.gains[name][seat] for name in SOURCES} for seat in range(state.players)]
    top = max(state.loon)
    tied = sum(1 for loon in state.loon if loon == top) > 1
    return GameBalance(points, [set() for _ in range(state.players)], SHARED if tied else None)
