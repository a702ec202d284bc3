"""Rulebooks seed their table of contents before the first pass: fewer passes, the same bytes."""

from __future__ import annotations

import pytest

from generator.render.documents import document
from generator.render.documents.rulebook import rulebook_pdf


@pytest.mark.parametrize("game_id, booklet", [("pirate-tricks", False), ("all-hands-on-deck", True)])
def test_a_seeded_rulebook_is_the_bytes_of_an_unseeded_one(project, games, monkeypatch, game_id, booklet) -> None:
    game = games[game_id]
    seeded = rulebook_pdf(game, project, "a4", booklet=booklet)
    monkeypatch.setattr(document, "seed_contents", lambda story, links: None)
    assert seeded == rulebook_pdf(game, project, "a4", booklet=booklet)
