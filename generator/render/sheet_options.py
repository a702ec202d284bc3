"""How to impose a component on paper: the settings the sheets exporter receives.

Kept apart from `imposition` (which loads the drawing code) so that the
exporter registry and the CLI can name them without importing ReportLab.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.render.units import Paper

DUPLEX_MODES = ("long", "short", "none")


@dataclass(frozen=True)
class SheetOptions:
    """How to impose: paper, bleed (mm), duplex mode, marks, and the back nudge (mm)."""

    paper: Paper
    bleed: float = 3.0
    duplex: str = "long"
    crop_marks: bool = True
    cut_lines: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    guides: bool = False  # trim, bleed and safe lines over every face (render.facestyle)
    ink_saver: bool = False  # marked backgrounds white, frames thin (render.facestyle)
