"""Plunder Pile at the table (`pnp play`): the heap of doubloons, in words. The example of a game's view:
`table(rules, observation)` draws only from the observation; a game whose moves hide nothing needs no
`secret`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules
from generator.engine.view import TableView, Zone


def table(rules: Rules, observation: Mapping[str, Any]) -> TableView:
    """The heap and how much a turn may take."""
    return TableView((Zone("heap", "the heap", text=f"{observation['heap']} doubloons"),),
                     None, f"take 1 to {observation['take_max']} doubloons; whoever takes the last one wins")
