"""Facts two places must agree on: the bid marker and the bid track, the 5/6 marks and the rulebook."""

from __future__ import annotations

import re

import pytest

from generator.load import load_game
from generator.project import Project
from generator.render.documents.rulebook import parse_template, rulebook_template
from generator.render.faces.draw import track_cells
from generator.render.faces.renderer import renderer
from tests.helpers import edit


def test_the_bid_marker_fits_one_space_of_the_bid_track(project: Project) -> None:
    game = load_game(project, "pirate-tricks")
    bid, marker = game.component("bid"), game.component("bid-marker")
    assert marker.size.shape == "circle"
    diameter = marker.size.width
    for item in bid.items:
        face = renderer(project).face(game, bid, item, "front")
        cells = [cell for e in face.elements if e.type == "track" for cell in track_cells(e)]
        numbers = [number for number, _ in cells]
        assert numbers == list(range(item.fields["first"], item.fields["last"] + 1))  # every bid, once
        for number, (x, y, w, h) in cells:
            assert diameter <= min(w, h), f"a {diameter:g} mm marker does not fit box {number} ({w:.1f} x {h:.1f} mm)"
            assert diameter >= 0.75 * min(w, h), f"box {number} is much bigger than the marker: which number is it on?"
            assert x >= 0 and x + w <= face.width and y >= 0 and y + h <= face.height


def rulebook_text(project: Project, game) -> str:
    _, blocks = parse_template(rulebook_template(game, project), game, project)
    return " ".join(str(block) for block in blocks)


def mark_positions(project: Project, game) -> list[tuple[float, float]]:
    pirates = game.component("pirate")
    faces = [renderer(project).face(game, pirates, item, "front") for item in pirates.items if item.fields.get("marked")]
    assert len(faces) == 18
    return [(e.get("x") / f.width, e.get("y") / f.height) for f in faces for e in f.elements if e.name == "badge"]


def test_the_player_count_marks_sit_where_the_rulebook_says(project: Project) -> None:
    game = load_game(project, "all-hands-on-deck")
    assert game.theme["mark_corner"] == "bottom right"  # what the rule text says
    assert "in the bottom right corner" in rulebook_text(project, game)
    positions = mark_positions(project, game)
    assert len(positions) == 18 and all(x > 0.5 and y > 0.5 for x, y in positions)


def test_marks_and_rulebook_move_together(project_copy: Project) -> None:
    edit(project_copy.data_dir / "all-hands-on-deck" / "game.yaml", "mark_corner: bottom right", "mark_corner: top right")
    game = load_game(project_copy, "all-hands-on-deck")
    assert "in the top right corner" in rulebook_text(project_copy, game)
    assert all(x > 0.5 and y < 0.5 for x, y in mark_positions(project_copy, game))


def _pdf_text(path) -> str:  # type: ignore[no-untyped-def]
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    return " ".join(page.get_textpage().get_text_range() for page in document).replace("\r\n", " ")


@pytest.mark.slow
def test_the_rulebook_names_the_player_count_badge_the_cards_print(all_games_built) -> None:
    """Issue 32 print review: the rulebook said "a small 5 or 6", the cards print "5+" / "6+" in a black disc
    beside the corner index. Read from the built PDFs: what the rulebook names is what the cards print."""
    folder = all_games_built.output_dir / "all-hands-on-deck"
    for paper in ("a4", "letter"):
        cards = _pdf_text(folder / f"all-hands-on-deck-pirate-{paper}-duplex-long.pdf")
        printed = sorted(set(re.findall(r"(?<![\w+])(\d\+)(?!\w)", cards)))
        assert printed == ["5+", "6+"]
        rules = re.sub(r"\s+", " ", _pdf_text(folder / f"all-hands-on-deck-rules-{paper}.pdf"))
        said = re.search(r"Some cards carry a (.*?) in a black disc in the bottom right corner, beside the corner "
                         r"index", rules)
        assert said, "the rulebook describes the badge as printed"
        assert sorted(re.findall(r"\d\+", said.group(1))) == printed


@pytest.mark.slow
def test_the_curse_card_prints_a_true_minus_everywhere(all_games_built) -> None:
    """Issue 32 print review: the curse card's corner index printed a hyphen ("-1"), its big figure and the
    rulebook a minus sign (U+2212). Read from the built sheets: every figure has the minus sign."""
    folder = all_games_built.output_dir / "all-hands-on-deck"
    for paper in ("a4", "letter"):
        text = _pdf_text(folder / f"all-hands-on-deck-curse-{paper}-duplex-long.pdf")
        assert not re.search(r"-\d", text), "a hyphen before a figure"
        assert "\u22121" in text and "\u22122" in text  # both sides: -1 and, turned, -2
