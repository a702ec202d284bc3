"""Reading placements and crop marks back out of sheet PDFs (shared by the render tests)."""

from __future__ import annotations

import re

MM = 72 / 25.4

PLACE = re.compile(rb"1 0 0 1 (-?[\d.]+) (-?[\d.]+) cm\s+/(\S+) Do")
LINE = re.compile(rb"(-?[\d.]+) (-?[\d.]+) m\s+(-?[\d.]+) (-?[\d.]+) l\s+S")


def placements(page) -> list[tuple[float, float, str]]:
    """(x, y in mm, form name) of every face placed on a pypdf page: the trim box's bottom-left."""
    data = page.get_contents().get_data()
    return [(float(x) / MM, float(y) / MM, name.decode()) for x, y, name in PLACE.findall(data)]


def lines(page) -> list[tuple[float, float, float, float]]:
    """Every straight stroked line on the page (crop marks), in mm."""
    data = page.get_contents().get_data()
    return [tuple(float(v) / MM for v in match) for match in LINE.findall(data)]
