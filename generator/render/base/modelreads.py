"""What a job reads of the game model, so its cache key covers exactly that.

Files are recorded by the read gate; this is the same idea for the loaded
model. Two parts:

* `model_digest` hashes a model object through its dataclass fields (so a
  field added to the model later is covered by itself), leaving out where
  things stand in the YAML (locations, file names) since moving a line
  changes nothing drawn.
* `watched(game, reads)` is a copy of the game whose items' field mappings
  note every value read (`FieldReads`). A document renders from that copy:
  its key is the game's skeleton (everything but item field values, see
  `skeleton_digest`) plus the field values it actually read. Editing a card
  field no document shows (its art, say) leaves the rulebooks alone; editing
  one a document shows rebuilds it. `facts_hold` re-checks the recorded
  values against a newly loaded game.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from enum import Enum
from typing import Any

from generator.digests import digest
from generator.model import Component, Game, Item

KEYS = "*"  # the fact "which keys this mapping has" (noted when a mapping is iterated or sized)


_PLAIN = frozenset({str, int, float, bool})  # exactly these types (an Enum built on str or int is not one)


def _where_field(name: str) -> bool:
    return name in ("location", "files") or name.endswith("_locations")


def model_value(value: Any, *, item_fields: bool = True, skip: frozenset[str] = frozenset()) -> Any:
    """A model object as plain JSON-able data: every dataclass field but locations (and `skip`)."""
    if value is None or type(value) in _PLAIN:  # most values of a big deck: answered before the slower tests
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            if _where_field(f.name) or f.name in skip:
                continue
            if not item_fields and isinstance(value, Item) and f.name in ("fields", "back"):
                continue
            out[f.name] = model_value(getattr(value, f.name), item_fields=item_fields)
        return {"type": type(value).__name__, **out}
    if isinstance(value, Mapping):
        entries = sorted(value.items(), key=lambda kv: str(kv[0]))
        return [[str(k), model_value(v, item_fields=item_fields)] for k, v in entries]
    if isinstance(value, (list, tuple)):
        return [model_value(v, item_fields=item_fields) for v in value]
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def model_digest(value: Any, *, item_fields: bool = True, skip: frozenset[str] = frozenset()) -> str:
    return digest(model_value(value, item_fields=item_fields, skip=skip))


def component_digest(game: Game, component: Component) -> str:
    """What drawing a component's faces can see: the component and the game apart from its other components."""
    return digest(model_value(game, skip=frozenset({"components"})), model_value(component))


def skeleton_digest(game: Game) -> str:
    """The whole game except the values of item fields (a document's reads of those are recorded)."""
    return model_digest(game, item_fields=False)


class FieldReads:
    """Item field values a job read: fact -> digest of the value (or of its absence)."""

    def __init__(self) -> None:
        # (component, item, side, key) -> the value read; named and digested once, in `snapshot`
        # (a template reads the same field many times, and a read must stay cheap).
        self._values: dict[tuple[str, str, str, str], Any] = {}

    def note(self, component: str, item: str, side: str, key: str, value: Any) -> None:
        self._values[(component, item, side, key)] = value

    @property
    def facts(self) -> dict[str, str]:
        return {json.dumps(list(where)): _value_digest(value) for where, value in self._values.items()}

    def snapshot(self) -> dict[str, str]:
        return dict(sorted(self.facts.items()))


_MISSING = object()


def _value_digest(value: Any) -> str:
    return digest("missing") if value is _MISSING else digest("value", model_value(value))


class WatchedFields(Mapping[str, Any]):
    """An item's field mapping that notes each value read (a read-only view)."""

    def __init__(self, data: Mapping[str, Any], reads: FieldReads, component: str, item: str, side: str) -> None:
        self._data, self._reads, self._where = data, reads, (component, item, side)

    def __getitem__(self, key: str) -> Any:
        value = self._data.get(key, _MISSING)
        self._reads.note(*self._where, str(key), value)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        self._reads.note(*self._where, KEYS, sorted(self._data))
        return iter(self._data)

    def __len__(self) -> int:
        self._reads.note(*self._where, KEYS, sorted(self._data))
        return len(self._data)


def watched(game: Game, reads: FieldReads) -> Game:
    """A copy of `game` whose item fields note every read into `reads` (equal to `game` otherwise)."""

    def item_view(component: Component, item: Item) -> Item:
        back = WatchedFields(item.back, reads, component.id, item.id, "back") if item.back is not None else None
        return dataclasses.replace(item, fields=WatchedFields(item.fields, reads, component.id, item.id, "front"),
                                   back=back)

    components = tuple(dataclasses.replace(c, items=tuple(item_view(c, i) for i in c.items)) for c in game.components)
    return dataclasses.replace(game, components=components)


def facts_hold(game: Game, facts: Mapping[str, str]) -> bool:
    """Do the recorded field values still read the same in `game`?"""
    for fact, expected in facts.items():
        component_id, item_id, side, key = json.loads(fact)
        if not game.has_component(component_id):
            return False
        try:
            item = game.component(component_id).item(item_id)
        except KeyError:
            return False
        mapping = item.fields if side == "front" else item.back
        if mapping is None:
            return False
        value: Any = sorted(mapping) if key == KEYS else mapping.get(key, _MISSING)
        if _value_digest(value) != expected:
            return False
    return True
