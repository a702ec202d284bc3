"""Pirates Port: Counterattack: six hands, who leads with two captains, the campaign log explained and labelled."""

from __future__ import annotations

import re

import pytest

from generator.render.documents.rulebook import rulebook_pdf
from generator.render.documents.sheets import sheet_name, sheet_pdf, sheet_templates
from generator.render.documents.templating import number_word
from tests.documents.helpers import reader, words


@pytest.mark.slow
def test_rulebook_six_hands_and_two_player_lead(project, games):
    game = games["counterattack"]
    said = words(rulebook_pdf(game, project, "a4"))
    need = game.rule("ports_to_win", int)
    assert f"a won game is always exactly {number_word(need)} hands long" in said
    assert "at least" not in said
    assert "The pirate still leads every trick" in said
    assert "swapping hand by hand" in said
    assert "Turning over the last card of the stack empties it, and that ends trump" in said


@pytest.mark.slow
def test_campaign_log_is_explained_and_every_box_is_labelled(project, games):
    game = games["counterattack"]
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "campaign-log")
    log = sheet_pdf(game, project, template, "a4", fillable=True)
    fields = reader(log).get_fields()
    assert fields
    for name, field in fields.items():
        assert str(field.get("/TU", "")).strip(), f"box {name} has no label"
    assert "won or lost" in str(fields["g1-result"]["/TU"]) and "Ports exploited" in str(fields["g1-ports"]["/TU"])
    book = words(rulebook_pdf(game, project, "a4"))
    section = book[book.rindex("The campaign log"):]
    headers = re.findall(r"Game 1 · Hand|Forehand or aft|Trump at the start|Exposed ports turned|Tricks taken|"
                         r"Port exploited|Ports exploited", words(log))
    for header in set(headers) - {"Game 1 · Hand"}:
        assert header in section, header
