"""Pirates Under Fire: scoring as the engine counts it, a scoring example read back from its picture."""

from __future__ import annotations

import math
import re

import pytest
from reportlab.lib.units import mm

from generator.engine.games.under_fire.rules import UnderFireRules
from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates
from tests.documents.helpers import form_placements, logical_pages, reader, words


@pytest.fixture(scope="module")
def game(games):
    return games["pirates-under-fire"]


@pytest.fixture(scope="module")
def book(books) -> bytes:
    return books[("pirates-under-fire", "a4")]  # the session's rulebook (tests/documents/conftest.py), built once


def _page_with(data: bytes, footer: str, heading: str) -> int:
    """The page a heading stands on (the last match: the table of contents names it first)."""
    return max(i for i, page in enumerate(logical_pages(data, footer)) if any(r.text == heading for r in page))


@pytest.mark.slow
def test_rulebook_answers_the_scoring_questions(book):
    said = words(book)
    assert "one ship may score in its row and again in its column" in said
    assert "a ship may close a set and open a run" in said
    assert "never belongs to a line and never scores" in said        # no line, no rival-sea VP
    assert "counts as an active ship for abilities" in said           # reach and abilities
    assert "It never burns" in said
    assert "you may hire it first and play on" in said                # the optional purchase before losing


@pytest.mark.slow
def test_sea_effect_table_lists_only_effects_on_the_board(book, game):
    keys = {key.split(":")[0] for item in game.component("sea-board").items for row in item["rows"]
            for part in row.split() for key in part.split("+")}
    said = words(book)
    start = said.index("Sea effect What it does")
    table = said[start:said.index("A turn", start)]
    for key, effect in game.rule("effects").items():
        assert (effect["label"] in table) == (key in keys), key


@pytest.mark.slow
def test_scoring_example_matches_the_engine_for_the_board_drawn(book, game):
    rules = UnderFireRules(game)
    config, geometry = rules.config, rules.geometry
    pitch = game.theme["board"]["space_mm"]
    board = game.component("sea-board")
    side = board.size.height
    margin = (board.size.width - config.columns * pitch) / 2
    band = side - margin - config.rows * pitch  # the title band along the owner's edge
    page = _page_with(book, "Pirates Under Fire — rules", "A scoring example")
    placed = form_placements(book, page)
    red_board = next(m for name, m in placed if name == f"face-sea-board-{config.fleets[0]}-front")
    scale = red_board[0]
    numbers = [0] * geometry.spaces
    in_rival_sea = 0
    ship = game.component("ship")
    for name, m in placed:
        if not (name.startswith("face-ship-") and name.endswith("-front")):
            continue
        item = ship.item(name.removeprefix("face-ship-").removesuffix("-front"))
        if item["fleet"] != config.fleets[0]:
            continue
        u = (m[4] + ship.size.width * mm * scale / 2 - red_board[4]) / (scale * mm)
        v = (m[5] + ship.size.height * mm * scale / 2 - red_board[5]) / (scale * mm)
        col = math.floor((u - margin) / pitch)
        g = math.floor((v - band) / pitch) if v < side else config.rows + math.floor((v - side - margin) / pitch)
        numbers[g * config.columns + col] = item["number"]
        in_rival_sea += g >= config.rows
    sets, runs = rules.lines.score(numbers)
    page_words = " ".join(r.text for r in logical_pages(book, "Pirates Under Fire — rules")[page + 1]) + " " + \
        " ".join(r.text for r in logical_pages(book, "Pirates Under Fire — rules")[page])
    said = re.sub(r"\s+", " ", page_words)
    lines = int(re.search(r"Lines: [\d +]+= (\d+) VP", said).group(1))
    assert lines == sets + runs
    assert in_rival_sea == 2
    rival = int(re.search(r"rival's sea: (\d+) VP", said).group(1))
    assert rival == in_rival_sea * game.rule("scoring.ship_on_rival_sea", int)
    parts = [int(n) for n in re.findall(r"(\d+) VP\.", said[said.index("Lines:"):said.index("Total:")])]
    total = int(re.search(r"Total: (\d+) VP", said).group(1))
    assert total == sum(parts[1:]) + lines and total > lines


@pytest.mark.slow
def test_score_pad_adds_no_rule_the_book_lacks(project, game, book):
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "score-pad")
    pad = words(sheet_pdf(game, project, template, "a4", fillable=False))
    prose = pad[pad.index("final scoring") + len("final scoring"):pad.index("Scoring · game")]
    sentences = [s.strip() for s in re.split(r"(?<=\.) ", prose) if s.strip()]
    assert len(sentences) >= 3
    said = words(book)
    for sentence in sentences:
        assert sentence in said, sentence


@pytest.mark.slow
def test_setup_scene_shows_both_boards_hands_and_mercenaries(book, game):
    page = _page_with(book, "Pirates Under Fire — rules", "Setting up")
    names = [n for p in (page, page + 1) if p < len(reader(book).pages) for n, _ in form_placements(book, p)]
    for item in game.component("sea-board").items:
        assert f"face-sea-board-{item.id}-front" in names
    for merc in game.component("mercenary").items:
        assert f"face-mercenary-{merc.id}-front" in names
    hands = [n for n in names if n.startswith("face-ship-") and n.endswith("-front")]
    assert len(hands) >= 2 * game.rule("hand_size", int)  # both hands (a picture of a ship may share the page)
    pages = reader(book).pages
    said = " ".join(pages[p].extract_text() for p in (page, page + 1) if p < len(pages))
    assert "×2" in said and "×3" in said  # each captain's gold pile says how many coins: Red two, Blue three
