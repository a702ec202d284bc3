"""Paragraphs whose text may hold inline icons (`Take 1 :coin: per ship`), drawn at the text's size.

`markup.inline_to_para` turns each `:icon:` into a marker (it cannot know the size the
text will be set at); this Paragraph knows each run's size and colour, and swaps each marker
for a picture one em square, standing on the baseline, in the icon's own colour or the text's.
(Pictures, because Platypus places nothing else inline; see `icons.icon_png`.)
"""

from __future__ import annotations

import io
import re
from typing import Any

from reportlab.platypus import Paragraph

from generator.render.icons import icon_png
from generator.render.text import ICON_SCALE

MARKER_OPEN, MARKER_CLOSE = "\ue020", "\ue021"  # private-use stand-ins around 'name' or 'name#rrggbb'
MARKER = re.compile(f"{MARKER_OPEN}([a-z][a-z0-9_-]*)(#[0-9a-fA-F]{{3,6}})?{MARKER_CLOSE}")


def marker(name: str, colour: str | None) -> str:
    return f"{MARKER_OPEN}{name}{colour or ''}{MARKER_CLOSE}"


def _hex(colour: Any) -> str:
    """A ReportLab colour (or '#abc' / '#aabbcc') as '#rrggbb'."""
    if isinstance(colour, str):
        value = colour.lstrip("#")
        return "#" + ("".join(ch * 2 for ch in value) if len(value) == 3 else value).lower()
    return "#" + colour.hexval()[2:].lower() if colour is not None else "#000000"


def _icon_frags(frag: Any, size: float) -> list[Any]:
    """One parsed run of text cut at its icon markers: text runs, and pictures one em square."""
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus.paraparser import ABag

    out: list[Any] = []
    position = 0
    for match in MARKER.finditer(frag.text):
        if match.start() > position:
            out.append(frag.clone(text=frag.text[position:match.start()]))
        png = icon_png(match.group(1), _hex(match.group(2) or frag.textColor))
        picture = ABag(kind="img", src=f"icon:{match.group(1)}", image=ImageReader(io.BytesIO(png)),
                       width=size * ICON_SCALE, height=size * ICON_SCALE, valign="baseline")
        out.append(frag.clone(text="", cbDefn=picture))
        position = match.end()
    if position < len(frag.text):
        out.append(frag.clone(text=frag.text[position:]))
    return out


class IconParagraph(Paragraph):
    """A ReportLab Paragraph that draws inline icon markers as pictures at the size of their text.

    The markup is parsed as usual (markers are plain private-use characters to the parser); then
    each run holding markers is cut, and each marker becomes a picture in that run's own size and
    colour, so a bold or smaller run gets a matching icon.

    It also breaks its lines once per width: Platypus asks a paragraph's size again and again at
    the same width (a heading's room measures the section under it, a table measures its rows
    before it draws them, a frame measures before it places), and a paragraph's lines depend on
    nothing but its width (its text and style never change), so a repeated `wrap` restores what
    the first one at that width worked out.
    """

    _wrapped: tuple[float, Any, Any, float, float] | None = None  # width asked, _wrapWidths, blPara, height, _width_max

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        done = self._wrapped
        if done is not None and done[0] == availWidth:
            self.width, self._wrapWidths, self.blPara, self.height, self._width_max = done
            return availWidth, done[3]
        width, height = super().wrap(availWidth, availHeight)
        if width == availWidth:  # laid out (not refused for want of width)
            self._wrapped = (availWidth, self._wrapWidths, self.blPara, height, getattr(self, "_width_max", 0.0))
        return width, height

    def __init__(self, text: Any, style: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(text, style, *args, **kwargs)
        if isinstance(text, str) and MARKER_OPEN in text:
            parsed: list[Any] = list(getattr(self, "frags", []))
            parts: list[Any] = []
            for frag in parsed:
                if MARKER_OPEN in getattr(frag, "text", ""):
                    parts.extend(_icon_frags(frag, frag.fontSize))
                else:
                    parts.append(frag)
            self.frags = parts
