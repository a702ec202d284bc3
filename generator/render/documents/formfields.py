"""AcroForm text fields written straight into a ReportLab document, for the fillable score sheets.

ReportLab's `acroForm.textfield` gives every field its own Helvetica font object and its own
appearance stream (the font reference differs, so its appearance cache never hits), and builds
the widget as nested PDF dictionaries that are formatted object by object when the file is saved.
A fillable sheet has hundreds of boxes in a handful of sizes, so here one document has one form
font; each field keeps an appearance stream object of its own (a form filler such as pypdf rewrites
a filled field's stream in place: shared, every alike box would show the value), but the stream's
bytes are made once per distinct look (size, border colour; every box is empty, white, 0.6 pt solid
border); and each widget is a flat list of prepared bytes plus the few strings and references that
must be formatted at save time. The widget's entries are the ones ReportLab
writes (/DA, /MK, /BS, /F, /Ff, /MaxLen, /TU, /V, /DV, /P, /Rect, /AP), so viewers fill and
render the fields as before; the appearance streams are ReportLab's own (`txAP`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.acroform import bsPDF, makeFlags
from reportlab.pdfbase.pdfdoc import (
    NoEncryption,
    PDFArray,
    PDFDictionary,
    PDFObject,
    PDFObjectReference,
    PDFStream,
    PDFString,
)

FONT = "Helvetica"        # the form font: a standard-14 font every viewer has
BORDER_WIDTH = 0.6
MAX_LENGTH = 40           # characters a box takes: a name or a score
TEXT_COLOUR = colors.black
FILL_COLOUR = colors.white


@dataclass(frozen=True)
class FormField:
    """One AcroForm text field as placed on a page (absolute position, points): enough to place it again.

    A totals box (`sums` names the fields it adds up) gets a calculate action, so viewers that run
    form scripts fill it in as the player types; it stays editable for those that do not."""

    name: str
    tooltip: str
    x: float
    y: float
    width: float
    height: float
    colour: colors.Color
    sums: tuple[str, ...] = ()

    def add_to(self, canvas: Any) -> None:
        field_writer(canvas).add(self)

    def renamed(self, old_prefix: str, new_prefix: str) -> FormField:
        """The same field for another copy of the sheet: its name and its summands' names re-prefixed."""
        def swap(name: str) -> str:
            return new_prefix + name[len(old_prefix):] if name.startswith(old_prefix) else name

        return dataclasses.replace(self, name=swap(self.name), sums=tuple(swap(n) for n in self.sums))


class _Widget(PDFObject):
    """A text field's widget annotation: prepared bytes joined with the parts formatted at save time
    (strings, which an encrypting document would encrypt per object, and references to other objects).

    In an unencrypted document (ours) plain strings are escaped once, when the field is added, so saving
    formats only the references."""

    __RefOnly__ = 1

    def __init__(self, parts: list[bytes | PDFObject]):
        self.parts = parts
        self.plain = _escaped(parts)

    def format(self, document: Any) -> bytes:
        parts = self.plain if self.plain is not None and isinstance(document.encrypt, NoEncryption) else self.parts
        return b"".join(part if isinstance(part, bytes) else part.format(document) for part in parts)


def plain_string(text: str) -> bytes | None:
    """`text` as an unencrypted PDF string, the bytes ReportLab's `PDFString` writes, when it is printable
    ASCII (the only characters that need escaping are the backslash and parentheses); None otherwise."""
    if not (text.isascii() and text.isprintable()):
        return None
    return b"(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode() + b")"


def _escaped(parts: list[bytes | PDFObject]) -> list[bytes | PDFObject] | None:
    """`parts` with every string escaped and runs of bytes joined; None if a string is not plain ASCII."""
    joined: list[bytes | PDFObject] = []
    for part in parts:
        piece: bytes | PDFObject | None = part
        if isinstance(part, PDFString):
            piece = plain_string(part.s) if isinstance(part.s, str) else None
            if piece is None:
                return None
        if isinstance(piece, bytes) and joined and isinstance(joined[-1], bytes):
            joined[-1] += piece
        elif piece is not None:
            joined.append(piece)
    return joined


class FieldWriter:
    """Adds text fields to one canvas's document: one form font for all, appearance bytes made once per look.

    Owned by the canvas it writes to (`field_writer`), so nothing outlives the document."""

    def __init__(self, canvas: Any):
        self.canvas = canvas
        self.doc = canvas._doc
        self.form = canvas.acroForm  # the /AcroForm dictionary: /Fields, /DR, /DA, /CO
        font_ref, self.font_name = self.form.makeFont(FONT)  # registers /Helv in the form's /DR
        self.font_resource = f"<</{self.font_name} {font_ref}>>"
        self.appearances: dict[tuple[Any, ...], PDFStream] = {}  # ReportLab's stream for each look of box
        self.formatted: dict[tuple[Any, ...], bytes] = {}  # its bytes in the file, made once
        self.looks: dict[tuple[float, ...], list[bytes | PDFObject]] = {}
        self.flags = f"\n/F {makeFlags('print')}\n/FT /Tx\n/Ff 0".encode()
        self.text_colour = self.form.streamFillColor(TEXT_COLOUR)

    def add(self, field: FormField) -> None:
        """Place `field` on the current page and in the form's field list; a total gets an /AA calculate
        action (Acrobat's AFSimple_Calculate, which pdf.js and other script-running viewers share) and a
        place in the form's /CO calculation order (document order: a total's summands come above it)."""
        colour = self.form.colorTuple(field.colour)
        parts: list[bytes | PDFObject] = [b"<<"]  # entries in ReportLab's order (sorted), one a line
        if field.sums:
            names = ", ".join(f'"{name}"' for name in field.sums)  # field names are [A-Za-z0-9_-] only
            parts += [b"\n/AA << /C << /JS ",
                      PDFString(f'AFSimple_Calculate("SUM", new Array({names}));'), b" /S /JavaScript >> >>"]
        parts += [b"\n/AP << /N ", self._appearance(field.width, field.height, field.colour, colour), b" >>",
                  *self._look(colour), b"\n/P ", self.doc.thisPageRef(),
                  b"\n/Rect [ " + fp_str(field.x, field.y, field.x + field.width, field.y + field.height).encode()
                  + b" ]\n/Subtype /Widget\n/T ", PDFString(field.name)]
        if field.tooltip:
            parts += [b"\n/TU ", PDFString(field.tooltip)]
        parts.append(b"\n/Type /Annot\n/V ()\n>>")
        widget = _Widget(parts)
        self.canvas._addAnnotation(widget)
        registered = self.doc.Reference(widget)  # the reference of the annotation just registered
        self.form.fields.append(registered)
        if field.sums:
            self.form.extras.setdefault("CO", PDFArray([])).sequence.append(registered)

    def _look(self, colour: tuple[float, ...]) -> list[bytes | PDFObject]:
        """The entries a viewer draws an edited field from (border, colours, font, flags, length), per border
        colour; the /DA string is formatted at save time, as strings are (an encrypting document encrypts them)."""
        look = self.looks.get(colour)
        if look is None:
            mk = PDFDictionary({"BC": PDFArray(colour), "BG": PDFArray(self.form.colorTuple(FILL_COLOUR))})
            look = self.looks[colour] = [
                b"\n/BS " + bsPDF(BORDER_WIDTH, "solid", 3).format(self.doc) + b"\n/DA ",
                PDFString(f"/{self.font_name} 0 Tf {self.text_colour}"),
                b"\n/DV ()" + self.flags + b"\n/MK " + mk.format(self.doc) + f"\n/MaxLen {MAX_LENGTH}".encode(),
            ]
        return look

    def _appearance(self, width: float, height: float, border: colors.Color,
                    colour: tuple[float, ...]) -> PDFObjectReference:
        """The normal appearance of an empty box this size with this border, as an object of the field's own:
        a form filler may rewrite it in place when the player types (pypdf does), so it is never shared;
        its bytes are made once for all boxes alike."""
        key = (width, height, colour)
        stream = self.appearances.get(key)
        if stream is None:
            stream = self.appearances[key] = self.form.txAP(
                "N", "", self.font_name, self.font_resource, 0, fillColor=FILL_COLOUR, borderColor=border,
                textColor=TEXT_COLOUR, borderWidth=BORDER_WIDTH, borderStyle="solid", width=width, height=height,
                dashLen=3)
        return self.doc.Reference(_Appearance(stream, key, self.formatted))


class _Appearance(PDFObject):
    """One field's appearance stream: ReportLab's stream, formatted once for every box alike (`formatted`,
    owned by the field writer) when the document is not encrypted (an encrypted one encrypts each stream)."""

    __RefOnly__ = 1

    def __init__(self, stream: PDFStream, key: tuple[Any, ...], formatted: dict[tuple[Any, ...], bytes]):
        self.stream, self.key, self.formatted = stream, key, formatted

    def format(self, document: Any) -> bytes:
        if not isinstance(document.encrypt, NoEncryption):
            return bytes(self.stream.format(document))
        found = self.formatted.get(self.key)
        if found is None:
            found = self.formatted[self.key] = bytes(self.stream.format(document))
        return found


def field_writer(canvas: Any) -> FieldWriter:
    """The canvas's field writer, made on its first field (a canvas draws one document)."""
    writer = canvas.__dict__.get("_field_writer")
    if writer is None:
        writer = canvas._field_writer = FieldWriter(canvas)
    assert isinstance(writer, FieldWriter)
    return writer
