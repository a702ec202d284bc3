"""Issue 32, finding 4: the Pirate Tricks screen, measured from its PDF.

Was: specified on plain paper, on which a tri-fold will not stand, and 55-60 % blank: the panels
ended halfway down (46 % and 55 % of each panel unused below its last line, outside and inside)."""

from __future__ import annotations

from collections import Counter

import pytest

from generator.build.options import BuildOptions
from generator.render.documents.print_plan import print_plan
from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates
from tests.documents.measure import page_chars, page_count

GAME = "pirate-tricks"
SCREEN = (210.0, 148.0)  # mm, the screen's frame, centred on the page


def _screen(project, game, paper: str) -> bytes:
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "screen")
    return sheet_pdf(game, project, template, paper, fillable=False)


def _unused_below(data: bytes, index: int, panels: int = 3) -> list[float]:
    """Per panel, the share of its height below its last inked line (the frame's margin included)."""
    import pypdfium2 as pdfium

    dpi = 50
    px = dpi / 25.4
    image = pdfium.PdfDocument(data)[index].render(scale=dpi / 72).to_pil().convert("L")
    width, height = SCREEN[0] * px, SCREEN[1] * px
    x0, y0 = (image.width - width) / 2, (image.height - height) / 2
    panel = SCREEN[0] / panels
    shares = []
    for p in range(panels):  # each panel inside its fold lines
        column = image.crop((round(x0 + (p * panel + 4) * px), round(y0), round(x0 + ((p + 1) * panel - 4) * px),
                             round(y0 + height)))
        w, h = column.size
        pixels = column.tobytes()
        inked = [y for y in range(h) if min(pixels[y * w:(y + 1) * w]) < 200]
        shares.append((h - max(inked)) / h)
    return shares


@pytest.mark.slow
def test_the_screen_is_printed_on_card_stock_so_it_stands(project, games) -> None:
    for paper in ("a4", "letter"):
        plan = print_plan(games[GAME], project, BuildOptions(papers=(paper,)), paper)
        stock = {f.name.rsplit("-", 1)[0]: f.stock for f in plan.files}
        assert stock[f"{GAME}-screen"] == "card stock", stock
        assert stock[f"{GAME}-loon-ledger"] == "plain paper"  # a flat sheet stays on paper


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_panel_is_used_to_two_thirds_of_its_height_at_10_pt(project, games, paper) -> None:
    data = _screen(project, games[GAME], paper)
    assert page_count(data) == 2  # outside and inside, back to back
    for index in range(2):
        unused = _unused_below(data, index)
        assert max(unused) <= 0.36, (paper, index, unused)
        _, chars = page_chars(data, index)
        body = Counter(round(c.size, 1) for c in chars).most_common(1)[0][0]
        assert body >= 10, (paper, index, body)  # was 8.9 pt
    words = "".join(c.text for c in page_chars(data, 0)[1])
    assert "Redisalwaystrump" in words and "RedbeatsGreen" in words.replace("(Vulper)", "")  # ranks, from data
