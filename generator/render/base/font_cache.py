"""Parsed TrueType fonts kept on disk between processes, so a fresh `pnp build` skips ReportLab's font parser.

Registering a TrueType font makes ReportLab read every table of the file (`TTFontFace`): for the
shipped fonts that is about 40 ms, paid again by every process that draws anything, a third of
what a one-card edit's rebuild spends before it draws. What the parser produces depends only on
the file (its path is kept in the face), ReportLab's code and Python, so a parsed font is stored
under a key of: the file's path, size, modification time and inode (as `digests.code_digest` keys
the package's own files), ReportLab's version and its `ttfonts.py`, and Python's version. A font
loaded from the cache has the same attributes as a parsed one (checked before it is stored, see
`_storable`), so PDFs are the same bytes either way.

Safety: entries sit in the per-user folder of compiled templates (`user_cache.user_folder`,
created private, used only when it is this user's and nobody else may write to it; the same
switch turns both off). They are pickles this process loads, so they get the same trust as
Python's own `__pycache__` or the compiled templates beside them; projects never choose a path
(entries are named by the key's hash) and fonts come only from the package. A damaged or
unreadable entry means parsing the font again; a folder that cannot be written means no cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from generator.user_cache import private_folder, store_entry, user_folder

_HEADER = b"pirate-press ttfont 1\n"
_SCALE_PROBES = (0, 1, -7, 513, 1000, 2048, 65535)


class PdfScale:
    """ReportLab's font-unit to PDF-unit scale (x * 1000 / unitsPerEm), which it keeps as a closure that
    cannot be stored: rebuilt from `unitsPerEm` (and compared with the parser's own before storing)."""

    def __init__(self, units_per_em: int) -> None:
        self.multiplier = None if units_per_em == 1000 else 1000 / units_per_em

    def __call__(self, value: float) -> float:
        return value if self.multiplier is None else value * self.multiplier


def load_font(name: str, path: Path, folder: Path | None = None) -> Any:
    """ReportLab's `TTFont(name, path)`, from the user's cache when it holds this file parsed."""
    from reportlab.pdfbase.ttfonts import TTFont

    cache = folder if folder is not None else user_folder()
    if cache is None or not private_folder(cache):
        return TTFont(name, str(path))
    try:
        entry = cache / f"{_key(path)}.ttfont"
    except OSError:
        return TTFont(name, str(path))
    font = _load(entry, name)
    if font is None:
        font = TTFont(name, str(path))
        _store(entry, font)
    return font


def _key(path: Path) -> str:
    from reportlab import Version
    from reportlab.pdfbase import ttfonts

    info = os.stat(path)
    code = os.stat(ttfonts.__file__)
    parts = (str(path), info.st_size, info.st_mtime_ns, info.st_ino, Version, ttfonts.__file__, code.st_size,
             code.st_mtime_ns, sys.version)
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _load(entry: Path, name: str) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

    try:
        data = entry.read_bytes()
    except OSError:
        return None
    if not data.startswith(_HEADER):
        return None
    try:
        attributes, face_attributes = pickle.loads(data[len(_HEADER):])
        face = TTFontFace.__new__(TTFontFace)
        face.__dict__.update(face_attributes, _pdfScale=PdfScale(face_attributes["unitsPerEm"]))
        font = TTFont.__new__(TTFont)
        font.__dict__.update(attributes, fontName=name, face=face, state=WeakKeyDictionary())
    except Exception:  # a damaged entry of any kind: parse the font instead
        return None
    return font


def _storable(font: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The font's and its face's attributes without those given when loading (the name, the per-document
    state, empty while unused, and the face's scale closure), when the loaded copy will equal the parsed
    font; else None."""
    from reportlab.pdfbase.ttfonts import TTFontFace

    attributes = dict(vars(font))
    state, face = attributes.pop("state", None), attributes.pop("face", None)
    attributes.pop("fontName", None)  # given when loaded
    if not isinstance(state, WeakKeyDictionary) or len(state) or type(face) is not TTFontFace:
        return None
    face_attributes = dict(vars(face))
    scale = face_attributes.pop("_pdfScale", None)
    own = PdfScale(face_attributes.get("unitsPerEm", 0) or 1)
    if scale is None or any(scale(probe) != own(probe) for probe in _SCALE_PROBES):
        return None
    return attributes, face_attributes


def _store(entry: Path, font: Any) -> None:
    parts = _storable(font)
    if parts is None:
        return
    try:
        data = pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # something in this ReportLab's font does not pickle: no cache
        return
    store_entry(entry, _HEADER + data)

