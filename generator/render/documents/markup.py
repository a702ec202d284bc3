"""The light Markdown subset our document templates are written in, parsed into blocks.

Deliberately small, so that every construct has one obvious rendering and any
mistake can be reported at its template line:

    # Heading / ## Section / ### Subsection
    plain lines form paragraphs; **bold**, *italic*, :icon: or :icon#rrggbb: (an inline icon)
    - bullet item            1. numbered item   (indented lines continue an item)
    | table | row |  with a |---| line under the header row
    > **Example** ...        a callout box (its lines are parsed as blocks)
    ![caption](component/item)   card pictures; several on one line form a row
    [[name]]                 a table cell that is a fill-in box (score sheets)
    [[name = pattern]]       a totals box: sums the boxes above it whose names match (* any part)
    ::: pagebreak   ::: toc   ::: spacer MM   ::: nextpanel
    ::: slot COMPONENT [sideways] caption   a real-size outline to lay a pile of that component on
    ::: scene W H caption    a drawing of the table W x H mm, from the `+ ...` lines right under it:
      + face COMPONENT/ITEM [back] X Y [turn 90|180|270] [stack N [counted]]   a real face, top-left corner at X Y
      + label X Y text         words centred on X Y
      + zone X Y W H [text]    a dashed area (a player's place, a pile's spot)
      + arrow X1 Y1 X2 Y2      which way play goes
    sheet settings: ::: landscape   ::: copies N   ::: frame COMPONENT   ::: panels N

Values a template prints with `{{ ... }}` are data, never markup: a `|` or `*` in a card
name is escaped by the template renderer (`LITERAL`) and printed as written.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from generator.errors import DataError, Location
from generator.render.documents.iconpara import MARKER, MARKER_OPEN, marker
from generator.render.faces.text import icon_problem, unknown_icons

HEADING_RE = re.compile(r"^(#{1,4})\s+(.*)$")
BULLET_RE = re.compile(r"^[-*]\s+(.*)$")
NUMBER_RE = re.compile(r"^(\d+)[.)]\s+(.*)$")
IMAGE_RE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)(?:\s+(front|back))?\)")
FIELD_RE = re.compile(r"^\[\[\s*([A-Za-z0-9_. -]*?)\s*(?:=\s*([A-Za-z0-9_.* -]+?)\s*)?\]\]$")
DIRECTIVES = ("pagebreak", "toc", "spacer", "nextpanel", "slot", "scene", "landscape", "copies", "frame", "panels")
# Settings a sheet template gives once, before any content; they shape the page, not the flow.
SETTINGS = ("landscape", "copies", "frame", "panels")
# Data values printed by a template carry their markup characters as private-use stand-ins,
# so a '|' in a card name never splits a table cell and a '*' never starts emphasis.
LITERAL = {"|": "\ue010", "*": "\ue011"}
_HAS_STAND_IN = re.compile("[" + "".join(LITERAL.values()) + "]")
SCENE_KINDS = ("face", "label", "zone", "arrow")
INLINE_ICON = re.compile(r":([a-z][a-z0-9_-]*)(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})?:")  # as on faces (render.text)
TURNS = (0, 90, 180, 270)
BOLD_RE = re.compile(r"\*\*(.+?)\*\*")
ITALIC_RE = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
EMPHASIS_RE = re.compile(r"\*{1,2}(.+?)\*{1,2}")  # either kind, for plain text


def escape_literal(text: str) -> str:
    """A data value as markup that prints it exactly as written."""
    for char, stand_in in LITERAL.items():
        text = text.replace(char, stand_in)
    return text


def unescape_literal(text: str) -> str:
    if not _HAS_STAND_IN.search(text):  # the usual case: no data value with a '|' or '*' in it
        return text
    for char, stand_in in LITERAL.items():
        text = text.replace(stand_in, char)
    return text


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    text: str
    line: int


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    items: tuple[str, ...]
    line: int
    start: int = 1


@dataclass(frozen=True)
class Field:
    """A fill-in box; `name` may be empty (the renderer numbers it). A totals box has `sums`:
    a pattern (`*` stands for any part) naming the boxes above it that it adds up."""

    name: str
    sums: str = ""


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[str | Field, ...], ...]
    header: bool
    line: int


@dataclass(frozen=True)
class Callout:
    blocks: tuple[Block, ...]
    line: int


@dataclass(frozen=True)
class Picture:
    caption: str
    ref: str
    side: str = "front"


@dataclass(frozen=True)
class Pictures:
    pictures: tuple[Picture, ...]
    line: int


@dataclass(frozen=True)
class Directive:
    name: str
    arg: str
    line: int


@dataclass(frozen=True)
class SceneItem:
    """One thing drawn in a scene; lengths in mm from the scene's top-left corner."""

    kind: str
    line: int
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0  # a zone's width, an arrow's end x
    h: float = 0.0  # a zone's height, an arrow's end y
    ref: str = ""
    side: str = "front"
    turn: int = 0
    stack: int = 1
    counted: bool = False  # a stack that says how many it holds (a "x3" label): piles of coins look alike at any count
    text: str = ""


@dataclass(frozen=True)
class Scene:
    width: float
    height: float
    caption: str
    items: tuple[SceneItem, ...]
    line: int


Block = Heading | Paragraph | ListBlock | Table | Callout | Pictures | Directive | Scene


@dataclass
class _Reader:
    lines: list[tuple[int, str]]
    file: str
    icons: Collection[str] = frozenset()  # the icon names `:name:` may use (the game's `faces.icons.IconSet`)
    pos: int = 0
    blocks: list[Block] = field(default_factory=list)

    def peek(self) -> tuple[int, str] | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def error(self, message: str, line: int) -> DataError:
        return DataError(message, Location(self.file, line))


def parse(lines: list[tuple[int, str]], file: str, icons: Collection[str] = frozenset()) -> list[Block]:
    """Blocks from rendered template lines; bad markup is a DataError at the template line. `icons`: the
    names an inline `:name:` may use; any other is refused at its line."""
    reader = _Reader(list(lines), file, icons)
    while (current := reader.peek()) is not None:
        line, text = current
        stripped = text.strip()
        if not stripped:
            reader.pos += 1
        elif stripped.startswith(":::"):
            directive = _directive(reader, line, stripped)
            reader.pos += 1
            reader.blocks.append(_scene(reader, directive) if directive.name == "scene" else directive)
        elif m := HEADING_RE.match(stripped):
            check_inline(m.group(2), reader, line)
            reader.blocks.append(Heading(len(m.group(1)), m.group(2).strip(), line))
            reader.pos += 1
        elif stripped.startswith("|"):
            reader.blocks.append(_table(reader))
        elif stripped.startswith(">"):
            reader.blocks.append(_callout(reader))
        elif BULLET_RE.match(stripped) or NUMBER_RE.match(stripped):
            reader.blocks.append(_list(reader))
        elif IMAGE_RE.match(stripped):
            reader.blocks.append(_pictures(reader, line, stripped))
            reader.pos += 1
        else:
            reader.blocks.append(_paragraph(reader))
    return reader.blocks


def _directive(reader: _Reader, line: int, text: str) -> Directive:
    name, _, arg = text[3:].strip().partition(" ")
    if name not in DIRECTIVES:
        raise reader.error(f"unknown directive '::: {name}' (known: {', '.join(DIRECTIVES)})", line)
    return Directive(name, arg.strip(), line)


def _numbers(words: list[str], count: int, reader: _Reader, line: int, what: str) -> list[float]:
    try:
        values = [float(w) for w in words[:count]]
    except ValueError:
        values = []
    if len(values) != count:
        raise reader.error(f"{what} needs {count} numbers (mm), got {' '.join(words[:count])!r}", line)
    return values


def _scene(reader: _Reader, directive: Directive) -> Scene:
    """`::: scene W H caption` and the `+ ...` lines under it (blank lines between them are fine)."""
    words = directive.arg.split()
    width, height = _numbers(words, 2, reader, directive.line, "'::: scene'")
    if width <= 0 or height <= 0:
        raise reader.error("'::: scene' needs a width and a height above zero (mm)", directive.line)
    caption = " ".join(words[2:])
    check_inline(caption, reader, directive.line)
    items: list[SceneItem] = []
    while (current := reader.peek()) is not None:
        line, text = current
        stripped = text.strip()
        if not stripped:
            ahead = next((t.strip() for _, t in reader.lines[reader.pos:] if t.strip()), "")
            if not ahead.startswith("+ "):
                break
            reader.pos += 1
            continue
        if not stripped.startswith("+ "):
            break
        items.append(_scene_item(reader, line, stripped[2:].split()))
        reader.pos += 1
    if not items:
        raise reader.error("a scene needs '+ face', '+ label', '+ zone' or '+ arrow' lines right under it",
                           directive.line)
    return Scene(width, height, caption, tuple(items), directive.line)


def _scene_item(reader: _Reader, line: int, words: list[str]) -> SceneItem:
    kind = words[0] if words else ""
    if kind not in SCENE_KINDS:
        raise reader.error(f"unknown scene line '+ {kind}' (known: {', '.join(SCENE_KINDS)})", line)
    rest = words[1:]
    if kind == "label":
        x, y = _numbers(rest, 2, reader, line, "'+ label X Y text'")
        text = " ".join(rest[2:])
        check_inline(text, reader, line)
        return SceneItem("label", line, x, y, text=text)
    if kind in ("zone", "arrow"):
        x, y, w, h = _numbers(rest, 4, reader, line, f"'+ {kind}'")
        text = " ".join(rest[4:])
        check_inline(text, reader, line)
        if kind == "zone" and (w <= 0 or h <= 0):
            raise reader.error("a zone needs a width and a height above zero (mm)", line)
        return SceneItem(kind, line, x, y, w, h, text=text)
    ref = rest[0] if rest else ""
    if ref.count("/") != 1 or not all(ref.split("/")):
        raise reader.error(f"'+ face' needs component/item first, got {ref!r}", line)
    rest = rest[1:]
    side = "front"
    if rest and rest[0] in ("front", "back"):
        side, rest = rest[0], rest[1:]
    x, y = _numbers(rest, 2, reader, line, "'+ face REF X Y'")
    options = rest[2:]
    turn, stack, counted = 0, 1, False
    while options:
        if options[0] == "counted" and stack > 1:
            counted, options = True, options[1:]
            continue
        if len(options) < 2 or options[0] not in ("turn", "stack") or not options[1].isdigit():
            raise reader.error(f"after the position, '+ face' takes 'turn 90|180|270' and 'stack N' (then "
                               f"'counted' to show N), got {' '.join(options)!r}", line)
        if options[0] == "turn":
            turn = int(options[1])
            if turn not in TURNS:
                raise reader.error(f"a face turns by 90, 180 or 270 degrees, not {turn}", line)
        else:
            stack = int(options[1])
            if not 1 <= stack <= 60:
                raise reader.error(f"a stack shows 1..60 faces, not {stack}", line)
        options = options[2:]
    return SceneItem("face", line, x, y, ref=ref, side=side, turn=turn, stack=stack, counted=counted)


def _pictures(reader: _Reader, line: int, text: str) -> Pictures:
    found = list(IMAGE_RE.finditer(text))
    if IMAGE_RE.sub("", text).strip():
        raise reader.error("a picture line may hold only pictures: ![caption](component/item)", line)
    pictures = []
    for m in found:
        ref = m.group(2)
        if ref.count("/") != 1 or not all(ref.split("/")):
            raise reader.error(f"picture {ref!r} must name component/item", line)
        pictures.append(Picture(m.group(1).strip(), ref, m.group(3) or "front"))
    return Pictures(tuple(pictures), line)


def _paragraph(reader: _Reader) -> Paragraph:
    first_line = reader.lines[reader.pos][0]
    parts: list[str] = []
    while (current := reader.peek()) is not None:
        line, text = current
        stripped = text.strip()
        if not stripped or _starts_block(stripped):
            break
        check_inline(stripped, reader, line)
        parts.append(stripped)
        reader.pos += 1
    return Paragraph(" ".join(parts), first_line)


def _starts_block(stripped: str) -> bool:
    return bool(
        stripped.startswith(("|", ">", ":::"))
        or HEADING_RE.match(stripped)
        or BULLET_RE.match(stripped)
        or NUMBER_RE.match(stripped)
        or IMAGE_RE.match(stripped)
    )


def _list(reader: _Reader) -> ListBlock:
    first_line, first = reader.lines[reader.pos]
    ordered = bool(NUMBER_RE.match(first.strip()))
    start = int(NUMBER_RE.match(first.strip()).group(1)) if ordered else 1  # type: ignore[union-attr]
    items: list[str] = []
    while (current := reader.peek()) is not None:
        line, text = current
        stripped = text.strip()
        marker = NUMBER_RE.match(stripped) if ordered else BULLET_RE.match(stripped)
        if marker and not text.startswith((" ", "\t")):
            body = marker.group(2) if ordered else marker.group(1)
            check_inline(body, reader, line)
            items.append(body.strip())
        elif stripped and text.startswith((" ", "\t")) and items and not _starts_block(stripped):
            check_inline(stripped, reader, line)
            items[-1] = f"{items[-1]} {stripped}"
        else:
            break
        reader.pos += 1
    return ListBlock(ordered, tuple(items), first_line, start)


def _split_row(text: str, reader: _Reader, line: int) -> list[str]:
    body = text.strip()
    if not body.endswith("|") or len(body) < 2:
        raise reader.error("a table row must start and end with '|'", line)
    return [cell.strip() for cell in body[1:-1].split("|")]


def _table(reader: _Reader) -> Table:
    first_line = reader.lines[reader.pos][0]
    rows: list[tuple[str | Field, ...]] = []
    header = False
    width: int | None = None
    while (current := reader.peek()) is not None and current[1].strip().startswith("|"):
        line, text = current
        cells = _split_row(text, reader, line)
        reader.pos += 1
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            if len(rows) != 1 or header:
                raise reader.error("the |---| line must come right after the header row, once", line)
            header = True
            continue
        if width is None:
            width = len(cells)
        elif len(cells) != width:
            raise reader.error(f"table row has {len(cells)} cells, the table has {width}", line)
        row: list[str | Field] = []
        for cell in cells:
            m = FIELD_RE.match(cell)
            if m:
                row.append(Field(m.group(1), m.group(2) or ""))
            else:
                check_inline(cell, reader, line)
                row.append(cell)
        rows.append(tuple(row))
    return Table(tuple(rows), header, first_line)


def _callout(reader: _Reader) -> Callout:
    first_line = reader.lines[reader.pos][0]
    inner: list[tuple[int, str]] = []
    while (current := reader.peek()) is not None and current[1].strip().startswith(">"):
        line, text = current
        body = text.strip()[1:]
        inner.append((line, body[1:] if body.startswith(" ") else body))
        reader.pos += 1
    blocks = parse(inner, reader.file, reader.icons)
    if any(isinstance(b, (Callout, Directive)) for b in blocks):
        raise reader.error("a callout box cannot hold another box or a directive", first_line)
    return Callout(tuple(blocks), first_line)


def _inner(match: re.Match[str]) -> str:
    return match.group(1)


def check_inline(text: str, reader: _Reader, line: int) -> None:
    """Bold and italic markers must pair up; a stray one is a typo, not literal text."""
    if "*" in text:
        rest = ITALIC_RE.sub(_inner, BOLD_RE.sub(_inner, text))
        if "*" in rest:
            raise reader.error(f"unpaired '*' or '**' in {text.strip()[:60]!r} (write **bold** or *italic*)", line)
    unknown = unknown_icons(text, reader.icons) if ":" in text else []  # an icon is written :name:
    if unknown:
        raise reader.error(icon_problem(unknown[0], reader.icons), line)


def inline_to_para(text: str) -> str:
    """Inline markup to ReportLab paragraph markup (escaping everything else). Every `:name:` left in parsed
    text is an icon (`parse` refuses any other), drawn by the paragraph from the game's icons."""
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if "*" in out:  # most cells and many lines have no emphasis: no pattern to run
        out = BOLD_RE.sub(lambda m: "<b>" + m.group(1) + "</b>", out)
        out = ITALIC_RE.sub(lambda m: "<i>" + m.group(1) + "</i>", out)
    if ":" in out:
        out = INLINE_ICON.sub(lambda m: marker(m.group(1), m.group(2)), out)
    return unescape_literal(out)


def plain(text: str) -> str:
    """Inline text without markers (for the table of contents and outlines)."""
    if ":" in text:
        text = INLINE_ICON.sub("", text)
    if MARKER_OPEN in text:
        text = MARKER.sub("", text)
    if "*" in text:
        text = EMPHASIS_RE.sub(_inner, text)
    return unescape_literal(text)
