"""A rulebook drawn and saved through the session's store (each font subset made and compressed
once, each face drawing replayed where the fonts stand as they did) is byte for byte the PDF
ReportLab's own drawing and save write: rules and booklet, on a fresh store and on one that
already holds every subset and face (the other paper, the next edit in `pnp watch`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from generator.project import Project
from generator.render.documents.rulebook import rulebook_pdf
from generator.render.faces.renderer import renderer
from generator.render.faces.stamps import FormStore


def draw_form(store: FormStore, canvas: Any, name: str, box: Any, key: Any, draw: Callable[[], None]) -> None:
    canvas.beginForm(name, *box)
    draw()
    canvas.endForm()


@pytest.mark.slow
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
    store = renderer(fresh_project).forms
    replayed = store.replayed
    again = rulebook_pdf(game, fresh_project, "a4", booklet=booklet)
    assert not made  # ...and taken from the store the next time
    assert store.replayed - replayed >= 10  # the scenes' faces: replayed, not drawn again
    letter = rulebook_pdf(game, fresh_project, "letter", booklet=booklet)
    with monkeypatch.context() as patch:
        patch.setattr(FormStore, "save", lambda self, canvas: canvas.save())  # ReportLab's own save
        patch.setattr(FormStore, "form", draw_form)  # and every face drawn
        own = rulebook_pdf(game, Project.at(project.root), "a4", booklet=booklet)
        own_letter = rulebook_pdf(game, Project.at(project.root), "letter", booklet=booklet)
    assert first == own and again == own
    assert letter == own_letter
    assert own.startswith(b"%PDF") and b"/FontFile2" in own
