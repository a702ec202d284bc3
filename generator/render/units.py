"""Units and paper: everything in the data is millimetres, ReportLab speaks points.

Kept tiny and free of ReportLab imports so geometry can be computed (and
tested) without loading the PDF library.
"""

from __future__ import annotations

from dataclasses import dataclass

MM = 72.0 / 25.4  # points per millimetre
DPI = 300


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * MM


def px(mm: float, dpi: int = DPI) -> int:
    """Millimetres to whole pixels at `dpi` (rounded, so 69 mm at 300 dpi is 815 px)."""
    return int(round(mm / 25.4 * dpi))


@dataclass(frozen=True)
class Paper:
    """A sheet of printer paper, portrait, in millimetres."""

    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}
