"""The fonts that ship inside the package, registered once with ReportLab.

No system fonts: every PDF embeds these TrueType files (SIL Open Font
License, see generator/fonts/LICENSE-*.txt), so output is identical on every
machine. Layouts name fonts by these family names.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parents[2] / "fonts"

# ReportLab name -> file in generator/fonts
FONT_FILES: dict[str, str] = {
    "Display": "FjallaOne-Regular.ttf",
    "Sans": "SourceSansPro-Regular.ttf",
    "Sans-Bold": "SourceSansPro-Bold.ttf",
    "Sans-Italic": "SourceSansPro-It.ttf",
    "Sans-BoldItalic": "SourceSansPro-BoldIt.ttf",
    "Sans-Semibold": "SourceSansPro-Semibold.ttf",
    "Serif": "SourceSerifPro-Regular.ttf",
    "Serif-Bold": "SourceSerifPro-Bold.ttf",
    "Serif-Italic": "SourceSerifPro-It.ttf",
    "Serif-Semibold": "SourceSerifPro-Semibold.ttf",
}

# Drawn for characters the chosen font lacks (Latin Extended, Greek, Cyrillic, ...): DejaVu Sans,
# Bitstream Vera licence (free, see generator/fonts/LICENSE-DejaVu.txt). Not offered to layouts by name.
FALLBACK = "Fallback"
FALLBACK_FILE = "DejaVuSans.ttf"

FAMILIES = {
    "Sans": ("Sans", "Sans-Bold", "Sans-Italic", "Sans-BoldItalic"),
    "Serif": ("Serif", "Serif-Bold", "Serif-Italic", "Serif-Bold"),
}


@lru_cache(maxsize=1)
def register_fonts() -> tuple[str, ...]:
    """Register every shipped font (idempotent); returns the names layouts may use."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics

    from generator.render.base.font_cache import load_font

    for name, filename in (*FONT_FILES.items(), (FALLBACK, FALLBACK_FILE)):
        pdfmetrics.registerFont(load_font(name, FONT_DIR / filename))  # parsed once per user, not per process
    for family, (normal, bold, italic, bold_italic) in FAMILIES.items():
        addMapping(family, 0, 0, normal)
        addMapping(family, 1, 0, bold)
        addMapping(family, 0, 1, italic)
        addMapping(family, 1, 1, bold_italic)
    return tuple(FONT_FILES)
