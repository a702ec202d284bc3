"""Face forms drawn once and replayed into the next sheet (stamps.py) give the very bytes drawing them would."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.pdfdoc import PDFFormXObject, pdfdocEnc
from reportlab.pdfgen.canvas import Canvas

from generator.load import load_games
from generator.project import Project
from generator.render.base.fonts import register_fonts
from generator.render.base.units import PAPERS, pt
from generator.render.faces.draw import draw_face
from generator.render.faces.layout import Element, Face
from generator.render.faces.renderer import FaceRenderer
from generator.render.faces.stamps import FormStore, _StoredForm, pdfdoc_bytes
from generator.render.sheets.imposition import _Forms, impose
from generator.render.sheets.options import SheetOptions

register_fonts()


@pytest.mark.slow
def test_every_sheet_drawn_after_another_paper_is_byte_identical_and_replayed(project: Project) -> None:
    shared = FaceRenderer(project)
    replayed = 0
    for game in load_games(project):
        for component in game.components:
            if component.kind not in ("card", "tile", "token") or component.sheet == "mixed":
                continue
            impose(shared, game, component, SheetOptions(paper=PAPERS["a4"]))
            before = shared.forms.replayed
            letter = impose(shared, game, component, SheetOptions(paper=PAPERS["letter"]))
            replayed += shared.forms.replayed - before
            fresh = impose(FaceRenderer(project), game, component, SheetOptions(paper=PAPERS["letter"]))
            assert letter.pdf == fresh.pdf, f"{game.id} {component.id}"
    assert replayed > 100  # the letter sheets really came from recordings, not from drawing


def _face(words: tuple[tuple[str, str], ...]) -> Face:
    elements = tuple(Element("text", f"t{i}", (("text", text), ("font", font), ("size", 9.0), ("x", 3.0),
                                               ("y", 5.0 + 6 * i), ("colour", "#203040")))
                     for i, (font, text) in enumerate(words))
    return Face(63.0, 88.0, "rect", 3.0, (Element("rect", "bg", (("fill", "#eeddcc"), ("bleed", True))), *elements))


def _sheet(faces: list[Face], store: FormStore | None) -> bytes:
    """Every face as a form placed once, in order, three to a page: what `impose` does, reduced.

    With no store, the plain ReportLab way (beginForm, draw, endForm): what the store must reproduce."""
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(600, 800), invariant=1, pageCompression=1, initialFontName="Sans",
               initialFontSize=9)
    forms = _Forms(c, 3.0, store or FormStore())
    names: dict[Face, str] = {}
    for index, face in enumerate(faces):
        if store is None and face not in names:
            name = names[face] = f"face{len(names)}"
            c.beginForm(name, lowerx=-pt(3), lowery=-pt(3), upperx=pt(face.width + 3), uppery=pt(face.height + 3))
            draw_face(c, face, 3.0)
            c.endForm()
        c.doForm(forms.name(face) if store is not None else names[face])
        if index % 3 == 2:
            c.showPage()
    if store is None:
        c.save()
    else:
        store.save(c)
    return buffer.getvalue()


# Accented, Greek and Cyrillic letters: new codes in a font's subset, and the fallback font (DejaVu) for
# what the chosen font lacks; so each document's font state depends on what it drew before.
TEXT = st.text(alphabet="abcXYZ 0é’ßŁΩλжЖ★", min_size=0, max_size=6)
FACES = st.lists(st.tuples(st.sampled_from(["Sans", "Display", "Serif-Bold"]), TEXT), min_size=1, max_size=3)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(first=st.lists(FACES, min_size=1, max_size=5), second=st.lists(FACES, min_size=1, max_size=5),
       shared=st.lists(FACES, min_size=0, max_size=3))
def test_replay_is_byte_identical_whatever_was_drawn_before(first, second, shared) -> None:
    """Two documents drawing partly the same faces in any order: the second is the same as drawn afresh."""
    one = [_face(tuple(f)) for f in shared + first]
    two = [_face(tuple(f)) for f in shared + second + first]
    store = FormStore()
    assert _sheet(one, store) == _sheet(one, None)
    assert _sheet(two, store) == _sheet(two, None)
    assert store.replayed >= len({*map(tuple, shared)})  # the common beginning was replayed, not drawn


def test_a_drawing_that_touches_more_than_fonts_is_drawn_every_time() -> None:
    """Transparency lands in the form's resources: such a face is not recorded, and still comes out right."""
    def draw(c: Canvas) -> None:
        c.setFillAlpha(0.5)
        c.rect(0, 0, 10, 10, fill=1)

    def document(store: FormStore) -> bytes:
        buffer = io.BytesIO()
        c = Canvas(buffer, invariant=1, pageCompression=0)
        store.form(c, "f", (0, 0, None, None), "face", lambda: draw(c))
        c.doForm("f")
        c.save()
        return buffer.getvalue()

    store = FormStore()
    assert document(store) == document(store) == document(FormStore())
    assert store.replayed == 0
    assert b"/gRLs0 gs" in document(store)  # the drawing's own graphics state, drawn each time


def test_a_face_with_a_picture_is_drawn_in_every_sheet_and_comes_out_right() -> None:
    """A picture is an object of its own in the PDF, so its face is never replayed; the sheets stay exact."""
    from PIL import Image

    from generator.render.faces.images import Picture

    png = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 30, 40)).save(png, "PNG")
    picture = Picture("flag.png", "digest", 4, 3, png.getvalue())
    flagged = Face(63.0, 88.0, "rect", 3.0, (Element("image", "flag", (("path", picture), ("x", 5.0), ("y", 5.0),
                                                                     ("w", 20.0), ("h", 15.0))),))
    faces = [_face((("Sans", "Port Royal"),)), flagged, _face((("Display", "Tortuga"),))]
    store = FormStore()
    for _ in range(2):
        assert _sheet(faces, store) == _sheet(faces, None)
    assert store.replayed == 2  # the two faces with text only, in the second sheet


def test_the_next_build_of_a_session_replays_the_faces_an_edit_left_alone(fresh_project: Project) -> None:
    """`pnp watch`: after an edit, the sheet redraws only the edited face; it equals a clean build's."""
    from generator.load import load_game
    from generator.readgate import ReadGate
    from generator.render.faces.renderer import renderer
    from tests.helpers import edit

    project = fresh_project.with_gate(ReadGate(fresh_project.root, per_build=True))
    faces = renderer(project)
    game = load_game(project, "counterattack")
    component = next(c for c in game.components if c.kind == "card" and len(c.items) > 3)
    impose(faces, game, component, SheetOptions(paper=PAPERS["a4"]))
    first = component.items[0]
    edit(project.data_dir / "counterattack" / "cards.yaml", f"name: {first.fields['name']},",
         f"name: {first.fields['name']} Edited,")
    project.gate.next_generation()
    game = load_game(project, "counterattack")
    component = next(c for c in game.components if c.id == component.id)
    before = faces.forms.replayed
    again = impose(faces, game, component, SheetOptions(paper=PAPERS["a4"]))
    assert faces.forms.replayed - before >= len({faces.face(game, component, i) for i in component.items}) - 1
    assert again.pdf == impose(FaceRenderer(project), game, component, SheetOptions(paper=PAPERS["a4"])).pdf


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2100), max_size=40))
def test_content_streams_encode_as_reportlab_encodes_them(text: str) -> None:
    """The ASCII shortcut gives ReportLab's PDFDocEncoding bytes, and refuses what it refuses."""
    for sample in (text, "BT /F1 9 Tf (" + text + ") Tj ET", "\x18" + text):
        try:
            expected: bytes | None = pdfdocEnc(sample)
        except UnicodeEncodeError:
            expected = None
        try:
            got: bytes | None = pdfdoc_bytes(sample)
        except UnicodeEncodeError:
            got = None
        assert got == expected


@settings(max_examples=150, deadline=None)
@given(box=st.tuples(*[st.floats(-1000, 1000, allow_nan=False) for _ in range(4)]),
       content=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=300),
       compression=st.booleans(), images=st.booleans())
def test_a_plain_form_is_written_as_reportlab_writes_it(box: tuple[float, float, float, float], content: str,
                                                        compression: bool, images: bool) -> None:
    """The form bytes made directly (`_StoredForm._plain_bytes`) equal ReportLab's generic formatter's."""
    doc = Canvas(io.BytesIO(), invariant=1)._doc
    forms = []
    for made in (_StoredForm({}, *box), PDFFormXObject(*box)):
        made.compression, made.hasImages = int(compression), int(images)
        made.setStreamList(["q", content, "Q"])
        forms.append(made)
    assert forms[0].format(doc) == forms[1].format(doc)
