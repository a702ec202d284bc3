"""Face forms drawn once per session: what drawing a face into a PDF form wrote, replayed into the next PDF.

A component's a4 and letter sheets (and its variants) draw the same faces as
forms, in the same order. Drawing a face costs layout arithmetic, text setting
and ReportLab's operator formatting; its result is the form's content stream
plus the document state it touched: which fonts got an internal name (F1, F2,
...) and which characters got a code in each font's subset. Both depend on what
the document drew before, so a recording is keyed by that state too, and is
replayed only into a document whose font state is exactly the same: there it
appends the same operators and makes the same font assignments, so the PDF
is byte for byte what drawing would have made. Anything else a drawing may
touch (images, transparency, nested forms, colour spaces, annotations) makes
a face unrecordable: it is simply drawn every time.

The same store makes each form's bytes, each font subset's file and widths,
and zlib's output once, for every sheet after the first (`form`, `save`).
It belongs to one face renderer (one session: kept from build to build, since
every entry is a pure value keyed by all it depends on), never to the module.
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import FF_NONSYMBOLIC, FF_SYMBOLIC, SUBSETN, TTFont, makeToUnicodeCMap

FontState = tuple[tuple[str, str, Any], ...]  # (font name, internal name, (next code, subsets)) per named font
DocState = tuple[tuple[int, int], FontState]  # the PDF version (colours with alpha ask for 1.4) and the fonts


@dataclass(frozen=True)
class Recording:
    """The font assignments one face's form drawing made, in order (its bytes are kept beside it)."""

    named: tuple[str, ...]  # fonts that got their internal name during the drawing, in that order
    chars: tuple[tuple[str, str], ...]  # (font name, characters newly given a code, in code order)
    after: DocState  # the document's state the drawing left


class FormStore:
    """Recordings of drawn face forms, keyed by (face, bleed, preamble, font state before the drawing)."""

    def __init__(self, replay: bool = True) -> None:
        self.replay = replay  # False: plain ReportLab drawing and saving (`generator.speed`), the same bytes
        self._recordings: dict[tuple[Any, ...], Recording | None] = {}
        self._formatted: dict[tuple[Any, ...], bytes] = {}  # a form object's bytes in the file, by what makes them
        self._deflated: dict[bytes, bytes] = {}  # zlib's output by its input: the embedded font files, mostly
        self._streams: dict[tuple[Any, ...], bytes] = {}  # a recorded form's content stream, by its recording's key
        self._states: dict[DocState, DocState] = {}  # one copy of each document state the keys hold
        self._state_ids: dict[DocState, int] = {}  # each state's number: keys hold it (hashed once per form)
        self._subsets: dict[tuple[str, bytes, tuple[int, ...]], bytes] = {}  # a font file cut to a subset
        self._arrays: dict[tuple[Any, ...], bytes] = {}  # a font subset's /Widths, written out
        self._cmaps: dict[tuple[Any, ...], str] = {}  # a font subset's ToUnicode CMap
        self.replayed = 0  # forms replayed, not drawn (for tests and benchmarks)

    KEPT = 5_000  # recordings (a few kB each, with their bytes) kept from build to build; past that, afresh

    def next_build(self) -> None:
        """A new build of the same session: recordings are pure values (a face, the document state before it),
        so the faces an edit left alone are replayed, not drawn; a long session's store is bounded."""
        if len(self._recordings) > self.KEPT:
            self.clear()

    def clear(self) -> None:
        self._recordings.clear()
        self._formatted.clear()
        self._deflated.clear()
        self._streams.clear()
        self._states.clear()
        self._state_ids.clear()
        self._subsets.clear()
        self._arrays.clear()
        self._cmaps.clear()
        self.replayed = 0

    def save(self, c: Any) -> None:
        """`c.save()`, its font subsets compressed once per store: the next sheet embedding the same subset
        (the other paper's, most often) reuses zlib's output.

        The fonts' objects are made here, as the save itself would make them first thing; their
        streams then get a Flate filter that remembers what it made."""
        if not self.replay:
            c.save()
            return
        doc = c._doc
        if c._code:  # as `save` does first: the last page
            c.showPage()
        for font in doc.delayedFonts:
            if type(font) is TTFont and not getattr(font.face, "_full_font", False):
                self._add_font_objects(font, doc)
            else:
                font.addObjects(doc)
        doc.delayedFonts = []
        deflate = _StoredDeflate(self._deflated)
        for obj in doc.idToObject.values():
            if isinstance(obj, pdfdoc.PDFStream) and obj.filters == [pdfdoc.PDFZCompress]:
                obj.filters = [deflate]
        c.save()

    def _add_font_objects(self, font: TTFont, doc: Any) -> None:
        """ReportLab's `TTFont.addObjects` (with `TTFontFace.addSubsetObjects`), step for step, except that a
        subset's font file and widths array are made once per store: most sheets embed the same subsets."""
        state = font.state.get(doc)
        if state is None:
            state = font.state[doc] = TTFont.State(font._asciiReadable)
        state.frozen = 1
        face = font.face
        for n, subset in enumerate(state.subsets):
            internal_name = font.getSubsetInternalName(n, doc)[1:]
            base_font_name = (b"".join((SUBSETN(n), b"+", face.name, face.subfontNameX))).decode("pdfdoc")
            pdf_font = pdfdoc.PDFTrueTypeFont()
            pdf_font.__Comment__ = f"Font {font.fontName} subset {n}"
            pdf_font.Name = internal_name
            pdf_font.BaseFont = base_font_name
            pdf_font.FirstChar = 0
            pdf_font.LastChar = len(subset) - 1
            pdf_font.Widths = _StoredArray(self._arrays, list(map(face.getCharWidth, subset)))
            cmap = pdfdoc.PDFStream()
            cmap_key = (base_font_name, tuple(subset))
            content = self._cmaps.get(cmap_key)
            if content is None:  # the other paper's sheet embeds the same subset
                content = self._cmaps[cmap_key] = makeToUnicodeCMap(base_font_name, subset)
            cmap.content = content
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            pdf_font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base_font_name)
            pdf_font.FontDescriptor = self._descriptor(face, doc, base_font_name, subset)
            doc.Reference(pdf_font, internal_name)
            doc.idToObject["BasicFonts"].dict[internal_name] = pdf_font
        del font.state[doc]

    def _descriptor(self, face: Any, doc: Any, font_name: str, subset: list[int]) -> Any:
        """`TTFontFace.addSubsetObjects`: the subset's font file and its descriptor."""
        key = (face.filename, face.subfontNameX, tuple(subset))
        data = self._subsets.get(key)
        if data is None:
            data = self._subsets[key] = face.makeSubset(subset)
        font_file = pdfdoc.PDFStream()
        font_file.content = data
        font_file.dictionary["Length1"] = len(data)
        if doc.compression:
            font_file.filters = [pdfdoc.PDFZCompress]
        font_file_ref = doc.Reference(font_file, f"fontFile:{face.filename}({font_name})")
        flags = (face.flags & ~FF_NONSYMBOLIC) | FF_SYMBOLIC
        descriptor = pdfdoc.PDFDictionary({
            "Type": "/FontDescriptor",
            "Ascent": face.ascent,
            "CapHeight": face.capHeight,
            "Descent": face.descent,
            "Flags": flags,
            "FontBBox": pdfdoc.PDFArray(face.bbox),
            "FontName": pdfdoc.PDFName(font_name),
            "ItalicAngle": face.italicAngle,
            "StemV": face.stemV,
            "FontFile2": font_file_ref,
            "MissingWidth": face.defaultWidth,
        })
        return doc.Reference(descriptor, "fontDescriptor:" + font_name)

    def form(self, c: Any, name: str, box: tuple[float, float, float | None, float | None], key: Any,
             draw: Callable[[], None]) -> None:
        """The canvas's form `name` (bounding box `box`) holding what `draw()` draws: drawn and recorded, or
        replayed from an earlier identical drawing (same `key`, preamble and document state before it)."""
        c.beginForm(name, *box)
        if not self.replay:
            draw()
            c.endForm()
            return
        doc = c._doc
        before = doc_state(doc)
        full_key = (key, c._preamble, self._state_ids.setdefault(before, len(self._state_ids)))
        found = self._recordings.get(full_key)
        if found is not None and c._extgstate.getState() is None and not c._code:
            _replay(c, found)
            self.replayed += 1
            self._end_form(c, self._streams[full_key])
            return
        if full_key in self._recordings:  # known unrecordable (or a canvas mid-form): just draw
            draw()
            self._end_form(c, None)
            return
        assigned = _assignments(doc)
        objects = len(doc.idToObject)
        start = len(c._code)
        draw()
        recording = _recording(c, doc, assigned, objects, start, before)
        stream = self._end_form(c, None)
        if recording is not None:
            recording = dataclasses.replace(recording, after=self._interned(recording.after))
            self._streams[full_key] = stream
        self._recordings[full_key] = recording

    def _interned(self, state: DocState) -> DocState:
        return self._states.setdefault(state, state)

    def _end_form(self, c: Any, stream: bytes | None) -> bytes:
        """`c.endForm()`, with the content stream given (a replay) or encoded from the canvas's operators,
        and a form object whose bytes in the file are made once per store (`_StoredForm`).

        Mirrors ReportLab's `Canvas.endForm` step for step; returns the form's content stream."""
        name, lowerx, lowery, upperx, uppery = c._formData
        width, height = c._pagesize
        form = _StoredForm(self._formatted, lowerx, lowery, width if upperx is None else upperx,
                           height if uppery is None else uppery)
        form.compression = c._pageCompression
        if stream is None:
            form.stream = pdfdoc_bytes("\n".join([c._preamble, *c._code]))  # what `setStreamList` makes
        else:
            form.stream = stream
        c._setColorSpace(form)
        c._setExtGState(form)
        c._setXObjects(form)
        c._setAnnotations(form)
        c._doc.addForm(name, form)
        c._restartAccumulators()
        c.pop_state_stack()
        return bytes(form.stream)


_UNMAPPED_ASCII = re.compile(rb"[\x18-\x1f]")  # the only ASCII codes ReportLab's pdfdoc encoding has no byte for


def pdfdoc_bytes(text: str) -> bytes:
    """`text` in ReportLab's PDFDocEncoding (`pdfdoc.pdfdocEnc`), the same bytes: content streams are ASCII,
    which that encoding maps to itself, and its per-character table costs ~100 ns a character."""
    if text.isascii():
        data = text.encode("ascii")
        if not _UNMAPPED_ASCII.search(data):
            return data
    return bytes(pdfdoc.pdfdocEnc(text))


def doc_state(doc: Any) -> DocState:
    """What a form's bytes depend on, and what drawing one may change: the PDF version, the fonts."""
    return doc._pdfVersion, font_state(doc)


def font_state(doc: Any) -> FontState:
    """Every named font of the document with its subset assignments."""
    parts = []
    for name, internal in doc.fontMapping.items():
        font = pdfmetrics.getFont(name)
        state = font.state.get(doc) if getattr(font, "_dynamicFont", False) else None
        parts.append((name, internal, None if state is None else (state.nextCode, tuple(map(tuple, state.subsets)))))
    return tuple(parts)


def _assignments(doc: Any) -> dict[str, int]:
    """How many characters each dynamic font has a code for in this document (splitString only adds, in order)."""
    found = {}
    for name in doc.fontMapping:
        font = pdfmetrics.getFont(name)
        if getattr(font, "_dynamicFont", False) and doc in font.state:
            found[name] = len(font.state[doc].assignments)
    return found


def _recording(c: Any, doc: Any, assigned: dict[str, int], objects: int, start: int,
               before: DocState) -> Recording | None:
    """The recording of the drawing just made, or None when it touched more than fonts and the form's code."""
    if (start != 0 or len(doc.idToObject) != objects or c._formsinuse or c._annotationrefs or c._colorsUsed
            or c._shadingUsed or c._extgstate.getState() is not None):
        return None
    known = {name for name, _, _ in before[1]}
    named = []
    chars = []
    for name in doc.fontMapping:
        font = pdfmetrics.getFont(name)
        if not isinstance(font, TTFont) or type(font).splitString is not TTFont.splitString:
            return None  # a static font adds objects when named; a shaping font may not split as recorded
        if name not in known:
            named.append(name)
        state = font.state.get(doc)
        if state is None:
            return None
        old = assigned.get(name)
        if old is None:  # the fresh state the drawing began from
            old = len(TTFont.State(font._asciiReadable, font).assignments)
        new = "".join(map(chr, islice(state.assignments, old, None)))  # in the order they got their codes
        if new:
            chars.append((name, new))
    return Recording(tuple(named), tuple(chars), doc_state(doc))


def _replay(c: Any, recording: Recording) -> None:
    """Make the recorded font assignments in this document, in order (the form's bytes come from the store)."""
    doc = c._doc
    doc._pdfVersion = recording.after[0]
    chars = dict(recording.chars)
    for name in recording.named:  # as drawing text does: assign the characters, then name the subset
        font = pdfmetrics.getFont(name)
        font.splitString(chars.pop(name, ""), doc)
        font.getSubsetInternalName(0, doc)
    for name, text in chars.items():
        pdfmetrics.getFont(name).splitString(text, doc)
    if doc_state(doc) != recording.after:
        raise RuntimeError("a replayed face form left the PDF's fonts other than drawing it did")


class _StoredForm(pdfdoc.PDFFormXObject):
    """A form XObject whose file bytes are looked up by everything they are made of before being made."""

    def __init__(self, formatted: dict[tuple[Any, ...], bytes], *box: float) -> None:
        super().__init__(*box)
        self._formatted = formatted

    def format(self, document: Any) -> bytes:
        plain = (self.XObjects is None and not self.Annots and self.BBox is None and self.Matrix is None
                 and self.Contents is None and self.Resources is None
                 and isinstance(document.encrypt, pdfdoc.NoEncryption))
        if not plain:  # resources naming other objects, or anything else set: made as ReportLab makes it
            return bytes(super().format(document))
        key = (self.stream, self.lowerx, self.lowery, self.upperx, self.uppery, self.compression, self.hasImages,
               rl_config.useA85, rl_config.wrapA85, rl_config.pdfMultiLine,
               document.idToObjectNumberAndVersion.get(pdfdoc.BasicFonts))
        found = self._formatted.get(key)
        if found is None:
            found = self._formatted[key] = self._plain_bytes(document) if _one_line_settings() else bytes(
                super().format(document))
        return found

    def _plain_bytes(self, document: Any) -> bytes:
        """What ReportLab's `format` writes for a plain form (no XObjects, annotations or own resources)
        with one-line dictionaries and unwrapped ASCII85, written out directly: its generic formatter
        pays a Python call and a codec lookup for every name and number.

        Its steps: the stream through Flate then ASCII85 (when compressed), and a dictionary of
        sorted keys joined by spaces, a line break after the sixth."""
        content = self.stream
        if not content:  # ReportLab would draw its test stream: leave that case to it
            return bytes(super().format(document))
        if self.compression:
            content = zlib.compress(content)
            if rl_config.useA85:
                content = pdfdoc.PDFBase85Encode.encode(content)
        if isinstance(content, str):  # as `pdfdoc.format` writes a string
            content = pdfdoc_bytes(content)
        fonts = b"%d %d R" % document.idToObjectNumberAndVersion[pdfdoc.BasicFonts]
        procs = b"/PDF /Text /ImageB /ImageC /ImageI" if self.hasImages else b"/PDF /Text"
        entries = [b"/BBox [ " + fp_str(self.lowerx, self.lowery, self.upperx, self.uppery).encode("ascii") + b" ]"]
        if self.compression:
            entries.append(b"/Filter [ /ASCII85Decode /FlateDecode ]" if rl_config.useA85 else b"/Filter [ /FlateDecode ]")
        entries += [b"/FormType 1", b"/Length %d" % len(content), b"/Matrix [ 1 0 0 1 0 0 ]",
                    b"/Resources <<\n/Font " + fonts + b" /ProcSet [ " + procs + b" ]\n>>",
                    b"/Subtype /Form", b"/Type /XObject"]
        entries.insert(6, b"\n ")
        return b"<<\n" + b" ".join(entries) + b"\n>>\nstream\n" + content + b"endstream\n"


def _one_line_settings() -> bool:
    """ReportLab's settings (its defaults) under which `_StoredForm._plain_bytes` writes what its formatter writes."""
    return not rl_config.pdfMultiLine and not rl_config.wrapA85


class _StoredDeflate:
    """ReportLab's Flate filter, each output kept by its input (zlib is deterministic: the same bytes)."""

    pdfname = pdfdoc.PDFZCompress.pdfname

    def __init__(self, deflated: dict[bytes, bytes]) -> None:
        self._deflated = deflated

    def encode(self, content: bytes | str) -> bytes:
        data = content.encode("utf8") if isinstance(content, str) else content
        found = self._deflated.get(data)
        if found is None:
            found = self._deflated[data] = pdfdoc.PDFZCompress.encode(data)
        return found


class _StoredArray(pdfdoc.PDFArray):
    """A PDF array of plain numbers, written out once per store."""

    def __init__(self, formatted: dict[tuple[Any, ...], bytes], sequence: list[Any]) -> None:
        super().__init__(sequence)
        self._formatted = formatted

    def format(self, document: Any, IND: bytes = b"\n ") -> bytes:
        key = (tuple(self.sequence), self.multiline, rl_config.pdfMultiLine, IND)
        found = self._formatted.get(key)
        if found is None:
            found = self._formatted[key] = bytes(super().format(document, IND))
        return found
