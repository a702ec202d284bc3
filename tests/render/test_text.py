"""The typesetter: wrapping, bold runs, inline icons, shrink-to-fit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render.base.fonts import register_fonts
from generator.render.faces.text import fit_line, parse, set_text, unknown_icons

register_fonts()


def test_parse_bold_and_icons() -> None:
    paragraphs = parse("Take **2** :coin: now\nnext", {"coin"})
    assert len(paragraphs) == 2
    words = paragraphs[0]
    assert words[1][0].bold and words[1][0].text == "2"
    assert words[2][0].icon == "coin"
    assert unknown_icons("a :coin: and :doubloon:", {"coin"}) == ["doubloon"]


def test_short_text_keeps_its_size_and_long_text_shrinks() -> None:
    short = set_text("Take one gold.", "Sans", "Sans-Bold", 9, 6, 1.2, 100, 30)
    assert short.fits and short.size == 9 and len(short.lines) == 1
    long = set_text("word " * 40, "Sans", "Sans-Bold", 9, 5, 1.2, 100, 40)
    assert long.fits and long.size < 9
    hopeless = set_text("word " * 400, "Sans", "Sans-Bold", 9, 8, 1.2, 100, 40)
    assert not hopeless.fits and hopeless.size == 8


def test_single_line_shrinks_to_max_width() -> None:
    size, fits = fit_line("Blackwater Cove", "Display", 20, 10, 100)
    assert fits and size < 20
    assert fit_line("Blackwater Cove", "Display", 20, 20, 100) == (20, False)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=8), min_size=1, max_size=30),
       st.floats(40, 200))
def test_wrapped_lines_never_exceed_the_width_when_words_fit(words, width) -> None:
    setting = set_text(" ".join(words), "Serif", "Serif-Bold", 8, 8, 1.2, width, 1000)
    if setting.widest <= width:
        assert all(line.width <= width + 1e-6 for line in setting.lines)
    assert sum(len(line.words) for line in setting.lines) == len(words)
