"""The light Markdown subset our document templates are written in, parsed into blocks.

Deliberately small, so that every construct has one obvious rendering and any
mistake can be reported at its template line:

    # Heading / ## Section / ### Subsection
    plain lines form paragraphs; **bold**, *italic*
    - bullet item            1. numbered item   (indented lines continue an item)
    | table | row |  with a |---| line under the header row
    > **Example** ...        a callout box (its lines are parsed as blocks)
    ![caption](component/item)   card pictures; several on one line form a row
    [[name]]                 a table cell that is a fill-in box (score sheets)
    ::: pagebreak   ::: toc   ::: spacer MM   ::: nextpanel
    ::: slot COMPONENT [sideways] caption   a real-size outline to lay a pile of that component on
    sheet settings: ::: landscape   ::: copies N   ::: frame COMPONENT   ::: panels N
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator.errors import DataError, Location

HEADING_RE = re.compile(r"^(#{1,4})\s+(.*)$")
BULLET_RE = re.compile(r"^[-*]\s+(.*)$")
NUMBER_RE = re.compile(r"^(\d+)[.)]\s+(.*)$")
IMAGE_RE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)(?:\s+(front|back))?\)")
FIELD_RE = re.compile(r"^\[\[\s*([A-Za-z0-9_. -]*?)\s*\]\]$")
DIRECTIVES = ("pagebreak", "toc", "spacer", "nextpanel", "slot", "landscape", "copies", "frame", "panels")
# Settings a sheet template gives once, before any content; they shape the page, not the flow.
SETTINGS = ("landscape", "copies", "frame", "panels")


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
    """A fill-in box; `name` may be empty (the renderer numbers it)."""

    name: str


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


Block = Heading | Paragraph | ListBlock | Table | Callout | Pictures | Directive


@dataclass
class _Reader:
    lines: list[tuple[int, str]]
    file: str
    pos: int = 0
    blocks: list[Block] = field(default_factory=list)

    def peek(self) -> tuple[int, str] | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def error(self, message: str, line: int) -> DataError:
        return DataError(message, Location(self.file, line))


def parse(lines: list[tuple[int, str]], file: str) -> list[Block]:
    """Blocks from rendered template lines; bad markup is a DataError at the template line."""
    reader = _Reader(list(lines), file)
    while (current := reader.peek()) is not None:
        line, text = current
        stripped = text.strip()
        if not stripped:
            reader.pos += 1
        elif stripped.startswith(":::"):
            reader.blocks.append(_directive(reader, line, stripped))
            reader.pos += 1
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
                row.append(Field(m.group(1)))
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
    blocks = parse(inner, reader.file)
    if any(isinstance(b, (Callout, Directive)) for b in blocks):
        raise reader.error("a callout box cannot hold another box or a directive", first_line)
    return Callout(tuple(blocks), first_line)


def check_inline(text: str, reader: _Reader, line: int) -> None:
    """Bold and italic markers must pair up; a stray one is a typo, not literal text."""
    rest = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    rest = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", rest)
    if "*" in rest:
        raise reader.error(f"unpaired '*' or '**' in {text.strip()[:60]!r} (write **bold** or *italic*)", line)


def inline_to_para(text: str) -> str:
    """Inline markup to ReportLab paragraph markup (escaping everything else)."""
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    return out


def plain(text: str) -> str:
    """Inline text without markers (for the table of contents and outlines)."""
    return re.sub(r"\*{1,2}(.+?)\*{1,2}", r"\1", text)
