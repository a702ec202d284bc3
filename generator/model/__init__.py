"""The typed, immutable model of a game: the one place that knows the schema.

Frozen dataclasses rather than pydantic: the loader does its own validation so
that every error can name the YAML file and line (pydantic's error locations
are paths into dicts, not lines), and plain dataclasses keep the engine's hot
paths and start-up fast with no extra dependency.

It imports only the ground floor (errors); every layer above may import it.
"""

from generator.model.game import (
    COMPONENT_KINDS,
    PRINTABLE_KINDS,
    Component,
    ContentsEntry,
    Credit,
    DesignDecision,
    FieldSpec,
    Filter,
    Game,
    Item,
    PlayerCount,
)
from generator.model.sizes import NAMED_SIZES, Size

__all__ = [
    "COMPONENT_KINDS",
    "NAMED_SIZES",
    "PRINTABLE_KINDS",
    "Component",
    "ContentsEntry",
    "Credit",
    "DesignDecision",
    "FieldSpec",
    "Filter",
    "Game",
    "Item",
    "PlayerCount",
    "Size",
]
