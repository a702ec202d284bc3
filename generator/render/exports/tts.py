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

Every deck, pile and board has its own spawn position: a component's saved
object lays its piles (one per item, the copies stacked) on a grid from its
origin, and the game's table (`generator.render.exports.tts_table`) packs
the components' footprints in rows on the table (`grid_plan`), boards and
sheets as `Custom_Tile` objects with their image, so the whole game loads
from one file. Positions are worked out from sizes and counts only, so the
same game gives the same file. TTS units are taken as about an inch.

Image references are `base + name`: with `--tts-url BASE` the build passes
`BASE/<game>/tts/`, by default the file:// URI of output/<game>/tts/, so the
JSON imports on the machine that built it; with no base (library use) the
bare file names.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CARD_IDS_PER_SHEET = 100  # TTS: card id = sheet key * 100 + slot
TILE_TYPE = {"rect": 3, "circle": 2}  # Custom_Tile shapes: 3 rounded box, 2 circle
BOX = 0  # Custom_Tile shape of a board or sheet: a plain box, square corners
THICKNESS = 0.2
FLAT_THICKNESS = 0.1  # a board or a paper sheet
MM_PER_UNIT = 25.4  # a TTS unit is about an inch
PILE_GAP = 1.25  # piles of one component stand this many of their own widths apart
DECK_COLS = 10  # TTS deck sheets: up to 10 x 7 slots, the last one the hidden card
DECK_ROWS = 7


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


def _transform(x: float = 0.0, z: float = 0.0, face_down: bool = True, y: float = 1.0) -> dict[str, float]:
    """Where TTS puts the object: a deck arrives face down (flipped on Z), as it is dealt; pieces face up."""
    return {"posX": round(x, 4), "posY": round(y, 4), "posZ": round(z, 4), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def deck_sheets(component_id: str, items: Sequence[tuple[str, int]], unique_back: bool,
                max_cols: int = DECK_COLS, max_rows: int = DECK_ROWS) -> list[SheetSlots]:
    """The deck sheets of a card component, as `raster.export_tts` draws them: up to 69 designs a sheet (the
    70th slot is the hidden card), `<component>-sheet-N.png`, backs `<component>-backs-N.png` when they differ
    per card, else the one `<component>-back.png`. Sizes and names only: the table needs no drawing for them."""
    per_sheet = max_cols * max_rows - 1
    sheets = []
    for index, start in enumerate(range(0, len(items), per_sheet)):
        chunk = items[start:start + per_sheet]
        cols = min(max_cols, len(chunk) + 1)
        rows = math.ceil((len(chunk) + 1) / cols)
        back = f"{component_id}-backs-{index + 1}.png" if unique_back else f"{component_id}-back.png"
        sheets.append(SheetSlots(f"{component_id}-sheet-{index + 1}.png", back, cols, rows, unique_back, chunk))
    return sheets


def pile_grid(piles: int) -> tuple[int, int]:
    """(columns, rows) of a component's piles: as square as it gets, filled row by row."""
    cols = max(1, math.ceil(math.sqrt(piles)))
    return cols, max(1, math.ceil(piles / cols))


def pile_footprint(piles: int, size_mm: tuple[float, float]) -> tuple[float, float]:
    """Table room (units) of a component laid out as piles: its grid at `PILE_GAP` pitch."""
    cols, rows = pile_grid(piles)
    pitch = max(size_mm) / MM_PER_UNIT * PILE_GAP
    return cols * pitch, rows * pitch


def _pile_spot(index: int, piles: int, size_mm: tuple[float, float], origin: tuple[float, float]) -> tuple[float, float]:
    """Centre of pile `index`, the grid centred on `origin`."""
    cols, rows = pile_grid(piles)
    pitch = max(size_mm) / MM_PER_UNIT * PILE_GAP
    row, col = divmod(index, cols)
    return origin[0] + (col - (cols - 1) / 2) * pitch, origin[1] - (row - (rows - 1) / 2) * pitch


def grid_plan(footprints: Sequence[tuple[float, float]], row_width: float = 44.0,
              gap: float = 2.0) -> list[tuple[float, float]]:
    """Centres (x, z) of rectangles (width, depth) packed in rows left to right, each row below the last,
    the whole centred on the table: every deck, pile group and board gets its own place. Deterministic:
    only the footprints and their order decide it."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for index, (width, _) in enumerate(footprints):
        if rows[-1] and used + gap + width > row_width:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0.0) + width
        rows[-1].append(index)
    depths = [max((footprints[i][1] for i in row), default=0.0) for row in rows]
    total = sum(depths) + gap * (len(rows) - 1)
    centres: list[tuple[float, float]] = [(0.0, 0.0)] * len(footprints)
    top = total / 2
    for row, depth in zip(rows, depths):
        width = sum(footprints[i][0] for i in row) + gap * (len(row) - 1)
        left = -width / 2
        for i in row:
            centres[i] = (left + footprints[i][0] / 2, top - depth / 2)
            left += footprints[i][0] + gap
        top -= depth + gap
    return centres


def _custom_deck(sheet: SheetSlots, base: str) -> dict[str, Any]:
    return {"FaceURL": url(base, sheet.face), "BackURL": url(base, sheet.back), "NumWidth": sheet.cols,
            "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": sheet.unique_back, "Type": 0}


def deck_object(title: str, sheets: Sequence[SheetSlots], base: str, sideways: bool = False,
                origin: tuple[float, float] = (0.0, 0.0)) -> dict[str, Any]:
    """The saved object of one deck: a DeckCustom (or one CardCustom) holding every physical card.

    `sideways`: the cards are landscape (wider than tall). TTS draws every custom card on its portrait card
    shape unless the card says `SidewaysCard`, which turns that shape (and the card in a hand) a quarter turn."""
    custom = {str(key): _custom_deck(sheet, base) for key, sheet in enumerate(sheets, start=1)}
    cards: list[dict[str, Any]] = []
    for key, sheet in enumerate(sheets, start=1):
        for slot, (item, copies) in enumerate(sheet.slots):
            card_id = key * CARD_IDS_PER_SHEET + slot
            cards.extend({"Name": "CardCustom", "Nickname": item, "CardID": card_id, "SidewaysCard": sideways,
                          "CustomDeck": {str(key): custom[str(key)]}, "Transform": _transform(*origin)}
                         for _ in range(copies))
    if len(cards) == 1:
        state = dict(cards[0], Nickname=title)
    else:
        state = {"Name": "DeckCustom", "Nickname": title, "Transform": _transform(*origin), "SidewaysCard": sideways,
                 "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards}
    return _saved(state)


def piece_objects(title: str, kind: str, shape: str, pieces: Sequence[tuple[str, int, str, str]],
                  base: str, size_mm: tuple[float, float], origin: tuple[float, float] = (0.0, 0.0)) -> dict[str, Any]:
    """Tiles or tokens: one Custom_Tile / Custom_Token per physical copy, each item's copies in a pile of its own.

    `pieces` are (item id, copies, front image, back image or ""). A Custom_Token
    shows one image on both faces, so a token with a back of its own becomes a
    round Custom_Tile, which has a second image. The piles stand on a grid
    centred on `origin` (`pile_grid`), the copies of one pile stacked upwards.
    """
    states: list[dict[str, Any]] = []
    scale = max(size_mm) / MM_PER_UNIT
    for pile, (item, copies, front, back) in enumerate(pieces):
        x, z = _pile_spot(pile, len(pieces), size_mm, origin)
        for level in range(copies):
            where = _transform(x, z, face_down=False, y=1.0 + level * (THICKNESS + 0.05))
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


def flat_objects(title: str, flats: Sequence[tuple[str, int, str, str, tuple[float, float]]], base: str,
                 origin: tuple[float, float] = (0.0, 0.0)) -> dict[str, Any]:
    """Boards, screens and score sheets: one Custom_Tile (a plain box with the picture on top, its back below)
    per copy, each item in a pile of its own side by side, centred on `origin`.

    `flats` are (item label, copies, front image, back image or "", (width, height) mm).
    """
    states: list[dict[str, Any]] = []
    widths = [size[0] / MM_PER_UNIT for *_, size in flats]
    x = origin[0] - (sum(widths) + PILE_GAP * (len(flats) - 1)) / 2
    for (label, copies, front, back, size), width in zip(flats, widths):
        centre = x + width / 2
        scale = max(size) / MM_PER_UNIT
        for level in range(copies):
            where = _transform(centre, origin[1], face_down=False, y=1.0 + level * (FLAT_THICKNESS + 0.05))
            where.update(scaleX=scale, scaleZ=scale)
            image = {"ImageURL": url(base, front), "ImageSecondaryURL": url(base, back) if back else "",
                     "ImageScalar": 1.0, "WidthScale": 0.0,
                     "CustomTile": {"Type": BOX, "Thickness": FLAT_THICKNESS, "Stackable": copies > 1,
                                    "Stretch": True}}
            states.append({"Name": "Custom_Tile", "Nickname": f"{title}: {label}", "Transform": where,
                           "CustomImage": image})
        x += width + PILE_GAP
    return {"SaveName": title, "ObjectStates": states}


def flat_footprint(flats: Sequence[tuple[str, int, str, str, tuple[float, float]]]) -> tuple[float, float]:
    """Table room (units) of boards or sheets laid side by side."""
    widths = [size[0] / MM_PER_UNIT for *_, size in flats]
    return sum(widths) + PILE_GAP * (len(flats) - 1), max(size[1] for *_, size in flats) / MM_PER_UNIT


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
