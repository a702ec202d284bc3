"""Fillable sheets that add up: totals boxes carry a calculate script and sit in the form's calculation order."""

from __future__ import annotations

import re

import pytest

from generator.errors import DataError
from generator.load import load_game
from generator.render.documents import markup
from generator.render.documents.sheets import draw_sheet, lay_out_sheet, sheet_name, sheet_pdf, sheet_templates
from tests.documents.helpers import reader
from tests.helpers import edit

SUMMED = re.compile(r'^AFSimple_Calculate\("SUM", new Array\(((?:"[A-Za-z0-9_-]+"(?:, )?)+)\)\);$')


def _sheet(project, game, name):
    return next(t for t in sheet_templates(game, project) if sheet_name(t) == name)


def totals(data: bytes) -> dict[str, list[str]]:
    """The form's calculation order, each total with the fields its script adds up (read back from the PDF)."""
    form = reader(data).trailer["/Root"]["/AcroForm"]
    found = {}
    for ref in form["/CO"]:
        field = ref.get_object()
        action = field["/AA"]["/C"]
        assert action["/S"] == "/JavaScript"
        match = SUMMED.match(str(action["/JS"]))
        assert match, action["/JS"]
        found[str(field["/T"])] = re.findall(r'"([^"]+)"', match.group(1))
    return found


def test_a_totals_box_is_parsed_with_its_pattern() -> None:
    assert markup.FIELD_RE.match("[[total = *.sp]]").groups() == ("total", "*.sp")
    assert markup.FIELD_RE.match("[[g1.total1]]").groups() == ("g1.total1", None)


def test_all_hands_totals_add_up_each_copys_score_column(project, games) -> None:
    game = games["all-hands-on-deck"]
    data = sheet_pdf(game, project, _sheet(project, game, "score-sheet"), "a4", fillable=True)
    fields = reader(data).get_fields()
    found = totals(data)
    copies = game.component("score-sheet").count
    assert list(found) == [f"sheet{n}-total" for n in range(1, copies + 1)]  # calculation order: copy by copy
    for n in range(1, copies + 1):
        column = sorted(name for name in fields if name.startswith(f"sheet{n}-") and name.endswith("-sp"))
        assert sorted(found[f"sheet{n}-total"]) == column and len(column) >= 8
    assert all(name in fields for summands in found.values() for name in summands)


def test_under_fire_totals_add_each_captains_vp_column(project, games) -> None:
    game = games["pirates-under-fire"]
    data = sheet_pdf(game, project, _sheet(project, game, "score-pad"), "a4", fillable=True)
    fields = reader(data).get_fields()
    found = totals(data)
    assert list(found) == ["g1-total1", "g1-total2"]
    for seat in (1, 2):
        column = sorted(n for n in fields if n.startswith("g1-") and n.endswith(f"-vp{seat}"))
        assert sorted(found[f"g1-total{seat}"]) == column
        assert f"g1-tokens-vp{seat}" in column and f"g1-gold{seat}" not in column


def test_printed_sheets_have_no_scripts(project, games) -> None:
    game = games["all-hands-on-deck"]
    data = sheet_pdf(game, project, _sheet(project, game, "score-sheet"), "a4", fillable=False)
    assert b"/JavaScript" not in data and b"AFSimple" not in data


def test_a_total_that_matches_nothing_names_its_line(copy_project) -> None:
    template = copy_project.templates_dir / "sheets" / "all-hands-on-deck" / "score-sheet.md.j2"
    edit(template, "[[total = *.sp]]", "[[total = *.points]]")
    game = load_game(copy_project, "all-hands-on-deck")
    with pytest.raises(DataError) as caught:
        sheet_pdf(game, copy_project, template, "a4", fillable=True)
    assert "adds up no box above it" in caught.value.message
    assert str(caught.value.location).startswith("templates/sheets/all-hands-on-deck/score-sheet.md.j2:")


@pytest.mark.slow
def test_stamped_fillable_copies_are_the_bytes_of_laying_out_every_copy(project, games) -> None:
    """The fast path (lay out one copy once, draw it printed and fillable, stamp the other copies with
    renamed fields) changes no byte against Platypus laying out and drawing every copy itself."""
    stamped = 0
    for game in games.values():
        for template in sheet_templates(game, project):
            layout = lay_out_sheet(game, project, template, "letter")
            printed, fast = draw_sheet(layout, fillable=False), draw_sheet(layout, fillable=True)
            assert printed == sheet_pdf(game, project, template, "letter", fillable=False, stamp=False), template.name
            assert fast == sheet_pdf(game, project, template, "letter", fillable=True, stamp=False), template.name
            assert fast == sheet_pdf(game, project, template, "letter", fillable=True), template.name
            assert len(reader(printed).pages) == layout.pages * layout.settings.copies, template.name
            stamped += len(reader(fast).pages) > 1
    assert stamped >= 2  # the all-hands score sheet's copies, the loon ledger's pages
