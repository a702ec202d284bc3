"""A rulebook saved through the session's font store (each font subset made and compressed once)
is byte for byte the PDF ReportLab's own save writes: rules and booklet, on a fresh store and on
one that already holds every subset (the second paper, the next edit in `pnp watch`)."""

from __future__ import annotations

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from generator.project import Project
from generator.render.documents.rulebook import rulebook_pdf
from generator.render.stamps import FormStore


@pytest.mark.parametrize("booklet", [False, True])
def test_the_store_saves_what_reportlab_saves(project: Project, games, monkeypatch, booklet: bool) -> None:  # type: ignore[no-untyped-def]
    game = games["counterattack"]  # scenes (face forms), inline icons, tables, callouts, contents
    fresh_project = Project.at(project.root)  # its own session: an empty store
    made: list[int] = []
    make_subset = TTFontFile.makeSubset
    monkeypatch.setattr(TTFontFile, "makeSubset", lambda face, subset: made.append(1) or make_subset(face, subset))
    first = rulebook_pdf(game, fresh_project, "a4", booklet=booklet)
    assert made  # the fonts' subsets, cut once...
    made.clear()
    again = rulebook_pdf(game, fresh_project, "a4", booklet=booklet)
    assert not made  # ...and taken from the store the next time
    letter = rulebook_pdf(game, fresh_project, "letter", booklet=booklet)
    with monkeypatch.context() as patch:
        patch.setattr(FormStore, "save", lambda self, canvas: canvas.save())  # ReportLab's own save
        own = rulebook_pdf(game, Project.at(project.root), "a4", booklet=booklet)
        own_letter = rulebook_pdf(game, Project.at(project.root), "letter", booklet=booklet)
    assert first == own and again == own
    assert letter == own_letter
    assert own.startswith(b"%PDF") and b"/FontFile2" in own
