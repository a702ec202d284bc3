"""A session keeps paragraph line breaks from build to build (`lines.ParagraphLines`): a paragraph that
takes the lines of an earlier one with the same markup, style and width lays out, splits across pages
and draws exactly as one that breaks its own; any other style or width breaks its own; lines unused
for three builds are dropped."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import SimpleDocTemplate

from generator.readgate import ReadGate
from generator.render.base.fonts import register_fonts
from generator.render.documents import markup
from generator.render.documents.iconpara import IconParagraph
from generator.render.documents.lines import ParagraphLines
from generator.render.documents.styles import make_styles

WORDS = ["Take", "one", "per", "**ship**", "in", "*your*", "harbour", "broadside", "—", "and", "a", "Nassau"]


def pdf(paragraphs: list[IconParagraph]) -> bytes:
    """The paragraphs drawn on small pages (so a long one splits), as ReportLab writes them."""
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=(200, 160), invariant=1, leftMargin=20, rightMargin=20, topMargin=20,
                      bottomMargin=20).build(paragraphs)
    return out.getvalue()


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), min_size=40, max_size=120))
def test_shared_lines_lay_out_split_and_draw_as_a_paragraph_s_own(tmp_path_factory: Any, words: list[str]) -> None:
    register_fonts()
    style = ParagraphStyle("body", fontName="Serif", fontSize=10.5, leading=14.2, textColor="#1b1b1b")
    text = markup.inline_to_para(" ".join(words))
    gate = ReadGate(tmp_path_factory.getbasetemp())
    lines = ParagraphLines(gate)
    alone = pdf([IconParagraph(text, style)])
    assert pdf([IconParagraph(text, style, lines=lines)]) == alone  # the first build: breaks and keeps its lines
    gate.next_generation()
    again = IconParagraph(text, style, lines=lines)
    again.wrap(148, 1000)  # the frame's width
    assert again._shared is not None  # ... which the next build's paragraph takes
    assert pdf([again]) == alone  # a split (long text) breaks its own lines first
    assert pdf([IconParagraph(text, style, lines=lines)]) == alone  # and the kept lines are still as they were


def test_another_colour_or_width_breaks_its_own_lines(games: Any, tmp_path: Path) -> None:
    body = make_styles(games["pirate-tricks"]).body
    text = markup.inline_to_para("Break into a port with exactly the tricks shown on it.")
    lines = ParagraphLines(ReadGate(tmp_path))
    first = IconParagraph(text, body, lines=lines)
    first.wrap(120, 1000)
    redder = ParagraphStyle("body", parent=body, textColor="#aa0000")
    for style, width in ((redder, 120), (body, 121)):
        paragraph = IconParagraph(text, style, lines=lines)
        paragraph.wrap(width, 1000)
        assert paragraph.blPara is not first.blPara  # its own lines ...
        assert pdf([paragraph]) == pdf([IconParagraph(text, style)])  # ... drawn as a fresh paragraph's
    same = IconParagraph(text, body, lines=lines)
    same.wrap(120, 1000)
    assert same.blPara is first.blPara  # the same markup, style and width: one set of lines


def test_lines_unused_for_three_builds_are_dropped(games: Any, tmp_path: Path) -> None:
    style = make_styles(games["pirate-tricks"]).body
    gate = ReadGate(tmp_path)
    lines = ParagraphLines(gate)
    kept, back, dropped = (markup.inline_to_para(t) for t in ("Kept every build.", "Two back.", "Used once."))
    for text in (kept, back, dropped):
        IconParagraph(text, style, lines=lines).wrap(150, 1000)
    for build in range(1, 4):
        gate.next_generation()
        IconParagraph(kept, style, lines=lines).wrap(150, 1000)
        if build == 2:
            assert lines.get(lines.key("IconParagraph", back, None, style, 150)) is not None  # two builds back
    assert lines.get(lines.key("IconParagraph", kept, None, style, 150)) is not None
    assert lines.get(lines.key("IconParagraph", back, None, style, 150)) is not None  # used again in build 2
    assert lines.get(lines.key("IconParagraph", dropped, None, style, 150)) is None  # unused for three builds


def test_the_paper_this_process_drew_last_build_is_planned_first(tmp_path: Path) -> None:
    """With two processes the rulebooks alternate: a worker forked with this process's lines takes the paper
    drawn here last build, and this process the other one, drawn here the build before."""
    gate = ReadGate(tmp_path)
    lines = ParagraphLines(gate)
    assert lines.first_papers("ca", ("a4", "letter")) == ("a4", "letter")  # nothing drawn yet: as asked
    lines.drew("ca", "letter")
    lines.drew("tricks", "a4")
    gate.next_generation()
    assert lines.first_papers("ca", ("a4", "letter")) == ("letter", "a4")
    assert lines.first_papers("tricks", ("a4", "letter")) == ("a4", "letter")  # each game its own
    lines.drew("ca", "a4")
    gate.next_generation()
    assert lines.first_papers("ca", ("a4", "letter")) == ("a4", "letter")
    lines.drew("ca", "a4")
    lines.drew("ca", "letter")  # one process drew both (--jobs 1): as asked
    gate.next_generation()
    assert lines.first_papers("ca", ("letter", "a4")) == ("letter", "a4")


def test_a_worker_hands_back_the_lines_it_broke_and_the_older_ones_it_used(games: Any, tmp_path: Path,
                                                                          monkeypatch: Any) -> None:
    """In `pnp watch` a forked worker's lines come back with its job results, so the building process holds
    every paper's lines after a build, and its next build's workers inherit them all."""
    import os

    from generator.render.documents import lines as lines_module

    style = make_styles(games["pirate-tricks"]).body
    gate = ReadGate(tmp_path)
    lines = ParagraphLines(gate)
    old, new = markup.inline_to_para("Drawn here a build ago."), markup.inline_to_para("Broken by the worker.")
    parents = IconParagraph(old, style, lines=lines)
    parents.wrap(150, 1000)
    gate.next_generation()
    assert lines.hand_back() is not None  # (this process's own notes: never asked for here, but kept apart)
    parent_pid = os.getpid()
    monkeypatch.setattr(lines_module.os, "getpid", lambda: parent_pid + 1)  # as in a forked copy of the store
    assert lines.hand_back() is None  # the parent's notes are not the worker's
    IconParagraph(old, style, lines=lines).wrap(150, 1000)  # found in the older build
    IconParagraph(new, style, lines=lines).wrap(150, 1000)  # broken here
    handed = lines.hand_back()
    assert handed is not None and lines.hand_back() is None  # handed once
    made, kept = handed
    assert list(made) == [lines.key("IconParagraph", new, None, style, 150)]
    assert kept == [lines.key("IconParagraph", old, None, style, 150)]
    monkeypatch.setattr(lines_module.os, "getpid", lambda: parent_pid)

    parent = ParagraphLines(gate)  # the building process's store, which has seen neither this build
    parent._builds[1][kept[0]] = lines.get(kept[0])  # type: ignore[index]  # (it drew `old` a build ago)
    parent.take_back(handed)
    for _ in range(2):  # what a worker used or made is this build's: kept for the three builds to come
        gate.next_generation()
        parent.get(lines.key("IconParagraph", "unrelated", None, style, 150))
    assert parent.get(kept[0]) is not None
    again = IconParagraph(new, style, lines=parent)
    again.wrap(150, 1000)
    assert again._shared is not None  # drawn from the worker's lines
    assert pdf([again]) == pdf([IconParagraph(new, style)])
