"""Double-sided items: each copy's own second face, registered in duplex and laid out gutter-fold."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from render_pdf import MM, placements

from generator.load import load_game
from generator.render.base.units import PAPERS
from generator.render.faces.renderer import FaceRenderer
from generator.render.sheets.imposition import SheetOptions, impose


@pytest.fixture
def two_faced(fresh_project):
    """Counterattack with its port cards made double-sided: the back shows the number plus three."""
    path = fresh_project.data_dir / "counterattack" / "cards.yaml"
    text = path.read_text()
    text = text.replace("    back: counterattack/back\n", "    double_sided: true\n", 1)
    text = re.sub(r"tricks: (\d+)}", lambda m: f"tricks: {m[1]}, back: {{tricks: {int(m[1]) + 3}}}}}", text)
    path.write_text(text)
    game = load_game(fresh_project, "counterattack")
    return fresh_project, game


def test_back_face_uses_the_items_back_fields(two_faced) -> None:
    project, game = two_faced
    component = game.component("port")
    renderer = FaceRenderer(project)
    item = component.item("port-royal")
    front = renderer.face(game, component, item, "front")
    back = renderer.face(game, component, item, "back")
    texts = lambda face: {e.get("text") for e in face.elements if e.type == "text"}  # noqa: E731
    assert "2" in texts(front) and "5" in texts(back)


def test_gutter_fold_puts_backs_mirrored_across_the_fold(two_faced) -> None:
    project, game = two_faced
    paper = PAPERS["a4"]
    result = impose(FaceRenderer(project), game, game.component("port"), SheetOptions(paper, duplex="none"))
    assert result.mode == "gutter-fold"
    page = PdfReader(io.BytesIO(result.pdf)).pages[0]
    width = float(page.mediabox.width) / MM
    assert result.grid.page.width == pytest.approx(width)
    assert width == pytest.approx(297)  # A4 turns landscape: 2 x 2 fronts instead of 1 x 3
    placed = placements(page)
    half = len(placed) // 2
    fronts, backs = placed[:half], placed[half:]
    assert half == result.per_page
    for (fx, fy, fname), (bx, by, bname) in zip(fronts, backs):
        assert fx + 63 <= width / 2 - 5  # fronts left of the fold, 5 mm clear (plus bleed)
        assert abs((bx + 63) - (width - fx)) < 0.1 and abs(by - fy) < 0.1
        assert fname != bname


def test_duplex_backs_differ_per_item(two_faced) -> None:
    project, game = two_faced
    result = impose(FaceRenderer(project), game, game.component("port"), SheetOptions(PAPERS["letter"]))
    reader = PdfReader(io.BytesIO(result.pdf))
    assert result.mode == "duplex-long"
    assert len({name for _, _, name in placements(reader.pages[1])}) == 6
