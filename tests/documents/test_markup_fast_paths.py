"""Inline markup skips the patterns a text cannot match (no '*', no ':'), and gives what running them gives.

The reference below is the plain regex pipeline, run on every text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import DataError
from generator.render.documents import markup
from generator.render.documents.iconpara import MARKER, marker

PIECES = ["Take", " ", "**", "*", ":coin:", ":nosuchicon:", ":", "&", "<", ">", "word", "2", "\ue010", "\ue011",
          "\n", "\u00e9", ":coin#ff0000:", "a*b", "* x *"]
texts = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)


def reference_inline(text: str) -> str:
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    out = markup.INLINE_ICON.sub(lambda m: marker(m.group(1), m.group(2)), out)  # parse let only icons through
    return markup.unescape_literal(out)


def reference_plain(text: str) -> str:
    text = MARKER.sub("", markup.INLINE_ICON.sub("", text))
    return markup.unescape_literal(re.sub(r"\*{1,2}(.+?)\*{1,2}", r"\1", text))


@settings(max_examples=150, deadline=None)
@given(text=texts)
def test_inline_to_para_and_plain_match_the_full_pipeline(text: str) -> None:
    assert markup.inline_to_para(text) == reference_inline(text)
    assert markup.plain(text) == reference_plain(text)
    assert markup.plain(reference_inline(text)) == reference_plain(reference_inline(text))


def test_a_stray_star_and_an_unknown_icon_are_still_refused_at_their_line() -> None:
    with pytest.raises(DataError, match=r"t.md:3: unpaired '\*' or '\*\*'"):
        markup.parse([(3, "Roll **two dice and score")], "t.md")
    with pytest.raises(DataError, match=r"t.md:4: unknown inline icon ':coins:'"):
        markup.parse([(4, "Take 1 :coins: per ship")], "t.md")
    assert markup.parse([(5, "Plain words, 3 of them: fine")], "t.md") == [markup.Paragraph("Plain words, 3 of them: fine", 5)]
