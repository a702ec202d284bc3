"""Property tests: the markup parser either parses or raises a DataError with a line, never anything else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import DataError
from generator.render.documents import markup
from generator.render.documents.booklet import saddle_order
from generator.render.documents.templating import mark_lines, split_marks

PIECES = ["# T", "## H", "para", "**b**", "*i*", "*", "- item", "  cont", "1. one", "| a | b |", "|---|---|",
          "| c |", "> box", "> - in box", "::: pagebreak", "::: nope", "![x](port/tortuga)", "![x](bad)",
          "[[f]]", "| [[f]] | x |", "", "text with | bar", "::: spacer 3"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_parse_never_crashes(lines):
    numbered = list(enumerate(lines, start=1))
    try:
        blocks = markup.parse(numbered, "t.md")
    except DataError as error:
        assert error.location is not None and 1 <= error.location.line <= len(lines)
        return
    for block in blocks:
        if isinstance(block, markup.Paragraph):
            assert block.text.strip()
        assert 1 <= block.line <= max(len(lines), 1)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["text", "", "{% if x %}", "{% endif %}", "{{ y }} z", "{# c #}", "a {{ b }}"]),
                max_size=12))
def test_line_marks_survive_a_plain_pass(lines):
    """Without Jinja, marking then splitting gives back every non-blank line at its own number."""
    source = "\n".join(lines)
    back = split_marks(mark_lines(source))
    expected = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    assert [(n, t) for n, t in back if t.strip()] == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=80))
def test_saddle_order_property(pages):
    sides = saddle_order(pages)
    shown = [p for side in sides for p in side if p is not None]
    assert sorted(shown) == list(range(pages))
    assert len(sides) * 2 % 4 == 0
