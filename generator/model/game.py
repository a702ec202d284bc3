"""Game, components and items: what `data/<game>/*.yaml` describes, checked and frozen.

An *item* is one distinct face design (the 14 of red, the Gang of Three card)
with a `count` of identical copies; a *component* is a family of items that
share a size, a layout and a field schema (the crew cards, the loon coins).
Game-specific numbers the engines need (deal sizes, turn counts, score tables)
live in the free-form `rules` mapping, read through `Game.rule()` so that a
missing or mistyped value is reported at its YAML line.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal

from generator.errors import DataError, Location
from generator.model.sizes import Size

COMPONENT_KINDS = ("card", "tile", "board", "token", "sheet")
PRINTABLE_KINDS = ("card", "tile", "token")  # drawn as faces on component sheets; boards and sheets are documents
ComponentKind = Literal["card", "tile", "board", "token", "sheet"]
FieldType = Literal["int", "number", "str", "text", "enum", "bool", "list"]

EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class FieldSpec:
    """The declared type of one item field; the loader checks every value against it."""

    name: str
    type: FieldType
    min: float | None = None
    max: float | None = None
    values: tuple[Any, ...] | None = None
    required: bool = True
    default: Any = None
    doc: str = ""

    def describe(self) -> str:
        """What a valid value looks like, for error messages: 'an integer 1..20'."""
        if self.type == "enum":
            return "one of " + ", ".join(repr(v) for v in self.values or ())
        if self.type in ("int", "number"):
            noun = "an integer" if self.type == "int" else "a number"
            if self.min is not None and self.max is not None:
                return f"{noun} {self.min:g}..{self.max:g}"
            if self.min is not None:
                return f"{noun} >= {self.min:g}"
            if self.max is not None:
                return f"{noun} <= {self.max:g}"
            return noun
        return {
            "str": "a single-line string",
            "text": "a string",
            "bool": "true or false",
            "list": "a list of strings",
        }[self.type]


@dataclass(frozen=True)
class Item:
    """One distinct face design and how many identical copies of it exist."""

    id: str
    component: str
    count: int
    fields: Mapping[str, Any]
    location: Location
    back: Mapping[str, Any] | None = None  # the item's own second face (double-sided)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    @property
    def key(self) -> str:
        """Game-wide unique id: `component/item`."""
        return f"{self.component}/{self.id}"


@dataclass(frozen=True)
class Condition:
    """A test on one field: equal to one of `values`, or inside `min..max`."""

    field: str
    values: tuple[Any, ...] | None = None
    min: float | None = None
    max: float | None = None

    def matches(self, item: Item) -> bool:
        value = item.fields.get(self.field)
        if self.values is not None:
            return value in self.values
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return False
        if self.min is not None and value < self.min:
            return False
        return self.max is None or value <= self.max


@dataclass(frozen=True)
class Filter:
    """Selects items of one component: every condition must hold."""

    component: str
    where: tuple[Condition, ...] = ()
    location: Location = Location("")  # noqa: RUF009 (Location is frozen: one shared default is safe)

    def matches(self, item: Item) -> bool:
        return item.component == self.component and all(c.matches(item) for c in self.where)


@dataclass(frozen=True)
class Component:
    """A family of items sharing a size, layouts and a field schema."""

    id: str
    kind: ComponentKind
    name: str
    plural: str
    size: Size
    front: str
    back: str | None
    double_sided: bool
    fields: tuple[FieldSpec, ...]
    items: tuple[Item, ...]
    location: Location
    description: str = ""
    per_player: bool = False
    safe: float = 3.0  # mm inside the trim that text and icons keep clear of (see render.preflight)
    sheet: str = "own"  # "mixed": printed on the game's shared tokens sheet with its other small pieces

    @property
    def printable(self) -> bool:
        """Drawn face by face onto component sheets (cards, tiles, tokens); boards and sheets are documents."""
        return self.kind in PRINTABLE_KINDS

    @cached_property
    def count(self) -> int:
        """Copies in the box, all items together (computed once: every face's layout context reads it)."""
        return sum(item.count for item in self.items)

    def field_spec(self, name: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.name == name), None)

    def item(self, item_id: str) -> Item:
        found = self._items_by_id.get(item_id)
        if found is None:
            raise KeyError(f"{self.id} has no item {item_id!r}")
        return found

    @cached_property
    def _items_by_id(self) -> dict[str, Item]:
        """Items by id, built once: a cached job's check of its recorded facts looks up an item per fact, and a
        search through the items made that quadratic (92 s of a one-card edit's build at 100,000 cards)."""
        by_id: dict[str, Item] = {}
        for item in self.items:
            by_id.setdefault(item.id, item)  # the first of a repeated id, as the search found it
        return by_id

    def copies(self) -> Iterator[tuple[Item, int]]:
        """Every physical copy in a stable order: (item, copy index from 0)."""
        for item in self.items:
            for index in range(item.count):
                yield item, index


@dataclass(frozen=True)
class ContentsEntry:
    """One line of the box's declared contents ('60 crew cards'), written once in the data."""

    label: str
    count: int
    select: Filter
    location: Location

    def actual(self, game: Game) -> int:
        component = game.component(self.select.component)
        return sum(i.count for i in component.items if self.select.matches(i))


@dataclass(frozen=True)
class PlayerCount:
    """What changes at one player count: the items taken out of the box."""

    players: int
    remove: tuple[Filter, ...]
    location: Location
    note: str = ""


@dataclass(frozen=True)
class Credit:
    role: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class DesignDecision:
    """A value the rule texts are silent on and the studio designed; listed for review."""

    location: Location
    text: str


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    players_min: int
    players_max: int
    play_time: tuple[int, int]
    age: int
    components: tuple[Component, ...]
    contents: tuple[ContentsEntry, ...]
    player_counts: Mapping[int, PlayerCount]
    rules: Mapping[str, Any]
    rule_locations: Mapping[str, Location]
    location: Location
    files: tuple[str, ...]
    subtitle: str = ""
    tagline: str = ""
    story: str = ""
    credits: tuple[Credit, ...] = ()
    design_notes: tuple[str, ...] = ()
    decisions: tuple[DesignDecision, ...] = ()
    theme: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    theme_locations: Mapping[str, Location] = field(default_factory=lambda: EMPTY)  # dotted path -> YAML line

    @property
    def player_range(self) -> range:
        return range(self.players_min, self.players_max + 1)

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        raise KeyError(f"{self.id} has no component {component_id!r}")

    def has_component(self, component_id: str) -> bool:
        return any(c.id == component_id for c in self.components)

    def items_for(self, component_id: str, players: int | None = None) -> tuple[Item, ...]:
        """The component's items in play at a player count (removed items left out)."""
        items = self.component(component_id).items
        variant = self.player_counts.get(players) if players is not None else None
        if variant is None:
            return items
        return tuple(i for i in items if not any(f.matches(i) for f in variant.remove))

    def deck(self, component_id: str, players: int | None = None) -> list[Item]:
        """One entry per physical copy in play, in a stable order (for shuffling by engines)."""
        return [i for i in self.items_for(component_id, players) for _ in range(i.count)]

    def rule(self, path: str, kind: type | tuple[type, ...] | None = None) -> Any:
        """A value from `rules:` by dotted path; a missing or mistyped value is a DataError."""
        node: Any = self.rules
        walked: list[str] = []
        for part in path.split("."):
            walked.append(part)
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, (list, tuple)) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                parent = ".".join(walked[:-1])
                close = [key for key in difflib.get_close_matches(part, [str(k) for k in node], n=3, cutoff=0.6)
                         if _edits(part, key) <= 2][:1] if isinstance(node, Mapping) else []
                if close:  # a misspelt key: point at its line and name the one the engine reads
                    spelt = f"{parent}.{close[0]}" if parent else close[0]
                    raise DataError(f"rules: missing '{'.'.join(walked)}' (the engine needs it; is '{spelt}' "
                                    f"a misspelling of it?)", self.rule_location(spelt))
                raise DataError(f"rules: missing '{'.'.join(walked)}' (the engine needs it)", self.rule_location(parent))
        if kind is not None and (not isinstance(node, kind) or (isinstance(node, bool) and kind is int)):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise DataError(f"rules: '{path}' must be {names}, got {node!r}", self.rule_location(path))
        return node

    def rule_location(self, path: str) -> Location:
        """The YAML line of a rules entry, or of its nearest ancestor that has one."""
        while path:
            if path in self.rule_locations:
                return self.rule_locations[path]
            path = path.rpartition(".")[0]
        return self.rule_locations.get("", self.location)

    def theme_location(self, path: str) -> Location:
        """The YAML line of a theme entry (`suits.red.colour`), or of its nearest ancestor that has one."""
        while path:
            if path in self.theme_locations:
                return self.theme_locations[path]
            path = path.rpartition(".")[0]
        return self.theme_locations.get("", self.location)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance: a key one or two keystrokes from the one asked for is a misspelling of it
    (difflib's ratio alone matches 'stock_cards' to 'extra_stock_cards')."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]
