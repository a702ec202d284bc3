"""Issue 32, finding 3: the Under Fire sea board as printed, measured from its PDF on both papers.

Was: no bleed, crop marks 2 mm from the A4 edge, footer 4.1 mm from the edge, none of the rulebook's
space names, one icon for 1 and 2 gold, no sea, no title."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from generator.render.documents.boards import board_components, board_pdf
from generator.render.faces.renderer import renderer
from tests.documents.measure import page_chars, page_count, page_text
from tests.render.render_pdf import lines

PRINTER_MARGIN = 5.0  # mm a home printer cannot print (shared/research/print.md)
GAME = "pirates-under-fire"


@pytest.fixture(scope="module")
def boards(project, games) -> dict[str, bytes]:
    game = games[GAME]
    board = board_components(game)[0]
    return {paper: board_pdf(game, project, board, paper) for paper in ("a4", "letter")}


def _marks(data: bytes, index: int) -> list[tuple[float, float, float, float]]:
    return lines(PdfReader(io.BytesIO(data)).pages[index])


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_survive_a_5_mm_printer_margin_and_sit_on_the_cut(boards, games, paper) -> None:
    data = boards[paper]
    board = games[GAME].component("sea-board")
    for index in range(page_count(data)):
        (page_w, page_h), _ = page_chars(data, index)
        marks = _marks(data, index)
        assert len(marks) == 8, marks  # two at each end of the four cut lines
        for x1, y1, x2, y2 in marks:
            for x, y in ((x1, y1), (x2, y2)):
                assert min(x, y, page_w - x, page_h - y) >= PRINTER_MARGIN - 0.01, (paper, x, y)
            assert max(abs(x2 - x1), abs(y2 - y1)) >= 3 - 0.01  # long enough to lay a ruler on
        cuts_x = sorted({round(x1, 2) for x1, _, x2, _ in marks if abs(x1 - x2) < 1e-6})
        cuts_y = sorted({round(y1, 2) for _, y1, _, y2 in marks if abs(y1 - y2) < 1e-6})
        assert len(cuts_x) == 2 and len(cuts_y) == 2
        assert cuts_x[1] - cuts_x[0] == pytest.approx(board.size.width, abs=0.02)
        assert cuts_y[1] - cuts_y[0] == pytest.approx(board.size.height, abs=0.02)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sea_runs_into_the_bleed_on_every_side(boards, paper) -> None:
    """1.5 mm beyond each cut the page shows the sea, not paper: a cut a little off shows no white edge."""
    import pypdfium2 as pdfium

    data = boards[paper]
    marks = _marks(data, 0)
    left, right = sorted({x1 for x1, _, x2, _ in marks if abs(x1 - x2) < 1e-6})
    bottom, top = sorted({y1 for _, y1, _, y2 in marks if abs(y1 - y2) < 1e-6})
    dpi = 100
    image = pdfium.PdfDocument(data)[0].render(scale=dpi / 72).to_pil().convert("RGB")
    page_h = image.height / dpi * 25.4

    def pixel(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((round(x / 25.4 * dpi), round((page_h - y) / 25.4 * dpi)))

    middle_x, middle_y = (left + right) / 2, (bottom + top) / 2
    for x, y in ((left - 1.5, middle_y), (right + 1.5, middle_y), (middle_x, bottom - 1.5), (middle_x, top + 1.5)):
        r, g, b = pixel(x, y)
        assert b > r + 12 and min(r, g, b) < 235, (paper, x, y, (r, g, b))  # sea blue, not white paper


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_word_is_7_pt_or_more_and_5_mm_from_the_paper_edge(boards, paper) -> None:
    data = boards[paper]
    for index in range(page_count(data)):
        (page_w, page_h), chars = page_chars(data, index)
        assert len(chars) > 500
        for char in chars:
            assert char.size >= 7 - 0.01, (paper, char)
            nearest = min(char.left, char.bottom, page_w - char.right, page_h - char.top)
            assert nearest >= PRINTER_MARGIN, (paper, char, nearest)


@pytest.mark.slow
def test_the_board_prints_the_space_names_the_rulebook_uses(boards, games, books) -> None:
    rules = games[GAME].rules["effects"]
    names = [rules[kind]["label"] for kind in ("none", "gold", "vp")]
    assert names == ["Open sea", "Plunder", "Bounty"]
    rulebook = page_text(books[(GAME, "a4")], 0) + "".join(
        page_text(books[(GAME, "a4")], i) for i in range(1, page_count(books[(GAME, "a4")])))
    for index in range(page_count(boards["a4"])):
        printed = page_text(boards["a4"], index)
        for name in names:
            assert name in printed and name in rulebook, name
        assert games[GAME].title.upper() in printed  # the title, in its band along the owner's edge
        assert "Plunder 1" in printed and "Plunder 2" in printed


def test_one_and_two_gold_spaces_have_pictures_of_their_own(project, games) -> None:
    game = games[GAME]
    board = game.component("sea-board")
    for item in board.items:
        face = renderer(project).face(game, board, item, "front")
        pictures: dict[str, set[bytes]] = {}
        for element in face.elements:
            if not element.name.startswith(("art[", "symbol[")):
                continue
            row, col = (int(v) for v in element.name.split("[")[1].rstrip("]").split(","))  # row 0 is row 1
            key = item["rows"][row].split()[col]
            drawn = element.get("path").data if element.type == "image" else element.get("icon").data
            pictures.setdefault(key, set()).add(drawn)
        assert len(pictures["gold:1"]) == 1 and len(pictures["gold:2"]) == 1
        assert pictures["gold:1"] != pictures["gold:2"]
        assert len({next(iter(found)) for found in pictures.values()}) == len(pictures)  # every kind its own


def test_the_sea_and_the_compass_are_vector_art_without_text(project, games) -> None:
    game = games[GAME]
    board = game.component("sea-board")
    face = renderer(project).face(game, board, board.items[0], "front")
    art = {e.name: e.get("path") for e in face.elements if e.type == "image"}
    assert art["sea"].path.endswith("board-sea.svg") and art["compass"].path.endswith("board-compass.svg")
    for picture in art.values():
        assert picture.vector and b"<text" not in picture.data
