"""Tabletop Simulator saved objects: the JSON that brings a deck, tiles or tokens into TTS with true counts.

TTS reads a saved object (Objects > Saved Objects, or a file in its
`Saved Objects` folder) as `{"ObjectStates": [...]}`. A deck is one
`DeckCustom` whose `CustomDeck` maps a sheet number N to its images and grid
(`FaceURL`, `BackURL`, `NumWidth`, `NumHeight`, `BackIsHidden`,
`UniqueBack`), and whose `DeckIDs` list one card id per physical card: id =
N * 100 + slot on that sheet, so a design with 9 copies appears 9 times (All
Hands' crew arrives as 90 cards from 27 designs). A component of one card is a
single `CardCustom`. Tiles become `Custom_Tile` objects (front on top, back
below), tokens `Custom_Token` objects (TTS cuts them out along the image's
transparency; one image shows on both faces, so a token whose back differs
from its front is a round `Custom_Tile`), one object per physical copy.

Image references are `base + name`: with `--tts-url BASE` the build passes
`BASE/<game>/tts/`, by default the file:// URI of output/<game>/tts/, so the
JSON imports on the machine that built it; with no base (library use) the
bare file names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CARD_IDS_PER_SHEET = 100  # TTS: card id = sheet key * 100 + slot
TILE_TYPE = {"rect": 3, "circle": 2}  # Custom_Tile shapes: 3 rounded box, 2 circle
THICKNESS = 0.2


@dataclass(frozen=True)
class SheetSlots:
    """One deck sheet: its image names, grid, and which design sits in each slot (with its copies)."""

    face: str
    back: str
    cols: int
    rows: int
    unique_back: bool
    slots: Sequence[tuple[str, int]]  # (item id, copies) in slot order


def url(base: str, name: str) -> str:
    """`name` under `base` with exactly one slash between (a base given with or without one works the same)."""
    return f"{base.rstrip('/')}/{name}" if base else name


def _transform(x: float = 0.0, z: float = 0.0, face_down: bool = True) -> dict[str, float]:
    """Where TTS puts the object: a deck arrives face down (flipped on Z), as it is dealt; pieces face up."""
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _custom_deck(sheet: SheetSlots, base: str) -> dict[str, Any]:
    return {"FaceURL": url(base, sheet.face), "BackURL": url(base, sheet.back), "NumWidth": sheet.cols,
            "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": sheet.unique_back, "Type": 0}


def deck_object(title: str, sheets: Sequence[SheetSlots], base: str, sideways: bool = False) -> dict[str, Any]:
    """The saved object of one deck: a DeckCustom (or one CardCustom) holding every physical card.

    `sideways`: the cards are landscape (wider than tall). TTS draws every custom card on its portrait card
    shape unless the card says `SidewaysCard`, which turns that shape (and the card in a hand) a quarter turn."""
    custom = {str(key): _custom_deck(sheet, base) for key, sheet in enumerate(sheets, start=1)}
    cards: list[dict[str, Any]] = []
    for key, sheet in enumerate(sheets, start=1):
        for slot, (item, copies) in enumerate(sheet.slots):
            card_id = key * CARD_IDS_PER_SHEET + slot
            cards.extend({"Name": "CardCustom", "Nickname": item, "CardID": card_id, "SidewaysCard": sideways,
                          "CustomDeck": {str(key): custom[str(key)]}, "Transform": _transform()}
                         for _ in range(copies))
    if len(cards) == 1:
        state = dict(cards[0], Nickname=title)
    else:
        state = {"Name": "DeckCustom", "Nickname": title, "Transform": _transform(), "SidewaysCard": sideways,
                 "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards}
    return _saved(state)


def piece_objects(title: str, kind: str, shape: str, pieces: Sequence[tuple[str, int, str, str]],
                  base: str, size_mm: tuple[float, float]) -> dict[str, Any]:
    """Tiles or tokens: one Custom_Tile / Custom_Token per physical copy, laid out in rows.

    `pieces` are (item id, copies, front image, back image or ""). A Custom_Token
    shows one image on both faces, so a token with a back of its own becomes a
    round Custom_Tile, which has a second image.
    """
    states: list[dict[str, Any]] = []
    scale = max(size_mm) / 25.4  # TTS units are about an inch
    for item, copies, front, back in pieces:
        for _ in range(copies):
            index = len(states)
            where = _transform(x=(index % 10) * scale * 1.1, z=-(index // 10) * scale * 1.1, face_down=False)
            where.update(scaleX=scale, scaleZ=scale)
            image: dict[str, Any] = {"ImageURL": url(base, front), "ImageSecondaryURL": url(base, back) if back else "",
                                     "ImageScalar": 1.0, "WidthScale": 0.0}
            if kind == "tile" or back:  # a TTS token has one image: a token with its own back is a (round) tile
                image["CustomTile"] = {"Type": TILE_TYPE.get(shape, 3), "Thickness": THICKNESS,
                                       "Stackable": kind == "token", "Stretch": True}
                name = "Custom_Tile"
            else:
                image["CustomToken"] = {"Thickness": THICKNESS, "MergeDistancePixels": 15.0, "StandUp": False,
                                        "Stackable": True}
                name = "Custom_Token"
            states.append({"Name": name, "Nickname": f"{title}: {item}", "Transform": where, "CustomImage": image})
    return {"SaveName": title, "ObjectStates": states}


def _saved(state: dict[str, Any]) -> dict[str, Any]:
    return {"SaveName": state["Nickname"], "ObjectStates": [state]}


def to_bytes(saved: dict[str, Any]) -> bytes:
    """The saved object as TTS reads it; sorted keys so the same build writes the same bytes."""
    return (json.dumps(saved, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def physical_count(saved: dict[str, Any]) -> int:
    """How many physical cards, tiles or tokens a saved object puts on the table (what the tests compare)."""
    total = 0
    for state in saved["ObjectStates"]:
        total += len(state["DeckIDs"]) if state["Name"] == "DeckCustom" else 1
    return total
