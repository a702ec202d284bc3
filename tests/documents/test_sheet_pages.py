"""A sheet's pages come from one layout: the print plan's advice (one side, both sides, two to a page)
follows the pages Platypus really makes, on each paper, without drawing the sheet again."""

from __future__ import annotations

import pytest

from generator.render.build import BuildOptions
from generator.render.documents.sheets import lay_out_sheet, sheet_name, sheet_pdf, sheet_templates
from generator.render.print_plan import SIDES, print_plan
from tests.documents.helpers import reader


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_plan_says_how_to_print_each_sheet_from_its_real_pages(project, games, paper) -> None:
    seen = 0
    for game in games.values():
        plan = print_plan(game, project, BuildOptions(papers=(paper,)), paper)
        for template in sheet_templates(game, project):
            name = sheet_name(template)
            layout = lay_out_sheet(game, project, template, paper)
            drawn = reader(sheet_pdf(game, project, template, paper, fillable=False, stamp=False))  # Platypus alone
            per_copy = len(drawn.pages) // layout.settings.copies
            assert layout.pages == per_copy, name
            entry = next(f for f in plan.files if f.name.startswith(f"{game.id}-{name}-{paper}"))
            if entry.name.endswith("-2up.pdf") or entry.name.endswith("-2up-duplex-short.pdf"):
                assert entry.sides == SIDES["2up" if per_copy == 1 else "2up-duplex-short"], entry.name
            else:
                assert (entry.sides == "one side") == (per_copy == 1), entry.name
            seen += 1
    assert seen == 5  # every game's sheets: score sheet, campaign log, loon ledger, screen, score pad


def test_a_sheet_that_runs_over_on_one_paper_only_is_counted_on_each(project, games) -> None:
    """The campaign log's three games fill a landscape letter page but run over on A4 (shorter)."""
    game = games["counterattack"]
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "campaign-log")
    pages = {paper: lay_out_sheet(game, project, template, paper).pages for paper in ("a4", "letter")}
    assert pages == {"a4": 2, "letter": 1}
    for paper, count in pages.items():
        entry = next(f for f in print_plan(game, project, BuildOptions(papers=(paper,)), paper).files
                     if f.name == f"counterattack-campaign-log-{paper}.pdf")
        assert (entry.sides == "one side") == (count == 1)
