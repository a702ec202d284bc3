"""Issue 32 print review: Pirate Tricks' A4 rulebook had a page holding only the last three lines of its
credits, the rest of the page blank before the quick reference's page break. A long list short enough to
read as one piece now stays whole (as a short table does), so no page of any rulebook holds a stub.

Measured from the PDFs: lines of text between the margins (the running footer left out) on every page."""

from __future__ import annotations

import pytest

from generator.render.documents.styles import MARGIN
from tests.documents.conftest import GAMES
from tests.documents.measure import MM, page_count, text_lines

FEWEST_LINES = 6


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", GAMES)
def test_no_rulebook_page_holds_only_a_few_lines(books, game_id, paper) -> None:
    data = books[(game_id, paper)]
    margin = MARGIN / MM * 0.75  # the footer sits in the bottom margin; body text may start right at it
    counts = [text_lines(data, index, margin) for index in range(page_count(data))]
    assert min(counts) >= FEWEST_LINES, counts
