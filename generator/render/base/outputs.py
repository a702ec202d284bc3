"""Typed results: every file a build job makes, with what kind of file it is.

A job returns `OutputFile`s (name, kind, bytes, and what they show); the
build keeps a `FileRecord` of each (no bytes) in its manifest. Summaries,
the gallery and the clean-up of removed components read these records, so a
file's name is made in one place only: where the file is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class FileKind(str, Enum):
    """What a file is for (the gallery and summaries group by it)."""

    SHEET = "sheet"  # a component's faces imposed on printer paper, to print and cut
    RULES = "rules"
    BOOKLET = "booklet"  # the rulebook as a saddle-stitched booklet
    SCORE_SHEET = "score-sheet"  # score sheets, logs, pads, screens (templates/sheets/)
    FILLABLE = "fillable"  # the same sheet as a PDF form
    BOARD = "board"
    PNG = "png"  # one face at 300 dpi with bleed
    FACES_PDF = "faces-pdf"  # one face per page, TrimBox and BleedBox set
    TTS = "tts"  # Tabletop Simulator deck images
    TTS_DECK = "tts-deck"  # the deck description (JSON) that goes with them
    PREVIEW = "preview"  # small screen image for the gallery
    PRESET = "preset"  # a print service's file (pnp build --preset), or its manifest
    SHOWCASE = "showcase"  # a game's showcase image: a fanned hand, a spread of designs, the box's contents


@dataclass(frozen=True)
class OutputFile:
    """One file a job made: `name` relative to the job's folder."""

    name: str
    kind: FileKind
    data: bytes = field(repr=False)
    component: str = ""  # the component it shows, if any
    label: str = ""  # what it shows, for people (an item id, "back")
    paper: str = ""
    sheets: int = 0  # sheets of paper it prints on (component sheets)

    def record(self) -> FileRecord:
        return FileRecord(self.name, self.kind, self.component, self.label, self.paper, self.sheets)


@dataclass(frozen=True)
class FileRecord:
    """What the build remembers of an output file (the manifest stores these, plus size and hash)."""

    name: str
    kind: FileKind
    component: str = ""
    label: str = ""
    paper: str = ""
    sheets: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind.value, "component": self.component, "label": self.label,
                "paper": self.paper, "sheets": self.sheets}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileRecord:
        return cls(str(data["name"]), FileKind(data["kind"]), str(data.get("component", "")),
                   str(data.get("label", "")), str(data.get("paper", "")), int(data.get("sheets", 0)))
