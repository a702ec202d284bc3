"""Inline icons in card and rulebook text, read back from the PDFs: drawn at the text's size, standing on
the baseline, in the text's colour or their own, counted by the wrap; unknown names fail at file:line."""

from __future__ import annotations

import ctypes
import io

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.errors import DataError
from generator.load import load_game
from generator.project import Project
from generator.render.base.fonts import register_fonts
from generator.render.documents import markup
from generator.render.documents.iconpara import IconParagraph
from generator.render.faces.draw import draw_face
from generator.render.faces.fit import layout_checks
from generator.render.faces.icons import icon_set
from generator.render.faces.layout import Element, Face
from generator.render.faces.text import ICON_SCALE, Piece, parse, set_text
from tests.helpers import REPO, edit, shipped_icon
from tests.render.test_layouts import BASE, write_layout

register_fonts()
SHIPPED = icon_set(Project.at(REPO), "")  # the shipped icons, templates/icons/
PATH, TEXT, IMAGE = 2, 1, 3  # pdfium page object types


def objects(pdf: bytes) -> list[tuple[int, tuple[float, ...], tuple[float, ...], str, tuple[int, ...]]]:
    """(type, bounds, matrix, text, fill rgb) of every object on page 1."""
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    textpage = page.get_textpage()
    out = []
    for obj in page.get_objects(max_depth=5):
        bounds = tuple(obj.get_bounds())
        text = textpage.get_text_bounded(*bounds).strip() if obj.type == TEXT else ""
        rgba = [ctypes.c_uint() for _ in range(4)]
        pdfium_c.FPDFPageObj_GetFillColor(obj.raw, *(ctypes.byref(v) for v in rgba))
        out.append((obj.type, bounds, tuple(obj.get_matrix().get()), text, tuple(v.value for v in rgba[:3])))
    return out


def card_pdf(text: str, size: float = 10.0, colour: str = "#000000", w: float = 50.0) -> bytes:
    element = Element("textbox", "rule", tuple(sorted({
        "text": text, "x": 5.0, "y": 5.0, "w": w, "h": 30.0, "size": size, "font": "Sans", "colour": colour,
        "inline_icons": (shipped_icon("coin"),)}.items())))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(63 * 72 / 25.4, 88 * 72 / 25.4), invariant=1)
    draw_face(canvas, Face(63, 88, "rect", 0, (element,)), 0)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("size", [7.0, 10.0, 14.0])
def test_a_card_icon_stands_on_the_baseline_at_text_size_and_the_words_keep_their_places(size: float) -> None:
    found = objects(card_pdf("Take 1 :coin: per ship", size))
    words = {text: matrix for kind, _b, matrix, text, _c in found if kind == TEXT}
    (icon,) = [(bounds, matrix) for kind, bounds, matrix, _t, _c in found if kind == PATH]
    bounds, matrix = icon
    baseline = words["Take"][5]
    assert {m[5] for m in words.values()} == {baseline}  # one line, one baseline
    side = size * ICON_SCALE
    assert matrix[0] == pytest.approx(side / 100)  # the 100-unit icon box scaled to one em
    assert matrix[5] - side / 2 == pytest.approx(baseline, abs=1e-3)  # its box's foot on the baseline
    assert bounds[1] == pytest.approx(baseline + 0.02 * side, abs=0.01)  # the coin's rim (radius 48 of 50)
    space = stringWidth(" ", "Sans", size)
    left = words["1"][4] + stringWidth("1", "Sans", size) + space
    assert matrix[4] == pytest.approx(left + side / 2, abs=1e-3)
    assert words["per"][4] == pytest.approx(left + side + space, abs=1e-3)
    assert words["ship"][4] == pytest.approx(words["per"][4] + stringWidth("per ", "Sans", size), abs=1e-3)


def test_an_icon_takes_the_text_colour_or_its_own() -> None:
    inked = [c for kind, _b, _m, _t, c in objects(card_pdf("Pay :coin:", colour="#1f3b57")) if kind == PATH]
    own = [c for kind, _b, _m, _t, c in objects(card_pdf("Pay :coin#c9a227:", colour="#1f3b57")) if kind == PATH]
    assert inked == [(0x1F, 0x3B, 0x57)] and own == [(0xC9, 0xA2, 0x27)]
    assert parse("a :coin#abc: b", {"coin"})[0][1][0].colour == "#abc"


def test_the_wrap_counts_an_icon_as_one_em() -> None:
    size, width = 10.0, stringWidth("Take 1", "Sans", 10.0) + 1
    setting = set_text("Take 1 :coin:", "Sans", "Sans-Bold", size, size, 1.2, width, 100, frozenset({"coin"}))
    assert [len(line.words) for line in setting.lines] == [2, 1]
    wide = width + stringWidth(" ", "Sans", size) + size * ICON_SCALE
    assert len(set_text("Take 1 :coin:", "Sans", "Sans-Bold", size, size, 1.2, wide, 100, frozenset({"coin"})).lines) == 1
    lettered = set_text("Take 1 :coin:", "Sans", "Sans-Bold", size, size, 1.2, 1000, 100)  # no icon named: letters
    assert lettered.lines[0].words[-1] == (Piece(":coin:", False),)


def test_a_rulebook_icon_is_a_picture_one_em_square_on_the_baseline_in_the_text_colour() -> None:
    from reportlab.lib.colors import HexColor
    from reportlab.lib.styles import ParagraphStyle

    style = ParagraphStyle("t", fontName="Serif", fontSize=12, leading=15, textColor=HexColor("#1f3b57"))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(400, 200), invariant=1)
    paragraph = IconParagraph(markup.inline_to_para("Take **1** :coin: per ship"), style, icons=SHIPPED)
    paragraph.wrapOn(canvas, 300, 100)
    paragraph.drawOn(canvas, 20, 100)
    canvas.showPage()
    canvas.save()
    found = objects(out.getvalue())
    runs = {text: matrix for kind, _b, matrix, text, _c in found if kind == TEXT and text}
    (picture,) = [bounds for kind, bounds, _m, _t, _c in found if kind == IMAGE]
    assert picture[1] == pytest.approx(runs["Take"][5], abs=1e-3)  # foot on the baseline
    assert picture[3] - picture[1] == pytest.approx(12) and picture[2] - picture[0] == pytest.approx(12)
    bold_one_end = runs["1"][4] + stringWidth("1", "Serif-Bold", 12)
    assert picture[0] == pytest.approx(bold_one_end + stringWidth(" ", "Serif", 12), abs=0.01)
    assert runs["per ship"][4] == pytest.approx(picture[2], abs=0.01)  # the run ' per ship' starts at its right
    document = pdfium.PdfDocument(out.getvalue())
    (image,) = [o for o in document[0].get_objects() if o.type == IMAGE]
    pixels = image.get_bitmap(render=False).to_pil().convert("RGB")
    assert pixels.getpixel((pixels.width // 2, pixels.height * 6 // 128)) == (0x1F, 0x3B, 0x57)  # the coin's rim
    assert markup.plain("Take :coin: now") == "Take  now"


def test_an_unknown_icon_in_a_rulebook_is_an_error_at_its_line_with_suggestions() -> None:
    with pytest.raises(DataError) as caught:
        markup.parse([(1, "# Rules"), (3, "Take 1 :coinn: per ship.")], "templates/rulebooks/x.md.j2", SHIPPED.names)
    assert str(caught.value).startswith("templates/rulebooks/x.md.j2:3: unknown inline icon ':coinn:'; "
                                        "did you mean :coin:")


def test_an_unknown_icon_on_a_card_fails_validation_where_it_was_written(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + """\
  - name: rule
    type: textbox
    x: 5
    y: 60
    w: 50
    h: 20
    text: "{{ card.name }} :anchr: ahoy"
""")
    edit(fresh_project.data_dir / "counterattack" / "cards.yaml", "name: Tortuga,", "name: \"Tortuga :skul:\",")
    game = load_game(fresh_project, "counterattack")
    failed = {str(c.location): c.actual for c in layout_checks(game, fresh_project) if not c.ok}
    # the layout wrote ':anchr:' (line 11, once for all cards); the data wrote ':skul:' (Tortuga's line)
    assert set(failed) == {"templates/layouts/counterattack/port.yaml:11", "data/counterattack/cards.yaml:19"}
    assert "unknown inline icon ':anchr:'; did you mean :anchor:" in failed["templates/layouts/counterattack/port.yaml:11"]
    assert "tortuga: unknown inline icon ':skul:'; did you mean :skull:" in failed["data/counterattack/cards.yaml:19"]


def test_an_icon_in_a_one_line_text_element_is_flagged_once(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + "  - {name: t, type: text, x: 5, y: 9, "
                                                             "text: 'Port :anchor: {{ card.name }}'}\n")
    game = load_game(fresh_project, "counterattack")
    failed = [c for c in layout_checks(game, fresh_project) if not c.ok]
    assert len(failed) == 1 and str(failed[0].location) == "templates/layouts/counterattack/port.yaml:5"
    assert "':anchor:' would print as letters in a one-line text element; make it a textbox" in failed[0].actual
