"""A5 sheets two to a page: the pages of a finished sheet PDF, imposed side by side on landscape paper.

A score sheet whose component says `size: a5` and whose template frames it
(`::: frame <component>`) is laid out by `documents.sheets` as an A5 box
centred on a full page. Here each page is cut down to that box (its crop box,
which pypdf clips every merged page to) and two of them go side by side on
one landscape sheet of the paper, with a dashed cut line between them. On US
Letter the A5 box is scaled to half a sheet (94%).

When each copy has two pages (front and back of one A5 sheet), the sheets
are arranged for a double-sided print flipped on the short edge, as the
rulebook booklets are: the back of the left copy is on the right of the next
page. Copies pair up in order; an odd last copy prints alone.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from generator.render.units import Paper, pt
from generator.render.units import paper as registered_paper

if TYPE_CHECKING:
    from generator.model import Game
    from generator.project import Project
    from generator.render.documents.sheets import SheetLayout

CUT_GREY = 0.55


def fits_two_up(width: float, height: float, paper: Paper) -> bool:
    """Two `width` x `height` mm pages fit side by side on the landscape paper at no less than 90%."""
    return _scale(width, height, paper) >= 0.9


def _scale(width: float, height: float, paper: Paper) -> float:
    return min(1.0, paper.height / 2 / width, paper.width / height)


def pages_of(pdf: bytes) -> tuple[int, bool]:
    """How many pages a PDF has, and whether its first page is landscape."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    first = reader.pages[0].mediabox
    return len(reader.pages), float(first.width) > float(first.height)


def two_up(pdf: bytes, box: tuple[float, float], paper: Paper, pages_per_copy: int) -> bytes:
    """The pages of `pdf` (each an A5 `box` (w, h mm) centred on its page) two to a landscape `paper` sheet."""
    from pypdf import PdfReader, PdfWriter, Transformation

    source = PdfReader(io.BytesIO(pdf))
    width, height = box
    scale = _scale(width, height, paper)
    sheet_w, sheet_h = paper.height, paper.width  # landscape, mm
    placed_w, placed_h = width * scale, height * scale
    slots = [(sheet_w / 4 - placed_w / 2, (sheet_h - placed_h) / 2),
             (3 * sheet_w / 4 - placed_w / 2, (sheet_h - placed_h) / 2)]
    pages = list(source.pages)
    copies = [pages[i:i + pages_per_copy] for i in range(0, len(pages), pages_per_copy)]
    cut = PdfReader(io.BytesIO(_cut_line_page(paper))).pages[0]
    writer = PdfWriter()
    for pair_start in range(0, len(copies), 2):
        pair = copies[pair_start:pair_start + 2]
        for side in range(pages_per_copy):
            target = writer.add_blank_page(pt(sheet_w), pt(sheet_h))
            for index, copy in enumerate(pair):
                slot = slots[index] if side % 2 == 0 else slots[1 - index]  # short-edge flip: halves swap
                page = copy[side]
                page_w, page_h = float(page.mediabox.width), float(page.mediabox.height)
                left, bottom = (page_w - pt(width)) / 2, (page_h - pt(height)) / 2
                page.cropbox.lower_left = (left, bottom)
                page.cropbox.upper_right = (left + pt(width), bottom + pt(height))
                move = (Transformation().translate(-left, -bottom).scale(scale, scale)
                        .translate(pt(slot[0]), pt(slot[1])))
                target.merge_transformed_page(page, move)
            target.merge_page(cut)  # over the pages: the line shows where they meet
    writer.add_metadata({"/Producer": "pnp build", "/Creator": "pnp build"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _cut_line_page(paper: Paper) -> bytes:
    """The dashed cut line down the middle of a landscape sheet (merged over the two pages)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(pt(paper.height), pt(paper.width)), invariant=1)
    c.setStrokeColorRGB(CUT_GREY, CUT_GREY, CUT_GREY)
    c.setLineWidth(0.4)
    c.setDash(4, 3)
    c.line(pt(paper.height / 2), 0, pt(paper.height / 2), pt(paper.width))
    c.showPage()
    c.save()
    return buffer.getvalue()


def two_up_sheet(game: Game, project: Project, template: Path, paper: str, pdf: bytes,
                 layout: SheetLayout | None = None) -> tuple[str, bytes] | None:
    """A printed sheet PDF two to a page, and the word its file name ends with; None if it is not an A5 sheet.

    An A5 sheet is one whose template frames (`::: frame`) a component that says
    `size: a5`. The name says how to print: `2up` (single-sided) or
    `2up-duplex-short` when each copy has a back. `layout` is the sheet's layout
    (`lay_out_sheet`) when the caller has it: its settings and page count, read
    without parsing the template or the PDF again."""
    if layout is None:
        from generator.render.documents.rulebook import parse_template
        from generator.render.documents.sheets import split_settings

        display, blocks = parse_template(template, game, project)
        settings, _ = split_settings(blocks, display)
        per_copy = max(1, pages_of(pdf)[0] // max(settings.copies, 1))
    else:
        settings, per_copy = layout.settings, layout.pages
    if settings.frame is None or not game.has_component(settings.frame):
        return None
    size = game.component(settings.frame).size
    sheet = registered_paper(paper)
    if size.name != "a5" or not fits_two_up(size.width, size.height, sheet):
        return None
    mode = "2up" if per_copy == 1 else "2up-duplex-short"
    return mode, two_up(pdf, (size.width, size.height), sheet, per_copy)
