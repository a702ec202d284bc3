"""Pirates Under Fire's balance hook for the simulator: VP by source, mercenaries bought, ties.

Sources are the scoring keys of the data (`sets`, `runs`, `ship_on_rival_sea`),
`vp-token` (tokens taken during play) and each mercenary's id for its end VP.
Choices are the mercenary ids: a seat takes one by buying it.
"""

from __future__ import annotations

from generator.engine.games.under_fire.state import EMPTY, UnderFireState
from generator.engine.simulate.balance import SHARED, GameBalance


def balance(state: UnderFireState) -> GameBalance:
    """The finished game's VP by source and mercenaries bought, per seat."""
    config = state.rules.config
    points: list[dict[str, int]] = []
    taken: list[set[str]] = []
    for seat in (0, 1):
        final = state.final[seat] if state.final and state.loser == EMPTY else {}
        mine = {"sets": final.get("sets", 0), "runs": final.get("runs", 0),
                "ship_on_rival_sea": final.get("rival_sea", 0), "vp-token": final.get("tokens", 0)}
        bought = {config.merc_names[m] for m, owner in enumerate(state.merc_owner) if owner == seat}
        for m, name in enumerate(config.merc_names):
            if name in bought and config.merc_vp[m] and final:
                mine[name] = config.merc_vp[m]
        points.append(mine)
        taken.append(bought)
    return GameBalance(points, taken, _tie(state))


def _tie(state: UnderFireState) -> str | None:
    """None without a tie on VP (or when a captain lost by having no move); the data's `tie_break` when it settled it."""
    if state.loser != EMPTY or not state.final:
        return None
    totals = [sum(f.values()) for f in state.final]
    if totals[0] != totals[1]:
        return None
    tie_break = str(state.rules.game.rules.get("tie_break", "tie-break"))  # the data names it (gold)
    return tie_break if len(state.result().winners) == 1 else SHARED
