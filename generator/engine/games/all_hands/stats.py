"""All Hands on Deck's balance hook for the simulator: points by source, choices taken, ties.

Sources and choices are the combination ids of the score sheet (`rules.combinations.table`),
plus `captain_penalty` (lone captains at the final count) and `curse` (curse cards).
A seat "takes" a combination when it lays it out, during play or at the final count.
"""

from __future__ import annotations

from generator.engine.games.all_hands.state import AllHandsState
from generator.engine.simulate.balance import SHARED, GameBalance


def balance(state: AllHandsState) -> GameBalance:
    """The finished game's points by source and combinations taken, per seat."""
    options = state.rules.options
    curse = state.rules.config.curse_points
    points: list[dict[str, int]] = []
    taken: list[set[str]] = []
    for seat in range(state.players):
        final_points, picks = state.final[seat] if state.final else (0, ())
        mine: dict[str, int] = {}
        ids: set[str] = set()
        for index in (*state.laid[seat], *picks):
            combination = options[index].combination
            mine[combination.id] = mine.get(combination.id, 0) + combination.points
            ids.add(combination.id)
        mine["captain_penalty"] = final_points - sum(options[i].combination.points for i in picks)
        mine["curse"] = -curse * state.curses[seat]
        points.append(mine)
        taken.append(ids)
    return GameBalance(points, taken, _tie(state))


def _tie(state: AllHandsState) -> str | None:
    """None without a tie on points; `captains` when the most captains settled it; else shared."""
    scores = state.scores()
    top = max(scores)
    leaders = [p for p in range(state.players) if scores[p] == top]
    if len(leaders) == 1:
        return None
    return "captains" if len(state.result().winners) == 1 else SHARED
