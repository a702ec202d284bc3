"""A designer's own fonts (fonts/*.ttf by file stem) and art (SVG drawn as vectors, raster checked for dpi).

The project is Plunder Pile (tests/fifth_game) in a temporary folder, its one layout rewritten to use
a project font and an SVG from art/.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from generator.errors import DataError, Location
from generator.load import load_game
from generator.project import Project
from generator.render.base.fonts import FONT_DIR
from generator.render.base.project_fonts import ProjectFont, registered_name
from generator.render.faces.fit import layout_checks
from generator.render.faces.renderer import FaceRenderer, draw_resolved
from generator.render.faces.vector import checked_tree
from tests import fifth_game
from tests.helpers import run_pnp

SHIPPED = FONT_DIR / "SourceSerifPro-Semibold.ttf"  # copied under a new name: the project's own font
KRAKEN = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"
     viewBox="0 0 100 100">
  <defs><linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#1f6fa8"/><stop offset="1" stop-color="#0b2a45"/></linearGradient></defs>
  <rect x="0" y="0" width="100" height="100" fill="url(#sea)"/>
  <circle id="head" cx="50" cy="40" r="22" fill="#7a2e8c" stroke="#2b0f33" stroke-width="3"/>
  <path d="M30 55 Q20 85 10 90 M40 58 Q38 88 30 96 M60 58 Q62 88 70 96 M70 55 Q80 85 90 90"
        stroke="#7a2e8c" stroke-width="6" fill="none" stroke-linecap="round"/>
  <circle cx="42" cy="36" r="4" fill="#fff"/><circle cx="58" cy="36" r="4" fill="#fff"/>
</svg>
"""
LAYOUT = """\
vars:
  accent: theme.colours.accent
elements:
  - {name: background, type: rect, bleed: true, fill: "{{ accent }}"}
  - {name: art, type: image, path: ART, x: 0, y: 0, w: 20, h: 20}
  - {name: mark, type: text, x: 10, y: 13, align: centre, text: "TEXT", font: FONT, size: 9, colour: "#ffffff",
     max_width: 12}
"""


def designer_project(root: Path, art: str = "art/kraken.svg", font: str = "Designer", text: str = "Dé") -> Project:
    project = fifth_game.make_project(root)
    (root / "fonts").mkdir()
    shutil.copy(SHIPPED, root / "fonts" / "Designer.ttf")
    (root / "art").mkdir()
    (root / "art" / "kraken.svg").write_text(KRAKEN, encoding="utf-8")
    write_layout(root, LAYOUT.replace("ART", art).replace("FONT", font).replace("TEXT", text))
    return project


def write_layout(root: Path, text: str) -> None:
    (root / "templates" / "layouts" / "nim" / "doubloon.yaml").write_text(text, encoding="utf-8")


def doubloon_face(project: Project):  # type: ignore[no-untyped-def]
    game = load_game(project, "nim")
    component = game.component("doubloon")
    return FaceRenderer(project).face(game, component, component.items[0], "front")


def pdf_contents(path: Path) -> tuple[set[str], int]:
    """Every font's BaseFont in a PDF, and how many image XObjects it holds (forms looked into)."""
    import pypdf

    fonts: set[str] = set()
    images = 0
    seen: set[int] = set()

    def walk(resources) -> None:  # type: ignore[no-untyped-def]
        nonlocal images
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]))
        for ref in (resources.get("/XObject") or {}).values():
            xobject = ref.get_object()
            if id(xobject) in seen:
                continue
            seen.add(id(xobject))
            if xobject.get("/Subtype") == "/Image":
                images += 1
            else:
                walk(xobject.get("/Resources"))

    for page in pypdf.PdfReader(path).pages:
        walk(page.get("/Resources"))
    return fonts, images


def font_programs(path: Path) -> dict[str, bytes]:
    """Each embedded font's program (FontFile2) by its BaseFont, looked for on the pages and in their forms."""
    import pypdf

    found: dict[str, bytes] = {}

    def walk(resources) -> None:  # type: ignore[no-untyped-def]
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is not None and "/FontFile2" in descriptor.get_object():
                found[str(font["/BaseFont"])] = descriptor.get_object()["/FontFile2"].get_object().get_data()
        for ref in (resources.get("/XObject") or {}).values():
            walk(ref.get_object().get("/Resources"))

    for page in pypdf.PdfReader(path).pages:
        walk(page.get("/Resources"))
    return found


@pytest.mark.slow
def test_a_project_font_and_svg_art_build_into_the_pdf_as_font_and_paths(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "my-game"
    designer_project(root)
    code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "build", "nim", "--paper", "a4", "--png",
                              registry=fifth_game.REGISTRY)
    assert code == 0, err
    sheet = root / "output" / "nim" / "nim-doubloon-a4-single-sided.pdf"
    fonts, images = pdf_contents(sheet)
    own = registered_name("Designer", (root / "fonts" / "Designer.ttf").read_bytes())
    assert any(name.endswith(f"+{own}") for name in fonts), fonts  # embedded and subset: 'AAAAAA+Designer-…'
    assert images == 0  # the SVG is paths, not an image
    png = root / "output" / "nim" / "png" / "doubloon-doubloon-1.png"
    from PIL import Image

    with Image.open(png) as image:
        rgb = image.convert("RGB")
        purple = sum(1 for pixel in rgb.get_flattened_data() if abs(pixel[0] - 0x7a) < 12 and abs(pixel[1] - 0x2e) < 12
                     and abs(pixel[2] - 0x8c) < 12)
        corner = rgb.getpixel((2, 2))
    assert purple > rgb.width * rgb.height // 20  # the kraken is drawn in the PNG
    assert corner[2] > corner[0] + 40  # full-bleed art: the bleed corner is the SVG's sea, not the paper
    # The build's recorded inputs cover the font's bytes: another font under the same name rebuilds the sheet.
    shutil.copy(FONT_DIR / "SourceSerifPro-Regular.ttf", root / "fonts" / "Designer.ttf")
    code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "build", "nim", "--paper", "a4",
                              registry=fifth_game.REGISTRY)
    assert code == 0, err
    again = registered_name("Designer", (FONT_DIR / "SourceSerifPro-Regular.ttf").read_bytes())
    fonts, _ = pdf_contents(sheet)
    assert any(name.endswith(f"+{again}") for name in fonts) and not any(name.endswith(f"+{own}") for name in fonts)


def test_a_project_font_is_named_by_its_stem_and_registered_under_its_digest(tmp_path: Path) -> None:
    project = designer_project(tmp_path)
    mark = next(e for e in doubloon_face(project).elements if e.name == "mark")
    font = mark.get("font")
    assert isinstance(font, ProjectFont) and font.stem == "Designer" and font.source == "fonts/Designer.ttf"
    assert font == registered_name("Designer", SHIPPED.read_bytes())
    from reportlab.pdfbase import pdfmetrics

    assert pdfmetrics.getFont(font).face.name == font.encode()  # its own face name: no clash with 'Serif-Semibold'


def test_two_projects_with_one_font_name_never_share_it(tmp_path: Path) -> None:
    first = designer_project(tmp_path / "a")
    second = designer_project(tmp_path / "b")
    shutil.copy(FONT_DIR / "FjallaOne-Regular.ttf", tmp_path / "b" / "fonts" / "Designer.ttf")
    one = next(e for e in doubloon_face(first).elements if e.name == "mark").get("font")
    two = next(e for e in doubloon_face(second).elements if e.name == "mark").get("font")
    assert one != two and one.stem == two.stem == "Designer"
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert stringWidth("Doubloon", one, 10) != stringWidth("Doubloon", two, 10)


def test_a_game_font_folder_wins_over_the_project_one(tmp_path: Path) -> None:
    project = designer_project(tmp_path)
    (tmp_path / "data" / "nim" / "fonts").mkdir()
    shutil.copy(FONT_DIR / "FjallaOne-Regular.ttf", tmp_path / "data" / "nim" / "fonts" / "Designer.ttf")
    font = next(e for e in doubloon_face(project).elements if e.name == "mark").get("font")
    assert font.source == "data/nim/fonts/Designer.ttf"


def test_a_project_font_survives_pickling_into_another_process_registry(tmp_path: Path) -> None:
    import pickle

    project = designer_project(tmp_path)
    face = doubloon_face(project)
    again = pickle.loads(pickle.dumps(face))
    assert again == face
    font = next(e for e in again.elements if e.name == "mark").get("font")
    assert isinstance(font, ProjectFont) and font.data == SHIPPED.read_bytes()


@pytest.mark.parametrize("content, said", [
    (b"just some text, not a font", "is not a font file"),
    (b"OTTO" + bytes(60), "PostScript (CFF) outlines, which ReportLab cannot embed"),
    (b"wOF2" + bytes(60), "web font (WOFF2)"),
    (b"\x00\x01\x00\x00" + bytes(60), "is not a readable TrueType font"),
])
def test_a_font_file_that_cannot_be_embedded_is_one_line_naming_it(tmp_path: Path, content: bytes, said: str) -> None:
    project = designer_project(tmp_path, font="Broken")
    (tmp_path / "fonts" / "Broken.otf").write_bytes(content)
    with pytest.raises(DataError) as caught:
        doubloon_face(project)
    assert str(caught.value.location) == "fonts/Broken.otf"
    assert said in caught.value.message and "\n" not in caught.value.message


def test_an_unknown_font_lists_the_project_fonts(tmp_path: Path) -> None:
    project = designer_project(tmp_path, font="Desinger")
    with pytest.raises(DataError) as caught:
        doubloon_face(project)
    assert caught.value.location.line == 6
    assert "did you mean 'Designer'" in caught.value.message and "project fonts: Designer" in caught.value.message


def test_a_character_the_project_font_lacks_is_reported_with_the_card(tmp_path: Path) -> None:
    project = designer_project(tmp_path, text="D☺")  # Source Serif has no smiley (the fallback font does)
    game = load_game(project, "nim")
    failed = [c for c in layout_checks(game, project) if not c.ok]
    assert len(failed) == 1
    check = failed[0]
    assert check.location.file == "data/nim/game.yaml" and check.location.line > 0
    assert "doubloon/doubloon" in check.actual and "U+263A WHITE SMILING FACE" in check.actual
    assert "the font 'Designer' (fonts/Designer.ttf) lacks" in check.actual


@pytest.mark.parametrize("change, said", [
    ('<image xlink:href="file:///etc/passwd" width="5" height="5"/>', "refers to 'file:///etc/passwd'"),
    ('<image href="http://example.com/a.png" width="5" height="5"/>', "never fetched"),
    ('<use xlink:href="other.svg#head"/>', "refers to 'other.svg#head', outside the file"),
    ("<script>alert(1)</script>", "contains a script"),
    ('<rect width="5" height="5" onclick="alert(1)"/>', "event handler (onclick)"),
    ('<text x="1" y="9">Kraken</text>', "convert it to paths"),
    ("<style>@import url(http://example.com/a.css);</style>", "style sheet that loads another file"),
    ('<rect width="5" height="5" style="fill: url(file:///x.png)"/>', "outside the file"),
    ('<filter id="blur"><feGaussianBlur stdDeviation="2"/></filter>', "a filter, which svglib cannot draw"),
])
def test_svg_that_reaches_outside_or_cannot_print_is_refused_naming_the_file(change: str, said: str) -> None:
    data = KRAKEN.replace("</svg>", change + "\n</svg>").encode()
    with pytest.raises(DataError) as caught:
        checked_tree(data, "art/kraken.svg", Location("templates/layouts/nim/doubloon.yaml", 5))
    assert caught.value.message.startswith("SVG 'art/kraken.svg' ")
    assert said in caught.value.message and "\n" not in caught.value.message


def test_svg_entities_are_refused_before_parsing() -> None:
    bomb = (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><desc>&b;</desc></svg>')
    with pytest.raises(DataError, match="declares a DOCTYPE or ENTITY"):
        checked_tree(bomb, "art/bomb.svg", Location("x.yaml", 1))


def test_inline_references_and_data_uris_are_allowed() -> None:
    tiny_png = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
                "AAAABJRU5ErkJggg==")
    data = KRAKEN.replace("</svg>", f'<use xlink:href="#head" x="5"/><image xlink:href="{tiny_png}" '
                                    'width="2" height="2"/></svg>').encode()
    assert checked_tree(data, "art/kraken.svg", Location("x.yaml", 1)).tag.endswith("svg")


def test_a_bad_svg_through_a_layout_fails_at_the_layout_line(tmp_path: Path) -> None:
    project = designer_project(tmp_path)
    (tmp_path / "art" / "kraken.svg").write_text(KRAKEN.replace("</svg>", "<script/></svg>"), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        doubloon_face(project)
    assert str(caught.value.location) == "templates/layouts/nim/doubloon.yaml:5"


def face_pixels(face, bleed: float) -> tuple[tuple[int, int, int], tuple[int, int, int]]:  # type: ignore[no-untyped-def]
    """The face drawn with `bleed` mm and rasterized: the colours at the bleed's corner and at the centre."""
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.base.units import pt

    buffer = io.BytesIO()
    size = (pt(face.width + 2 * bleed), pt(face.height + 2 * bleed))
    canvas = Canvas(buffer, pagesize=size)
    draw_resolved(canvas, face, pt(bleed), pt(bleed), bleed)
    canvas.save()
    page = pypdfium2.PdfDocument(buffer.getvalue())[0]
    image = page.render(scale=4).to_pil().convert("RGB")
    return image.getpixel((1, 1)), image.getpixel((image.width // 2, image.height // 4))


def test_art_placed_to_the_trim_covers_the_bleed_and_inset_art_does_not(tmp_path: Path) -> None:
    project = designer_project(tmp_path)
    corner, _ = face_pixels(doubloon_face(project), 3.0)
    assert corner[2] > corner[0] + 40  # the sea of the SVG, in the bleed
    write_layout(tmp_path, LAYOUT.replace("ART", "art/kraken.svg").replace("x: 0, y: 0, w: 20, h: 20",
                                                                           "x: 4, y: 4, w: 12, h: 12")
                 .replace("FONT", "Designer").replace("TEXT", "D"))
    corner, _ = face_pixels(doubloon_face(project), 3.0)
    assert corner == (0xc8, 0x96, 0x2c)  # the accent background: inset art stays where it was put


@pytest.mark.parametrize("pixels, ok, warning", [(60, False, False), (100, True, True), (150, True, False)])
def test_raster_art_resolution_at_printed_size(tmp_path: Path, pixels: int, ok: bool, warning: bool) -> None:
    from PIL import Image

    project = designer_project(tmp_path, art="art/map.png")
    Image.new("RGB", (pixels, pixels), "#336699").save(tmp_path / "art" / "map.png")
    write_layout(tmp_path, LAYOUT.replace("ART", "art/map.png").replace("x: 0, y: 0, w: 20, h: 20",
                                                                         "x: 4, y: 4, w: 12, h: 12")
                 .replace("FONT", "Designer").replace("TEXT", "D"))
    game = load_game(project, "nim")
    (check,) = [c for c in layout_checks(game, project) if c.name.endswith("resolution")]
    assert (check.ok, check.warning) == (ok, warning)
    assert str(check.location) == "templates/layouts/nim/doubloon.yaml:5"
    said = f"art/map.png is {pixels} x {pixels} px printed at 12.0 x 12.0 mm: "
    assert check.actual.startswith(said)
    assert abs(int(check.actual[len(said):].split()[0]) - pixels * 25.4 / 12) <= 1  # dpi at printed size


def with_rulebook_fonts(root: Path, fonts: str) -> None:
    game_yaml = root / "data" / "nim" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("theme:\n", f"theme:\n  fonts: {fonts}\n", 1), encoding="utf-8")


def test_the_rulebook_takes_project_fonts_from_the_theme(tmp_path: Path) -> None:
    from generator.render.documents.rulebook import rulebook_pdf

    project = designer_project(tmp_path)
    shutil.copy(FONT_DIR / "SourceSerifPro-Bold.ttf", tmp_path / "fonts" / "Designer-Bold.ttf")
    shutil.copy(FONT_DIR / "FjallaOne-Regular.ttf", tmp_path / "fonts" / "Pirata.ttf")
    with_rulebook_fonts(tmp_path, "{display: Pirata, body: Designer}")
    template = tmp_path / "templates" / "rulebooks" / "nim.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\nThe **last doubloon** wins.\n", encoding="utf-8")
    pdf = tmp_path / "rules.pdf"
    pdf.write_bytes(rulebook_pdf(load_game(project, "nim"), project, "a4"))
    fonts, _ = pdf_contents(pdf)
    named = {name.split("+", 1)[1].rsplit("-", 1)[0] for name in fonts if "+" in name}
    assert {"Designer", "Designer-Bold", "Pirata"} <= named  # body, its bold face, title
    assert not any("Serif" in name for name in fonts)  # the shipped body font is not used at all
    programs = font_programs(pdf)
    assert len(set(programs.values())) == len(programs)  # each embeds its own glyphs, none another's subset


def test_rulebook_text_the_body_font_lacks_fails_at_the_template_line(tmp_path: Path) -> None:
    from generator.render.documents.rulebook import rulebook_pdf

    project = designer_project(tmp_path)
    with_rulebook_fonts(tmp_path, "{body: Designer}")
    template = tmp_path / "templates" / "rulebooks" / "nim.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\nSmile ☺ when you win.\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        rulebook_pdf(load_game(project, "nim"), project, "a4")
    assert caught.value.location.file == "templates/rulebooks/nim.md.j2" and caught.value.location.line > 20
    assert "the fonts (Designer, Sans) cannot draw '☺' (U+263A WHITE SMILING FACE)" in caught.value.message


def test_validate_checks_every_project_font_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    designer_project(tmp_path)
    (tmp_path / "fonts" / "Unused.ttf").write_bytes(b"<html>not a font</html>")
    code, out, _err = run_pnp(capsys, "--root", str(tmp_path), "validate", "--failures-only",
                              registry=fifth_game.REGISTRY)
    assert code == 1
    assert "  fonts/Unused.ttf: project font fonts/Unused.ttf: expected a TrueType font ReportLab can embed, got " \
           "is not a font file" in out


def test_a_font_in_a_format_that_cannot_be_embedded_names_the_file(tmp_path: Path) -> None:
    project = designer_project(tmp_path, font="Pirata")
    (tmp_path / "fonts" / "Pirata.woff2").write_bytes(b"wOF2" + bytes(40))
    with pytest.raises(DataError) as caught:
        doubloon_face(project)
    assert str(caught.value.location) == "fonts/Pirata.woff2" and "export the font as .ttf" in caught.value.message


def test_a_textbox_in_a_project_font_takes_its_bold_face_from_beside_it(tmp_path: Path) -> None:
    project = designer_project(tmp_path)
    write_layout(tmp_path, "elements:\n  - {name: rules, type: textbox, x: 4, y: 6, w: 12, h: 8, size: 5,\n"
                           "     font: Designer, text: 'a **b**'}\n")
    box = next(e for e in doubloon_face(project).elements if e.name == "rules")
    assert box.get("bold_font") is None  # no Designer-Bold.ttf: `**b**` is drawn in Designer itself
    shutil.copy(FONT_DIR / "SourceSerifPro-Bold.ttf", tmp_path / "fonts" / "Designer-Bold.ttf")
    box = next(e for e in doubloon_face(Project.at(tmp_path)).elements if e.name == "rules")
    assert box.get("bold_font").source == "fonts/Designer-Bold.ttf"


def test_watch_rebuilds_when_a_project_font_is_saved(tmp_path: Path) -> None:
    from generator.build.options import BuildOptions
    from generator.build.session import build
    from generator.cli.watch import watch_loop, watched_folders

    project = designer_project(tmp_path)
    assert watched_folders(project)[2:] == [tmp_path / "fonts", tmp_path / "art"]
    options = BuildOptions(papers=("a4",), exports=("sheets",))
    font = tmp_path / "fonts" / "Designer.ttf"
    lines: list[str] = []

    def changes():  # type: ignore[no-untyped-def]  # what watchfiles would yield, the font saved in between
        shutil.copy(FONT_DIR / "SourceSerifPro-Regular.ttf", font)
        yield {(2, str(font))}

    watch_loop(project, lambda: build(project, ["nim"], options, registry=fifth_game.REGISTRY), changes(),
               lines.append)
    _start, watching, changed = lines
    assert watching.startswith("watching data/ and templates/, fonts/, art/")
    assert changed.startswith("fonts/Designer.ttf: ") and "nim-doubloon-a4" in changed
