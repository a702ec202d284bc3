"""CMYK PDF/X read back: colour spaces, OutputIntent, boxes on every page, ink limit, fonts, page order."""

from __future__ import annotations

import csv
import io

import pikepdf
import pytest
from render_pdf import MM

from generator.build.options import BuildOptions
from generator.load import load_game
from generator.project import Project
from generator.render.documents.print_plan import print_plan
from generator.render.exports.cmyk import PROFILE, ColourConverter, to_pdfx
from generator.render.exports.presets import registry
from generator.render.exports.raster import Workers
from generator.render.exports.service import export_preset
from generator.render.faces.renderer import renderer
from tests.helpers import REPO

RGB_OPERATORS = {"rg", "RG"}
CMYK_OPERATORS = {"k", "K"}


def export_dtc_pirates() -> dict[str, bytes]:
    """All Hands' crew as the DriveThruCards preset writes it, from a fresh project handle."""
    project = Project.at(REPO)
    game = load_game(project, "all-hands-on-deck")
    with Workers(1) as workers:
        files = export_preset(renderer(project), game, game.component("pirate"), registry()["drivethrucards"],
                              workers)
    return {f.name: f.data for f in files}


@pytest.fixture(scope="module")
def dtc_pirates() -> dict[str, bytes]:
    return export_dtc_pirates()


def streams(document: pikepdf.Pdf):
    """Every content stream: pages and every form XObject they reach (once each)."""
    seen: set[tuple[int, int]] = set()
    stack = []
    for page in document.pages:
        yield page
        stack.append(page.obj.get("/Resources"))
    while stack:
        resources = stack.pop()
        if resources is None or "/XObject" not in resources:
            continue
        for xobject in resources.XObject.values():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if xobject.get("/Subtype") == pikepdf.Name.Form:
                yield xobject
                stack.append(xobject.get("/Resources"))


def colour_report(document: pikepdf.Pdf) -> tuple[set[str], float, list[str]]:
    """(colour operators used, max ink sum of any k/K in %, colour spaces named anywhere)."""
    operators: set[str] = set()
    max_ink = 0.0
    spaces: list[str] = []
    for stream in streams(document):
        for operands, operator in pikepdf.parse_content_stream(stream):
            op = str(operator)
            if op in RGB_OPERATORS | CMYK_OPERATORS | {"g", "G", "sc", "scn", "SC", "SCN", "cs", "CS"}:
                operators.add(op)
            if op in CMYK_OPERATORS:
                max_ink = max(max_ink, 100 * sum(float(v) for v in operands))
            if op in ("cs", "CS"):
                spaces.append(str(operands[0]))
    for obj in document.objects:
        if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream) and "/ColorSpace" in obj:
            spaces.append(str(obj.ColorSpace) if not isinstance(obj.ColorSpace, pikepdf.Dictionary) else "dict")
    return operators, max_ink, spaces


@pytest.mark.slow
def test_deck_pdf_is_cmyk_only_within_240_percent_ink(dtc_pirates) -> None:
    document = pikepdf.open(io.BytesIO(dtc_pirates["all-hands-on-deck-pirate.pdf"]))
    operators, max_ink, spaces = colour_report(document)
    assert not operators & RGB_OPERATORS, operators
    assert "k" in operators and "K" in operators
    assert not any("RGB" in space for space in spaces), spaces
    assert 0 < max_ink <= 240.0 + 1e-9


def test_deck_pdf_has_an_output_intent_with_the_shipped_profile(dtc_pirates) -> None:
    document = pikepdf.open(io.BytesIO(dtc_pirates["all-hands-on-deck-pirate.pdf"]))
    (intent,) = document.Root.OutputIntents
    assert intent.S == pikepdf.Name.GTS_PDFX and str(intent.OutputConditionIdentifier) == "FOGRA39"
    assert intent.DestOutputProfile.N == 4 and intent.DestOutputProfile.read_bytes() == PROFILE.read_bytes()
    assert str(document.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
    assert document.pdf_version == "1.4"
    assert PROFILE.read_bytes()[8] == 2  # an ICC v2 profile, as PDF 1.4 readers expect
    assert "/ID" in document.trailer


def test_deck_pdf_has_no_transparency(dtc_pirates) -> None:
    """PDF/X-1a allows no transparency: no soft masks, no constant alpha below 1, no transparency groups."""
    document = pikepdf.open(io.BytesIO(dtc_pirates["all-hands-on-deck-pirate.pdf"]))
    for obj in document.objects:
        if not isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
            continue
        assert "/SMask" not in obj or obj.SMask == pikepdf.Name("/None")
        assert float(obj.get("/CA", 1)) == 1 and float(obj.get("/ca", 1)) == 1
        assert "/Group" not in obj


def test_every_page_has_trim_and_bleed_boxes_of_the_service(dtc_pirates) -> None:
    document = pikepdf.open(io.BytesIO(dtc_pirates["all-hands-on-deck-pirate.pdf"]))
    for page in document.pages:
        trim = [float(v) for v in page.obj.TrimBox]
        bleed = [float(v) for v in page.obj.BleedBox]
        assert (round(trim[2] - trim[0], 3), round(trim[3] - trim[1], 3)) == (180.0, 252.0)  # 2.5 x 3.5 in
        assert (round(bleed[2] - bleed[0], 3), round(bleed[3] - bleed[1], 3)) == (198.0, 270.0)  # + 1/8 in a side
        assert abs(trim[0] - bleed[0] - 3.175 * MM) < 0.01


def test_every_font_is_embedded(dtc_pirates) -> None:
    document = pikepdf.open(io.BytesIO(dtc_pirates["all-hands-on-deck-pirate.pdf"]))
    fonts = [obj for obj in document.objects if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"]
    assert fonts
    for font in fonts:
        descriptor = font.get("/FontDescriptor")
        assert descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), \
            str(font.get("/BaseFont"))


def test_pages_go_back_front_for_every_copy(dtc_pirates, project) -> None:
    game = load_game(project, "all-hands-on-deck")
    table = list(csv.DictReader(io.StringIO(dtc_pirates["pirate-manifest.csv"].decode())))
    document = pikepdf.open(io.BytesIO(dtc_pirates["all-hands-on-deck-pirate.pdf"]))
    assert len(document.pages) == len(table) == 2 * 90
    assert [row["side"] for row in table[:4]] == ["back", "front", "back", "front"]
    fronts = [row["item"] for row in table if row["side"] == "front"]
    assert {item.id: fronts.count(item.id) for item in game.component("pirate").items} == \
        {item.id: item.count for item in game.component("pirate").items}
    assert sum(int(row["copies"]) for row in table if row["side"] == "front") == 90  # each page printed once
    cook = game.component("pirate").items[0]
    assert [row["copy"] for row in table if row["item"] == cook.id and row["side"] == "front"] == \
        [f"{n} of {cook.count}" for n in range(1, cook.count + 1)]

    def drawn(page) -> str:
        return next(str(ops[0]) for ops, op in pikepdf.parse_content_stream(page) if str(op) == "Do")

    backs = {drawn(document.pages[i]) for i in range(0, len(document.pages), 2)}
    assert len(backs) == 1  # one shared back, drawn once and placed before every front
    assert drawn(document.pages[1]) not in backs


def test_converter_keeps_greys_on_black_ink_and_caps_rich_colours() -> None:
    converter = ColourConverter(240)
    assert converter.cmyk(0, 0, 0) == (0.0, 0.0, 0.0, 1.0)
    assert converter.cmyk(1, 1, 1) == (0.0, 0.0, 0.0, 0.0)
    c, m, y, k = converter.cmyk(0.16, 0.08, 0.04)  # a near-black brown: the profile's rich black
    assert c + m + y + k <= 2.40 and k > 0.8
    assert sum(converter.capped(1.0, 1.0, 1.0, 1.0)) <= 2.40
    assert converter.capped(0.1, 0.2, 0.3, 0.4) == (0.1, 0.2, 0.3, 0.4)


def test_rgb_images_become_cmyk_pixels() -> None:
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, invariant=1)
    c.setFillColorRGB(0.8, 0.1, 0.1)
    c.rect(10, 10, 50, 50, fill=1)
    c.drawImage(ImageReader(Image.new("RGB", (8, 8), (20, 90, 200))), 100, 100, 40, 40)
    c.showPage()
    c.save()
    document = pikepdf.open(io.BytesIO(to_pdfx(buffer.getvalue(), 240, "test")))
    images = [o for o in document.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert images and all(image.ColorSpace == pikepdf.Name.DeviceCMYK for image in images)
    assert len(images[0].read_bytes()) == 8 * 8 * 4
    operators, max_ink, _ = colour_report(document)
    assert not operators & RGB_OPERATORS and max_ink <= 240
    page = document.pages[0].obj
    assert "/TrimBox" in page and "/BleedBox" in page


def test_an_image_with_transparency_is_refused_in_one_line() -> None:
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    from generator.errors import PnpError

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, invariant=1)
    c.drawImage(ImageReader(Image.new("RGBA", (8, 8), (20, 90, 200, 128))), 100, 100, 40, 40, mask="auto")
    c.showPage()
    c.save()
    with pytest.raises(PnpError, match=r"^Deck: an image with transparency cannot go into CMYK PDF/X-1a; .*--colour rgb$"):
        to_pdfx(buffer.getvalue(), 240, "Deck")


def test_conversion_is_deterministic(dtc_pirates) -> None:
    assert export_dtc_pirates() == dtc_pirates


@pytest.mark.slow
def test_colour_cmyk_build_writes_pdfx_sheets_and_face_pdfs(fresh_project, monkeypatch, capsys) -> None:
    from tests.helpers import run_pnp

    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    code, _, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--force", "--only", "port",
                           "--paper", "a4", "--no-gallery", "--colour", "cmyk", "--png")
    assert code == 0, err
    out = fresh_project.output_dir / "counterattack"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["counterattack-port-a4-duplex-long-cmyk.pdf"]
    assert "counterattack-port-faces-cmyk.pdf" in {p.name for p in (out / "png").iterdir()}
    assert not any("-cmyk" in p.name for p in (out / "png").glob("*.png"))  # PNGs stay RGB
    for path in (out / "counterattack-port-a4-duplex-long-cmyk.pdf", out / "png" / "counterattack-port-faces-cmyk.pdf"):
        document = pikepdf.open(path)
        operators, max_ink, spaces = colour_report(document)
        assert not operators & RGB_OPERATORS and not any("RGB" in s for s in spaces), path.name
        assert 0 < max_ink <= 240.0 + 1e-9
        assert document.Root.OutputIntents[0].S == pikepdf.Name.GTS_PDFX
        assert all("/TrimBox" in page.obj and "/BleedBox" in page.obj for page in document.pages)
    plan = print_plan(load_game(fresh_project, "counterattack"), fresh_project,
                      BuildOptions(papers=("a4",), colour="cmyk"), "a4")
    assert "counterattack-port-a4-duplex-long-cmyk.pdf" in {f.name for f in plan.files}  # the rulebook names it
    code, _, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--colour", "hsv")
    assert code != 0 and "hsv" in err and "Traceback" not in err


def test_a_transparent_image_refused_for_cmyk_names_its_file(fresh_project, monkeypatch, capsys) -> None:
    from PIL import Image

    from tests.helpers import run_pnp

    folder = fresh_project.templates_dir / "images"
    folder.mkdir()
    Image.new("RGBA", (8, 8), (20, 90, 200, 128)).save(folder / "glass.png")
    layout = fresh_project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text(layout.read_text() + "  - {name: glass, type: image, path: images/glass.png, x: 5, y: 5, w: 8, "
                      "h: 8}\n")
    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    code, _out, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--force", "--only", "port",
                             "--paper", "a4", "--no-gallery", "--colour", "cmyk")
    assert code == 2 and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith("pnp: templates/images/glass.png (image 'glass' on port/port-royal front): "
                           "Pirates Port: Counterattack: port cards: an image with transparency cannot go into CMYK")
