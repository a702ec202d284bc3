"""Text that fits: `fit: shrink` picks the largest size that fits the box, long words break with a hyphen
and never leave the box, and what still does not fit at `min_size` fails `pnp validate` at its lines."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas

from generator.errors import DataError
from generator.load import load_game
from generator.render.base.fonts import register_fonts
from generator.render.base.units import pt
from generator.render.faces.draw import draw_face
from generator.render.faces.fit import layout_checks
from generator.render.faces.layout import Element, Face
from generator.render.faces.text import SHRINK_STEP, set_text
from tests.render.test_layouts import BASE, resolve_port, write_layout

register_fonts()
LONG_WORD = "Supercalifragilisticexpialidociousnesses"  # 40 letters


def fits(setting, width: float, height: float) -> bool:
    block = setting.size + setting.leading * (len(setting.lines) - 1)
    return all(line.width <= width + 1e-6 for line in setting.lines) and block <= height + 1e-6


def test_the_largest_size_that_fits_is_chosen() -> None:
    text = "Take one gold for every adjacent active ship, then pass the lantern to your left."
    setting = set_text(text, "Sans", "Sans-Bold", 12, 5, 1.2, 100, 40)
    assert setting.fits and fits(setting, 100, 40) and 5 <= setting.size < 12
    larger = set_text(text, "Sans", "Sans-Bold", setting.size + SHRINK_STEP, setting.size + SHRINK_STEP, 1.2, 100, 40)
    assert not larger.fits  # one step up would not fit: the search stopped at the largest size
    assert set_text(text, "Sans", "Sans-Bold", 12, 5, 1.2, 100, 40) == setting  # deterministic


def test_a_40_letter_word_is_broken_with_hyphens_and_stays_in_the_box() -> None:
    setting = set_text(f"Beware the {LONG_WORD} kraken", "Sans", "Sans-Bold", 9, 9, 1.2, 60, 200)
    assert setting.fits and setting.broken and setting.size == 9
    assert all(line.width <= 60 + 1e-6 for line in setting.lines)
    pieces = ["".join(p.text for p in word) for line in setting.lines for word in line.words]
    broken = [p for p in pieces if p.rstrip("-") not in ("Beware", "the", "kraken")]
    assert len(broken) >= 3 and all(p.endswith("-") for p in broken[:-1]) and not broken[-1].endswith("-")
    assert "".join(p.rstrip("-") for p in broken) == LONG_WORD


def test_whole_words_are_preferred_to_a_larger_broken_size() -> None:
    # at 9 pt the word is wider than the box; shrinking keeps it whole, so shrinking wins
    setting = set_text(LONG_WORD, "Sans", "Sans-Bold", 9, 5, 1.2, 120, 40)
    assert setting.fits and not setting.broken and setting.size < 9


def test_a_long_word_on_a_card_never_runs_out_of_its_box() -> None:
    box = {"x": 5.0, "y": 10.0, "w": 25.0, "h": 40.0}
    element = Element("textbox", "rule", tuple(sorted({
        "text": f"A {LONG_WORD} sails in", "size": 9.0, "min_size": 7.0, "font": "Sans", **box}.items())))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(pt(63), pt(88)), invariant=1)
    draw_face(canvas, Face(63, 88, "rect", 0, (element,)), 0)
    canvas.showPage()
    canvas.save()
    page = pdfium.PdfDocument(out.getvalue())[0]
    texts = [obj.get_bounds() for obj in page.get_objects() if obj.type == 1]
    assert len(texts) >= 4
    left, right = pt(box["x"]), pt(box["x"] + box["w"])
    assert all(left - 0.5 <= x0 and x1 <= right + 0.5 for x0, _y0, x1, _y1 in texts)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", min_size=1, max_size=45),
                      min_size=1, max_size=25),
       width=st.floats(30, 200), height=st.floats(12, 120), size=st.sampled_from([8.0, 9.5, 12.0]),
       icons=st.booleans())
def test_the_chosen_size_fits_the_box_whenever_anything_does(words, width, height, size, icons) -> None:
    text = " ".join(f"{w} :coin:" if icons and i % 3 == 0 else w for i, w in enumerate(words))
    setting = set_text(text, "Serif", "Serif-Bold", size, 5.0, 1.2, width, height)
    assert 5.0 <= setting.size <= size
    assert all(line.width <= width + 1e-6 for line in setting.lines)  # words are broken, never overflow
    if setting.fits:
        assert fits(setting, width, height)
    else:
        assert setting.size == 5.0  # gave up only at the minimum
    if setting.size < size and setting.fits and not setting.broken:
        above = set_text(text, "Serif", "Serif-Bold", setting.size + SHRINK_STEP, setting.size + SHRINK_STEP,
                         1.2, width, height)
        assert not (above.fits and not above.broken)  # the next size up does not fit whole


def test_fit_none_keeps_the_size_and_validate_reports_the_overflow(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + """\
  - name: rule
    type: textbox
    x: 5
    y: 60
    w: 20
    h: 8
    size: 10
    min_size: 6
    fit: none
    text: "{{ card.name }} is a very long story about a port."
""")
    game = load_game(fresh_project, "counterattack")
    (element,) = [e for e in resolve_port(fresh_project).elements if e.name == "rule"]
    assert element.get("fit") == "none"
    failed = [c for c in layout_checks(game, fresh_project) if not c.ok]
    assert len(failed) == 1 and str(failed[0].location) == "templates/layouts/counterattack/port.yaml:14"
    assert "even at 10 pt" in failed[0].actual
    assert "port/port-royal (data/counterattack/cards.yaml:18) and every other" in failed[0].actual


def test_text_too_long_for_some_cards_fails_at_those_items_naming_the_box(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + """\
  - {name: rule, type: textbox, x: 5, y: 60, w: 30, h: 9, size: 10, min_size: 8, fit: shrink, text: "{{ card.name }}"}
""")
    path = fresh_project.data_dir / "counterattack" / "cards.yaml"
    path.write_text(path.read_text().replace("name: Nassau,", "name: Nassau the long forgotten harbour of kings,"))
    failed = [c for c in layout_checks(load_game(fresh_project, "counterattack"), fresh_project) if not c.ok]
    assert [str(c.location) for c in failed] == ["data/counterattack/cards.yaml:20"]
    assert "on port/nassau (box at templates/layouts/counterattack/port.yaml:5)" in failed[0].actual


@pytest.mark.parametrize(("element", "words"), [
    ("{name: t, type: textbox, w: 20, h: 8, fit: shrink, text: hi}", "has 'fit: shrink' but no 'min_size'"),
    ("{name: t, type: textbox, w: 20, h: 8, fit: squeeze, min_size: 6, text: hi}",
     "fit must be one of shrink, none, got 'squeeze'"),
])
def test_bad_fit_settings_fail_at_their_line(fresh_project, element: str, words: str) -> None:
    write_layout(fresh_project, "counterattack/port", f"elements:\n  - {element}\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert words in caught.value.message and caught.value.location.line == 2


def test_fit_shrink_on_a_one_line_text_needs_its_width(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", "elements:\n  - {name: t, type: text, text: hi, fit: shrink, "
                                                      "min_size: 6}\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert "has 'fit: shrink' but no 'max_width'" in caught.value.message and caught.value.location.line == 2
