"""Sheet PDFs read back: page size, faces per page, trim positions, marks, duplex backs, fonts, text."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from render_pdf import MM, lines, placements

from generator.render.base.units import PAPERS
from generator.render.faces.renderer import renderer
from generator.render.sheets.grid import make_grid, mirror_slot
from generator.render.sheets.imposition import SheetOptions, impose


def sheet(project, game, component="main", paper="a4", **kw):
    options = SheetOptions(PAPERS[paper], **kw)
    return impose(renderer(project), game, game.component(component), options)


@pytest.fixture(scope="module")
def a4_long(ca_project, ca_game):
    return sheet(ca_project, ca_game)


def test_page_size_and_count(a4_long) -> None:
    reader = PdfReader(io.BytesIO(a4_long.pdf))
    assert len(reader.pages) == a4_long.pages == 10  # 44 cards, 9 a page: 5 sheets, fronts and backs
    for page in reader.pages:
        assert abs(float(page.mediabox.width) / MM - 210) < 0.01
        assert abs(float(page.mediabox.height) / MM - 297) < 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fronts_land_on_the_grid_to_a_tenth_of_a_mm(ca_project, ca_game, paper) -> None:
    result = sheet(ca_project, ca_game, paper=paper)
    reader = PdfReader(io.BytesIO(result.pdf))
    expected = [(s.x, s.y) for s in make_grid(PAPERS[paper], 63, 88, 3.0).slots()]
    placed = placements(reader.pages[0])
    assert len(placed) == 9
    for (x, y, _), (ex, ey) in zip(placed, expected):
        assert abs(x - ex) < 0.1 and abs(y - ey) < 0.1
    last_front = placements(reader.pages[-2])
    assert len(last_front) == 44 - 4 * 9


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_are_mirrored_for_the_flip(ca_project, ca_game, duplex) -> None:
    result = sheet(ca_project, ca_game, duplex=duplex, back_offset=(0.5, -0.25))
    reader = PdfReader(io.BytesIO(result.pdf))
    paper = PAPERS["a4"]
    fronts = placements(reader.pages[0])
    backs = placements(reader.pages[1])
    assert len(fronts) == len(backs) == 9
    for (fx, fy, _), (bx, by, _) in zip(fronts, backs):
        if duplex == "long":
            assert abs(bx - (paper.width - fx - 63 + 0.5)) < 0.1 and abs(by - (fy - 0.25)) < 0.1
        else:
            assert abs(bx - (fx + 0.5)) < 0.1 and abs(by - (paper.height - fy - 88 - 0.25)) < 0.1
    assert len({name for _, _, name in backs}) == 1  # one shared back form


def test_shared_back_is_one_form_object(a4_long) -> None:
    reader = PdfReader(io.BytesIO(a4_long.pdf))
    back_names = {name for page in reader.pages[1::2] for _, _, name in placements(page)}
    front_names = {name for page in reader.pages[0::2] for _, _, name in placements(page)}
    assert len(back_names) == 1 and len(front_names) == 44


def test_crop_marks_stay_off_every_card_and_inside_a_5_mm_margin(ca_project, ca_game) -> None:
    """Marks may run over the outer bleed (it is cut off) where the margin is narrow, never onto a card."""
    for paper in ("a4", "letter"):
        result = sheet(ca_project, ca_game, paper=paper)
        page = PdfReader(io.BytesIO(result.pdf)).pages[0]
        marks = lines(page)
        assert len(marks) >= 16
        grid = make_grid(PAPERS[paper], 63, 88, 3.0)
        cut_x = grid.cols.cuts()
        for x1, y1, x2, y2 in marks:
            for x, y in ((x1, y1), (x2, y2)):
                assert 5 - 0.01 <= x <= PAPERS[paper].width - 5 + 0.01
                assert 5 - 0.01 <= y <= PAPERS[paper].height - 5 + 0.01
            for slot in grid.slots():
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2  # a mark's middle is never inside a trim box
                assert not (slot.x + 0.01 < mx < slot.x + slot.w - 0.01 and slot.y + 0.01 < my < slot.y + slot.h - 0.01)
            if abs(x1 - x2) < 1e-6:  # vertical marks sit on the cut lines
                assert min(abs(x1 - x) for x in cut_x) < 0.01
        assert sheet(ca_project, ca_game, paper=paper, crop_marks=False).pdf != result.pdf


def test_no_crop_marks_option(ca_project, ca_game) -> None:
    result = sheet(ca_project, ca_game, crop_marks=False)
    assert lines(PdfReader(io.BytesIO(result.pdf)).pages[0]) == []


def test_every_font_is_embedded(a4_long) -> None:
    reader = PdfReader(io.BytesIO(a4_long.pdf))
    fonts = 0
    for page in reader.pages:
        resources = page["/Resources"]
        for xobject in resources.get("/XObject", {}).values():
            for font_ref in xobject.get_object().get("/Resources", {}).get("/Font", {}).values():
                font = font_ref.get_object()
                descriptor = font.get("/FontDescriptor")
                if descriptor is None and "/DescendantFonts" in font:
                    descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                assert descriptor is not None, font
                assert any(k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                fonts += 1
    assert fonts > 0
    assert b"/Helvetica" not in a4_long.pdf  # no standard-14 font sneaks in


def test_sample_card_text_is_in_the_pdf(ca_project, ca_game) -> None:
    result = sheet(ca_project, ca_game, component="port")
    text = PdfReader(io.BytesIO(result.pdf)).pages[0].extract_text()
    assert "Port Royal" in text and "Isla Calavera" in text


def test_bleed_colour_reaches_beyond_the_trim(ca_project, ca_game) -> None:
    import pypdfium2 as pdfium

    result = sheet(ca_project, ca_game, component="main")  # the crew deck keeps the navy back
    page = pdfium.PdfDocument(result.pdf)[1]  # the backs: dark blue to the bleed
    scale = 300 / 72
    image = page.render(scale=scale).to_pil().convert("RGB")
    slot = mirror_slot(result.grid.slots()[0], PAPERS["a4"], "long")
    height_px = image.height

    def pixel(x_mm, y_mm):
        return image.getpixel((int(x_mm / 25.4 * 300), int(height_px - y_mm / 25.4 * 300)))

    primary = (0x1f, 0x3b, 0x57)
    inside = pixel(slot.x + 1, slot.y + 1)
    outside = pixel(slot.x + slot.w + slot.right - 0.5, slot.y + 30)  # in the bleed, right of the trim
    beyond = pixel(slot.x + slot.w + slot.right + 1.0, slot.y + 30)  # past the bleed: paper white
    assert all(abs(a - b) < 8 for a, b in zip(inside, primary))
    assert all(abs(a - b) < 8 for a, b in zip(outside, primary))
    assert beyond == (255, 255, 255)


def test_two_builds_are_byte_identical(ca_project, ca_game) -> None:
    first = sheet(ca_project, ca_game, component="exposed-port", paper="letter", duplex="short")
    second = sheet(ca_project, ca_game, component="exposed-port", paper="letter", duplex="short")
    assert first.pdf == second.pdf


def test_duplex_none_with_equal_backs_prints_fronts_only(ca_project, ca_game) -> None:
    result = sheet(ca_project, ca_game, duplex="none")
    assert result.mode == "fronts-only" and result.pages == 5


def test_a_mark_over_the_outer_bleed_shows_on_a_white_band(ca_project, ca_game) -> None:
    """US Letter: the column marks run from 5 mm off the edge to the trim, over the bleed; they must show there."""
    import pypdfium2 as pdfium

    result = sheet(ca_project, ca_game, paper="letter")
    image = pdfium.PdfDocument(result.pdf)[0].render(scale=600 / 72).to_pil().convert("RGB")
    grid = make_grid(PAPERS["letter"], 63, 88, 3.0)
    x = grid.cols.cuts()[1]  # a cut between two butted cards
    trim_top = grid.rows.starts[-1] + 88
    y = PAPERS["letter"].height - (trim_top + 1.0)  # 1 mm above the trim: in the bleed, under the mark

    def pixel(x_mm, y_from_top_mm):
        return image.getpixel((round(x_mm / 25.4 * 600), round(y_from_top_mm / 25.4 * 600)))

    assert max(pixel(x, y)) < 90  # the black hairline
    assert min(pixel(x + 0.15, y)) > 245  # its white band (0.6 pt each side)
    cream = pixel(x + 3, y)
    assert cream != (255, 255, 255) and abs(cream[0] - 0xf4) < 8  # the bleed around it
