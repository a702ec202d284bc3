"""Paragraphs whose text may hold inline icons (`Take 1 :coin: per ship`), drawn at the text's size.

`markup.inline_to_para` turns each `:icon:` into a marker (it cannot know the size the
text will be set at); this Paragraph knows each run's size and colour, and swaps each marker
for a picture one em square, standing on the baseline, in the icon's own colour or the text's.
(Pictures, because Platypus places nothing else inline; see `faces.icons.Icon.png`.) The icons are the
game's (`faces.icons.icon_set`), handed to each paragraph (`icons=`); a marker naming none of them stays text.
"""

from __future__ import annotations

import io
import re
from typing import Any

from reportlab.lib.fonts import ps2tt, tt2ps
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import textTransformFrags
from reportlab.platypus.paraparser import ParaFrag

from generator.render.documents.lines import ParagraphLines
from generator.render.faces.icons import IconSet
from generator.render.faces.text import ICON_SCALE

MARKER_OPEN, MARKER_CLOSE = "\ue020", "\ue021"  # private-use stand-ins around 'name' or 'name#rrggbb'
MARKER = re.compile(f"{MARKER_OPEN}([a-z][a-z0-9_-]*)(#[0-9a-fA-F]{{3,6}})?{MARKER_CLOSE}")


# What `markup.inline_to_para` writes: <b>, <i> and three entities; anything else goes to ReportLab's parser.
PARA_TOKEN = re.compile(r"<(/?)([bi])>|&(amp|lt|gt);|[<&]")
ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}


def marker(name: str, colour: str | None) -> str:
    return f"{MARKER_OPEN}{name}{colour or ''}{MARKER_CLOSE}"


def _hex(colour: Any) -> str:
    """A ReportLab colour (or '#abc' / '#aabbcc') as '#rrggbb'."""
    if isinstance(colour, str):
        value = colour.lstrip("#")
        return "#" + ("".join(ch * 2 for ch in value) if len(value) == 3 else value).lower()
    return "#" + colour.hexval()[2:].lower() if colour is not None else "#000000"


def _icon_frags(frag: Any, size: float, icons: IconSet | None) -> list[Any]:
    """One parsed run of text cut at its icon markers: text runs, and pictures one em square."""
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus.paraparser import ABag

    out: list[Any] = []
    position = 0
    for match in MARKER.finditer(frag.text):
        if match.start() > position:
            out.append(frag.clone(text=frag.text[position:match.start()]))
        icon = icons.get(match.group(1)) if icons is not None else None
        if icon is None:
            out.append(frag.clone(text=f":{match.group(1)}{match.group(2) or ''}:"))
            position = match.end()
            continue
        png = icon.png(_hex(match.group(2) or frag.textColor))
        picture = ABag(kind="img", src=f"icon:{match.group(1)}", image=ImageReader(io.BytesIO(png)),
                       width=size * ICON_SCALE, height=size * ICON_SCALE, valign="baseline")
        out.append(frag.clone(text="", cbDefn=picture))
        position = match.end()
    if position < len(frag.text):
        out.append(frag.clone(text=frag.text[position:]))
    return out


def _copied(frag: Any) -> Any:
    """`copy.copy` of a run, as the parser makes it (a new ParaFrag holding the same attributes), without
    copy's generic reduce-and-rebuild."""
    new = ParaFrag.__new__(ParaFrag)
    new.__dict__.update(frag.__dict__)
    return new


def simple_frags(text: str, style: Any) -> list[Any] | None:
    """The runs ReportLab's `ParaParser` makes of `text` (cleaned), made without its HTML parser;
    None when `text` holds more than bold, italic and the entities &amp; &lt; &gt;.

    A paragraph's markup is parsed once per document, and the HTML parser was most of that.
    This replays `ParaParser.parse` step for step for that subset (ReportLab 5.1: `_initial_frag`,
    `_push`, `handle_data`, `handle_entityref`), so the runs are the same, attribute for attribute:
    a run of text ends at every tag and every entity, and each entity is a run of its own.
    """
    base = ParaFrag()  # as _initial_frag, for a <para> with no attributes
    base.rise = 0
    base.greek = 0
    base.link = []
    base.fontName, base.bold, base.italic = ps2tt(style.fontName)
    base.fontSize = style.fontSize
    base.textColor = style.textColor
    base.us_lines = []
    base.__tag__ = "para"
    stack = [base]
    frags: list[Any] = []

    def data(chunk: str) -> None:
        frag = _copied(stack[-1])
        frag.fontName = tt2ps(frag.fontName, frag.bold, frag.italic)
        frag.text = chunk
        frags.append(frag)

    position = 0
    for token in PARA_TOKEN.finditer(text):
        start = token.start()
        if start > position:
            data(text[position:start])
        position = token.end()
        closing, tag, entity = token.groups()
        if entity:
            data(ENTITIES[entity])
        elif not tag:  # any other tag or entity
            return None
        elif closing:
            if len(stack) == 1 or stack[-1].__tag__ != tag:
                return None  # unbalanced: ReportLab's parser says what is wrong
            stack.pop()
        else:
            frag = _copied(stack[-1])
            frag.__tag__ = tag
            setattr(frag, "bold" if tag == "b" else "italic", 1)
            stack.append(frag)
    if position < len(text):
        data(text[position:])
    return frags if len(stack) == 1 else None


class IconParagraph(Paragraph):
    """A ReportLab Paragraph that draws inline icon markers as pictures at the size of their text.

    The markup is parsed as usual (markers are plain private-use characters to the parser); then
    each run holding markers is cut, and each marker becomes a picture in that run's own size and
    colour, so a bold or smaller run gets a matching icon.

    It also breaks its lines once per width: Platypus asks a paragraph's size again and again at
    the same width (a heading's room measures the section under it, a table measures its rows
    before it draws them, a frame measures before it places), and a paragraph's lines depend on
    nothing but its width (its text and style never change), so a repeated `wrap` restores what
    the first one at that width worked out. Given the session's `ParagraphLines` (`lines=`), it also
    takes the lines a paragraph of the same markup, style and width had in this build or the one before
    (`pnp watch` then breaks only the paragraphs an edit changed); such shared lines are only ever read,
    and a paragraph split across pages breaks its own lines again first.
    """

    _wrapped: tuple[float, Any, Any, float, float] | None = None  # width asked, _wrapWidths, blPara, height, _width_max
    _lines: ParagraphLines | None = None  # the session's line breaks of recent builds (None: not shared)
    _markup: str | None = None  # the markup it was made from, when its lines may be shared
    _shared: Any = None  # the blPara taken from `_lines` (never changed here: `split` breaks its own)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        done = self._wrapped
        if done is not None and done[0] == availWidth:
            self.width, self._wrapWidths, self.blPara, self.height, self._width_max = done
            return availWidth, done[3]
        lines, key = self._lines, None
        if lines is not None and self._markup is not None:
            key = lines.key(type(self).__name__, self._markup, self.bulletText, self.style, availWidth)
            known = lines.get(key)
            if known is not None:
                self._wrapped = known
                self.width, self._wrapWidths, self.blPara, self.height, self._width_max = known
                self._shared = self.blPara
                return availWidth, known[3]
        width, height = super().wrap(availWidth, availHeight)
        if width == availWidth:  # laid out (not refused for want of width)
            self._wrapped = (availWidth, self._wrapWidths, self.blPara, height, getattr(self, "_width_max", 0.0))
            if key is not None and lines is not None:
                lines.put(key, self._wrapped)
                self._shared = self.blPara  # from now on other paragraphs may draw these lines too
        return width, height

    def split(self, availWidth: float, availHeight: float) -> list[Any]:
        """ReportLab's split, on lines of this paragraph's own: the pieces take over (and may change) the
        runs of the lines they are cut from, which must not be lines another paragraph draws."""
        if self._shared is not None and getattr(self, "blPara", None) is self._shared:
            Paragraph.wrap(self, self.width, availHeight)  # the same lines, worked out afresh
            self._wrapped = (self.width, self._wrapWidths, self.blPara, self.height, getattr(self, "_width_max", 0.0))
            self._shared = None
        return list(super().split(availWidth, availHeight))

    def _setup(self, text: Any, style: Any, bulletText: Any, frags: Any, cleaner: Any) -> None:
        """ReportLab's setup, with the common markup parsed by `simple_frags`."""
        if frags is None and isinstance(text, str) and style is not None:
            cleaned = cleaner(text)
            frags = simple_frags(cleaned, style)
            if frags is not None:
                textTransformFrags(frags, style)
                text = cleaned
        super()._setup(text, style, bulletText, frags, cleaner)

    def __init__(self, text: Any, style: Any = None, *args: Any, lines: ParagraphLines | None = None,
                 icons: IconSet | None = None, **kwargs: Any) -> None:
        super().__init__(text, style, *args, **kwargs)
        if lines is not None and isinstance(text, str) and MARKER_OPEN not in text and not args and not kwargs:
            self._lines, self._markup = lines, text  # icons' pictures come from files: not shared
        if isinstance(text, str) and MARKER_OPEN in text:
            parsed: list[Any] = list(getattr(self, "frags", []))
            parts: list[Any] = []
            for frag in parsed:
                if MARKER_OPEN in getattr(frag, "text", ""):
                    parts.extend(_icon_frags(frag, frag.fontSize, icons))
                else:
                    parts.append(frag)
            self.frags = parts
