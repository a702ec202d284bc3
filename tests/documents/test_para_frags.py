"""Paragraph markup parsed without ReportLab's HTML parser gives the runs ReportLab's parser gives.

`iconpara.simple_frags` replays `ParaParser` for what `markup.inline_to_para` writes (bold,
italic, escaped &, <, >); the PDFs stay byte for byte what ReportLab's own parse would draw.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.platypus.paragraph import cleanBlockQuotedText
from reportlab.platypus.paraparser import ParaParser

from generator.render.documents import markup
from generator.render.documents.iconpara import IconParagraph, simple_frags
from generator.render.documents.styles import make_styles

PIECES = ["Take", "1", ":coin:", "per", "**ship**", "*your*", "**bold *and italic* too**", "a & b", "<3", "x > y",
          "—", "  ", "\n", "café", "\\*", "&amp;", "*", "**", "2 * 3", "<b>", "|"]


def runs(frags: list[Any] | None) -> list[tuple[type, dict[str, Any]]] | None:
    """The class and every attribute of every run (in order), lists compared by value."""
    return None if frags is None else [(type(frag), dict(vars(frag))) for frag in frags]


def reportlab_runs(text: str, style: Any) -> list[dict[str, Any]] | None:
    parser = ParaParser()
    parser.caseSensitive = 1  # as Paragraph sets it
    return runs(parser.parse(cleanBlockQuotedText(text), style)[1])


@pytest.fixture(scope="module")
def styles(games):  # type: ignore[no-untyped-def]
    made = make_styles(games["pirate-tricks"])
    return [made.body, made.head_cell, made.h2, made.caption, made.subtitle, made.title]


@settings(max_examples=60, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=14), which=st.integers(0, 5))
def test_rulebook_markup_gives_reportlabs_runs(styles, pieces: list[str], which: int) -> None:
    text = markup.inline_to_para(" ".join(pieces))
    style = styles[which]
    mine = simple_frags(cleanBlockQuotedText(text), style)
    if mine is None:  # markup outside the subset (an unpaired tag): ReportLab's parser takes it
        return
    assert runs(mine) == reportlab_runs(text, style)


@pytest.mark.parametrize("text", ["<font color='red'>red</font>", "a &nbsp; b", "<b>open", "<b>x</i>", "<br/>",
                                  "&#169; 2024", "<para>x</para>"])
def test_other_markup_is_left_to_reportlab(styles, text: str) -> None:
    assert simple_frags(cleanBlockQuotedText(text), styles[0]) is None


def test_a_paragraph_keeps_its_words_and_fonts(styles) -> None:
    text = markup.inline_to_para("Pay **2 gold** & *sail* <east>")
    paragraph = IconParagraph(text, styles[0])
    assert [(f.text, f.fontName) for f in paragraph.frags] == [
        ("Pay ", "Serif"), ("2 gold", "Serif-Bold"), (" ", "Serif"), ("&", "Serif"), (" ", "Serif"),
        ("sail", "Serif-Italic"), (" ", "Serif"), ("<", "Serif"), ("east", "Serif"), (">", "Serif")]
    assert paragraph.text == cleanBlockQuotedText(text)
