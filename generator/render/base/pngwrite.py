"""PNG files written straight from pixel rows: filter type None on every row, one zlib stream.

Why not Pillow's encoder: for RGB it tries several row filters per row
(adaptive filtering), which costs more CPU than the compression itself, and
on flat card art with anti-aliased text the unfiltered rows compress smaller
anyway (long runs of one colour). The pixels are stored losslessly, so a
decoder reads exactly the pixels given; the bytes depend only on the pixels
and the zlib level (no timestamps, no other chunks), so identical inputs give
identical files.

Rows come from a pdfium bitmap (`png_from_rows`, its stride may pad each
row) or from a Pillow image (`png_from_image`).
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}  # mode -> (PNG colour type, bytes per pixel)
BLOCK_ROWS = 256  # rows handed to zlib at a time, so a 4096 px sheet never sits in memory twice


def chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk: length, type, body, CRC of type and body."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_from_rows(data: Any, width: int, height: int, stride: int, mode: str, level: int) -> bytes:
    """A PNG of `height` rows of `width` pixels in `mode` ("L", "RGB", "RGBA"), row r starting at byte
    `r * stride` of `data` (anything `memoryview` takes); bytes past a row's pixels are padding."""
    if mode not in COLOUR_TYPES:
        raise ValueError(f"PNG rows in mode {mode!r}: expected one of {', '.join(COLOUR_TYPES)}")
    colour_type, channels = COLOUR_TYPES[mode]
    row = width * channels
    if width < 1 or height < 1 or stride < row:
        raise ValueError(f"PNG rows of {width} x {height} px need a stride of at least {row} bytes, not {stride}")
    view = memoryview(data).cast("B")
    if len(view) < (height - 1) * stride + row:
        raise ValueError(f"PNG rows: {len(view)} bytes hold fewer than {height} rows of {row} bytes")
    compressor = zlib.compressobj(level)
    parts = []
    for first in range(0, height, BLOCK_ROWS):
        rows = range(first * stride, min(height, first + BLOCK_ROWS) * stride, stride)
        parts.append(compressor.compress(b"".join(b"\x00" + view[start:start + row] for start in rows)))
    parts.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join((SIGNATURE, chunk(b"IHDR", header), chunk(b"IDAT", b"".join(parts)), chunk(b"IEND", b"")))


def png_from_image(image: Any, level: int) -> bytes:
    """A Pillow image (mode L, RGB or RGBA) as a PNG (other modes are converted to RGB or RGBA first)."""
    if image.mode not in COLOUR_TYPES:
        image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    width, height = image.size
    channels = COLOUR_TYPES[image.mode][1]
    return png_from_rows(image.tobytes(), width, height, width * channels, image.mode, level)
