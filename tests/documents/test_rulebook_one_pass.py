"""Rulebooks are laid out once, yet are the bytes ReportLab's own two-pass table of contents
(`TableOfContents` filled by `multiBuild`) makes of the same story."""

from __future__ import annotations

from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from generator.render.documents import document, rulebook
from generator.render.documents.document import Document
from generator.render.documents.flowables import HeadingPara
from generator.render.documents.rulebook import rulebook_pdf


def two_pass_pdf(flowables: list[Flowable], pagesize: tuple[float, float], margin: float, title: str,
                 styles: Any, footer: str, canvasmaker: Any = Canvas, links: bool = True, saver: Any = None) -> bytes:
    """The plain path (`document.two_pass_pdf`: ReportLab's `TableOfContents` filled by `multiBuild`), in
    the place of `build_pdf`."""
    return document.two_pass_pdf(flowables, pagesize, margin, title, styles, footer, canvasmaker, links)


@pytest.mark.slow
@pytest.mark.parametrize("game_id, paper, booklet", [("pirate-tricks", "a4", False),
                                                     ("all-hands-on-deck", "letter", True)])
def test_one_pass_is_the_bytes_of_two(project, games, monkeypatch, game_id, paper, booklet) -> None:
    game = games[game_id]
    one = rulebook_pdf(game, project, paper, booklet=booklet)
    monkeypatch.setattr(rulebook, "build_pdf", two_pass_pdf)
    assert one == rulebook_pdf(game, project, paper, booklet=booklet)


def test_headings_the_story_hides_are_found_by_laying_out_again(project, games, monkeypatch) -> None:
    """A heading inside a kept block is not in the story's top level, so the first layout's contents
    miss it; the layout then runs again with the headings it met, as multiBuild would."""
    from reportlab.platypus import KeepTogether

    from generator.render.documents import markup
    from generator.render.documents.document import build_pdf
    from generator.render.documents.flowables import Builder
    from generator.render.documents.styles import make_styles, paper_size

    game = games["pirate-tricks"]
    styles = make_styles(game)
    text = ["# Rules", "", "::: toc", ""]
    for n in range(1, 9):
        text += [f"## Part {n}", "", " ".join(["Sail on and take the treasure."] * 40), ""]
    builder = Builder(game, project, styles, "test.md")
    width, height = paper_size("a4")
    builder.width, builder.height = width - 80, height - 100
    story = builder.flowables(markup.parse(list(enumerate(text, start=1)), "test.md"))
    hidden = next(i for i, f in enumerate(story) if isinstance(f, HeadingPara) and f.toc_text == "Part 5")
    story[hidden] = KeepTogether([story[hidden]])
    args = (paper_size("a4"), 40.0, "t", styles, "footer")
    layouts = []
    original = Document.build
    monkeypatch.setattr(Document, "build", lambda self, *a, **k: layouts.append(1) or original(self, *a, **k))
    one = build_pdf(story, *args)
    assert len(layouts) == 2  # the hidden heading was met, so the story was laid out again
    monkeypatch.undo()
    assert one == two_pass_pdf(story, *args)
