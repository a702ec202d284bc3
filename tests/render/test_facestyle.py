"""`--guides` and `--ink-saver`: lines read back at the right millimetre, far less ink, files named apart."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.render.base.units import PAPERS
from generator.render.exports.raster import Workers
from generator.render.exports.registry import EXPORTERS, ExportInput, PngSettings, PrintSheetOptions
from generator.render.faces.renderer import renderer
from tests.helpers import shipped_icon

DPI = 300


def export(project, game, component: str, exporter: str, settings) -> dict:
    with Workers(1) as workers:
        given = ExportInput(renderer(project), game, game.component(component), workers)
        return {f.name: f.data for f in EXPORTERS[exporter].draw(given, settings)}


def magenta(pixel: tuple[int, ...]) -> bool:
    r, g, b = pixel[:3]
    return r > 170 and g < 140 and b > 120 and r - g > 80


def guide_columns(image, y_from_px: int, y_to_px: int) -> list[int]:
    """Pixel columns that hold guide ink over a stretch of rows (a vertical guide line crosses them all)."""
    found = []
    for x in range(image.width):
        hits = sum(magenta(image.getpixel((x, y))) for y in range(y_from_px, y_to_px, 3))
        if hits >= 2:
            found.append(x)
    return found


def test_guides_are_drawn_at_trim_bleed_and_safe_lines(ca_project, ca_game) -> None:
    import pypdfium2 as pdfium

    files = export(ca_project, ca_game, "port", "png", PngSettings(bleed=3.0, dpi=DPI, guides=True))
    names = sorted(files)
    assert "counterattack-port-faces-guides.pdf" in names
    assert all("-guides." in name for name in names)  # never confused with a print file
    page = pdfium.PdfDocument(files["counterattack-port-faces-guides.pdf"])[0]
    image = page.render(scale=DPI / 72).to_pil().convert("RGB")
    mm = DPI / 25.4
    trim_left = (image.width - 63 * mm) / 2  # the page is the bleed box around the 63 mm trim
    rows = (int(image.height * 0.3), int(image.height * 0.7))  # the straight middle of the left side
    columns = guide_columns(image, *rows)
    positions = sorted({round((x - trim_left) / mm, 1) for x in columns})
    for expected in (-3.0, 0.0, 3.0):  # bleed edge (dashed), trim (solid), safe zone (dotted)
        assert any(abs(p - expected) <= 0.2 for p in positions), (expected, positions)
    assert not any(0.5 < p < 2.5 or -2.5 < p < -0.5 for p in positions), positions  # nothing between them


def test_guides_on_round_tokens_follow_the_circle(project) -> None:
    import pypdfium2 as pdfium

    from generator.load import load_game

    game = load_game(project, "pirates-under-fire")
    files = export(project, game, "gold", "png", PngSettings(bleed=2.0, dpi=DPI, guides=True))
    page = pdfium.PdfDocument(files["pirates-under-fire-gold-faces-guides.pdf"])[0]
    image = page.render(scale=DPI / 72).to_pil().convert("RGB")
    mm = DPI / 25.4
    centre = image.width / 2
    middle_row = int(image.height / 2)
    hits = [round((x - centre) / mm, 1) for x in range(image.width) if magenta(image.getpixel((x, middle_row)))]
    for radius in (10.0, -10.0):  # the trim circle, 20 mm across, crosses the middle row on both sides
        assert any(abs(h - radius) <= 0.2 for h in hits), hits


def test_sheets_with_guides_are_named_apart(ca_project, ca_game) -> None:
    files = export(ca_project, ca_game, "port", "sheets", PrintSheetOptions(paper=PAPERS["a4"], guides=True))
    assert list(files) == ["counterattack-port-a4-duplex-long-guides.pdf"]
    plain = export(ca_project, ca_game, "port", "sheets", PrintSheetOptions(paper=PAPERS["a4"]))
    assert list(plain) == ["counterattack-port-a4-duplex-long.pdf"]
    assert files["counterattack-port-a4-duplex-long-guides.pdf"] != plain["counterattack-port-a4-duplex-long.pdf"]


def ink(pdf: bytes) -> float:
    """Mean darkness of every page (0 white paper .. 1 solid black), at 40 dpi."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    total = 0.0
    for index in range(len(document)):
        image = document[index].render(scale=40 / 72).to_pil().convert("L")
        histogram = image.histogram()
        total += sum((255 - level) * count for level, count in enumerate(histogram)) / (255 * sum(histogram))
    return total / len(document)


def test_ink_saver_prints_far_less_ink(ca_project, ca_game) -> None:
    plain = export(ca_project, ca_game, "port", "sheets", PrintSheetOptions(paper=PAPERS["a4"]))
    saver = export(ca_project, ca_game, "port", "sheets", PrintSheetOptions(paper=PAPERS["a4"], ink_saver=True))
    assert list(saver) == ["counterattack-port-a4-duplex-long-inksaver.pdf"]
    before, after = ink(plain["counterattack-port-a4-duplex-long.pdf"]), ink(saver["counterattack-port-a4-duplex-long-inksaver.pdf"])
    assert after < before * 0.5, (before, after)


def test_ink_saver_keeps_light_ink_readable_on_a_dark_back(ca_project, ca_game) -> None:
    from generator.render.faces.style import FaceStyle

    component = ca_game.component("port")
    back = renderer(ca_project).face(ca_game, component, component.items[0], "back")
    saved = FaceStyle(ink_saver=True).apply(back, component)
    background = next(e for e in saved.elements if e.get("ink") == "background")
    assert background.get("fill") == "#ffffff"
    for element in saved.elements:
        if element.type in ("text", "icon"):
            assert element.get("colour").lower() not in ("#ffffff", "#fff"), element.name


@pytest.mark.slow
@pytest.mark.parametrize("flags, suffix", [(["--guides"], "-guides"), (["--ink-saver"], "-inksaver"),
                                           (["--ink-saver", "--guides"], "-inksaver-guides")])
def test_build_options_name_their_files(fresh_project, monkeypatch, flags, suffix) -> None:
    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    result = CliRunner().invoke(cli, ["--root", str(fresh_project.root), "-q", "build", "--force", "--only", "port",
                                      "--paper", "a4", "--no-gallery", *flags], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (fresh_project.output_dir / "counterattack").glob("*.pdf"))
    assert names == [f"counterattack-port-a4-duplex-long{suffix}.pdf"]


def test_style_and_colour_file_names() -> None:
    from generator.render.faces.style import variant_name

    assert variant_name("x-a4.pdf", PngSettings(guides=True)) == "x-a4-guides.pdf"
    assert variant_name("p/x-1.png", PngSettings(ink_saver=True)) == "p/x-1-inksaver.png"
    assert variant_name("x.pdf", PngSettings()) == "x.pdf"
    both = PrintSheetOptions(paper=PAPERS["a4"], guides=True, ink_saver=True, colour="cmyk")
    assert variant_name("x-a4-duplex-long.pdf", both) == "x-a4-duplex-long-inksaver-guides-cmyk.pdf"
    assert variant_name("p/x-1.png", PngSettings(colour="cmyk")) == "p/x-1.png"  # PNGs stay RGB: no -cmyk


def test_ink_saver_keeps_light_ink_that_stands_on_a_kept_band() -> None:
    """A burning ship's white fleet icon sits on the fleet's band, which stays: it must stay white, not turn
    the amber of the (removed) background and vanish into an orange band."""
    from generator.render.faces.layout import Element, Face
    from generator.render.faces.style import FaceStyle

    def element(kind: str, name: str, **props) -> Element:
        return Element(kind, name, tuple(sorted(props.items())))

    face = Face(34.0, 34.0, "rect", 1.0, (
        element("rect", "background", bleed=True, fill="#e39b00", ink="background"),
        element("rect", "band", x=0.0, y=0.0, w=34.0, h=10.5, fill="#d35f00"),
        element("icon", "on-band", icon=shipped_icon("anchor"), x=17.0, y=6.3, size=5.6, colour="#ffffff"),
        element("text", "off-band", text="ON FIRE", x=17.0, y=30.0, colour="#ffffff"),
    ))
    saved = {e.name: e for e in FaceStyle(ink_saver=True).apply(face, None).elements}  # type: ignore[arg-type]
    assert saved["background"].get("fill") == "#ffffff"
    assert saved["band"].get("fill") == "#d35f00"
    assert saved["on-band"].get("colour") == "#ffffff"  # still on the orange band
    assert saved["off-band"].get("colour") == "#e39b00"  # was on the amber ground, now on white paper
