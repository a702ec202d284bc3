"""Drawing what a print-service preset asks for: PNGs at exact pixels, deck PDFs, front/back PDFs, sheets.

A preset (`generator.render.exports.presets`) is data; this module turns one
component into the files it names, plus a manifest of copies per face. Every
face is drawn once into a PDF form and placed on pages whose size, TrimBox and
BleedBox are the service's: the face is centred on the service's trim, at true
size (`fit: pad`, its bleed fills the rest) or scaled to cover it (`fit:
scale`). PNGs are rasterized from those pages at the preset's dpi, and the
dpi is written into each PNG (pHYs chunk). CMYK presets go through
`generator.render.exports.cmyk` (PDF/X with the shipped profile).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.model import Component, Game
from generator.render.base.outputs import FileKind, OutputFile
from generator.render.base.units import pt
from generator.render.exports.presets import Preset
from generator.render.faces.layout import Face, back_layout

if TYPE_CHECKING:
    from generator.render.exports.raster import Workers
    from generator.render.faces.renderer import FaceRenderer

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class PresetSettings:
    """What a preset's job receives: the preset itself (pinned by its exporter), so its key covers every field."""

    preset: Preset | None = None


@dataclass(frozen=True)
class Geometry:
    """Where one face goes on a service page: page (points), service trim (mm), scale, and how far to draw bleed."""

    page_w: float
    page_h: float
    trim_w: float
    trim_h: float
    scale: float
    reach: float  # mm beyond the face's own trim that its background must be drawn, so no page edge shows paper
    turned: bool = False  # the face is drawn a quarter turn (a landscape card on an upright service size)

    def trim_box(self) -> tuple[float, float, float, float]:
        """The service's trim centred on the page (points): the TrimBox the shop cuts along."""
        x0 = (self.page_w - pt(self.trim_w)) / 2
        y0 = (self.page_h - pt(self.trim_h)) / 2
        return x0, y0, x0 + pt(self.trim_w), y0 + pt(self.trim_h)


def geometry(preset: Preset, component: Component) -> Geometry:
    """The service's page for this component's faces (see presets.yaml: sizes, fit, bleed_mm, dpi)."""
    fit = preset.fitting(component)
    turned = fit is not None and fit.turned
    face_w, face_h = component.size.width, component.size.height
    if turned:  # the face as it lies on the service's upright page
        face_w, face_h = face_h, face_w
    rule = fit.rule if fit is not None else None
    trim_w, trim_h = rule.trim_mm if rule is not None and rule.trim_mm else (face_w, face_h)
    if rule is not None and rule.px is not None:
        page_w, page_h = (n * 72.0 / preset.dpi for n in rule.px)
    elif preset.writes == "png":  # whole pixels, like every other PNG we write
        page_w, page_h = (round((t + 2 * preset.bleed_mm) / MM_PER_INCH * preset.dpi) * 72.0 / preset.dpi
                          for t in (trim_w, trim_h))
    else:
        page_w, page_h = pt(trim_w + 2 * preset.bleed_mm), pt(trim_h + 2 * preset.bleed_mm)
    scale = 1.0 if preset.fit == "pad" else max(trim_w / face_w, trim_h / face_h)
    page_w_mm, page_h_mm = page_w / pt(1), page_h / pt(1)
    reach = max(page_w_mm / scale - face_w, page_h_mm / scale - face_h) / 2 + 0.5
    return Geometry(page_w, page_h, trim_w, trim_h, scale, max(reach, 0.5), turned)


@dataclass(frozen=True)
class Design:
    """One distinct card: its front, its back (None without a back layout) and how many copies exist."""

    item: str
    front: Face
    back: Face | None
    copies: int


def designs(renderer: FaceRenderer, game: Game, component: Component) -> list[Design]:
    """The component's distinct (front, back) pairs in deck order, copies summed over equal designs."""
    has_back = back_layout(component) is not None
    found: dict[tuple[Face, Face | None], int] = {}
    out: list[Design] = []
    for item in component.items:
        front = renderer.face(game, component, item, "front")
        back = renderer.face(game, component, item, "back") if has_back else None
        key = (front, back)
        if key in found:
            index = found[key]
            out[index] = Design(out[index].item, front, back, out[index].copies + item.count)
        else:
            found[key] = len(out)
            out.append(Design(item.id, front, back, item.count))
    return out


def pages_pdf(faces: Sequence[Face], order: Sequence[int], geo: Geometry, title: str) -> bytes:
    """A PDF with one page per entry of `order` (an index into `faces`); each face drawn once, as a form."""
    from reportlab.pdfgen import canvas as rl_canvas

    from generator.render.faces.draw import draw_face

    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, invariant=1, pageCompression=1, initialFontName="Sans", initialFontSize=9)
    c.setTitle(title)
    c.setCreator("pnp build")
    reach = pt(geo.reach)
    drawn: set[int] = set()
    for index in order:
        face = faces[index]
        c.setPageSize((geo.page_w, geo.page_h))
        trim = geo.trim_box()
        c.setTrimBox(trim)
        c.setBleedBox((0, 0, geo.page_w, geo.page_h))  # the page is the trim plus the service's bleed
        name = f"face{index}"
        if index not in drawn:
            c.beginForm(name, -reach, -reach, pt(face.width) + reach, pt(face.height) + reach)
            draw_face(c, face, geo.reach)
            c.endForm()
            drawn.add(index)
        c.saveState()
        c.translate(geo.page_w / 2, geo.page_h / 2)
        c.scale(geo.scale, geo.scale)
        if geo.turned:
            c.rotate(90)  # a quarter turn anticlockwise: the landscape face's top lies along the page's left edge
        c.translate(-pt(face.width) / 2, -pt(face.height) / 2)
        c.doForm(name)
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def manifest(preset: Preset, rows: list[dict[str, Any]]) -> tuple[str, bytes]:
    """(extension, bytes) of the manifest: one row per face file or page with its copies."""
    if preset.manifest == "json":
        return "json", (json.dumps({"preset": preset.name, "service": preset.service, "files": rows},
                                   indent=2, sort_keys=True) + "\n").encode()
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["file"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return "csv", buffer.getvalue().encode()


def export_preset(renderer: FaceRenderer, game: Game, component: Component, preset: Preset,
                  workers: Workers) -> list[OutputFile]:
    """Every file `preset` asks for of one component (none when the service does not take it: the build names it
    in a warning, and `presets.nothing_written` says when a game gets no file at all)."""
    if preset.skip_reason(component) is not None:
        return []
    writer = {"png": _png, "pdf-deck": _pdf_deck, "pdf-sides": _pdf_sides, "sheets": _sheets}[preset.writes]
    files, rows = writer(renderer, game, component, preset, workers)
    ext, data = manifest(preset, rows)
    files.append(OutputFile(f"{component.id}-manifest.{ext}", FileKind.PRESET, data, component.id, "manifest"))
    return files


def _finish(pdf: bytes, preset: Preset, title: str) -> bytes:
    if preset.colour != "cmyk":
        return pdf
    from generator.render.exports.cmyk import to_pdfx

    return to_pdfx(pdf, preset.ink_limit, title)


_Written = tuple[list[OutputFile], list[dict[str, Any]]]


def _png(renderer: FaceRenderer, game: Game, component: Component, preset: Preset, workers: Workers) -> _Written:
    from generator.render.exports.raster import pixel_scale, with_dpi

    geo = geometry(preset, component)
    cards = designs(renderer, game, component)
    entries: list[tuple[str, str, str, int, Face]] = []  # (file, item, side, copies, face)
    fields = {"game": game.id, "component": component.id}
    for number, card in enumerate(cards, start=1):
        entries.append((preset.file_name("png", **fields, index=number, item=card.item, side=""),
                        card.item, "front", card.copies, card.front))
    backs = [card.back for card in cards if card.back is not None]
    if backs and all(back == backs[0] for back in backs):
        total = sum(card.copies for card in cards)
        entries.append((preset.file_name("png", **fields, index=0, item="back", side=""), "*", "back", total,
                        backs[0]))
    else:
        for number, card in enumerate(cards, start=1):
            if card.back is not None:
                entries.append((preset.file_name("png", **fields, index=number, item=card.item, side="-back"),
                                card.item, "back", card.copies, card.back))
    entries.sort(key=lambda entry: entry[0])  # the order the service's uploader lists them
    faces = [entry[4] for entry in entries]
    pdf = pages_pdf(faces, range(len(faces)), geo, f"{game.title}: {component.plural}")
    images = workers.map_pages(pdf, pixel_scale(preset.dpi), len(faces))
    files = [OutputFile(name, FileKind.PRESET, with_dpi(image, preset.dpi), component.id, f"{item} {side}")
             for (name, item, side, _, _), image in zip(entries, images)]
    rows = [{"file": name, "item": item, "side": side, "copies": copies} for name, item, side, copies, _ in entries]
    return files, rows


def _pdf_deck(renderer: FaceRenderer, game: Game, component: Component, preset: Preset,
              workers: Workers) -> _Written:
    geo = geometry(preset, component)
    cards = designs(renderer, game, component)
    faces: list[Face] = []  # each distinct face once (a shared back is one form for the whole deck)
    index: dict[Face, int] = {}
    slots: dict[tuple[int, str], int] = {}
    for number, card in enumerate(cards):
        for side in preset.page_order:
            face = card.front if side == "front" else card.back
            if face is not None:
                if face not in index:
                    index[face] = len(faces)
                    faces.append(face)
                slots[(number, side)] = index[face]
    order: list[int] = []
    rows: list[dict[str, Any]] = []
    every = preset.copies == "every"
    for number, card in enumerate(cards):
        for copy in range(1, (card.copies if every else 1) + 1):
            for side in preset.page_order:
                if (number, side) in slots:
                    order.append(slots[(number, side)])
                    # A page of an every-copy deck is printed once: copies 1, so the column still sums to the deck.
                    copy_of = {"copy": f"{copy} of {card.copies}", "copies": 1} if every else {"copies": card.copies}
                    rows.append({"page": len(order), "item": card.item, "side": side, **copy_of})
    name = preset.file_name("pdf", game=game.id, component=component.id)
    title = f"{game.title}: {component.plural}"
    pdf = _finish(pages_pdf(faces, order, geo, title), preset, title)
    for row in rows:
        row["file"] = name
    return [OutputFile(name, FileKind.PRESET, pdf, component.id, "deck")], rows


def _pdf_sides(renderer: FaceRenderer, game: Game, component: Component, preset: Preset,
               workers: Workers) -> _Written:
    geo = geometry(preset, component)
    cards = designs(renderer, game, component)
    title = f"{game.title}: {component.plural}"
    files: list[OutputFile] = []
    rows: list[dict[str, Any]] = []
    fronts = [card.front for card in cards]
    name = preset.file_name("pdf", game=game.id, component=component.id, side="fronts")
    files.append(OutputFile(name, FileKind.PRESET, _finish(pages_pdf(fronts, range(len(fronts)), geo, title),
                                                          preset, title), component.id, "fronts"))
    rows.extend({"file": name, "page": page, "item": card.item, "side": "front", "copies": card.copies}
                for page, card in enumerate(cards, start=1))
    backs = [card.back for card in cards if card.back is not None]
    if backs:
        shared = all(back == backs[0] for back in backs)
        pages = backs[:1] if shared else backs
        name = preset.file_name("pdf", game=game.id, component=component.id, side="backs")
        files.append(OutputFile(name, FileKind.PRESET, _finish(pages_pdf(pages, range(len(pages)), geo, title),
                                                              preset, title), component.id, "backs"))
        if shared:
            rows.append({"file": name, "page": 1, "item": "*", "side": "back",
                         "copies": sum(card.copies for card in cards)})
        else:
            rows.extend({"file": name, "page": page, "item": card.item, "side": "back", "copies": card.copies}
                        for page, card in enumerate(cards, start=1))
    return files, rows


def _sheets(renderer: FaceRenderer, game: Game, component: Component, preset: Preset,
            workers: Workers) -> _Written:
    from generator.render.base.units import PAPERS
    from generator.render.sheets.imposition import impose
    from generator.render.sheets.options import MODE_NAMES, SheetOptions

    result = impose(renderer, game, component, SheetOptions(paper=PAPERS[preset.paper], bleed=preset.bleed_mm))
    name = preset.file_name("pdf", game=game.id, component=component.id)
    if result.mode != "duplex-long":  # the folder prints duplex: a file without backs must say it is one-sided
        name = f"{name.removesuffix('.pdf')}-{MODE_NAMES[result.mode]}.pdf"  # as the ordinary sheets name it
    title = f"{game.title}: {component.plural}"
    pdf = _finish(result.pdf, preset, title)
    rows = [{"file": name, "item": card.item, "copies": card.copies}
            for card in designs(renderer, game, component)]
    return [OutputFile(name, FileKind.PRESET, pdf, component.id, preset.paper)], rows
