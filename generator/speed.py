"""The one switch for the speed machinery: mechanisms that give the same bytes as plain drawing, faster.

Every mechanism below makes a build quicker by doing less work, and each one's output is the plain path's
output byte for byte (a test builds every game with the switch on and off and compares the files). Turn
them all off with the environment variable

    PIRATE_PRESS_SPEEDUPS=off

to rule them out when something looks wrong, or to measure what they are worth. What they are:

- `render/faces/stamps.py` (`FormStore`): a face drawn into a sheet's PDF form is recorded and replayed
  into the next sheet with the same PDF font state; font subsets are cut and compressed once per build;
- `render/documents/contents.py` (`OnePassContents`): the rulebook's table of contents laid out in one
  pass, page numbers written in afterwards, where ReportLab lays the document out twice;
- `render/documents/lines.py` (`ParagraphLines`): paragraph line breaks kept from build to build;
- `render/documents/parses.py` (`TemplateParses`): each document template parsed once per build;
- `render/faces/layout.py` (`FaceMemo`): a layout resolved once per distinct value of the fields it reads;
- `build/cache.py` (the kept manifest): a session keeps its manifest in memory between builds;
- `build/forked.py` (`ForkedJobs`): forked workers take pure jobs from a shared counter (`--jobs`).

The first two replay ReportLab's own internals; they run only on the ReportLab versions they were
verified against (`VERIFIED_REPORTLAB`), and on any other version the plain path draws instead.

Not behind the switch: `render/documents/formfields.py` writes fillable sheets' fields itself (one form
font per document) rather than through ReportLab's `acroForm`. Its files differ from ReportLab's by design,
so it is how the product makes forms, not a faster way to the same bytes.

The switch is read from the environment each time it is asked (no module-wide state), so a forked worker
sees what its parent saw.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

SWITCH = "PIRATE_PRESS_SPEEDUPS"
OFF = frozenset({"off", "0", "no", "false"})
# ReportLab versions whose internals the replays were checked against, byte for byte (tests/render and
# tests/documents compare them with ReportLab's own drawing)
VERIFIED_REPORTLAB = ("5.1.",)


@dataclass(frozen=True)
class Speedups:
    """Which speed mechanisms may run: `memos` (caches of pure results), `fork` (forked build workers) and
    `replay` (ReportLab internals replayed)."""

    memos: bool
    fork: bool

    @property
    def replay(self) -> bool:
        """Asked only by drawing code: it reads ReportLab's version, so a build with nothing to draw never
        imports ReportLab to answer it."""
        return self.memos and reportlab_verified()


def speedups() -> Speedups:
    """The mechanisms allowed now: all of them unless `PIRATE_PRESS_SPEEDUPS=off`; the ReportLab replays only
    on a verified ReportLab."""
    on = os.environ.get(SWITCH, "on").strip().lower() not in OFF
    return Speedups(memos=on, fork=on)


def reportlab_verified(version: str | None = None) -> bool:
    """Whether ReportLab `version` (the installed one by default) is one the replays were verified against."""
    if version is None:
        from reportlab import Version

        version = Version
    return version.startswith(VERIFIED_REPORTLAB)
