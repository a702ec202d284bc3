"""The PNG writer: what a decoder reads back is exactly the pixels given, and the bytes depend on nothing else."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.render.base.pngwrite import COLOUR_TYPES, png_from_image, png_from_rows


@st.composite
def pixel_rows(draw: st.DrawFn) -> tuple[str, int, int, int, bytes]:
    """A mode, a size, a stride with 0-5 padding bytes a row (as pdfium's bitmaps may have), and the rows."""
    mode = draw(st.sampled_from(sorted(COLOUR_TYPES)))
    width = draw(st.integers(1, 40))
    height = draw(st.integers(1, 300))  # past BLOCK_ROWS: rows go to zlib in blocks
    channels = COLOUR_TYPES[mode][1]
    stride = width * channels + draw(st.integers(0, 5))
    palette = draw(st.lists(st.binary(min_size=channels, max_size=channels), min_size=1, max_size=4))
    pick = random.Random(draw(st.integers(0, 2**32))).randrange  # pixels from a few colours
    padding = b"\xee" * (stride - width * channels)
    rows = b"".join(b"".join(palette[pick(len(palette))] for _ in range(width)) + padding for _ in range(height))
    return mode, width, height, stride, rows


@settings(max_examples=40, deadline=None)
@given(pixel_rows(), st.sampled_from([0, 1, 3, 9]))
def test_pillow_decodes_exactly_the_rows_given_padding_left_out(case: tuple[str, int, int, int, bytes],
                                                                level: int) -> None:
    mode, width, height, stride, rows = case
    png = png_from_rows(rows, width, height, stride, mode, level)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.mode == mode and image.size == (width, height)
    row = width * COLOUR_TYPES[mode][1]
    assert image.tobytes() == b"".join(rows[r * stride:r * stride + row] for r in range(height))
    assert png_from_rows(bytearray(rows), width, height, stride, mode, level) == png  # only the pixels count


def test_an_image_round_trips_and_equal_pixels_give_equal_bytes() -> None:
    image = Image.new("RGB", (63, 88), (250, 240, 220))
    image.paste((120, 30, 30), (5, 5, 40, 60))
    png = png_from_image(image, 3)
    assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == image.tobytes()
    assert png_from_image(image.copy(), 3) == png
    assert png_from_image(image.convert("P"), 3) != b""  # other modes are converted, not refused


def test_transparency_is_kept() -> None:
    image = Image.new("RGBA", (10, 10), (0, 0, 0, 0))
    image.putpixel((4, 4), (200, 100, 50, 255))
    decoded = Image.open(io.BytesIO(png_from_image(image, 3)))
    assert decoded.mode == "RGBA" and decoded.tobytes() == image.tobytes()


@pytest.mark.parametrize(("width", "height", "stride", "size", "message"), [
    (4, 2, 11, 24, "stride of at least 12"),
    (4, 2, 12, 20, "fewer than 2 rows"),
    (0, 2, 12, 24, "stride"),
])
def test_rows_that_do_not_fit_are_refused(width: int, height: int, stride: int, size: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        png_from_rows(bytes(size), width, height, stride, "RGB", 3)


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="mode 'CMYK'"):
        png_from_rows(bytes(16), 2, 2, 8, "CMYK", 3)
