"""Icons (anchor, cutlass, compass, skull, coin...): SVG files in the project, drawn as vector paths in one colour.

An icon is art, so it is data a designer edits in Inkscape: `templates/icons/<name>.svg` is the
project's shared set (the games of a project share it), and `templates/layouts/<game>/icons/<name>.svg`
gives one game its own icon of that name, or one more. The file's name is the icon's name, so
dropping `kraken.svg` there makes `icon: kraken` and the inline `:kraken:` valid in that game's layouts
and documents. `pnp init` writes the shipped set into a new project's `templates/icons/`.

An icon is drawn in its file's view box, scaled to fit a square `size` wide, centred on its anchor.
It prints in ONE colour, the layout's: whatever colours the file paints with (write
`fill="currentColor"` or `stroke="currentColor"`; the shipped icons set `color="#000000"` on their
root so any viewer shows them black), every filled or stroked part takes the layout's colour, and
holes cut with `fill-rule="evenodd"` stay holes, so an icon reads on any background.

Files are read through the project's read gate (`generator.readgate`): a job that resolves a face
with an icon, or sets text holding one, records the icon set's files, so editing an SVG rebuilds what
shows it. Each file is checked and drawn by the vector path (`faces.vector`: no scripts, no outside
references, nothing svglib cannot draw, one line at the file otherwise) and turned once, per loaded
`Icon`, into PDF path operators in a 100-unit box centred on the origin, y up, with no colour of their
own: drawing replays them inside a saved graphics state after setting the layout's colour, which
keeps thousands of icons per build cheap and the bytes the same from run to run.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import DataError, Location, did_you_mean
from generator.project import Project

ICON_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")  # what `:name:` in text can say (`render.faces.text.ICON_RE`)
ICONS_FOLDER = "icons"
MAX_ICON_BYTES = 4 << 20  # designed: a detailed icon traced in Inkscape is tens of kilobytes
UNIT = 100.0  # an icon's operators draw in a UNIT x UNIT box centred on the origin, y up
# PDF operators that would use a resource of the scratch page the icon was drawn on (an image, a
# transparency state, a shading, a pattern colour, text): an icon is one colour of plain paths.
_RESOURCE_OPERATORS = frozenset({"Do", "gs", "sh", "cs", "CS", "scn", "SCN", "BI", "Tf", "BT"})
_NUMBER = re.compile(r"^-?(?:\d+\.?\d*|\.\d+)$")
ICON_PIXELS = 128  # an inline icon in a document: about 900 dpi at 10 pt, crisp in print


@dataclass(frozen=True)
class Icon:
    """One icon file's content: equal (and hashed) by name, file and digest; `data` is the bytes read.

    What is made from the bytes (the drawing, its operators, pictures of it) is made once per
    object and not pickled: a worker that receives an icon remakes it from `data`.
    """

    name: str
    source: str  # the file's recorded name, relative to the project root
    sha256: str
    data: bytes = field(compare=False, repr=False)

    def __str__(self) -> str:
        return self.name

    def drawing(self) -> Any:
        """The SVG as a checked ReportLab Drawing (`faces.vector`); a DataError at the file when it is bad."""
        found = self.__dict__.get("_drawing")
        if found is None:
            from generator.render.faces.vector import checked_tree, drawing

            where = Location(self.source)
            root = checked_tree(self.data, self.source, where)
            if root.get("color") is None:  # svglib reads `currentColor` from `color` and drops a stroke without one
                root.set("color", "#000000")
            found = drawing(root, self.source, where)
            object.__setattr__(self, "_drawing", found)
        return found

    def operators(self, cache: Any = None) -> str:
        """The icon's PDF path operators in the 100-unit box, without colour (see the module doc).

        Kept in the per-user cache by the bytes' digest and the code that makes them, so a warm
        process reads them back without parsing the SVG (or loading svglib) at all. `cache`: that
        `render.base.template_cache.CodeCache`, when the caller has it open."""
        found = self.__dict__.get("_operators")
        if found is None:
            if cache is None:
                from generator.render.base.template_cache import CodeCache

                cache = CodeCache.for_user()
            found = cache.plain(("icon-operators", self.sha256), _fingerprint(),
                                               lambda: _operators(self.drawing(), self.source),
                                               lambda value: isinstance(value, str))
            object.__setattr__(self, "_operators", found)
        return str(found)

    def extent(self) -> tuple[float, float, float, float, float]:
        """Left, bottom, right, top of the icon's ink in its 100-unit box (y up), and its reach from the centre."""
        found = self.__dict__.get("_extent")
        if found is None:
            found = operators_extent(self.operators())
            object.__setattr__(self, "_extent", found)
        return found

    def png(self, colour: str, pixels: int = ICON_PIXELS) -> bytes:
        """The icon in `colour` ('#rrggbb') as a square PNG with a transparent ground, made once per colour.

        Document paragraphs (ReportLab Platypus) place inline pictures only as images, so an icon
        inside rulebook text is the vector drawn once and rasterised finely; same input, same bytes
        (no timestamps), so documents stay reproducible.
        """
        pictures: dict[tuple[str, int], bytes] = self.__dict__.setdefault("_pngs", {})
        key = (colour, pixels)
        if key not in pictures:
            pictures[key] = _png(self, colour, pixels)
        return pictures[key]

    def __getstate__(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if not key.startswith("_")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


@dataclass(frozen=True)
class IconSet:
    """The icons one game's layouts and documents may name: name -> Icon (the game's own win)."""

    icons: Mapping[str, Icon]
    folders: tuple[str, ...] = ()  # where they were looked for, for messages

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.icons)

    def __contains__(self, name: object) -> bool:
        return name in self.icons

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.icons))

    def get(self, name: str) -> Icon | None:
        return self.icons.get(name)

    def icon(self, name: str, where: Location | None, what: str = "icon") -> Icon:
        """The icon `name`, or a DataError at `where` with the nearest names."""
        found = self.icons.get(name)
        if found is None:
            raise DataError(f"{what} {name!r} is unknown{self.hint(name)}", where)
        return found

    def hint(self, name: str) -> str:
        """'; did you mean ...' for a misspelt name, else where icons come from and which there are."""
        close = did_you_mean(name, tuple(sorted(self.icons)))
        if close:
            return close
        folders = " or ".join(f"{folder}/" for folder in self.folders) or f"templates/{ICONS_FOLDER}/"
        if not self.icons:  # a project made before icons were files: say how to get the shipped set
            return (f" (an icon is an SVG file in {folders}, and this project has none: copy the shipped set "
                    f"from the templates/{ICONS_FOLDER}/ of a project made by `pnp init`)")
        return f" (an icon is an SVG file in {folders}; icons: {', '.join(sorted(self.icons))})"


def icon_folders(project: Project, game: str) -> list[Path]:
    """Where a game's icons are found, the shared set first and the game's own (which win) last."""
    shared = project.templates_dir / ICONS_FOLDER
    return [shared, project.templates_dir / "layouts" / game / ICONS_FOLDER] if game else [shared]


def icon_set(project: Project, game: str) -> IconSet:
    """The icons of `game` in `project`, read through the gate once per build (callers inherit the reads:
    the folder listings and every icon file, so adding, removing or editing one rebuilds what uses them)."""
    return project.gate.derived(("icons", game), lambda: _load_set(project, game))


def _load_set(project: Project, game: str) -> IconSet:
    import hashlib

    from generator.render.base.template_cache import CodeCache

    gate = project.gate
    cache = CodeCache.for_user()
    found: dict[str, Icon] = {}
    folders = icon_folders(project, game)
    for folder in folders:
        for path in gate.listdir(folder, "*.svg"):
            source = gate.name(path)
            name = path.stem
            if not ICON_NAME.match(name):
                raise DataError(f"icon file name {path.name!r} cannot be named in text (:name:); use lower-case "
                                "letters, digits, '-' or '_', starting with a letter (e.g. sea-serpent.svg)",
                                Location(source))
            data = gate.read_bytes(path, Location(source), limit=MAX_ICON_BYTES)
            icon = Icon(name, source, hashlib.sha256(data).hexdigest(), data)
            icon.operators(cache)  # checked and drawn now: a bad file fails here, at its own name
            found[name] = icon
    return IconSet(dict(sorted(found.items())), tuple(gate.name(folder) for folder in folders))


def _operators(made: Any, source: str) -> str:
    """A Drawing's path operators in the 100-unit box, y up, its colours left out, checked to use no resource."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    class Uncoloured(Canvas):  # our own canvas kind, not a patch: colour comes from whoever replays the operators
        def setFillColor(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setStrokeColor(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setFillAlpha(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setStrokeAlpha(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setFillOverprint(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setStrokeOverprint(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setOverprintMask(self, *args: Any, **kwargs: Any) -> None:
            pass

        def setFont(self, *args: Any, **kwargs: Any) -> None:  # renderPDF sets its default font; icons hold no text
            pass

    _drop_unpainted(made)
    width, height = float(made.width), float(made.height)
    scratch = Uncoloured(io.BytesIO(), invariant=1)
    start = len(scratch._code)  # the scratch canvas's content so far (its preamble)
    scale = UNIT / max(width, height)  # the longer side fills the box; the art stays centred
    scratch.saveState()
    scratch.translate(-width * scale / 2, -height * scale / 2)
    scratch.scale(scale, scale)
    renderPDF.draw(made, scratch, 0, 0, showBoundary=False)
    scratch.restoreState()
    code = "\n".join(line for line in scratch._code[start:] if line != "1 0 0 1 0 0 cm")  # (no-op transforms)
    used = _RESOURCE_OPERATORS.intersection(code.split())
    if used:
        raise DataError(f"SVG {source!r} is not plain one-colour paths (it uses {', '.join(sorted(used))}: an image, "
                        "transparency, a gradient or text); an icon is filled and stroked paths in one colour",
                        Location(source))
    return code


def _drop_unpainted(node: Any) -> None:
    """Leave out shapes that paint nothing (svglib adds an unstroked copy of every filled path): fewer bytes."""
    contents = getattr(node, "contents", None)
    if contents is None:
        return
    kept = []
    for child in contents:
        _drop_unpainted(child)
        painted = (getattr(child, "fillColor", None) is not None or getattr(child, "strokeColor", None) is not None
                   or getattr(child, "isClipPath", False) or hasattr(child, "contents"))
        if painted:
            kept.append(child)
    node.contents = kept


@cache
def _fingerprint() -> bytes:
    """What an icon's operators depend on besides its bytes: this module, the SVG checks, svglib and ReportLab
    (constant for a process: it describes the code that process runs; svglib's files are stat'ed, not imported)."""
    import hashlib
    from importlib.util import find_spec

    import reportlab

    from generator.render.faces import vector

    digest = hashlib.sha256(b"icon-operators\0" + reportlab.Version.encode())
    for module in (__file__, vector.__file__):
        digest.update(Path(module).read_bytes())
    spec = find_spec("svglib")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        for path in sorted(Path(folder).glob("*.py")):
            info = path.stat()
            digest.update(f"{path.name}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return digest.digest()


def draw_icon(c: Any, icon: Icon, x: float, y: float, size: float, colour: Any, rotate: float = 0.0) -> None:
    """Draw `icon` centred at (x, y) points, `size` points wide, in one colour."""
    c.saveState()
    c.translate(x, y)
    if rotate:
        c.rotate(rotate)
    c.scale(size / UNIT, size / UNIT)
    c.setFillColor(colour)
    c.setStrokeColor(colour)
    c.addLiteral(icon.operators())
    c.restoreState()


def _png(icon: Icon, colour: str, pixels: int) -> bytes:
    import pypdfium2 as pdfium
    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    page = io.BytesIO()
    canvas = Canvas(page, pagesize=(UNIT, UNIT), invariant=1)
    draw_icon(canvas, icon, UNIT / 2, UNIT / 2, UNIT, HexColor(colour))
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(page.getvalue())
    try:
        image = document[0].render(scale=pixels / UNIT, fill_color=(0, 0, 0, 0), draw_annots=False).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def operators_extent(operators: str) -> tuple[float, float, float, float, float]:
    """Left, bottom, right, top of what `operators` ink (y up), and the reach from the origin.

    Read from the very path operators an icon is drawn with: curves are sampled,
    strokes widened by half their line width, nested transforms applied.
    """
    Point = tuple[float, float]
    points: list[Point] = []
    path: list[Point] = []
    stack: list[tuple[float, ...]] = []
    matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    line_width = 1.0
    operands: list[float] = []
    current = (0.0, 0.0)
    start = (0.0, 0.0)

    def place(px: float, py: float) -> Point:
        a, b, c, d, e, f = matrix
        return (a * px + c * py + e, b * px + d * py + f)

    for token in operators.split():
        if _NUMBER.match(token):
            operands.append(float(token))
            continue
        if token in ("m", "l") and len(operands) >= 2:
            current = (operands[0], operands[1])
            if token == "m":
                start = current
            path.append(place(*current))
        elif token == "h":
            current = start
        elif token in ("c", "v", "y") and len(operands) >= 4:
            x0, y0 = current
            if token == "c":
                x1, y1, x2, y2, x3, y3 = operands[:6]
            elif token == "v":
                x1, y1 = x0, y0
                x2, y2, x3, y3 = operands[:4]
            else:
                x1, y1, x3, y3 = operands[:4]
                x2, y2 = x3, y3
            for step in range(1, 9):
                t = step / 8
                u = 1 - t
                path.append(place(u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                  u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
            current = (x3, y3)
        elif token == "re" and len(operands) >= 4:
            rx, ry, rw, rh = operands[:4]
            path.extend(place(px, py) for px, py in ((rx, ry), (rx + rw, ry), (rx + rw, ry + rh), (rx, ry + rh)))
        elif token == "w" and operands:
            line_width = operands[0]
        elif token == "cm" and len(operands) >= 6:
            a, b, c, d, e, f = operands[:6]
            m = matrix
            matrix = (a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                      e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5])
        elif token == "q":
            stack.append((*matrix, line_width))
        elif token == "Q" and stack:
            *saved, line_width = stack.pop()
            matrix = (saved[0], saved[1], saved[2], saved[3], saved[4], saved[5])
        elif token in ("f", "f*", "F", "b", "b*", "B", "B*", "S", "s"):
            pad = 0.0
            if token not in ("f", "f*", "F"):
                pad = line_width / 2 * math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
            for px, py in path:
                points.extend(((px - pad, py - pad), (px + pad, py + pad), (px - pad, py + pad), (px + pad, py - pad)))
            path = []
        elif token == "n":
            path = []
        operands = []
    if not points:
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    reach = max(math.hypot(px, py) for px, py in points)
    return (min(xs), min(ys), max(xs), max(ys), reach)
