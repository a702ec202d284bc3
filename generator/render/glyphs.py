"""Which characters the shipped fonts can draw.

ReportLab silently leaves out a character its font has no glyph for: a
decomposed 'ú' (u + combining accent, as some editors and file systems write
it) lost its accent, and Arabic or CJK titles vanished. Text is therefore put
in composed form (NFC) before it is measured or drawn, and anything still
missing from the font is reported: by `pnp validate` for faces (the card, the
element and the character), and as a file:line error for documents.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

IGNORED = frozenset("\n\r\t\u00ad\u200b\u200c\u200d\ufeff")  # layout controls, never drawn as glyphs


def composed(text: str) -> str:
    """Text in NFC: 'u' + combining acute becomes 'ú', which the fonts do have."""
    return unicodedata.normalize("NFC", text)


@lru_cache(maxsize=64)
def _cmap(font: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    from generator.render.fonts import register_fonts

    register_fonts()
    face = getattr(pdfmetrics.getFont(font), "face", None)
    return frozenset(getattr(face, "charToGlyph", {}) or ())


def missing(text: str, *fonts: str) -> list[str]:
    """Characters of `text` (composed) that one of `fonts` cannot draw, each once, in order of appearance."""
    maps = [_cmap(font) for font in fonts]
    found: list[str] = []
    for char in composed(text):
        if char in IGNORED or char in found or (char.isspace() and char in " \u00a0"):
            continue
        if any(ord(char) not in cmap for cmap in maps):
            found.append(char)
    return found


def describe(char: str) -> str:
    """A character as people can find it: 'ع' (U+0639 ARABIC LETTER AIN)."""
    name = unicodedata.name(char, "unnamed character")
    return f"{char!r} (U+{ord(char):04X} {name})"


DOCUMENT_FONTS = ("Serif", "Sans")  # body text and tables; headings also use Display
HEADING_FONTS = ("Display",)


def drawable_lines(lines: list[tuple[int, str]], display: str) -> list[tuple[int, str]]:
    """A document's (line, text) pairs in composed form; a character its fonts cannot draw is a
    DataError at that template line, instead of a gap in the printed page."""
    from generator.errors import DataError, Location

    out = []
    for line, raw in lines:
        text = composed(raw)
        fonts = DOCUMENT_FONTS + (HEADING_FONTS if text.lstrip().startswith("#") else ())
        lost = missing(text, *fonts)
        if lost:
            chars = ", ".join(describe(c) for c in lost[:3])
            raise DataError(f"the shipped fonts ({', '.join(fonts)}) cannot draw {chars}; "
                            "write the text in Latin, Greek or Cyrillic script", Location(display, line))
        out.append((line, text))
    return out
