"""Issue 32 print review: the tagline under every rulebook's title and on the Pirate Tricks screen printed in
the theme's light gold (#e0a526 at 2.2:1, #c8962c at 2.7:1 on white). Every run of text on a rulebook's cover
and on a screen must read at WCAG 2.x contrast against what is drawn behind it (the white page where nothing
is): 4.5:1 below 14 pt, 3:1 at or above; measured from the printed PDFs."""

from __future__ import annotations

import pytest

from generator.render.documents.rulebook import parse_template
from generator.render.documents.sheets import draw_sheet, lay_out_sheet, sheet_templates, split_settings
from generator.render.faces.access import LARGE_CONTRAST, LARGE_PT, TEXT_CONTRAST, contrast
from tests.documents.conftest import GAMES
from tests.documents.measure import Run, page_count, page_runs


def _unreadable(runs: list[Run]) -> list[str]:
    found = []
    for run in runs:
        limit = LARGE_CONTRAST if run.size >= LARGE_PT else TEXT_CONTRAST
        measured = contrast(run.colour, run.behind)
        if measured < limit:
            found.append(f"{run.text.strip()[:30]!r} {run.size:.1f} pt {run.colour} on {run.behind}: "
                         f"{measured:.2f} < {limit}")
    return found


def test_the_check_catches_light_gold_on_white() -> None:
    gold = Run("Recruit a crew", 13.6, "#e0a526", "#ffffff", 0, 0, 1, 1)
    large = Run("Pirate Tricks", 31.5, "#8a8a8a", "#ffffff", 0, 0, 1, 1)  # 3.4:1, large: enough
    assert len(_unreadable([gold])) == 1
    assert _unreadable([large]) == []


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_word_on_the_cover_reads(books, game_id, paper) -> None:
    runs = page_runs(books[(game_id, paper)], 0)
    assert len(runs) > 5
    assert _unreadable(runs) == []


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_word_on_a_screen_reads(project, games, game_id, paper) -> None:
    game = games[game_id]
    screens = 0
    for template in sheet_templates(game, project):
        display, blocks = parse_template(template, game, project)
        if split_settings(blocks, display)[0].panels < 2:
            continue  # not folded to stand: not a screen
        screens += 1
        data = draw_sheet(lay_out_sheet(game, project, template, paper, (display, blocks)), fillable=False)
        for index in range(page_count(data)):
            assert _unreadable(page_runs(data, index)) == [], (template.name, index + 1)
    if game_id == "pirate-tricks":
        assert screens == 1
