"""What a job's cache key hashes of the model: plain values as they are, enums by their value."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from generator.render.base.modelreads import model_digest, model_value


class Suit(str, Enum):
    SKULL = "skull"


class Rank(IntEnum):
    CAPTAIN = 3


@dataclass(frozen=True)
class Piece:
    name: str
    rank: Rank
    suit: Suit
    value: float
    wild: bool
    note: str | None
    tags: tuple[str, ...] = ()
    extra: dict[str, object] = field(default_factory=dict)
    location: str = "cards.yaml:3"  # where it stands in the YAML: never part of a key


def test_plain_values_pass_through_and_enums_built_on_str_or_int_become_their_values() -> None:
    piece = Piece("Cook", Rank.CAPTAIN, Suit.SKULL, 1.5, True, None, ("crew",), {"b": 2, "a": [Suit.SKULL, 0]})
    assert model_value(piece) == {"type": "Piece", "name": "Cook", "rank": 3, "suit": "skull", "value": 1.5,
                                  "wild": True, "note": None, "tags": ["crew"],
                                  "extra": [["a", ["skull", 0]], ["b", 2]]}
    assert type(model_value(piece)["rank"]) is int and type(model_value(Suit.SKULL)) is str
    moved = Piece("Cook", Rank.CAPTAIN, Suit.SKULL, 1.5, True, None, ("crew",), {"a": [Suit.SKULL, 0], "b": 2},
                  location="cards.yaml:40")
    assert model_digest(moved) == model_digest(piece)  # a moved line or reordered mapping draws the same
    assert model_digest(Piece("Cook", Rank.CAPTAIN, Suit.SKULL, 1.5, False, None)) != model_digest(piece)
