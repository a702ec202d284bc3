"""Setting text in a box: word wrap, `**bold**`, inline `:icon:` glyphs, shrink-to-fit.

One small typesetter shared by drawing and by the fit checks of `pnp
validate`, so what validate measures is exactly what gets printed. Widths come
from ReportLab's `stringWidth` on the shipped fonts. Results are cached: the
same rule text on many copies is set once.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.render.faces.glyphs import text_width

ICON_SCALE = 1.0  # an inline icon is a square this many ems wide, standing on the baseline
ICON_RE = r":[a-z][a-z0-9_-]*(?:#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})?:"
TOKEN = re.compile(rf"(\*\*|{ICON_RE}|\n|[ \t]+)")
ICON_TOKEN = re.compile(r"^:([a-z][a-z0-9_-]*)(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})?:$")
MIN_HEAD = 3  # letters a broken word must keep on the line it starts on
SHRINK_STEP = 0.25  # points: the sizes tried are `size`, `size - 0.25`, ... down to `min_size`
FITS = ("shrink", "none")
INLINE_ICONS = "inline_icons"  # a resolved textbox's icons named in its text (`layout.LayoutLibrary._inline_icons`)
NO_ICONS: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Piece:
    """A run of text in one font, or an inline icon (`icon` set, `text` empty) in its own `colour`
    (`:coin#c9a227:`) or, when None, the text's colour."""

    text: str
    bold: bool
    icon: str | None = None
    colour: str | None = None


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
    broken: bool = False  # a word wider than the box was broken over lines


def parse(text: str, icons: Collection[str] = NO_ICONS) -> list[list[Word]]:
    """Paragraphs (split at newlines) of words (split at spaces) of pieces; `:name:` is an icon when `icons`
    holds the name, else letters."""
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
        icon = ICON_TOKEN.match(token)
        if token == "**":
            bold = not bold
        elif token == "\n":
            end_word()
            paragraphs.append([])
        elif token.isspace():
            end_word()
        elif icon and icon.group(1) in icons:
            word.append(Piece("", bold, icon.group(1), icon.group(2)))
        else:
            word.append(Piece(token, bold))
    end_word()
    return paragraphs


def icon_names(text: str) -> list[str]:
    """Every `:name:` token of `text`, known or not."""
    return [match.group(1) for token in TOKEN.split(text) if (match := ICON_TOKEN.match(token or ""))]


def unknown_icons(text: str, known: Collection[str]) -> list[str]:
    """`:name:` tokens that name no icon of `known` (probably typos), for the fit checks."""
    return [match.group(1) for token in TOKEN.split(text) if (match := ICON_TOKEN.match(token or ""))
            and match.group(1) not in known]


def icon_problem(name: str, known: Collection[str]) -> str:
    """Why `:name:` is refused, with the nearest icon names (a typo is the usual cause)."""
    close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
    hint = (f"; did you mean {', '.join(f':{c}:' for c in close)}?" if close
            else f" (an icon is an SVG file in templates/icons/; icons: {', '.join(sorted(known)) or 'none'})")
    return f"unknown inline icon ':{name}:'{hint}"


def inline_icons(element: Any) -> dict[str, Any]:
    """A resolved textbox's inline icons by name (`faces.icons.Icon`s); empty for any other element."""
    return {icon.name: icon for icon in element.get(INLINE_ICONS) or ()}


def inline_names(element: Any) -> frozenset[str]:
    """The names a resolved textbox's text may show as icons (what `set_text` is given)."""
    found = element.get(INLINE_ICONS)
    return frozenset(icon.name for icon in found) if found else NO_ICONS


def icon_box(x: float, baseline: float, size: float) -> tuple[float, float, float]:
    """Where an inline icon whose left edge is at `x` is drawn in text of `size` points: its centre and
    side. The icon's square stands on the baseline, one em (ICON_SCALE) wide and high."""
    side = size * ICON_SCALE
    return x + side / 2, baseline + side / 2, side


def shrink_floor(element: Any) -> float:
    """The smallest size a text element may be set at: its `min_size` when it may shrink (`fit: shrink`,
    or a `min_size` alone, as older layouts say it), else its `size`."""
    size = element.get("size")
    if element.get("fit") == "none":
        return float(size)
    return float(element.get("min_size") or size)


def bold_of(font: str) -> str:
    """The bold face of a shipped family ('Serif' -> 'Serif-Bold'), for `**bold**` runs."""
    from generator.render.base.fonts import FONT_FILES

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


def _break_word(word: Word, font: str, bold_font: str, size: float, width: float,
                room: float | None = None) -> list[Word]:
    """A word too wide for the box, cut into pieces that each fit, with a hyphen where letters are
    cut apart. The first piece fills the `room` left on the current line when a few letters fit
    there. A single character wider than the box still gets its own line (validate reports it)."""
    units = [unit for p in word for unit in ([p] if p.icon else [Piece(ch, p.bold) for ch in p.text])]
    chunks: list[Word] = []
    start = 0
    limit = width if room is None else room
    while start < len(units):
        end = start + 1
        best = _chunk(units, start, end, font, bold_font, size)
        while end < len(units):
            candidate = _chunk(units, start, end + 1, font, bold_font, size)
            if _width(candidate, font, bold_font, size) > limit + 1e-6:
                break
            end, best = end + 1, candidate
        if limit != width and (end - start < MIN_HEAD or _width(best, font, bold_font, size) > limit + 1e-6):
            limit = width  # too little room left on the line: the word starts the next one
            continue
        chunks.append(best)
        start, limit = end, width
    return chunks


def _chunk(units: list[Piece], start: int, end: int, font: str, bold_font: str, size: float) -> Word:
    """Units [start, end) merged into runs, with a hyphen when the cut falls between two letters."""
    pieces: list[Piece] = []
    for unit in units[start:end]:
        if pieces and not unit.icon and not pieces[-1].icon and pieces[-1].bold == unit.bold:
            pieces[-1] = Piece(pieces[-1].text + unit.text, unit.bold)
        else:
            pieces.append(unit)
    last, following = units[end - 1], units[end] if end < len(units) else None
    if following is not None and last.text.isalnum() and following.text.isalnum():
        tail = pieces[-1]
        pieces[-1] = Piece(tail.text + "-", tail.bold)
    return tuple(pieces)


def _wrap(paragraphs: list[list[Word]], font: str, bold_font: str, size: float, width: float,
          breaking: bool) -> tuple[list[Line], float, bool]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    space = stringWidth(" ", font, size)
    lines: list[Line] = []
    widest = 0.0
    broken = False
    for paragraph in paragraphs:
        current: list[Word] = []
        current_width = 0.0
        for word in paragraph:
            w = _width(word, font, bold_font, size)
            if w > width + 1e-6 and breaking:
                broken = True
                room = width - current_width - space if current else None
                parts = _break_word(word, font, bold_font, size, width, room)
                words = [(part, _width(part, font, bold_font, size)) for part in parts]
            else:
                words = [(word, w)]
            for part, part_width in words:
                current, current_width = _place(lines, current, current_width, part, part_width, space, width)
                widest = max(widest, part_width)
        lines.append(Line(tuple(current), current_width))
    return lines, widest, broken


def _place(lines: list[Line], current: list[Word], current_width: float, word: Word, w: float, space: float,
           width: float) -> tuple[list[Word], float]:
    """Put `word` on the current line, or close that line and start the next with it."""
    extra = w if not current else current_width + space + w
    if current and extra > width:
        lines.append(Line(tuple(current), current_width))
        return [word], w
    current.append(word)
    return current, extra


def _sizes(size: float, min_size: float) -> list[float]:
    """The sizes shrink-to-fit may pick, largest first: `size` down in SHRINK_STEP to `min_size`."""
    steps = max(0, int((size - min_size) / SHRINK_STEP + 1e-9))
    return [size - k * SHRINK_STEP for k in range(steps + 1)]


def _largest(sizes: list[float], ok: Any) -> int | None:
    """The index of the largest size that passes `ok` (binary search: fitting is monotonic in size)."""
    if ok(0):
        return 0
    if not ok(len(sizes) - 1):
        return None
    lo, hi = 0, len(sizes) - 1  # ok(lo) fails, ok(hi) passes
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


@lru_cache(maxsize=4096)
def set_text(text: str, font: str, bold_font: str, size: float, min_size: float, leading: float,
             width: float, height: float, icons: frozenset[str] = NO_ICONS) -> Setting:
    """Set `text` in a box `width` x `height` points, at the largest size from `size` down to `min_size`
    that fits.

    Whole words are preferred: a size at which every word fits the width wins over a larger one that
    must break a word; if no size keeps words whole, long words are broken (with a hyphen) at the
    largest size where the lines then fit. If nothing fits, the setting at `min_size` with `fits=False`.
    `icons`: the names `:name:` may show as an inline icon (`inline_names`).
    """
    paragraphs = parse(text, icons)
    sizes = _sizes(size, min_size)
    settings: dict[tuple[int, bool], Setting] = {}

    def setting(index: int, breaking: bool) -> Setting:
        if (index, breaking) not in settings:
            current = sizes[index]
            lines, widest, broken = _wrap(paragraphs, font, bold_font, current, width, breaking)
            line_gap = current * leading
            total = current + line_gap * (len(lines) - 1) if lines else 0.0
            fits = widest <= width + 1e-6 and total <= height + 1e-6
            settings[(index, breaking)] = Setting(current, line_gap, tuple(lines), fits, widest, broken)
        return settings[(index, breaking)]

    whole = _largest(sizes, lambda i: setting(i, False).fits)
    if whole is not None:
        return setting(whole, False)
    broken = _largest(sizes, lambda i: setting(i, True).fits)
    return setting(len(sizes) - 1 if broken is None else broken, True)


@lru_cache(maxsize=4096)
def fit_line(text: str, font: str, size: float, min_size: float, max_width: float) -> tuple[float, bool]:
    """The largest size from `size` down to `min_size` at which a single line fits `max_width` points,
    and whether it does (at `min_size` when none does)."""
    sizes = _sizes(size, min_size)
    best = _largest(sizes, lambda i: text_width(text, font, sizes[i]) <= max_width + 1e-6)
    return (sizes[-1], False) if best is None else (sizes[best], True)
