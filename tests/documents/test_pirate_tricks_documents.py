"""Pirate Tricks: the rulebook, the screen and the ledger say what the engine does (issue 13)."""

from __future__ import annotations

import re

import pytest

from generator.engine.games.pirate_tricks import scoring
from generator.engine.games.pirate_tricks.rules import PirateTricksRules
from generator.render.documents.rulebook import rulebook_pdf
from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates
from tests.documents.helpers import form_placements, reader, words


@pytest.fixture(scope="module")
def game(games):
    return games["pirate-tricks"]


@pytest.fixture(scope="module")
def book(books) -> bytes:
    return books[("pirate-tricks", "a4")]  # the session's rulebook (tests/documents/conftest.py), built once


def _sheet(project, game, name: str, fillable: bool = False) -> bytes:
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == name)
    return sheet_pdf(game, project, template, "a4", fillable=fillable)


def test_screen_orders_a_round_as_the_engine_does(project, game):
    said = words(_sheet(project, game, "screen"))
    assert said.index("Predict your tricks") < said.index("Show crew for the recruitment cards")
    # the colour order belongs to tie cards, and the end of the game is a shared win
    order = " beats ".join(c.capitalize() for c in game.rule("colour_order", tuple))
    assert f"Between tie cards of equal number, {order}" in said
    assert "Captains tied for the most loon share the win" in said
    admiral = said[said.index("Supreme Admiral"):said.index("A round, step by step")]
    assert "beats" not in admiral


@pytest.mark.slow
def test_rulebook_states_every_designed_detail(book):
    said = words(book)
    for detail in ("used score cards", "loon left on a row", "when the rows are offered again",
                   "whom the chooser may pick", "one net amount", "no trick, no place"):
        assert f"Designed detail: {detail}." in said
    assert "with exactly two rows carrying loon" in said
    assert "themselves included" in said
    assert "they share the victory" in said


@pytest.mark.slow
def test_recruitment_examples_are_drawn_and_add_up_as_the_engine_counts(book, game):
    """Four examples: each scene's recruitment cards and hand, scored by the engine, give the total the text says."""
    config = PirateTricksRules(game).config
    index = {item.id: i for i, item in enumerate(game.deck("crew"))}  # the engine's card numbers
    groups: list[tuple[list[str], list[str]]] = []
    for page in range(len(reader(book).pages)):
        for name, _ in form_placements(book, page):
            if name.startswith("face-recruitment-"):
                if not groups or groups[-1][1]:
                    groups.append(([], []))
                groups[-1][0].append(name.removeprefix("face-recruitment-").removesuffix("-front"))
            elif name.startswith("face-crew-") and name.endswith("-front") and groups and groups[-1][0]:
                groups[-1][1].append(name.removeprefix("face-crew-").removesuffix("-front"))
    # the setup scene shows a recruitment deck (a back) beside its cards: it is no example
    examples = [g for g in groups if g[1] and not any(c.endswith("-back") for c in g[0])]
    assert len(examples) == 4
    said = words(book)
    totals = [int(n) for n in re.findall(r"(\d+) loon in all", said)]
    assert len(totals) == 4
    recruitment = game.component("recruitment")
    for (cards, hand), total in zip(examples, totals, strict=True):
        held = [index[c] for c in hand]
        expected = sum(scoring.recruitment_payout(config, recruitment.item(c), held) for c in cards)
        assert expected == total, (cards, hand)


@pytest.mark.slow
def test_ledger_has_row_loon_and_top_up_columns(project, game):
    data = _sheet(project, game, "loon-ledger", fillable=True)
    said = words(_sheet(project, game, "loon-ledger"))
    assert "Loon from the row" in said and f"Top-up to {game.rule('top_up', int)}" in said
    fields = reader(data).get_fields()
    players = game.players_max
    assert {f"r1-p{p}-rowloon" for p in range(1, players + 1)} <= set(fields)
    assert f"r2-p{players}-topup" in fields and "r1-p1-topup" not in fields  # nobody tops up before round 1


@pytest.mark.slow
def test_a_bar_or_star_in_a_card_name_prints_as_written(copy_project):
    """A '|' in a card name is data, not a table cell; nothing blames the rulebook template."""
    from generator.load import load_game

    path = copy_project.data_dir / "pirate-tricks" / "score.yaml"
    path.write_text(path.read_text().replace("name: Gang of Two,", "name: \"Gang | of *Two\",", 1))
    game = load_game(copy_project, "pirate-tricks")
    said = words(rulebook_pdf(game, copy_project, "a4"))
    assert "Gang | of *Two" in said
