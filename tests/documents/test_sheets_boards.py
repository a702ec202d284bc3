"""Score sheets (printed and fillable), the player screen and board tiling."""

from __future__ import annotations

import re

import pytest
from reportlab.lib.units import mm

from generator.build.options import BuildOptions
from generator.load import load_game
from generator.render.documents.boards import board_components, board_pdf, plan
from generator.render.documents.print_plan import print_plan
from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates
from tests.documents.helpers import fonts, page_sizes, reader, text


def _sheet(project, game, name):
    return next(t for t in sheet_templates(game, project) if sheet_name(t) == name)


@pytest.mark.slow
@pytest.mark.parametrize("game_id, name", [
    ("counterattack", "campaign-log"),
    ("pirate-tricks", "loon-ledger"),
    ("all-hands-on-deck", "score-sheet"),
    ("pirates-under-fire", "score-pad"),
])
def test_fillable_sheet_has_form_fields(project, games, game_id, name):
    if game_id not in games:
        pytest.skip(f"{game_id} not present")
    game = games[game_id]
    template = _sheet(project, game, name)
    printed = sheet_pdf(game, project, template, "a4", fillable=False)
    fillable = sheet_pdf(game, project, template, "a4", fillable=True)
    assert reader(printed).get_fields() in (None, {})
    fields = reader(fillable).get_fields()
    assert fields and len(fields) >= 10
    assert all(fonts(printed).values())
    assert all(fonts(fillable).values())  # page text; form widgets use the viewer's standard font
    assert fillable == sheet_pdf(game, project, template, "a4", fillable=True)  # deterministic


@pytest.mark.slow
def test_all_hands_score_sheet_is_data_driven(project, games):
    game = games["all-hands-on-deck"]
    data = sheet_pdf(game, project, _sheet(project, game, "score-sheet"), "letter", fillable=True)
    copies = game.component("score-sheet").count
    assert len(reader(data).pages) == 2 * copies  # laid out A5 (its frame): front and back per copy
    assert page_sizes(data) == {(612, 792)}
    words = re.sub(r"\s+", " ", text(data))
    for combo in game.rule("combinations.table", tuple):
        assert combo["label"] in words
    for penalty in game.rule("captain_penalty").values():
        assert f"−{penalty} SP" in words
    fields = reader(data).get_fields()
    assert "sheet1-total" in fields and f"sheet{copies}-total" in fields
    assert "sheet1-boarding-party-sp" in fields
    assert not any("." in name for name in fields)


def test_pirate_tricks_screen_is_real_size_and_two_sided(project, games):
    game = games["pirate-tricks"]
    data = sheet_pdf(game, project, _sheet(project, game, "screen"), "a4", fillable=False)
    assert len(reader(data).pages) == 2
    assert page_sizes(data) == {(842, 595)}  # landscape A4 around the 210 x 148 mm screen
    words = text(data)
    assert "Bidding" in words and "Tricks" in words
    assert f"Top up to {game.rule('top_up', int)}" in words


def test_score_pad_follows_changed_run_value(copy_project):
    path = copy_project.data_dir / "pirates-under-fire" / "game.yaml"
    source = path.read_text()
    assert "runs: {3: 2," in source
    path.write_text(source.replace("runs: {3: 2,", "runs: {3: 37,"))
    game = load_game(copy_project, "pirates-under-fire")
    data = sheet_pdf(game, copy_project, _sheet(copy_project, game, "score-pad"), "a4", fillable=False)
    assert "Run of 3 in a row 37" in re.sub(r"\s+", " ", text(data))


@pytest.mark.parametrize("width, height, sheets", [(100, 100, 1), (196, 196, 1), (210, 172, 1), (500, 400, 6),
                                                    (600, 300, 6)])
def test_board_plan(width, height, sheets):
    tiling = plan(width * mm, height * mm, "a4")
    assert tiling.sheets == sheets
    assert tiling.cols * tiling.window[0] >= width * mm and tiling.rows * tiling.window[1] >= height * mm


@pytest.mark.slow
def test_board_splits_over_sheets_when_larger_than_paper(copy_project):
    path = copy_project.data_dir / "pirates-under-fire" / "tiles.yaml"
    source = path.read_text()
    board_at = source.index("id: sea-board")
    size_at = source.index("size:", board_at)
    line_end = source.index("\n", size_at)
    path.write_text(source[:size_at] + "size: {width: 500, height: 400}" + source[line_end:])
    game = load_game(copy_project, "pirates-under-fire")
    board = board_components(game)[0]
    data = board_pdf(game, copy_project, board, "a4")
    per_board = plan(500 * mm, 400 * mm, "a4").sheets
    assert per_board > 1
    assert len(reader(data).pages) == per_board * board.count
    assert f"sheet {per_board} of {per_board}" in text(data)
    assert all(fonts(data).values())
    printing = print_plan(game, copy_project, BuildOptions(papers=("a4",)), "a4")  # the rulebook's how-to-print page
    assert printing.boards == ("sea board",)
    assert _board_entry(printing).holds == "the sea board, in pieces"


def test_real_board_fits_one_sheet(project, games):
    game = games.get("pirates-under-fire")
    if game is None:
        pytest.skip("no board game yet")
    board = board_components(game)[0]
    data = board_pdf(game, project, board, "letter")
    assert len(reader(data).pages) == board.count
    assert data == board_pdf(game, project, board, "letter")
    for paper in ("a4", "letter"):  # so the rulebook tells no one to glue pieces together
        printing = print_plan(game, project, BuildOptions(papers=(paper,)), paper)
        assert printing.boards == ()
        assert _board_entry(printing).holds == "the sea boards, each whole on one sheet"


def _board_entry(printing):
    return next(f for f in printing.files if "-sea-board-" in f.name)


@pytest.mark.parametrize("duplex, double_sided", [("long", True), ("none", False)])
def test_the_register_check_is_advised_only_when_something_prints_on_both_sides(project, games, duplex,
                                                                                 double_sided):
    printing = print_plan(games["pirates-under-fire"], project, BuildOptions(papers=("a4",), duplex=duplex), "a4")
    assert printing.double_sided == double_sided


def test_every_sheet_component_has_a_template(project, games):
    """A `sheet` component in the data is printed from the sheet template of the same name."""
    for game in games.values():
        names = {sheet_name(t) for t in sheet_templates(game, project)}
        for component in game.components:
            if component.kind == "sheet":
                assert component.id in names, f"{game.id}: no templates/sheets/{game.id}/{component.id}.md.j2"
