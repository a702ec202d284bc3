"""Setting text in a box: word wrap, `**bold**`, inline `:icon:` glyphs, shrink-to-fit.

One small typesetter shared by drawing and by the fit checks of `pnp
validate`, so what validate measures is exactly what gets printed. Widths come
from ReportLab's `stringWidth` on the shipped fonts. Results are cached: the
same rule text on many copies is set once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from generator.render.glyphs import text_width
from generator.render.icons import ICONS

ICON_SCALE = 1.0  # an inline icon is a square this many ems wide
TOKEN = re.compile(r"(\*\*|:[a-z][a-z0-9_-]*:|\n|[ \t]+)")
SHRINK_STEP = 0.25  # points


@dataclass(frozen=True)
class Piece:
    """A run of text in one font, or an inline icon (`icon` set, `text` empty)."""

    text: str
    bold: bool
    icon: str | None = None


Word = tuple[Piece, ...]


@dataclass(frozen=True)
class Line:
    words: tuple[Word, ...]
    width: float  # points, including the spaces


@dataclass(frozen=True)
class Setting:
    """Text set in a box: its lines at `size`, and whether it fits."""

    size: float
    leading: float  # points between baselines
    lines: tuple[Line, ...]
    fits: bool
    widest: float  # points


def parse(text: str) -> list[list[Word]]:
    """Paragraphs (split at newlines) of words (split at spaces) of pieces."""
    paragraphs: list[list[Word]] = [[]]
    word: list[Piece] = []
    bold = False

    def end_word() -> None:
        if word:
            paragraphs[-1].append(tuple(word))
            word.clear()

    for token in TOKEN.split(text):
        if not token:
            continue
        if token == "**":
            bold = not bold
        elif token == "\n":
            end_word()
            paragraphs.append([])
        elif token.isspace():
            end_word()
        elif token.startswith(":") and token.endswith(":") and len(token) > 2 and token[1:-1] in ICONS:
            word.append(Piece("", bold, token[1:-1]))
        else:
            word.append(Piece(token, bold))
    end_word()
    return paragraphs


def unknown_icons(text: str) -> list[str]:
    """`:name:` tokens that name no icon (probably typos), for the fit checks."""
    return [t[1:-1] for t in TOKEN.split(text) if t and t.startswith(":") and t.endswith(":")
            and len(t) > 2 and t[1:-1] not in ICONS]


def bold_of(font: str) -> str:
    """The bold face of a shipped family ('Serif' -> 'Serif-Bold'), for `**bold**` runs."""
    from generator.render.fonts import FONT_FILES

    candidate = f"{font.split('-')[0]}-Bold"
    return candidate if candidate in FONT_FILES else font


def _width(word: Word, font: str, bold_font: str, size: float) -> float:

    total = 0.0
    for piece in word:
        if piece.icon:
            total += size * ICON_SCALE
        else:
            total += text_width(piece.text, bold_font if piece.bold else font, size)
    return total


def _wrap(paragraphs: list[list[Word]], font: str, bold_font: str, size: float, width: float) -> tuple[list[Line], float]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    space = stringWidth(" ", font, size)
    lines: list[Line] = []
    widest = 0.0
    for paragraph in paragraphs:
        current: list[Word] = []
        current_width = 0.0
        for word in paragraph:
            w = _width(word, font, bold_font, size)
            widest = max(widest, w)
            extra = w if not current else current_width + space + w
            if current and extra > width:
                lines.append(Line(tuple(current), current_width))
                current, current_width = [word], w
            else:
                current.append(word)
                current_width = extra
        lines.append(Line(tuple(current), current_width))
    return lines, widest


@lru_cache(maxsize=4096)
def set_text(text: str, font: str, bold_font: str, size: float, min_size: float, leading: float,
             width: float, height: float) -> Setting:
    """Set `text` in a box `width` x `height` points, shrinking from `size` down to `min_size`.

    Returns the first size at which every word fits the width and all lines fit
    the height; if none does, the setting at `min_size` with `fits=False`.
    """
    paragraphs = parse(text)
    current = size
    while True:
        lines, widest = _wrap(paragraphs, font, bold_font, current, width)
        line_gap = current * leading
        total = current + line_gap * (len(lines) - 1) if lines else 0.0
        fits = widest <= width + 1e-6 and total <= height + 1e-6
        if fits or current - SHRINK_STEP < min_size - 1e-9:
            return Setting(current, line_gap, tuple(lines), fits, widest)
        current -= SHRINK_STEP


@lru_cache(maxsize=4096)
def fit_line(text: str, font: str, size: float, min_size: float, max_width: float) -> tuple[float, bool]:
    """The size at which a single line fits `max_width` points (shrinking to `min_size`), and whether it does."""

    current = size
    while True:
        fits = text_width(text, font, current) <= max_width + 1e-6
        if fits or current - SHRINK_STEP < min_size - 1e-9:
            return current, fits
        current -= SHRINK_STEP
