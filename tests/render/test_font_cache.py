"""The per-user cache of parsed fonts: a font loaded from it is the font ReportLab parses, so PDFs are the
same bytes; a damaged entry or an unsafe folder only means parsing again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.render.base.font_cache import PdfScale, load_font
from generator.render.base.fonts import FALLBACK_FILE, FONT_DIR, FONT_FILES

DEJAVU = FONT_DIR / FALLBACK_FILE
SANS = FONT_DIR / FONT_FILES["Sans"]

DRAW_EVERY_FONT = """
import sys
from reportlab.pdfgen.canvas import Canvas
from generator.render.base.fonts import FALLBACK, FONT_FILES, register_fonts
register_fonts()
canvas = Canvas(sys.argv[1], invariant=1)
for row, name in enumerate([*FONT_FILES, FALLBACK]):
    canvas.setFont(name, 11)
    canvas.drawString(40, 800 - 20 * row, f"{name}: Nassau Harbour, 12 ports, Ærø, Ελλάδα, Москва")
canvas.save()
"""


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.ttfont"))


def test_a_font_from_the_cache_is_the_parsed_font(tmp_path: Path) -> None:
    parsed = load_font("Probe", DEJAVU, tmp_path)
    [entry] = entries(tmp_path)
    cached = load_font("Probe", DEJAVU, tmp_path)
    assert cached is not parsed and cached.fontName == "Probe"
    plain = {k: v for k, v in vars(parsed.face).items() if k != "_pdfScale"}
    assert {k: v for k, v in vars(cached.face).items() if k != "_pdfScale"} == plain
    assert [cached.face._pdfScale(x) for x in (0, 1, 700, 2048)] == [parsed.face._pdfScale(x) for x in (0, 1, 700, 2048)]
    assert {k: v for k, v in vars(cached).items() if k not in ("face", "state", "encoding")} == \
           {k: v for k, v in vars(parsed).items() if k not in ("face", "state", "encoding")}
    text = "Nassau Harbour Ærø Ελλάδα"
    assert cached.stringWidth(text, 11) == parsed.stringWidth(text, 11)
    glyphs = sorted({ord(c) for c in text})
    assert cached.face.makeSubset(glyphs) == parsed.face.makeSubset(glyphs)  # the bytes embedded in a PDF
    assert entries(tmp_path) == [entry]  # read, not written again


@pytest.mark.slow
def test_pdfs_drawn_with_cached_fonts_are_the_same_bytes(tmp_path: Path) -> None:
    """Every shipped font, in new processes: parsed (cache off), then stored, then loaded from the cache."""
    made = []
    for run, folder in enumerate(("off", str(tmp_path / "cache"), str(tmp_path / "cache"))):
        out = tmp_path / f"{run}.pdf"
        subprocess.run([sys.executable, "-c", DRAW_EVERY_FONT, str(out)], check=True,
                       env={**os.environ, "PIRATE_PRESS_CACHE_DIR": folder})
        made.append(out.read_bytes())
    assert len(entries(tmp_path / "cache")) == len(FONT_FILES) + 1
    assert made[0] == made[1] == made[2]
    assert b"/FontFile2" in made[0]


def test_a_damaged_entry_is_parsed_again_and_replaced(tmp_path: Path) -> None:
    parsed = load_font("Probe", SANS, tmp_path)
    [entry] = entries(tmp_path)
    for damage in (b"", b"pirate-press ttfont 1\nnot a pickle", entry.read_bytes()[:-100]):
        entry.write_bytes(damage)
        again = load_font("Probe", SANS, tmp_path)
        assert again.face.charWidths == parsed.face.charWidths
        assert again.face.makeSubset([65, 66]) == parsed.face.makeSubset([65, 66])
        assert entry.read_bytes() != damage  # stored again, whole


def test_a_folder_others_may_write_to_is_not_used(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    font = load_font("Probe", SANS, shared)
    assert font.face.name == b"SourceSansPro-Regular"
    assert entries(shared) == []


def test_the_scale_matches_reportlabs_for_other_units_per_em() -> None:
    for units in (1000, 2048, 256):
        scale = PdfScale(units)
        for value in (0, 1, -7, 513, 2048):
            expected = value if units == 1000 else value * (1000 / units)
            assert scale(value) == expected
