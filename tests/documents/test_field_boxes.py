"""Issue 32 print review: a fill-in box ran ~1 mm past its table's right rule (All Hands on Deck's score
sheet, SP column). Measured from every printed sheet of every game: no box crosses a table rule."""

from __future__ import annotations

import pytest

from generator.render.documents.rulebook import parse_template
from generator.render.documents.sheets import draw_sheet, has_fields, lay_out_sheet, sheet_templates
from generator.render.documents.two_up import two_up_sheet
from tests.documents.conftest import GAMES
from tests.documents.measure import Shape, page_count, page_shapes

SLACK = 0.05  # mm: a box's stroke may touch a rule, never cross it


def _crossings(shapes: list[Shape]) -> list[tuple[Shape, float]]:
    """Fill-in boxes (white, stroked) that a table's vertical rule runs through, with the rule's x."""
    boxes = [s for s in shapes if s.filled and s.stroked]
    rules = [s for s in shapes if s.stroked and not s.filled and s.right - s.left < 0.5 and s.top - s.bottom > 1]
    found = []
    for box in boxes:
        for rule in rules:
            x = (rule.left + rule.right) / 2
            if box.left + SLACK < x < box.right - SLACK and rule.bottom < box.top and rule.top > box.bottom:
                found.append((box, x))
    return found


def _printed(game, project, template, paper) -> bytes:
    """The printed sheet as the build makes it: two to a page for an A5 sheet, else page by page."""
    layout = lay_out_sheet(game, project, template, paper)
    imposed = two_up_sheet(game, project, template, paper, layout)
    return imposed[1] if imposed else draw_sheet(layout, fillable=False)


def test_the_check_sees_a_box_crossing_a_rule() -> None:
    rule = Shape(False, True, 0.4, 100.0, 10.0, 100.1, 20.0)
    inside = Shape(True, True, 0.6, 90.0, 12.0, 99.9, 17.0)
    across = Shape(True, True, 0.6, 92.0, 12.0, 100.8, 17.0)
    assert _crossings([rule, inside]) == []
    assert [box for box, _ in _crossings([rule, across])] == [across]


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_fill_in_box_lies_inside_its_table(project, games, game_id, paper) -> None:
    game = games[game_id]
    checked = 0
    for template in sheet_templates(game, project):
        if not has_fields(parse_template(template, game, project)[1]):
            continue
        data = _printed(game, project, template, paper)
        for index in range(page_count(data)):
            shapes = page_shapes(data, index)
            checked += sum(1 for s in shapes if s.filled and s.stroked)
            crossing = [(round(box.right - x, 2), round(x, 1)) for box, x in _crossings(shapes)]
            assert not crossing, f"{template.name} p{index + 1}: boxes past a rule by (mm, at x): {crossing[:4]}"
    if game_id == "all-hands-on-deck":
        assert checked > 0, "the score sheet's boxes were found"
