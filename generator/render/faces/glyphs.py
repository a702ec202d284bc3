"""Which characters the shipped fonts can draw.

ReportLab silently leaves out a character its font has no glyph for: a
decomposed 'ú' (u + combining accent, as some editors and file systems write
it) lost its accent, and Arabic or CJK titles vanished. Text is therefore put
in composed form (NFC) before it is measured or drawn; on faces a character the
chosen font lacks is drawn with the shipped fallback font (DejaVu Sans: Latin
Extended, Greek, Cyrillic, Arabic letters...), and anything no shipped font has
(CJK: no font of sane size ships) is reported: by `pnp validate` for faces (the
card, the element and the character), and as a file:line error for documents.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

IGNORED = frozenset("\n\r\t\u00ad\u200b\u200c\u200d\ufeff")  # layout controls, never drawn as glyphs


def composed(text: str) -> str:
    """Text in NFC: 'u' + combining acute becomes 'ú', which the fonts do have."""
    return unicodedata.normalize("NFC", text)


@lru_cache(maxsize=64)
def _cmap(font: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    from generator.render.base.fonts import register_fonts

    register_fonts()
    face = getattr(pdfmetrics.getFont(font), "face", None)
    return frozenset(getattr(face, "charToGlyph", {}) or ())


def missing(text: str, *fonts: str, fallback: bool = False) -> list[str]:
    """Characters of `text` (composed) that one of `fonts` cannot draw, each once, in order of appearance;
    with `fallback`, a character the fallback font draws counts as drawable (faces use it)."""
    if text.isascii() and all(_has_ascii(font) for font in fonts):  # nearly every card text: nothing to look up
        return []
    return list(_missing(text, fonts, fallback))


@lru_cache(maxsize=64)
def _has_ascii(font: str) -> bool:
    cmap = _cmap(font)
    return all(code in cmap for code in range(0x20, 0x7F))


@lru_cache(maxsize=4096)
def _missing(text: str, fonts: tuple[str, ...], fallback: bool) -> tuple[str, ...]:
    from generator.render.base.fonts import FALLBACK

    maps = [_cmap(font) for font in fonts]
    spare = _cmap(FALLBACK) if fallback else frozenset()
    found: list[str] = []
    for char in composed(text):
        if char in IGNORED or char in found or char in " \u00a0":
            continue
        if not (fallback and _spare(char, spare)) and any(ord(char) not in cmap for cmap in maps):
            found.append(char)
    return tuple(found)


def _spare(char: str, spare: frozenset[int]) -> bool:
    """Whether the fallback font may draw `char`: it has the glyph, and the script is written left to
    right (Arabic and Hebrew need shaping and right-to-left order that plain drawing cannot give)."""
    return ord(char) in spare and unicodedata.bidirectional(char) not in ("R", "AL", "AN")


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """`text` cut into (text, font) runs: the chosen font where it has the glyph, else the
    fallback font where that has it (a character neither has stays with `font`: validation reports it)."""
    from generator.render.base.fonts import FALLBACK

    own = _cmap(font)
    if own.issuperset(map(ord, text)):  # the common case: the chosen font has every glyph, one run
        return [(text, font)] if text else []
    spare = _cmap(FALLBACK)
    out: list[tuple[str, str]] = []
    for char in text:
        use = FALLBACK if ord(char) not in own and _spare(char, spare) and not char.isspace() else font
        if out and out[-1][1] == use:
            out[-1] = (out[-1][0] + char, use)
        else:
            out.append((char, use))
    return out


def text_width(text: str, font: str, size: float) -> float:
    """The drawn width of `text`, with the fallback font where the chosen font has no glyph."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    own = _cmap(font)
    if own.issuperset(map(ord, text)):  # the common case: one font, one measurement
        return float(stringWidth(text, font, size))
    return float(sum(stringWidth(part, use, size) for part, use in runs(text, font)))


def draw_runs(canvas: Any, x: float, y: float, text: str, font: str, size: float) -> float:
    """Draw `text` from (x, y) left-aligned, switching to the fallback font where needed; returns its width."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    start = x
    for part, use in runs(text, font):
        canvas.setFont(use, size)
        canvas.drawString(x, y, part)
        x += stringWidth(part, use, size)
    return x - start


def describe(char: str) -> str:
    """A character as people can find it: 'ع' (U+0639 ARABIC LETTER AIN)."""
    name = unicodedata.name(char, "unnamed character")
    return f"{char!r} (U+{ord(char):04X} {name})"


DOCUMENT_FONTS = ("Serif", "Sans")  # body text and tables; headings also use Display
HEADING_FONTS = ("Display",)


def drawable_lines(lines: list[tuple[int, str]], display: str, markers: str = "",
                   body: tuple[str, ...] = DOCUMENT_FONTS, headings: tuple[str, ...] = HEADING_FONTS
                   ) -> list[tuple[int, str]]:
    """A document's (line, text) pairs in composed form; a character its fonts (`body`, and `headings` on
    heading lines) cannot draw is a DataError at that template line, instead of a gap in the printed page.
    `markers` are the caller's own stand-in characters (replaced before anything is drawn), never checked."""
    from generator.errors import DataError, Location

    out = []
    for line, raw in lines:
        text = composed(raw)
        fonts = body + (headings if text.lstrip().startswith("#") else ())
        lost = [c for c in missing(text, *fonts) if c not in markers]
        if lost:
            chars = ", ".join(describe(c) for c in lost[:3])
            names = ", ".join(dict.fromkeys(getattr(font, "stem", font) for font in fonts))
            error = DataError(f"the fonts ({names}) cannot draw {chars}; write the text in a script they have "
                              "(the shipped fonts: Latin, Greek or Cyrillic)", Location(display, line))
            error.lost = tuple(lost)  # type: ignore[attr-defined]  # the caller may find the data that holds them
            raise error
        out.append((line, text))
    return out
