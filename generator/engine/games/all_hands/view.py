"""All Hands on Deck at the table, as one seat sees it (`pnp play`): made from the observation only.

The observation names cards by kind (a cook is a cook), so a face is its kind's plain card. Which card
another seat keeps from its stock is secret (`secret`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules
from generator.engine.games.all_hands.config import PIRATE
from generator.engine.view import Face, TableView, Zone


def secret(text: str) -> str | None:
    """Another seat's kept card goes to its crew face down: the table sees only that it kept one."""
    return "keeps a card" if text.startswith("keep ") else None


def table(rules: Rules, observation: Mapping[str, Any]) -> TableView:
    """The drawing piles, your stock and crew, what each seat laid out, points and curses."""
    config = rules.config  # type: ignore[attr-defined]
    deck = rules.game.deck(PIRATE)
    face_of: dict[str, str] = {}
    for item in deck:
        kind = str(item["kind"])
        if kind not in face_of or item.id == kind:
            face_of[kind] = item.id
    label = dict(zip(config.kinds, config.labels, strict=True))
    me = int(observation["seat"])
    phase = observation["phase"]

    def card(kind: str, action: str | None = None) -> Face:
        return Face(PIRATE, face_of.get(kind), label.get(kind, kind), action)

    def seat(s: int) -> str:
        return "you" if s == me else f"seat {s + 1}"

    zones = []
    for p, pile in enumerate(observation["piles"]):
        draw = f"draw from pile {p}" if phase == "stock" else None
        shown = tuple(Face(PIRATE, None, "face down", draw) if kind is None else card(kind, draw)
                      for kind in reversed(pile[-6:]))
        zones.append(Zone(f"pile-{p}", f"pile {p} ({seat(p)})", shown, f"{len(pile)} cards"))
    keep = "keep" if phase == "hire" else None
    zones.append(Zone("stock", "your stock", tuple(card(k, f"{keep} {k}" if keep else None)
                                                   for k in observation["stock"]),
                      "in stock: " + ", ".join(f"{seat(s)} {n}" for s, n in enumerate(observation["stock_sizes"]))))
    zones.append(Zone("crew", "your crew", tuple(card(k) for k in observation["crew"]),
                      "crew sizes: " + ", ".join(f"{seat(s)} {n}" for s, n in enumerate(observation["crew_sizes"]))))
    for s, laid in enumerate(observation["laid"]):
        zones.append(Zone(f"laid-{s + 1}", f"{seat(s)} laid out", text="; ".join(laid) or "nothing yet"))
    zones.append(Zone("points", "points", text=", ".join(
        f"{seat(s)}: {pts} ({c} curses)" for s, (pts, c) in enumerate(zip(observation["points"],
                                                                            observation["curses"], strict=True)))))
    status = f"round {observation['round']}, {phase}"
    return TableView(tuple(zones), tuple(float(p) for p in observation["points"]), status)


def narrate(rules: Rules, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Points and curses changing hands, a new round: what came of a move."""
    me = after["seat"]
    notes = []
    for s, (old, new) in enumerate(zip(before["points"], after["points"], strict=True)):
        if old != new:
            notes.append(f"{'you' if s == me else f'seat {s + 1}'}: {old} -> {new} points")
    for s, (old, new) in enumerate(zip(before["curses"], after["curses"], strict=True)):
        if new > old:
            notes.append(f"{'you take' if s == me else f'seat {s + 1} takes'} a curse")
    if after["round"] != before["round"]:
        notes.append(f"round {after['round']} begins")
    return notes
