"""How to impose a component on paper: the settings the sheets exporter receives.

Kept apart from `imposition` (which loads the drawing code) so that the
exporter registry and the CLI can name them without importing ReportLab.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from generator.render.base.units import DEFAULT_BLEED, Paper

DUPLEX_MODES = ("long", "short", "none")

# How a sheet PDF is printed (`imposition` decides per component) and the word its file name ends with,
# so a file says how to print it: backs on the next page for a long- or short-edge flip, fronts and
# backs side by side to fold, or fronts only.
MODE_NAMES = {
    "duplex-long": "duplex-long",
    "duplex-short": "duplex-short",
    "gutter-fold": "gutterfold",
    "fronts-only": "single-sided",
}


def sheet_file_name(game_id: str, subject: str, paper: str, mode: str) -> str:
    """`<game>-<component>-<paper>-<mode>.pdf`: the sheet file of one component (or mixed sheet) and paper."""
    return f"{game_id}-{subject}-{paper}-{MODE_NAMES[mode]}.pdf"




class PrintSettings(Protocol):
    """What the rulebook's how-to-print page needs of a build's options (`BuildOptions` has these fields)."""

    @property
    def bleed(self) -> float: ...
    @property
    def duplex(self) -> str: ...
    @property
    def crop_marks(self) -> bool: ...
    @property
    def cut_lines(self) -> bool: ...
    @property
    def back_offset(self) -> tuple[float, float]: ...
    @property
    def booklet(self) -> bool: ...


@dataclass(frozen=True)
class PrintChoices:
    """The documented defaults of how things are printed; the build's options take theirs from here."""

    bleed: float = DEFAULT_BLEED
    duplex: str = "long"
    crop_marks: bool = True
    cut_lines: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    booklet: bool = False


@dataclass(frozen=True)
class SheetOptions:
    """How to impose: paper, bleed (mm), duplex mode, marks, and the back nudge (mm)."""

    paper: Paper
    bleed: float = PrintChoices.bleed
    duplex: str = PrintChoices.duplex
    crop_marks: bool = PrintChoices.crop_marks
    cut_lines: bool = PrintChoices.cut_lines
    back_offset: tuple[float, float] = PrintChoices.back_offset
    guides: bool = False  # trim, bleed and safe lines over every face (render.facestyle)
    ink_saver: bool = False  # marked backgrounds white, frames thin (render.facestyle)
