"""Fonts a designer puts in the project: `fonts/<Stem>.ttf` (or `.otf`), and `data/<game>/fonts/` for one game.

A layout names them by file stem (`font: PirataOne`), as it names the shipped
fonts (which win when both have a name). The file is read through the project's
read gate, so a build's recorded inputs (and its cache keys) cover its bytes, and
it is embedded and subset like the shipped fonts.

ReportLab keeps one font registry for the whole process, and it also maps each
font's PostScript name to the first font registered with it. So a project font
is registered under `<Stem>-<first 12 hex digits of the file's sha256>`, and its
face gets that name too: two projects (or two versions of one file) never share
an entry, and the same bytes always give the same name, so output stays
deterministic. The name travels as a `ProjectFont`, a `str` that carries the bytes:
a process that unpickles a resolved face registers the font before drawing it.

ReportLab's TrueType reader cannot embed PostScript-flavoured (CFF) OpenType
outlines, a font collection or a web font; each is one line saying what to use instead.
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path
from typing import Any

from generator.checks import Check
from generator.errors import DataError, Location
from generator.project import Project

SUFFIXES = (".ttf", ".otf")
MAX_FONT_BYTES = 32 << 20  # designed: the largest Noto CJK TrueType face is about 17 MB
DIGEST_CHARS = 12
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_TRUETYPE = (b"\x00\x01\x00\x00", b"true")
_REFUSED = {
    b"OTTO": ("holds PostScript (CFF) outlines, which ReportLab cannot embed; use the family's TrueType "
              "(.ttf) release, or convert it (fontTools' otf2ttf)"),
    b"ttcf": "is a font collection (.ttc); export the one face you want as a .ttf file",
    b"wOFF": "is a web font (WOFF); use the .ttf file it was made from (or decompress it with fontTools)",
    b"wOF2": "is a web font (WOFF2); use the .ttf file it was made from (or decompress it with fontTools)",
}


class ProjectFont(str):
    """A project font's registered name, carrying the source file's name and bytes (compared as the name,
    which holds the bytes' digest)."""

    stem: str
    source: str
    data: bytes

    def __new__(cls, name: str, stem: str, source: str, data: bytes) -> ProjectFont:
        made = super().__new__(cls, name)
        made.stem, made.source, made.data = stem, source, data
        return made

    def __reduce__(self) -> tuple[Any, tuple[str, str, str, bytes]]:
        return (revive, (str(self), self.stem, self.source, self.data))


def revive(name: str, stem: str, source: str, data: bytes) -> ProjectFont:
    """A `ProjectFont` from another process, registered here before anything measures or draws with it."""
    register(name, data, Location(source))
    return ProjectFont(name, stem, source, data)


def registered_name(stem: str, data: bytes) -> str:
    """The name a font file is registered under: its stem (made PDF-safe) and its bytes' digest."""
    return f"{_UNSAFE.sub('_', stem)}-{hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]}"


def font_folders(project: Project, game: str) -> list[Path]:
    """Where a game's layouts find project fonts, the game's own folder first."""
    return [project.data_dir / game / "fonts", project.root / "fonts"] if game else [project.root / "fonts"]


def font_files(project: Project, game: str, where: Location | None = None) -> dict[str, Path]:
    """Every project font a game's layouts may name: stem -> file (the game's own win; listings recorded)."""
    found: dict[str, Path] = {}
    for folder in reversed(font_folders(project, game)):
        for path in project.gate.listdir(folder, "*", where):
            if path.suffix.lower() in SUFFIXES:
                found[path.stem] = path
    return dict(sorted(found.items()))


def load_project_font(project: Project, path: Path, where: Location | None = None) -> ProjectFont:
    """Read one font file through the gate, check it is a TrueType font ReportLab can embed, register it."""
    gate = project.gate
    source = gate.name(path)
    data = gate.read_bytes(path, where, limit=MAX_FONT_BYTES)
    at = Location(source)
    magic = data[:4]
    if magic in _REFUSED:
        raise DataError(f"{_REFUSED[magic]}", at)
    if magic not in _TRUETYPE:
        raise DataError("is not a font file (a TrueType .ttf or OpenType .otf with TrueType outlines is expected)",
                        at)
    name = registered_name(path.stem, data)
    register(name, data, at)
    return ProjectFont(name, path.stem, source, data)


def register(name: str, data: bytes, where: Location) -> None:
    """Register the font `data` with ReportLab as `name` (its face named the same), once per process."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if name in pdfmetrics.getRegisteredFontNames():
        return
    try:
        font = TTFont(name, io.BytesIO(data))
    except Exception as exc:  # ReportLab's parser meets damaged bytes with any kind of error
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataError(f"is not a readable TrueType font ({reason}); export it again as .ttf", where) from None
    font.face.name = name.encode("ascii")  # its own PostScript name: ReportLab maps faces by that name
    font.face.filename = name  # read from bytes it has none; subsets are cached by it (render.faces.stamps)
    pdfmetrics.registerFont(font)


def resolve_font(project: Project, game: str, name: str, where: Location | None) -> str:
    """The font `name` as layouts and documents name it: a shipped font's name as it is, or a project font
    (the game's `data/<game>/fonts/` first, then `fonts/`), read through the gate and registered."""
    from generator.errors import did_you_mean
    from generator.render.base.fonts import FONT_FILES

    if name in FONT_FILES:
        return name
    files = font_files(project, game, where)
    path = files.get(name)
    if path is None:
        other = next((entry for folder in font_folders(project, game)
                      for entry in project.gate.listdir(folder, f"{name}.*", where)), None)
        if other is not None:  # the stem is there, in a format that cannot be embedded
            raise DataError(f"is not a TrueType or OpenType font file (.ttf or .otf), so font {name!r} cannot "
                            "use it; export the font as .ttf", Location(project.gate.name(other)))
        hint = did_you_mean(name, (*FONT_FILES, *files))
        own = f"; project fonts: {', '.join(files)}" if files else ""
        raise DataError(f"font {name!r} is neither a shipped font nor a file in fonts/{hint} "
                        f"(shipped: {', '.join(FONT_FILES)}{own})", where)
    gate = project.gate
    return gate.derived(("font", gate.name(path)), lambda: load_project_font(project, path, where))


STYLES = ("Bold", "Italic", "BoldItalic")  # a family's other faces: `<Stem>-Bold.ttf` beside `<Stem>.ttf`


def resolve_family(project: Project, game: str, name: str, where: Location | None) -> tuple[str, str, str, str]:
    """The regular, bold, italic and bold italic faces of the font `name`, mapped for ReportLab's `<b>` and `<i>`.

    A shipped family (Sans, Serif) has its own faces; a project font takes `<Stem>-Bold`, `<Stem>-Italic` and
    `<Stem>-BoldItalic` from beside it where they are, else its regular face (bold italic: bold, then italic).
    """
    from reportlab.lib.fonts import addMapping

    from generator.render.base.fonts import FAMILIES, register_fonts

    register_fonts()
    if name in FAMILIES:
        return FAMILIES[name]
    normal = resolve_font(project, game, name, where)
    if not isinstance(normal, ProjectFont):  # a single shipped face (Display): no other faces
        return (normal, normal, normal, normal)
    files = font_files(project, game, where)
    faces = {style: resolve_font(project, game, f"{name}-{style}", where) if f"{name}-{style}" in files else None
             for style in STYLES}
    bold = faces["Bold"] or normal
    italic = faces["Italic"] or normal
    bold_italic = faces["BoldItalic"] or faces["Bold"] or faces["Italic"] or normal
    # Keyed by the digest name: no clash. The regular face last, so a face standing in for several styles
    # maps back to the plainest one (ReportLab keeps the last style it was given for a face).
    for is_bold, is_italic, face in ((1, 1, bold_italic), (0, 1, italic), (1, 0, bold), (0, 0, normal)):
        addMapping(str(normal), is_bold, is_italic, str(face))
    return (normal, bold, italic, bold_italic)


def font_checks(project: Project, game: str) -> list[Check]:
    """`pnp validate`: every font file a game's layouts and rulebook may use is one ReportLab can embed
    (a broken or CFF file fails here, at its own name, even before something uses it)."""
    checks = []
    for stem, path in font_files(project, game).items():
        try:
            font = resolve_font(project, game, stem, None)
        except DataError as exc:
            checks.append(Check(f"project font {project.gate.name(path)}", "a TrueType font ReportLab can embed",
                                exc.message, False, exc.location, broken=True))
        else:
            checks.append(Check(f"project font {project.gate.name(path)}", "a TrueType font ReportLab can embed",
                                f"font {stem!r}, embedded as {font}", True, Location(project.gate.name(path))))
    return checks
