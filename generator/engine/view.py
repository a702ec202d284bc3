"""The table as one seat sees it, in words and faces: what `pnp play` shows in the terminal and the browser.

A game's view is worked out from `State.observation(seat)` alone, never from the state, so it cannot
show a card the seat may not see. An engine package may add a module `view` with two functions:

    table(rules, observation) -> TableView     zones of faces (component and item ids of the printed
                                               cards) and short texts, in the game's own words
    secret(text) -> str | None                 what the other seats learn of an action whose details
                                               they may not see ('bid 3' -> 'bids'); None when public
    narrate(rules, before, after) -> [str]     what came of a move, from the seat's observations just
                                               before and after it ('the pirate wins the trick')

Without it, `generic_table` lists the observation's entries as text and every action is public.
Where the zones lie on the screen is data: `templates/play/<game>.yaml`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.engine.base import Rules


@dataclass(frozen=True)
class Face:
    """One card, tile or token on the table. `item` None: face down (its component's back)."""

    component: str
    item: str | None
    label: str  # what it is in words ("7 anchors", "face down")
    action: str | None = None  # the action text that playing this face means, when it can be played

    def to_json(self) -> dict[str, Any]:
        return {"component": self.component, "item": self.item, "label": self.label, "action": self.action}


@dataclass(frozen=True)
class Zone:
    """A place at the table: a hand, a pile, a row, a trick. `text` says what faces cannot (counts, values)."""

    id: str
    label: str
    faces: tuple[Face, ...] = ()
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "faces": [f.to_json() for f in self.faces], "text": self.text}

    def line(self) -> str:
        """The zone in one line for the terminal."""
        runs: list[list[Any]] = []  # equal labels in a row told once: 'face down x3'
        for face in self.faces:
            if runs and runs[-1][0] == face.label:
                runs[-1][1] += 1
            else:
                runs.append([face.label, 1])
        shown = ", ".join(label if n == 1 else f"{label} x{n}" for label, n in runs)
        parts = [p for p in (shown, self.text) if p]
        return f"{self.label}: {'; '.join(parts) if parts else '-'}"


@dataclass(frozen=True)
class TableView:
    """Everything one seat sees, as zones, and the running scores when the game keeps any."""

    zones: tuple[Zone, ...]
    scores: tuple[float, ...] | None = None
    status: str = ""  # one line: the phase, trump, whose turn it is in the game's words

    def to_json(self) -> dict[str, Any]:
        return {"zones": [z.to_json() for z in self.zones],
                "scores": None if self.scores is None else list(self.scores), "status": self.status}


TableFn = Callable[[Rules, Mapping[str, Any]], TableView]
SecretFn = Callable[[str], "str | None"]
NarrateFn = Callable[[Rules, Mapping[str, Any], Mapping[str, Any]], Sequence[str]]


@dataclass(frozen=True)
class ViewHooks:
    """A game's view functions: its own module's, or the generic ones."""

    table: TableFn
    secret: SecretFn
    narrate: NarrateFn | None = None
    own: bool = field(default=False)  # the engine package has a view module


def generic_table(rules: Rules, observation: Mapping[str, Any]) -> TableView:
    """Every entry of the observation as a line of text: enough to play any game, if not prettily."""
    zones = tuple(Zone(str(key), str(key).replace("_", " "), text=_text(value))
                  for key, value in observation.items())
    return TableView(zones)


def public(text: str) -> str | None:
    """The generic `secret`: every action is seen by the whole table."""
    return None


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    return "-" if value is None else str(value)


def hooks_for(engine_module: str) -> ViewHooks:
    """The view hooks of the engine at `engine_module` (its `view` submodule), else the generic ones."""
    try:
        module = importlib.import_module(f"{engine_module}.view")
    except ModuleNotFoundError as exc:
        if exc.name != f"{engine_module}.view":
            raise  # the view module exists but imports something missing: a bug, keep the traceback
        return ViewHooks(generic_table, public)
    return ViewHooks(getattr(module, "table", generic_table), getattr(module, "secret", public),
                     getattr(module, "narrate", None), own=True)


def faces(component: str, items: Sequence[Any], label: Callable[[Any], str],
          action: Callable[[Any], str | None] | None = None, item_id: Callable[[Any], str] | None = None,
          ) -> tuple[Face, ...]:
    """Faces of cards given as engine numbers: a helper for the games' view modules."""
    return tuple(Face(component, item_id(c) if item_id else str(c), label(c), action(c) if action else None)
                 for c in items)


def backs(component: str, count: int, label: str = "face down") -> tuple[Face, ...]:
    """`count` face-down cards of a component."""
    return tuple(Face(component, None, label) for _ in range(max(0, count)))
