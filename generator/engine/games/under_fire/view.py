"""Pirates Under Fire at the table, as one seat sees it (`pnp play`): made from the observation only.

The board is drawn a grid row at a time (zones `sea-1`.., from seat 1's home row), a space with nothing
on it as an empty slot. Every move is public: ships and mercenaries are placed face up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules
from generator.engine.games.under_fire.config import MERCENARY, SHIP
from generator.engine.view import Face, TableView, Zone


def table(rules: Rules, observation: Mapping[str, Any]) -> TableView:
    """The two seas, your hand of ships, the mercenary market, gold and points."""
    config = rules.config  # type: ignore[attr-defined]
    geometry = rules.geometry  # type: ignore[attr-defined]
    names, keys = geometry.names, geometry.effect_key  # the printed board: each space's name and sea effect
    ships = {(str(i["fleet"]), int(i["number"])): i.id for i in rules.game.deck(SHIP)}
    me = int(observation["seat"])
    fleet = config.fleets[me]

    def seat(s: int) -> str:
        return "you" if s == me else f"seat {s + 1}"

    def tile(space: int, thing: Mapping[str, Any] | None) -> Face:
        if thing is None:
            effect = keys[space]
            return Face("", None, names[space] if effect in ("", "none") else f"{names[space]} ({effect})")
        if "mercenary" in thing:
            return Face(MERCENARY, thing["mercenary"], f"{thing['mercenary']} ({config.fleets[thing['seat']]})")
        colour = config.fleets[thing["seat"]]
        burning = " burning" if thing["burning"] else ""
        return Face(SHIP, ships.get((colour, thing["number"])), f"{colour} {thing['number']}{burning}")

    board = observation["board"]
    columns = config.columns
    zones = [Zone(f"sea-{r + 1}", f"sea row {r + 1}", tuple(tile(r * columns + c, board[r * columns + c])
                                                           for c in range(columns)))
             for r in range(len(board) // columns)]
    zones.append(Zone("hand", "your ships", tuple(Face(SHIP, ships.get((fleet, n)), f"{fleet} {n}")
                                                 for n in observation["hand"])))
    zones.append(Zone("market", "mercenaries for hire", tuple(Face(MERCENARY, m, m) for m in observation["market"])))
    zones.append(Zone("purse", "gold", text=", ".join(f"{seat(s)}: {g}" for s, g in enumerate(observation["gold"]))))
    zones.append(Zone("points", "points", text=f"your VP {observation['vp']}; VP tokens "
                      + ", ".join(f"{seat(s)}: {t}" for s, t in enumerate(observation["tokens"]))))
    zones.append(Zone("decks", "ships left", text=", ".join(
        f"{seat(s)}: {h} in hand, {d} in deck" for s, (h, d) in enumerate(zip(observation["hand_sizes"],
                                                                                observation["deck_sizes"],
                                                                                strict=True)))))
    status = f"turn {observation['turn'] + 1}, {observation['phase']}; you sail the {fleet} fleet"
    return TableView(tuple(zones), None, status)


def narrate(rules: Rules, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Gold, victory points and ships set on fire or put out: what came of a move."""
    me = after["seat"]
    notes = []
    for s, (old, new) in enumerate(zip(before["gold"], after["gold"], strict=True)):
        if old != new:
            notes.append(f"{'your' if s == me else f'seat {s + 1}'} gold {old} -> {new}")
    if after["vp"] != before["vp"]:
        notes.append(f"your VP {before['vp']} -> {after['vp']}")
    for s, (old, new) in enumerate(zip(before["tokens"], after["tokens"], strict=True)):
        if new > old and s != me:
            notes.append(f"seat {s + 1} takes {new - old} VP token{'s' if new - old > 1 else ''}")
    burning = sum(1 for t in after["board"] if t and t["burning"]) - sum(1 for t in before["board"]
                                                                         if t and t["burning"])
    if burning:
        notes.append(f"{abs(burning)} ship{'s' if abs(burning) > 1 else ''} "
                     f"{'set on fire' if burning > 0 else 'put out'}")
    return notes
