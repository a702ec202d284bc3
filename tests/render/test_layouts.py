"""Layouts: bad ones fail at their file:line, good ones resolve per item, `extends` merges by name."""

from __future__ import annotations

import pytest

from generator.errors import DataError
from generator.load import load_game
from generator.render.faces.fit import layout_checks
from generator.render.faces.renderer import FaceRenderer


def write_layout(project, name: str, text: str) -> None:
    path = project.templates_dir / "layouts" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def resolve_port(project, side: str = "front"):
    game = load_game(project, "counterattack")
    component = game.component("port")
    return FaceRenderer(project).face(game, component, component.items[0], side)


BASE = """\
vars:
  paper: theme.colours.paper
elements:
  - {name: background, type: rect, bleed: true, fill: "{{ paper }}"}
"""


@pytest.mark.parametrize("body, line, words", [
    ("elements:\n  - {name: t, type: text, text: hi, colour: '#000000', sise: 9}\n", 2, "unknown key 'sise'"),
    ("elements:\n  - name: t\n    type: text\n    text: \"{{ card.name \"\n", 4, "bad Jinja template"),
    ("elements:\n  - {name: t, type: txt, text: hi}\n", 2, "did you mean 'text'"),
    ("elements:\n  - name: pic\n    type: image\n    path: ../../data/counterattack/game.yaml\n    w: 5\n    h: 5\n",
     4, "leaves templates/"),
    ("elements:\n  - {name: t, type: icon, icon: ankor, size: 5}\n", 2, "did you mean 'anchor'"),
    ("elemnts: []\n", 1, "unknown key 'elemnts'"),
    ("elements:\n  - {name: t, type: text, text: hi, font: Arial}\n", 2, "neither a shipped font"),
    ("elements:\n  - {name: t, type: rect, fill: blue}\n", 2, "must be a colour"),
])
def test_bad_layouts_fail_at_their_line(fresh_project, body, line, words) -> None:
    write_layout(fresh_project, "counterattack/port", body)
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.location is not None
    assert caught.value.location.file == "templates/layouts/counterattack/port.yaml"
    assert caught.value.location.line == line
    assert words in caught.value.message


def test_undefined_field_is_an_error_naming_the_item(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port",
                 "elements:\n  - name: t\n    type: text\n    text: \"{{ card.tricks_to_take }}\"\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.location.line == 4
    assert "port/port-royal" in caught.value.message and "tricks_to_take" in caught.value.message


def test_a_misspelt_field_names_the_field_it_likely_meant(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", "elements:\n  - {name: t, type: text, text: '{{ card.nam }}'}\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.message.endswith("the data has no 'nam' (did you mean 'name'?)")
    assert "ChainMap" not in caught.value.message and "object" not in caught.value.message


@pytest.mark.parametrize("element, said", [
    ("{name: t, type: text, text: x, size: -5}", "element 't' size must be above zero, got -5"),
    ("{name: t, type: text, text: x, size: 9, min_size: 0}", "element 't' min_size must be above zero, got 0"),
    ("{name: c, type: circle, x: 5, y: 5, r: 0}", "element 'c' r must be above zero, got 0"),
    ("{name: b, type: rect, x: 1, y: 1, w: -3, h: 4}", "element 'b' w must be zero or more, got -3"),
])
def test_a_size_that_cannot_be_drawn_is_refused_at_its_line(fresh_project, element, said) -> None:
    """A negative font size drew the text upside down, and silently."""
    write_layout(fresh_project, "counterattack/port", f"elements:\n  - {element}\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.location.line == 2 and said in caught.value.message


def test_sandbox_refuses_python_internals(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port",
                 "elements:\n  - name: t\n    type: text\n    text: \"{{ card.__class__.__mro__ }}\"\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.location.line == 4


def test_missing_layout_names_the_component_line(fresh_project) -> None:
    (fresh_project.templates_dir / "layouts" / "counterattack" / "port.yaml").unlink()
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert "not found" in caught.value.message
    assert caught.value.location.file == "data/counterattack/cards.yaml"


def test_extends_merges_elements_by_name_and_appends_new_ones(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/base2", BASE + "  - {name: title, type: text, text: x, size: 8}\n")
    write_layout(fresh_project, "counterattack/port", """\
extends: counterattack/base2
elements:
  - {name: title, text: "{{ card.name }}", size: 12}
  - {name: number, type: text, when: card.tricks > 1, text: "{{ card.tricks }}"}
  - {name: never, type: text, when: card.tricks > 100, text: hidden}
""")
    face = resolve_port(fresh_project)
    names = [e.name for e in face.elements]
    assert names == ["background", "title", "number"]
    title = face.elements[1]
    assert title.get("text") == "Port Royal" and title.get("size") == 12.0
    assert face.elements[0].get("fill") == "#f4ead5"


def test_extends_cycle_is_refused(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/a", "extends: counterattack/port\nelements: []\n")
    write_layout(fresh_project, "counterattack/port", "extends: counterattack/a\nelements: []\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert "extends itself" in caught.value.message


def test_layout_checks_pass_on_the_real_layouts(ca_project, ca_game) -> None:
    checks = layout_checks(ca_game, ca_project)
    assert checks and all(c.ok for c in checks), [c for c in checks if not c.ok]


@pytest.mark.slow
def test_text_that_does_not_fit_fails_validation_at_its_line(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + """\
  - name: rule
    type: textbox
    x: 5
    y: 60
    w: 20
    h: 8
    size: 10
    min_size: 8
    text: "{{ card.name }} is a very long story about a port that never ends, and then some more words."
""")
    game = load_game(fresh_project, "counterattack")
    failed = [c for c in layout_checks(game, fresh_project) if not c.ok]
    assert len(failed) == 1
    assert failed[0].location.file == "templates/layouts/counterattack/port.yaml"
    assert failed[0].location.line == 13
    assert "port/port-royal" in failed[0].actual


def test_layout_check_reports_a_broken_layout_instead_of_raising(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", "elements:\n  - {name: t, type: text, text: '{{ card.nope }}'}\n")
    game = load_game(fresh_project, "counterattack")
    failed = [c for c in layout_checks(game, fresh_project) if not c.ok]
    assert len(failed) == 1 and failed[0].location.line == 2


def test_every_real_layout_renders_and_fits_for_every_item(project) -> None:
    """The shipped layouts against the shipped data of all games: nothing missing, nothing overflowing."""
    from generator.load import load_games

    failed = [c for game in load_games(project) for c in layout_checks(game, project) if not c.ok]
    assert not failed, "\n".join(f"{c.location}: {c.name}: {c.actual}" for c in failed)


def test_inline_icons_are_drawn_inside_text_boxes(fresh_project) -> None:
    import io

    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.faces.draw import draw_face

    write_layout(fresh_project, "counterattack/port", BASE + """\
  - {name: rule, type: textbox, x: 5, y: 50, w: 50, h: 20, size: 10, text: "Take :coin: **now**"}
""")
    face = resolve_port(fresh_project)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, initialFontName="Sans")
    draw_face(canvas, face, 0)
    canvas.save()
    page = PdfReader(io.BytesIO(buffer.getvalue())).pages[0]
    text = page.extract_text()
    assert "Take" in text and "now" in text and ":coin:" not in text
    from generator.render.faces.icons import icon_set

    coin = icon_set(fresh_project, "counterattack").icon("coin", None)
    assert coin.source == "templates/icons/coin.svg"  # drawn from the project's SVG file
    assert coin.operators().encode() in page.get_contents().get_data()


def test_images_resolve_inside_templates(fresh_project) -> None:
    from PIL import Image

    folder = fresh_project.templates_dir / "images"
    folder.mkdir()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(folder / "flag.png")
    write_layout(fresh_project, "counterattack/port", BASE + "  - {name: pic, type: image, path: images/flag.png, x: 5, y: 5, w: 10, h: 10}\n")
    face = resolve_port(fresh_project)
    picture = face.elements[-1].get("path")  # the image's bytes travel with the face, keyed by their digest
    assert picture.path == "templates/images/flag.png"
    assert picture.data == (folder / "flag.png").read_bytes() and (picture.width, picture.height) == (4, 4)
    write_layout(fresh_project, "counterattack/port", BASE + "  - {name: pic, type: image, path: images/nope.png, x: 5, y: 5, w: 10, h: 10}\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert "not found" in caught.value.message and caught.value.location.line == 5


def test_face_flowable_draws_a_card_in_a_story(ca_project, ca_game) -> None:
    import io

    from pypdf import PdfReader
    from reportlab.platypus import SimpleDocTemplate

    from generator.render.faces.renderer import face_flowable

    component = ca_game.component("port")
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, initialFontName="Sans")
    flowable = face_flowable(ca_game, component, component.item("tortuga"), "front", ca_project, width=90)
    assert flowable.wrap(500, 500) == pytest.approx((90, 90 * 88 / 63))
    doc.build([flowable])
    assert "Tortuga" in PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text()


def test_rows_and_cols_repeat_an_element_with_row_and_col_in_scope(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + """\
  - {name: cell, type: rect, rows: 2, cols: "{{ card.tricks }}", x: "{{ col * 5 }}", y: "{{ row * 7 }}", w: 4, h: 6}
""")
    face = resolve_port(fresh_project)  # port-royal: tricks 2
    cells = [e for e in face.elements if e.name.startswith("cell")]
    assert [e.name for e in cells] == ["cell[0,0]", "cell[0,1]", "cell[1,0]", "cell[1,1]"]
    assert [(e.get("x"), e.get("y")) for e in cells] == [(0.0, 0.0), (5.0, 0.0), (0.0, 7.0), (5.0, 7.0)]


def test_a_repeat_count_must_be_a_small_whole_number(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port", BASE + """\
  - {name: cell, type: rect, rows: 2.5, w: 4, h: 6}
""")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.location.line == 5
    assert "rows must be a whole number 0..400, got 2.5" in caught.value.message


def test_when_on_a_missing_field_is_an_error_at_its_line(fresh_project) -> None:
    write_layout(fresh_project, "counterattack/port",
                 "elements:\n  - name: t\n    type: text\n    text: hi\n    when: card.flagged\n")
    with pytest.raises(DataError) as caught:
        resolve_port(fresh_project)
    assert caught.value.location.line == 5
    assert "port/port-royal" in caught.value.message and "flagged" in caught.value.message
