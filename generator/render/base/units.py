"""Units and paper: everything in the data is millimetres, ReportLab speaks points.

Kept tiny and free of ReportLab imports so geometry can be computed (and
tested) without loading the PDF library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

MM = 72.0 / 25.4  # points per millimetre
DEFAULT_BLEED = 3.0  # mm around each face: what print shops ask for
DPI = 300


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * MM


def px(mm: float, dpi: int = DPI) -> int:
    """Millimetres to whole pixels at `dpi` (rounded, so 69 mm at 300 dpi is 815 px)."""
    return round(mm / 25.4 * dpi)


@dataclass(frozen=True)
class Paper:
    """A sheet of printer paper, portrait, in millimetres, and its booklet page (the sheet folded in half).

    The one paper registry is `PAPERS`: sheets, documents and the CLI's `--paper`
    choices all read it. To add a paper size, add an entry there, in the unit the
    standard defines it in (`metric` or `imperial`), so its points are exact.
    """

    name: str
    label: str
    width: float
    height: float
    size_pt: tuple[float, float]  # the sheet in PDF points (what ReportLab calls a page size)
    booklet_pt: tuple[float, float]  # one booklet page in points: half the sheet, turned to portrait

    @classmethod
    def metric(cls, name: str, label: str, size: tuple[float, float], booklet: tuple[float, float]) -> Paper:
        """A paper defined in millimetres (ISO sizes)."""
        return cls(name, label, size[0], size[1], (pt(size[0]), pt(size[1])), (pt(booklet[0]), pt(booklet[1])))

    @classmethod
    def imperial(cls, name: str, label: str, size: tuple[float, float], booklet: tuple[float, float]) -> Paper:
        """A paper defined in inches (North American sizes)."""
        return cls(name, label, round(size[0] * 25.4, 6), round(size[1] * 25.4, 6), (size[0] * 72.0, size[1] * 72.0),
                   (booklet[0] * 72.0, booklet[1] * 72.0))


PAPERS: Mapping[str, Paper] = MappingProxyType({paper.name: paper for paper in (
    Paper.metric("a4", "A4", (210.0, 297.0), booklet=(148.0, 210.0)),  # booklet pages: A5
    Paper.imperial("letter", "US Letter", (8.5, 11.0), booklet=(5.5, 8.5)),  # booklet pages: half letter
)})
ALL_PAPERS = "all"  # the `--paper` choice meaning every registered paper


def paper(name: str) -> Paper:
    """The registered paper `name`; a UsageError naming the choices otherwise."""
    from generator.errors import UsageError

    found = PAPERS.get(name)
    if found is None:
        raise UsageError(f"unknown paper {name!r} (use one of: {', '.join(PAPERS)}, or {ALL_PAPERS})")
    return found


def paper_names(choice: str) -> tuple[str, ...]:
    """A `--paper` choice as paper names: one paper, or every registered one for `all` (also `both`)."""
    if choice in (ALL_PAPERS, "both"):
        return tuple(PAPERS)
    return (paper(choice).name,)
