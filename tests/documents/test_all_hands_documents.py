"""All Hands on Deck: worked examples as the engine scores them, the engine's answers, the score sheet's columns."""

from __future__ import annotations

import re

import pytest

from generator.engine.games.all_hands.rules import AllHandsRules
from generator.render.documents.rulebook import rulebook_pdf
from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates
from generator.render.documents.templating import number_word
from tests.documents.helpers import form_placements, reader, words


@pytest.mark.slow
def test_rulebook_answers_extra_stock_third_penalty_and_pile_order(games, books):
    game = games["all-hands-on-deck"]
    said = words(books[(game.id, "a4")])
    back = game.rule("stock_cards", int) + game.rule("extra_stock_cards", int) - game.rule("keep_per_round", int)
    assert f"put {number_word(back)} back" in said
    assert "A third penalty brings a second curse card" in said
    assert "Keep your crew pile in order" in said and "takes the top card, which is your latest hire" in said
    assert "A round, worked through" in said and "Final scoring, worked through" in said


@pytest.mark.slow
def test_final_scoring_example_is_what_the_engine_scores(games, books):
    """The crew pile drawn in the final example, laid out by the engine, scores what the text says."""
    game = games["all-hands-on-deck"]
    book = books[(game.id, "a4")]
    rules = AllHandsRules(game)
    kinds = rules.config.kinds
    pirate = game.component("pirate")
    for page in range(len(reader(book).pages)):
        shown = [n for n, _ in form_placements(book, page) if n.startswith("face-pirate-") and n.endswith("-front")]
        if len(shown) >= 10:
            break
    counts = [0] * len(kinds)
    for name in shown:
        counts[kinds.index(pirate.item(name.removeprefix("face-pirate-").removesuffix("-front"))["kind"])] += 1
    layout, _ = rules.best_layout(tuple(counts))
    said = words(book)
    example = said[said.index("Final scoring, worked through"):]
    total = int(re.search(r"= (\d+) points", example).group(1))
    during = next(c["points"] for c in game.rule("combinations.table", tuple) if c["id"] == "boarding-party")
    assert total == layout + during - game.rule("curse_points", int)


@pytest.mark.slow
def test_score_sheet_action_column_and_curse_faces(project, games):
    game = games["all-hands-on-deck"]
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "score-sheet")
    said = words(sheet_pdf(game, project, template, "a4", fillable=False))
    for combo in game.rule("combinations.table", tuple):
        if "action" not in combo:
            assert combo["text"] not in said  # the action column holds actions only
    curse = game.rule("curse_points", int)
    assert f"Curse cards (−{curse} each, or −{2 * curse} once turned)" in said
    fields = reader(sheet_pdf(game, project, template, "a4", fillable=True)).get_fields()
    assert "sheet1-curse-count" in fields


def _score_sheet_words(game, project) -> str:
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "score-sheet")
    return words(sheet_pdf(game, project, template, "a4", fillable=False))


@pytest.mark.slow
def test_every_pair_action_in_play_is_on_the_score_sheet_and_in_the_rulebook(project, games, books):
    game = games["all-hands-on-deck"]
    pairs = [c for c in AllHandsRules(game).config.combinations if c.action]
    assert len(pairs) == 5 and sum(c.action == "curse" for c in pairs) == 1  # five actions, one hands out a curse
    sheet, book = _score_sheet_words(game, project), words(books[(game.id, "a4")])
    for combo in game.rule("combinations.table", tuple):
        if "action" in combo:
            for said in (sheet, book):
                assert combo["label"] in said and words_of(combo["text"]) in said and combo["when"] in said


@pytest.mark.slow
def test_a_pair_switched_off_leaves_the_score_sheet_and_the_rulebook(project):
    from generator.load import load_game
    from generator.load.overrides import parse_overrides

    game = load_game(project, "all-hands-on-deck", parse_overrides(["combinations.set-the-course.action=none"]))
    sheet, book = _score_sheet_words(game, project), words(rulebook_pdf(game, project, "a4"))
    assert "Set the Course" not in sheet and "Set the Course" not in book
    assert "Ship's Repairs" in sheet and "Ship's Repairs" in book


def words_of(text: str) -> str:
    """A data sentence as the PDF's words read it back (one space between words)."""
    return " ".join(text.split())
