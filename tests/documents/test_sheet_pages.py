"""A sheet's pages come from one layout: the print plan's advice (one side, both sides, two to a page)
follows the pages Platypus really makes, on each paper, without drawing the sheet again."""

from __future__ import annotations

import pytest

from generator.build.options import BuildOptions
from generator.render.documents.print_plan import SIDES, print_plan
from generator.render.documents.sheets import draw_sheet, lay_out_sheet, sheet_name, sheet_pdf, sheet_templates
from tests.documents.helpers import reader


@pytest.mark.slow
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


def test_the_campaign_log_fits_one_landscape_page_on_each_paper(project, games) -> None:
    game = games["counterattack"]
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "campaign-log")
    assert {paper: lay_out_sheet(game, project, template, paper).pages for paper in ("a4", "letter")} == \
        {"a4": 1, "letter": 1}


def test_a_sheet_that_runs_over_on_one_paper_only_is_counted_on_each(copy_project) -> None:
    """Landscape A4 is shorter than landscape letter: a campaign log grown by a small gap
    fills a letter page but runs over on A4 (2 mm is enough: the log fills A4 almost to its margin), and each
    paper's plan says so."""
    from generator.load import load_game

    template = copy_project.templates_dir / "sheets" / "counterattack" / "campaign-log.md.j2"
    text = template.read_text()
    template.write_text(text.replace("{% for g in range(1, games + 1) -%}", "::: spacer 2\n\n{% for g in range(1, games + 1) -%}", 1))
    game = load_game(copy_project, "counterattack")
    pages = {paper: lay_out_sheet(game, copy_project, template, paper).pages for paper in ("a4", "letter")}
    assert pages == {"a4": 2, "letter": 1}
    for paper, count in pages.items():
        entry = next(f for f in print_plan(game, copy_project, BuildOptions(papers=(paper,)), paper).files
                     if f.name == f"counterattack-campaign-log-{paper}.pdf")
        assert (entry.sides == "one side") == (count == 1)


VARIED_SHEET = """::: copies 3
::: panels 2
## Varied sheet

A paragraph before everything, long enough to wrap over more than one line of the narrow panel it sits in.

> **Tally.** A callout box between the tables, long enough to wrap in the narrow panel it sits in.

| Name | Score |
|---|---|
| Captain | [[cap.score]] |

- one
- two
- three

| Round | Note | Points |
|---|---|---|
{% for r in range(1, 61) -%}
| Round {{ r }} | a note that wraps in a narrow column {{ r }} | [[r{{ r }}.points]] |
{% endfor -%}
| **Total** | | [[total = *.points]] |

::: nextpanel
### Second panel

::: slot crew a place for a card

::: pagebreak
## Back

::: spacer 6

1. first
2. second
"""


@pytest.mark.slow
def test_a_varied_sheet_draws_from_one_layout_as_platypus_draws_it(copy_project) -> None:
    """Callouts, lists, a long table split over panels and pages, page breaks, copies, totals:
    the layout's pages and both PDFs drawn from it are what Platypus makes by itself."""
    from generator.load import load_game

    template = copy_project.templates_dir / "sheets" / "pirate-tricks" / "varied.md.j2"
    template.write_text(VARIED_SHEET)
    game = load_game(copy_project, "pirate-tricks")
    for paper in ("a4", "letter"):
        layout = lay_out_sheet(game, copy_project, template, paper)
        printed = sheet_pdf(game, copy_project, template, paper, fillable=False, stamp=False)
        fillable = sheet_pdf(game, copy_project, template, paper, fillable=True, stamp=False)
        assert layout.pages >= 3  # the long table runs over both panels onto a second page, then the back
        assert len(reader(printed).pages) == 3 * layout.pages
        assert draw_sheet(layout, fillable=False) == printed, paper
        assert draw_sheet(layout, fillable=True) == fillable, paper
        fields = reader(fillable).get_fields()
        assert {"sheet1-cap-score", "sheet3-r60-points", "sheet2-total"} <= set(fields)


@pytest.mark.slow
def test_a_block_too_tall_for_any_page_is_one_clear_error_at_its_line(tmp_path) -> None:
    """`pnp build` stops with one line naming the template line of the block that cannot fit; no sheet is written."""
    import shutil
    import subprocess
    import sys

    from tests.helpers import REPO

    (tmp_path / "data").mkdir()
    shutil.copytree(REPO / "data" / "counterattack", tmp_path / "data" / "counterattack")
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    template = tmp_path / "templates" / "sheets" / "counterattack" / "campaign-log.md.j2"
    source = template.read_text()
    anchor = "{% for g in range(1, games + 1) -%}"
    line = source[:source.index(anchor)].count("\n") + 1
    template.write_text(source.replace(anchor, "::: spacer 400\n\n" + anchor, 1))
    result = subprocess.run([sys.executable, "-m", "generator", "--root", str(tmp_path), "-q", "build", "counterattack",
                             "--paper", "a4", "-j", "1", "--no-gallery"],
                            capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines == [f"pnp: templates/sheets/counterattack/campaign-log.md.j2:{line}: this block is taller than a page "
                     "(or panel) and cannot be split across pages; shorten it, or break it into smaller blocks"]
    folder = tmp_path / "output" / "counterattack"
    assert not list(folder.glob("*campaign-log*")) and not list(folder.glob("*.tmp"))


def test_a_table_of_fill_in_boxes_inside_a_callout_lays_out_and_fills_in(copy_project) -> None:
    """A callout holding a table (with fill-in boxes) draws inside its box, and its boxes are form fields."""
    from generator.load import load_game

    template = copy_project.templates_dir / "sheets" / "pirate-tricks" / "tally.md.j2"
    template.write_text("## Tally\n\n> **Tally.** Write the scores here.\n>\n> | Name | Score |\n> |---|---|\n"
                        "> | Captain | [[cap.score]] |\n\nAfter the box.\n")
    game = load_game(copy_project, "pirate-tricks")
    layout = lay_out_sheet(game, copy_project, template, "a4")
    assert layout.pages == 1
    fillable = reader(draw_sheet(layout, fillable=True))
    assert set(fillable.get_fields()) == {"cap-score"}
    words = fillable.pages[0].extract_text()
    assert "Captain" in words and "After the box." in words
