"""A5 score sheets print two to a landscape page with a cut line: page count and placement read back."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from generator.load import load_game
from generator.render.base.units import PAPERS
from generator.render.documents.sheets import sheet_pdf, sheet_templates
from generator.render.documents.two_up import two_up_sheet

MM = 72 / 25.4


@pytest.fixture(scope="module")
def score_sheet(project):
    game = load_game(project, "all-hands-on-deck")
    template = next(t for t in sheet_templates(game, project) if t.name.startswith("score-sheet"))
    return game, template


def placed_boxes(content: bytes) -> list[tuple[float, float, float, float]]:
    """Each merged page's visible box on the sheet (x, y, w, h in mm): its clip rectangle moved by its `cm`."""
    boxes = []
    for matrix, rect in zip(CM_CLIP.findall(content), CM_CLIP_RECT.findall(content)):
        a, _b, _c, d, e, f = (float(v) for v in matrix)
        x, y, w, h = (float(v) for v in rect)
        boxes.append(((a * x + e) / MM, (d * y + f) / MM, a * w / MM, d * h / MM))
    return boxes


NUM = rb"(-?[\d.]+)"
CM_CLIP = re.compile(rb"\s+".join([NUM] * 6) + rb"\s+cm\s+" + rb"\s+".join([rb"-?[\d.]+"] * 4) + rb"\s+re\s+W")
CM_CLIP_RECT = re.compile(rb"\s+".join([rb"-?[\d.]+"] * 6) + rb"\s+cm\s+" + rb"\s+".join([NUM] * 4) + rb"\s+re\s+W")
CUT = re.compile(rb"(-?[\d.]+) (-?[\d.]+) m\s+(-?[\d.]+) (-?[\d.]+) l\s+S")  # x y1 m x y2 l: the cut line


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_an_a5_score_sheet_prints_two_to_a_landscape_page(project, score_sheet, paper) -> None:
    game, template = score_sheet
    printed = sheet_pdf(game, project, template, paper, fillable=False)
    copies = game.component("score-sheet").count
    per_copy = len(PdfReader(io.BytesIO(printed)).pages) // copies
    mode, data = two_up_sheet(game, project, template, paper)
    assert mode == ("2up" if per_copy == 1 else "2up-duplex-short")
    reader = PdfReader(io.BytesIO(data))
    sheet = PAPERS[paper]
    assert len(reader.pages) == -(-copies // 2) * per_copy  # half as many pages, rounded up
    scale = min(1.0, sheet.height / 2 / 148)
    for page in reader.pages:
        width, height = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        assert (round(width, 1), round(height, 1)) == (round(sheet.height, 1), round(sheet.width, 1))  # landscape
        content = page.get_contents().get_data()
        boxes = placed_boxes(content)
        assert len(boxes) == 2
        for (x, y, w, h), centre in zip(sorted(boxes), (width / 4, 3 * width / 4)):
            assert (w, h) == (pytest.approx(148 * scale, abs=0.01), pytest.approx(210 * scale, abs=0.01))
            assert x + w / 2 == pytest.approx(centre, abs=0.01)  # each copy centred in its half
            assert y + h / 2 == pytest.approx(height / 2, abs=0.01)
        (left, right) = sorted(boxes)
        assert left[0] + left[2] <= width / 2 + 1e-3 <= right[0] + 1e-3  # the halves do not overlap
        cut = CUT.search(content)
        assert cut and float(cut.group(1)) / MM == pytest.approx(width / 2, abs=0.01)  # cut line down the middle
        assert float(cut.group(2)) / MM == pytest.approx(5) and float(cut.group(4)) / MM == pytest.approx(height - 5)


def test_both_halves_are_each_one_copy_side_by_side_and_backs_swap_for_the_short_edge_flip(project, score_sheet):
    import pypdfium2 as pdfium

    game, template = score_sheet
    _, data = two_up_sheet(game, project, template, "a4")
    document = pdfium.PdfDocument(io.BytesIO(data))
    for index in range(2):
        text = document[index].get_textpage()
        width = document[index].get_width()
        left = text.get_text_bounded(0, 0, width / 2, document[index].get_height())
        right = text.get_text_bounded(width / 2, 0, width, document[index].get_height())
        assert left.strip() and right.strip()
        assert re.sub(r"\s+", " ", left) == re.sub(r"\s+", " ", right)  # printed copies are alike
    first = document[0].get_textpage().get_text_range()
    back = document[1].get_textpage().get_text_range()
    assert "score sheet" in first and "Crew pile" in back  # page 2 of each copy on the back


def test_a_sheet_that_is_not_a5_is_left_alone(project) -> None:
    game = load_game(project, "pirates-under-fire")
    template = next(iter(sheet_templates(game, project)))
    assert two_up_sheet(game, project, template, "a4") is None


def test_the_built_file_name_says_two_up_and_how_to_flip(all_games_built) -> None:
    names = {p.name for p in (all_games_built.output_dir / "all-hands-on-deck").glob("*score-sheet*")}
    assert names == {f"all-hands-on-deck-score-sheet-{p}-2up-duplex-short.pdf" for p in PAPERS} | {
        f"all-hands-on-deck-score-sheet-fillable-{p}.pdf" for p in PAPERS}
