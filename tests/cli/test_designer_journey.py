"""A designer's first hour, as commands in a fresh process: `pnp init` a project outside the repository, `pnp new` a
game, drop a font into fonts/ and an SVG into art/, use both in the card layout, validate and build. The printed
sheet embeds the project font (subset) and draws the SVG as vector paths, with no image object for it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.render.base.fonts import FONT_DIR
from generator.render.base.project_fonts import registered_name
from tests.helpers import REPO

ART = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" viewBox="0 0 100 60">
  <path d="M5 40 Q25 10 50 40 T95 40 L95 55 L5 55 Z" fill="#1f6fa8" stroke="#0b2a45" stroke-width="2"/>
  <path d="M40 38 L50 12 L60 38 Z" fill="#f4ead5" stroke="#3b2a1a" stroke-width="1.5"/>
</svg>
"""


def pnp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False, timeout=600)


def _xobjects(resources: object) -> list[object]:
    """Every XObject under a page's resources, forms' own resources included."""
    found = []
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    for ref in (xobjects or {}).values():
        obj = ref.get_object()
        found.append(obj)
        if obj.get("/Subtype") == "/Form" and "/Resources" in obj:
            found += _xobjects(obj["/Resources"].get_object())
    return found


@pytest.mark.slow
def test_init_new_font_and_svg_build_into_the_sheet(tmp_path: Path) -> None:
    root = tmp_path / "studio"
    assert not root.resolve().is_relative_to(REPO)
    done = pnp(tmp_path, "init", str(root))
    assert done.returncode == 0, done.stderr
    done = pnp(root, "new", "treasure")
    assert done.returncode == 0, done.stderr

    shutil.copy(FONT_DIR / "SourceSerifPro-Semibold.ttf", root / "fonts" / "Corsair.ttf")
    (root / "art" / "wave.svg").write_text(ART, encoding="utf-8")
    layout = root / "templates" / "layouts" / "treasure" / "card.yaml"
    text = layout.read_text(encoding="utf-8")
    assert "font: Display, size: 15" in text
    text = text.replace("font: Display, size: 15", "font: Corsair, size: 15")  # the title in the project's font
    text = text.rstrip("\n") + "\n  - {name: art, type: image, path: art/wave.svg, x: 6.5, y: 22, w: 50, h: 8}\n"
    layout.write_text(text, encoding="utf-8")

    done = pnp(root, "validate", "treasure")
    assert done.returncode == 0, done.stdout + done.stderr
    done = pnp(root, "build", "treasure", "--paper", "a4", "-q")
    assert done.returncode == 0, done.stderr

    sheets = sorted((root / "output" / "treasure").glob("treasure-card-a4-*.pdf"))
    assert sheets, sorted(p.name for p in (root / "output" / "treasure").iterdir())
    reader = PdfReader(sheets[0])
    own = registered_name("Corsair", (root / "fonts" / "Corsair.ttf").read_bytes())
    fonts, images = set(), 0
    for page in reader.pages:
        resources = page["/Resources"].get_object()
        for obj in _xobjects(resources):
            images += obj.get("/Subtype") == "/Image"
            form_fonts = obj.get("/Resources", {}).get_object().get("/Font", {}) if "/Resources" in obj else {}
            fonts.update(str(f.get_object()["/BaseFont"]) for f in form_fonts.values())
        fonts.update(str(f.get_object()["/BaseFont"]) for f in resources.get("/Font", {}).values())
    assert any(name.endswith(f"+{own}") for name in fonts), fonts  # embedded as a subset: 'AAAAAA+Corsair-…'
    assert images == 0  # the wave is paths, not a picture
    # ... and it is drawn: the page shows the wave's blue (#1f6fa8), which nothing else on the card uses
    import pypdfium2

    page = pypdfium2.PdfDocument(str(sheets[0]))[0]
    pixels = page.render(scale=1).to_pil().convert("RGB").get_flattened_data()
    wave = sum(1 for r, g, b in pixels if abs(r - 0x1F) < 10 and abs(g - 0x6F) < 10 and abs(b - 0xA8) < 10)
    assert wave > 1000
