"""Issue 32, finding 7: All Hands on Deck's score sheet, measured from its PDF and its layout.

Was: text 5 mm from the paper edge and a cut line from edge to edge; the crew-pile spot landscape for a
portrait card, on the other side of the sheet from the rulebook's picture."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from generator.render.documents.flowables import Slot
from generator.render.documents.rulebook import parse_template
from generator.render.documents.sheets import lay_out_sheet, sheet_name, sheet_templates
from generator.render.documents.two_up import two_up_sheet
from tests.documents.measure import page_chars, page_count
from tests.render.render_pdf import lines

GAME = "all-hands-on-deck"
PRINTER_MARGIN = 5.0


def _template(project, game):
    return next(t for t in sheet_templates(game, project) if sheet_name(t) == "score-sheet")


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_text_and_the_cut_line_stay_clear_of_the_printer_margin(project, games, paper) -> None:
    game = games[GAME]
    mode, data = two_up_sheet(game, project, _template(project, game), paper)
    assert mode == "2up-duplex-short"
    for index in range(page_count(data)):
        (width, height), chars = page_chars(data, index)
        nearest = min(min(c.left, c.bottom, width - c.right, height - c.top) for c in chars)
        assert nearest >= 9, (paper, index, nearest)  # 10 mm inside each A5 sheet (94 % on Letter)
        cut = [line for line in lines(PdfReader(io.BytesIO(data)).pages[index]) if abs(line[0] - width / 2) < 0.01]
        assert cut, "the dashed cut line down the middle"
        for _, y1, _, y2 in cut:
            assert min(y1, y2) >= PRINTER_MARGIN - 0.01 and max(y1, y2) <= height - PRINTER_MARGIN + 0.01


def test_the_crew_pile_spot_is_a_portrait_card_on_the_side_the_rulebook_shows(project, games) -> None:
    game = games[GAME]
    layout = lay_out_sheet(game, project, _template(project, game), "a4")
    (spot,) = [p for p in layout.placements if isinstance(p.flowable, Slot)]
    card = game.component("pirate").size
    assert spot.flowable.width == pytest.approx(card.width * 72 / 25.4)
    assert spot.flowable.height == pytest.approx(card.height * 72 / 25.4)  # portrait, as the card
    _, box_y, _, box_h = layout.document.box
    assert spot.page == 2 and spot.y + spot.flowable.height / 2 > box_y + box_h / 2  # the back, its upper half
    _, blocks = parse_template(project.templates_dir / "rulebooks" / f"{GAME}.md.j2", game, project)
    scene = next(b for b in blocks if getattr(b, "caption", "").startswith("The table for four players"))
    zones = [i for i in scene.items if i.kind == "zone"]
    sheets = [z for z in zones if z.text == "Their score sheet"]
    piles = [z for z in zones if z.text == "Crew pile"]
    assert sheets and len(piles) == len(sheets)
    for sheet, pile in zip(sheets, piles):
        assert pile.h > pile.w  # portrait in the picture too
        assert sheet.x <= pile.x and pile.x + pile.w <= sheet.x + sheet.w
        assert pile.y + pile.h / 2 < sheet.y + sheet.h / 2  # in the sheet's upper half, as printed
