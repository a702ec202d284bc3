"""Text the shipped fonts cannot draw is reported, not silently dropped; decomposed accents are drawn."""

from __future__ import annotations

import re

import pytest

from generator.errors import DataError
from generator.load import load_game
from generator.render.faces.fit import layout_checks
from generator.render.faces.glyphs import composed, describe, missing
from generator.render.faces.renderer import FaceRenderer


def rename_tortuga(project, name: str) -> None:
    cards = project.data_dir / "counterattack" / "cards.yaml"
    text, count = re.subn(r"name: Tortuga,", f"name: '{name}',", cards.read_text(encoding="utf-8"))
    assert count == 1
    cards.write_text(text, encoding="utf-8")


def tortuga_title(project) -> str:
    game = load_game(project, "counterattack")
    port = game.component("port")
    item = next(i for i in port.items if i.id == "tortuga")
    face = FaceRenderer(project).face(game, port, item, "front")
    return next(e.get("text") for e in face.elements if e.name == "title")


def test_a_decomposed_accent_is_drawn_not_dropped(fresh_project) -> None:
    rename_tortuga(fresh_project, "Tortu\u0301ga")  # u + COMBINING ACUTE: the Display font has no glyph for it
    assert missing("Tortu\u0301ga", "Display") == []  # composed first: the font has "ú"
    title = tortuga_title(fresh_project)
    assert title == "Tortúga" == composed("Tortu\u0301ga")
    game = load_game(fresh_project, "counterattack")
    assert all(c.ok for c in layout_checks(game, fresh_project))


def test_text_no_shipped_font_can_draw_fails_validation_naming_card_element_and_character(fresh_project) -> None:
    rename_tortuga(fresh_project, "Tortuga ع 中")
    game = load_game(fresh_project, "counterattack")
    failed = [c for c in layout_checks(game, fresh_project) if not c.ok]
    assert len(failed) == 1
    check = failed[0]
    assert check.name == "layout counterattack/port (port front) element 'title' can be drawn"
    assert check.actual.endswith("which no shipped font can draw")
    assert check.actual.startswith("port/tortuga: 'Tortuga ع 中' has 'ع' (U+0639 ARABIC LETTER AIN), "
                                   "'中' (U+4E2D CJK UNIFIED IDEOGRAPH-4E2D)")
    assert str(check.location) == "data/counterattack/cards.yaml:19"


def test_describe_names_the_character() -> None:
    assert describe("Ω") == "'Ω' (U+03A9 GREEK CAPITAL LETTER OMEGA)"
    assert missing("Ωж", "Sans") == [] and missing("Ωж", "Display") == ["Ω", "ж"]
    assert missing("Ωж Ħ ع 中", "Display", fallback=True) == ["ع", "中"]  # right-to-left and CJK are not drawn


@pytest.mark.slow
def test_greek_and_cyrillic_are_drawn_with_the_fallback_font(fresh_project) -> None:
    from pypdf import PdfReader

    from generator.render.faces.glyphs import runs
    from generator.render.faces.renderer import FaceRenderer

    rename_tortuga(fresh_project, "Tortúga Ωж Ħ")
    assert runs("Tortúga Ωж Ħ", "Display") == [("Tortúga ", "Display"), ("Ωж", "Fallback"), (" ", "Display"),
                                               ("Ħ", "Fallback")]
    game = load_game(fresh_project, "counterattack")
    assert all(c.ok for c in layout_checks(game, fresh_project))
    port = game.component("port")
    item = next(i for i in port.items if i.id == "tortuga")
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.render.faces.draw import draw_face

    face = FaceRenderer(fresh_project).face(game, port, item, "front")
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 300), invariant=1)
    draw_face(canvas, face, 0.0)
    canvas.save()
    page = PdfReader(io.BytesIO(buffer.getvalue())).pages[0]
    fonts = {str(f["/BaseFont"]) for f in page["/Resources"]["/Font"].values()}
    assert any(f.endswith("DejaVuSans") for f in fonts), fonts
    assert "Ωж" in page.extract_text()


@pytest.mark.parametrize(("line", "words"), [("Arabic: عربي", "'ع' (U+0639 ARABIC LETTER AIN)"),
                                             ("# 中文", "(U+4E2D CJK UNIFIED IDEOGRAPH-4E2D)")])
def test_a_document_line_the_fonts_cannot_draw_is_an_error_at_its_line(tmp_path, line: str, words: str) -> None:
    import shutil

    from generator.project import Project
    from generator.render.documents.rulebook import rulebook_pdf
    from tests.render.conftest import REPO

    (tmp_path / "data").mkdir()
    shutil.copytree(REPO / "data" / "counterattack", tmp_path / "data" / "counterattack")
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    project = Project.at(tmp_path)
    (project.templates_dir / "rulebooks" / "counterattack.md.j2").write_text(
        "# Title\n\nTortu\u0301ga is fine.\n\n" + line + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        rulebook_pdf(load_game(project, "counterattack"), project, "a4")
    assert str(caught.value.location) == "templates/rulebooks/counterattack.md.j2:5"
    assert words in caught.value.message and "cannot draw" in caught.value.message
