"""Typed results: every file a build job makes, with what kind of file it is.

A job returns `OutputFile`s (name, kind, bytes, and what they show); the
build keeps a `FileRecord` of each (no bytes) in its manifest. Summaries,
the gallery and the clean-up of removed components read these records, so a
file's name is made in one place only: where the file is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol


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
    LOOK = "look"  # one side of one design at print resolution, for the look page (output/look.html)


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


class FaceStore(Protocol):
    """Where rasterized faces are kept between builds, by a key of everything drawn (the build's cache is one).

    Render asks for it by this shape, so drawing never imports the build layer that owns the cache."""

    @property
    def faces(self) -> Mapping[str, str]:
        """Face key -> digest of the stored bytes."""
        ...

    def face(self, key: str) -> bytes | None:
        """The stored PNG of face `key`, or None when it is absent or its bytes no longer match their digest."""
        ...

    def store_face(self, key: str, data: bytes, same_as: Path | None = None) -> None:
        """Keep `data` under `key`; `same_as` is a file just written with exactly these bytes (may be linked)."""
        ...
