"""Preflight: text and icons keep inside the safe zone and declared frames, reported at the layout's file:line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import DataError
from generator.load import load_game
from generator.project import Project
from generator.render.base.units import MM
from generator.render.faces.layout import Element, Face, back_layout
from generator.render.faces.preflight import Measurements, preflight_checks, problems
from generator.render.faces.renderer import FaceRenderer, renderer
from tests.helpers import edit, shipped_icon
from tests.render.test_layouts import write_layout

PORT = "counterattack/port"


def failing(project: Project, game_id: str = "counterattack") -> list[tuple[str, str, str]]:
    return [(c.name, str(c.location), c.actual) for c in preflight_checks(load_game(project, game_id), project)
            if not c.ok]


def test_every_face_of_the_four_games_passes_preflight(project: Project) -> None:
    faces = renderer(project)
    checked = 0
    for game_id in ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire"):
        game = load_game(project, game_id)
        for component in (c for c in game.components if c.printable):
            for side in ("front", "back") if back_layout(component) else ("front",):
                for item in component.items:
                    face = faces.face(game, component, item, side)
                    assert problems(face, component.safe) == [], (game_id, component.id, item.id, side)
                    checked += 1
        assert all(c.ok for c in preflight_checks(game, project))
    assert checked > 400  # every side of every item, not a sample


def test_text_near_the_trim_fails_at_its_layout_line(fresh_project: Project) -> None:
    write_layout(fresh_project, PORT, "elements:\n"
                 "  - {name: ok, type: text, x: 31.5, y: 40, align: centre, text: Fine, size: 9}\n"
                 "  - {name: edge, type: text, x: 1.5, y: 40, text: Close, size: 9}\n")
    found = failing(fresh_project)
    assert len(found) == 1
    name, where, actual = found[0]
    assert where == "templates/layouts/counterattack/port.yaml:3"
    assert "'edge'" in name and "reaches 1.50 mm past the safe zone (3 mm inside the trim)" in actual
    assert "and 5 more faces" in actual  # six port cards, one line to fix


def test_an_icon_across_a_declared_frame_is_reported(fresh_project: Project) -> None:
    write_layout(fresh_project, PORT, "elements:\n"
                 "  - {name: border, type: rect, x: 8, y: 8, stroke: '#000000', stroke_width: 2.8346, frame: true}\n"
                 "  - {name: star, type: icon, icon: square, x: 12, y: 44, size: 10}\n")
    (_, where, actual), = failing(fresh_project)
    assert where == "templates/layouts/counterattack/port.yaml:3"
    # the square's art is 7.6 mm wide: its left edge at 8.2 mm, the frame's inner edge at 8 + 0.5 mm
    assert "inner edge of frame 'border'" in actual and "reaches 0.30 mm" in actual


@pytest.mark.slow
def test_the_safe_zone_is_set_per_component_in_the_data(fresh_project: Project) -> None:
    write_layout(fresh_project, PORT, "elements:\n  - {name: t, type: text, x: 4, y: 40, text: Fine, size: 9}\n")
    assert failing(fresh_project) == []
    edit(fresh_project.data_dir / "counterattack" / "cards.yaml", "    front: counterattack/port\n",
         "    front: counterattack/port\n    safe: 5\n")
    (_, _, actual), = failing(fresh_project)
    assert "reaches 1.00 mm past the safe zone (5 mm inside the trim)" in actual


@pytest.mark.parametrize("value", ["-1", "wide", "true", "25"])
def test_a_bad_safe_value_is_refused_at_its_line(fresh_project: Project, value: str) -> None:
    edit(fresh_project.data_dir / "counterattack" / "cards.yaml", "    front: counterattack/port\n",
         f"    front: counterattack/port\n    safe: {value}\n")
    with pytest.raises(DataError) as caught:
        load_game(fresh_project, "counterattack")
    assert str(caught.value.location) == "data/counterattack/cards.yaml:8"
    assert "safe" in caught.value.message


def test_a_mirrored_element_is_checked_in_both_places(fresh_project: Project) -> None:
    # the frame box covers the top left only: the icon is inside it, its rotated copy (at 63-18, 88-18) is not
    write_layout(fresh_project, PORT, "elements:\n"
                 "  - {name: box, type: rect, x: 8, y: 8, w: 20, h: 20, stroke: '#000000', frame: true}\n"
                 "  - {name: idx, type: icon, icon: square, x: 18, y: 18, size: 5, mirror: true}\n")
    (name, where, actual), = failing(fresh_project)
    assert "'idx'" in name and "inner edge of frame 'box'" in actual
    assert where == "templates/layouts/counterattack/port.yaml:3"


def test_icon_extent_reads_the_drawn_art() -> None:
    assert shipped_icon("square").extent()[:4] == pytest.approx((-38, -38, 38, 38), abs=1e-4)
    assert shipped_icon("circle").extent()[4] == pytest.approx(42, abs=0.02)  # sampled curves stay on the circle


def face_with(element: Element, shape: str = "rect") -> Face:
    return Face(50.0, 50.0, shape, 0.0, (element,))


@settings(max_examples=60, deadline=None)
@given(x=st.floats(0, 50), y=st.floats(0, 50), size=st.floats(1, 20))
def test_a_square_icon_fails_exactly_when_it_leaves_the_safe_zone(x: float, y: float, size: float) -> None:
    icon = Element("icon", "sq", (("icon", shipped_icon("square")), ("size", size), ("x", x), ("y", y)))
    half = size * 0.38
    inside = min(x, y) - half >= 3 - 1e-6 and max(x, y) + half <= 47 + 1e-6
    assert (problems(face_with(icon), 3.0) == []) == inside


ICONS = st.builds(lambda x, y, size, mirror: Element("icon", "i", (("icon", shipped_icon("square")), ("mirror", mirror),
                                                                   ("size", size), ("x", x), ("y", y))),
                  st.sampled_from([4.0, 10.0, 25.0, 46.0]), st.sampled_from([4.0, 25.0, 38.0]),
                  st.sampled_from([2.0, 8.0]), st.booleans())
FRAME = Element("rect", "frame", (("frame", True), ("stroke", "#000000"), ("stroke_width", 2.0), ("x", 5.0),
                                  ("y", 5.0)))
FACES = st.builds(lambda width, shape, framed, icons: Face(width, 50.0, shape, 0.0, ((FRAME,) if framed else ())
                                                           + tuple(icons)),
                  st.sampled_from([40.0, 50.0]), st.sampled_from(["rect", "circle"]), st.booleans(),
                  st.lists(ICONS, max_size=3))


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(faces=st.lists(FACES, min_size=1, max_size=6), safe=st.sampled_from([3.0, 4.0]))
def test_measuring_each_element_once_finds_what_measuring_every_face_finds(faces: list[Face], safe: float) -> None:
    measured = Measurements()  # shared, as one validation shares it over a component side
    for face in faces:
        assert problems(face, safe, measured) == problems(face, safe)
    distinct = {(e, f.width, f.shape, any(x.get("frame") for x in f.elements)) for f in faces for e in f.elements
                if e.type == "icon"}
    assert len(measured.problems) <= len(distinct)


@settings(max_examples=60, deadline=None)
@given(x=st.floats(0, 50), y=st.floats(0, 50), size=st.floats(1, 20))
def test_a_round_icon_on_a_round_face_is_measured_as_a_disc(x: float, y: float, size: float) -> None:
    icon = Element("icon", "dot", (("icon", shipped_icon("circle")), ("size", size), ("x", x), ("y", y)))
    reach = ((x - 25) ** 2 + (y - 25) ** 2) ** 0.5 + size * 0.42
    if abs(reach - 22) > 0.01:  # away from the boundary, where sampling rounds
        assert (problems(face_with(icon, "circle"), 3.0) == []) == (reach < 22)


def test_text_box_is_the_drawn_width(project: Project) -> None:
    from generator.render.faces.glyphs import text_width

    FaceRenderer(project)  # registers the fonts
    width = text_width("HELLO", "Sans", 10) / MM
    text = Element("text", "t", (("align", "right"), ("font", "Sans"), ("size", 10.0), ("text", "HELLO"),
                                 ("x", 47.0 + 0.5), ("y", 25.0)))
    (problem,) = problems(face_with(text), 3.0)
    assert problem.by == pytest.approx(0.5)
    moved = Element("text", "t", (("align", "right"), ("font", "Sans"), ("size", 10.0), ("text", "HELLO"),
                                  ("x", 3.0 + width + 0.01), ("y", 25.0)))
    assert problems(face_with(moved), 3.0) == []


def test_burning_sides_of_a_fleet_are_identical(project: Project) -> None:
    from generator.render.exports.raster import faces_pdf

    game = load_game(project, "pirates-under-fire")
    ships = game.component("ship")
    faces = renderer(project)
    for fleet in ("red", "blue"):
        burning = [faces.face(game, ships, item, "back") for item in ships.items if item.fields["fleet"] == fleet]
        assert len(burning) == 9
        assert len(set(burning)) == 1, "a burning side tells ships apart"
        pdfs = {faces_pdf([face], 3.0) for face in burning}
        assert len(pdfs) == 1
        shown = " ".join(str(e.get("text")) for e in burning[0].elements if e.type in ("text", "textbox"))
        assert shown == "ON FIRE"


def test_pnp_validate_refuses_a_face_past_the_safe_zone(fresh_project: Project) -> None:
    from click.testing import CliRunner

    from generator.cli import cli

    write_layout(fresh_project, PORT, "elements:\n  - {name: edge, type: icon, icon: anchor, x: 61, y: 40, size: 6}\n")
    result = CliRunner().invoke(cli, ["--root", str(fresh_project.root), "validate", "counterattack"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "element 'edge'" in line and ".yaml:" in line]
    assert lines and lines[-1].strip().startswith("templates/layouts/counterattack/port.yaml:2:")
    assert "Traceback" not in result.output
