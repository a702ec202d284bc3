"""Images a layout draws (card art): read once through the read gate, checked, carried by value.

SVG files are vector art: checked by `faces.vector` (no external references,
scripts or features svglib cannot draw) and drawn as paths, never as an image.

A `Picture` holds the bytes it was read with and their sha256, so a resolved
face (and every cache key made from it) changes when the image file does,
and drawing uses exactly the bytes that were checked. An image is untrusted
data: something that is not a PNG, JPEG or GIF, a broken file, or a
decompression bomb (a few kilobytes claiming billions of pixels) ends in one
line at the layout's file:line, before anything is decoded in full.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import DataError, Location
from generator.readgate import ReadGate
from generator.render.faces.vector import checked_tree, drawing, looks_like_svg

FORMATS = ("PNG", "JPEG", "GIF")
MAX_PIXELS = 50_000_000  # designed: a 60 x 60 cm board at 300 dpi is 50 megapixels
MAX_BYTES = 64 << 20


@dataclass(frozen=True)
class Picture:
    """An image file's content: equal (and hashed) by path and digest; `data` is the bytes read."""

    path: str
    sha256: str
    width: int  # pixels; for SVG, its size in points (rounded)
    height: int
    data: bytes = field(compare=False, repr=False)
    vector: bool = False  # an SVG, drawn as paths

    def size(self) -> tuple[float, float]:
        """The art's own width and height: pixels for a raster, points for an SVG (its aspect is what counts)."""
        if self.vector:
            made = self.drawing()
            return float(made.width), float(made.height)
        return float(self.width), float(self.height)

    def drawing(self) -> Any:
        """The SVG as a ReportLab Drawing, made once per picture object (not pickled: remade from `data`)."""
        from generator.render.faces.vector import checked_tree, drawing

        found = self.__dict__.get("_drawing")
        if found is None:
            found = drawing(checked_tree(self.data, self.path, Location(self.path)), self.path, Location(self.path))
            object.__setattr__(self, "_drawing", found)
        return found

    def __getstate__(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if key != "_drawing"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def load_picture(gate: ReadGate, path: Path, relative: str, where: Location) -> Picture:
    """Read and check one image; a DataError at `where` when it is not one or is too large."""
    import hashlib

    from PIL import Image

    data = gate.read_bytes(path, where, limit=MAX_BYTES)
    if path.suffix.lower() == ".svg" or looks_like_svg(data):
        return _load_svg(gate.name(path), data, relative, where)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=list(FORMATS)) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise DataError(f"image {relative!r} is {width} x {height} pixels, more than "
                                    f"{MAX_PIXELS // 1_000_000} megapixels; scale it down", where)
                image.load()  # decode once here, so a broken file fails now and not while drawing
    except DataError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise DataError(f"image {relative!r} claims more than {MAX_PIXELS // 1_000_000} megapixels "
                        "(a decompression bomb?); scale it down", where) from None
    except (OSError, ValueError, SyntaxError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if reason.startswith("cannot identify image file"):
            reason = "unknown format"
        raise DataError(f"image {relative!r} is not a readable {', '.join(FORMATS[:-1])} or {FORMATS[-1]} "
                        f"image ({reason}); export it again as PNG (or SVG)", where) from None
    return Picture(gate.name(path), hashlib.sha256(data).hexdigest(), width, height, data)


def _load_svg(name: str, data: bytes, relative: str, where: Location) -> Picture:
    """An SVG checked (`faces.vector`) and drawn once, so a bad one fails now at the layout's line."""
    import hashlib

    made = drawing(checked_tree(data, relative, where), relative, where)
    picture = Picture(name, hashlib.sha256(data).hexdigest(), round(made.width), round(made.height), data, vector=True)
    object.__setattr__(picture, "_drawing", made)
    return picture
