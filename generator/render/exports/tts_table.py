"""A whole game on one Tabletop Simulator table: every deck, pile, board, screen and score sheet, each in its place.

The per-component exports (`raster.export_tts`) make the decks' sheets and the
tiles' and tokens' images; this module adds what they cannot, because boards
and sheets are documents rather than faces printed on card stock:

- each `board` component's faces as images (`<board>-<item>.png`, its back
  `-back.png`), rasterized from the same face drawing the printed board tiles
  use (`documents/boards.py` shows that face through windows on paper), at up
  to `BOARD_DPI` and never over TTS's 4096 px;
- each sheet template of the game (score sheets, ledgers, the player screen;
  `templates/sheets/<game>/`) as the image of its printed page, and of its
  second page as the back when a copy has two (`<sheet>-page-1.png`, `-2`);
- `<game>-table-saved-object.json`: one saved object holding all of them,
  boards first, then every component in the game's order, then the sheets,
  packed in rows by `tts.grid_plan` so no two share a place. Boards and sheets
  are `Custom_Tile` objects (a plain box, the picture on top): a board is
  flat and its picture must keep its proportions, which a tile's box does.

`pnp build --tts` writes the table with the TTS export of the game's first
printable component (`generator.render.exports.hosted`).

A sheet template comes as many times as the sheet component of its name says
(the screen: 5), else as many as its own `copies:` setting (design decision:
a ledger with no component is one pad on the table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.errors import DataError
from generator.model import Component, Game
from generator.render.base.outputs import FileKind, OutputFile

if TYPE_CHECKING:
    from generator.render.exports.raster import Workers
    from generator.render.faces.renderer import FaceRenderer

BOARD_DPI = 200  # enough to read a board's smallest print on screen; a 190 x 221 mm board is 1496 x 1740 px
SHEET_DPI = 110  # a score sheet or screen read on screen
MAX_PX = 4096  # TTS: keep every image under this a side
PT_PER_MM = 72 / 25.4


def table_name(game: Game) -> str:
    return f"{game.id}-table-saved-object.json"


@dataclass(frozen=True)
class Placed:
    """One thing on the table before it has its place: its room (units) and how to make it at a centre."""

    footprint: tuple[float, float]
    make: Any  # (origin) -> list of object states
    component: str  # the component (or sheet) it shows, kept in each object's Tags


def export_tts_table(renderer: FaceRenderer, game: Game, workers: Workers, base: str = "") -> list[OutputFile]:
    """The game's table saved object, with the board and sheet images only it makes."""
    from generator.render.exports import tts

    clash = next((c for c in game.components if f"{c.id}-saved-object.json" == table_name(game)), None)
    if clash is not None:
        raise DataError(f"component id {clash.id!r} would write the TTS table's file {table_name(game)}; "
                        "rename the component", clash.location)
    title = game.title
    files: list[OutputFile] = []
    boards: list[Placed] = []
    pieces: list[Placed] = []
    for component in game.components:
        label = f"{title}: {component.plural or component.name}"
        if component.kind == "board":
            flats, images = _board(renderer, game, component, workers)
            files.extend(images)
            boards.append(Placed(tts.flat_footprint(flats), _flat_maker(label, flats, base), component.id))
        elif component.kind == "card":
            pieces.append(_deck(renderer, game, component, label, base))
        elif component.kind in ("tile", "token"):
            pieces.append(_pile(renderer, game, component, label, base))
    sheets: list[Placed] = []
    for name, flats, images in _sheets(renderer, game, workers):
        files.extend(images)
        sheets.append(Placed(tts.flat_footprint(flats), _flat_maker(title, flats, base), name))
    placed = boards + pieces + sheets
    states: list[dict[str, Any]] = []
    for thing, centre in zip(placed, tts.grid_plan([p.footprint for p in placed])):
        for state in thing.make(centre):
            states.append(dict(state, Tags=[thing.component]))
    saved = {"SaveName": title, "ObjectStates": states}
    files.append(OutputFile(table_name(game), FileKind.TTS_DECK, tts.to_bytes(saved)))
    return files


def _flat_maker(label: str, flats: list[tuple[str, int, str, str, tuple[float, float]]], base: str) -> Any:
    from generator.render.exports import tts

    return lambda origin: tts.flat_objects(label, flats, base, origin)["ObjectStates"]


def _deck(renderer: FaceRenderer, game: Game, component: Component, label: str, base: str) -> Placed:
    from generator.render.exports import tts
    from generator.render.exports.raster import TTS_MAX_COLS, TTS_MAX_ROWS
    from generator.render.faces.layout import back_layout

    backs = ([renderer.face(game, component, item, "back") for item in component.items]
             if back_layout(component) is not None else [])
    unique_back = bool(backs) and any(b != backs[0] for b in backs)
    sheets = tts.deck_sheets(component.id, [(item.id, item.count) for item in component.items], unique_back,
                             TTS_MAX_COLS, TTS_MAX_ROWS)  # the sheets `raster.export_tts` draws
    sideways = component.size.width > component.size.height
    room = max(component.size.width, component.size.height) / tts.MM_PER_UNIT * tts.PILE_GAP
    return Placed((room, room),
                  lambda origin: tts.deck_object(label, sheets, base, sideways, origin)["ObjectStates"],
                  component.id)


def _pile(renderer: FaceRenderer, game: Game, component: Component, label: str, base: str) -> Placed:
    from generator.render.exports import tts
    from generator.render.exports.raster import piece_list

    _, listed = piece_list(renderer, game, component)
    size = (component.size.width, component.size.height)
    return Placed(tts.pile_footprint(len(listed), size),
                  lambda origin: tts.piece_objects(label, component.kind, component.size.shape, listed, base, size,
                                                   origin)["ObjectStates"],
                  component.id)


def _dpi(size_mm: tuple[float, float], wanted: int) -> int:
    """`wanted` dpi, or less so the longer side stays under TTS's 4096 px."""
    return min(wanted, math.floor((MAX_PX - 1) / (max(size_mm) / 25.4)))


def _board(renderer: FaceRenderer, game: Game, component: Component, workers: Workers
           ) -> tuple[list[tuple[str, int, str, str, tuple[float, float]]], list[OutputFile]]:
    """A board's items as flats, and their images (front, and back when the board has one)."""
    from generator.render.exports.raster import faces_pdf, pixel_scale
    from generator.render.faces.layout import back_layout

    size = (component.size.width, component.size.height)
    dpi = _dpi(size, BOARD_DPI)
    shots: list[tuple[str, Any]] = []
    flats = []
    for item in component.items:
        front = f"{component.id}-{item.id}.png"
        shots.append((front, renderer.face(game, component, item, "front")))
        back = ""
        if back_layout(component) is not None:
            back = f"{component.id}-{item.id}-back.png"
            shots.append((back, renderer.face(game, component, item, "back")))
        flats.append((str(item.get("name", item.id)), item.count, front, back, size))
    faces = [face for _, face in shots]
    pixels = workers.map_pixels(faces_pdf(faces, 0.0, dpi, compress=False), pixel_scale(dpi), len(faces))
    images = [OutputFile(name, FileKind.TTS, picture.png(), component.id) for (name, _), picture in zip(shots, pixels)]
    return flats, images


def _sheets(renderer: FaceRenderer, game: Game, workers: Workers
            ) -> list[tuple[str, list[tuple[str, int, str, str, tuple[float, float]]], list[OutputFile]]]:
    """Each sheet template as (name, flats, images): its first page, and its second as the back when a copy
    has two pages; as many copies as its sheet component (or its own `copies:`) says."""
    from generator.render.documents.rulebook import parse_template
    from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates, split_settings
    from generator.render.exports.raster import pixel_scale

    project = renderer.project
    out = []
    for template in sheet_templates(game, project):
        name = sheet_name(template)
        parsed = parse_template(template, game, project)
        settings, _ = split_settings(parsed[1], parsed[0])
        pdf = sheet_pdf(game, project, template, "a4", fillable=False, parsed=parsed)
        pages, size = _pages(pdf)
        per_copy = max(1, pages // max(1, settings.copies))
        shown = min(per_copy, 2)
        dpi = _dpi(size, SHEET_DPI)
        pictures = workers.map_pixels(pdf, pixel_scale(dpi), shown)
        names = [f"{name}-page-{page + 1}.png" for page in range(shown)]
        component = next((c for c in game.components if c.kind == "sheet" and c.id == name), None)
        copies = component.count if component is not None else settings.copies
        flats = [(name, copies, names[0], names[1] if shown > 1 else "", size)]
        out.append((name, flats, [OutputFile(file, FileKind.TTS, picture.png(), name)
                                  for file, picture in zip(names, pictures)]))
    return out


def _pages(pdf: bytes) -> tuple[int, tuple[float, float]]:
    """How many pages, and the first one's size in mm."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        width, height = document[0].get_size()
        return len(document), (width / PT_PER_MM, height / PT_PER_MM)
    finally:
        document.close()
