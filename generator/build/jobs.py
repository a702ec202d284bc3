"""A build job and what running it gives: its files, what it read, how it ended; running one and writing its files.

The same in this process and in a forked worker (`forked.py`), so both write and record alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.build.cache import FileStamp, stamp
from generator.errors import UsageError
from generator.model import Game
from generator.project import write_atomic
from generator.readgate import ReadGate
from generator.render.base.modelreads import FieldReads
from generator.render.base.outputs import FileRecord, OutputFile
from generator.render.base.units import PAPERS


@dataclass
class Job:
    """One unit of work: `run()` returns the typed files it made (names relative to `folder`).

    `key` is the static part of its cache key; what it reads is recorded while
    it runs (see the module doc). `exporter`, `paper` and `subject` (the
    component or document it makes) let a later build remove what no longer exists.
    """

    game: str
    label: str
    folder: Path
    run: Callable[[], list[OutputFile]]
    key: str = ""
    exporter: str = ""
    paper: str = ""
    subject: str = ""
    pure: bool = False  # returns bytes and touches nothing else: may run in a forked worker
    facts: FieldReads | None = None  # model values the run reads (documents), re-checked against `model`
    model: Game | None = None
    cost: float = 0.0  # estimated milliseconds of work (`estimated_cost`): workers take the longest jobs first
    # a big job may come in pure parts (`raster.Part`: a component's previews in slices), run in any worker (or
    # here, one by one, with --jobs 1) and written as each comes back; the job is recorded once, when the last
    # part is in
    parts: list[Job] = field(default_factory=list, compare=False, repr=False)
    part_of: Job | None = field(default=None, compare=False, repr=False)
    sink: Any = field(default=None, compare=False, repr=False)  # a part's `raster.FaceSink`: faces it rasterized


@dataclass(frozen=True)
class JobResult:
    """What running a job gave: its files, and what it read (files by digest, model values)."""

    files: list[OutputFile]
    reads: dict[str, str]
    facts: dict[str, str]
    faces: dict[str, bytes] = field(default_factory=dict)  # a part's rasterized faces, for the build cache
    # set when a forked worker wrote the files itself (its game had validated): the names it rewrote, and the
    # faces it stored in the build cache's folder (key -> sha256), which this process only registers
    written: list[str] | None = None
    face_sums: dict[str, str] = field(default_factory=dict)
    stamps: dict[str, FileStamp] = field(default_factory=dict)  # the written files' `cache.stamp`s, by name
    kept: Any = None  # from a forked worker: what its run adds to the session's kept state (`HandBack`)


@dataclass(frozen=True)
class JobOutcome:
    """One job in one build: ran or reused, its files (typed), which were rewritten or removed."""

    game: str
    label: str
    folder: Path
    ran: bool
    files: tuple[FileRecord, ...] = ()
    written: tuple[str, ...] = ()  # names whose bytes changed
    removed: tuple[str, ...] = ()  # names deleted: no longer made by this job, or the job is gone
    # what it read (files by digest; a reused job's recorded reads), so a build of several games records each
    # game's inputs apart though their jobs ran mixed; and the faces it rasterized into the build cache
    inputs: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    faces_drawn: int = field(default=0, compare=False)

    def paths(self) -> list[Path]:
        return [self.folder / record.name for record in self.files]


@dataclass
class Summary:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)  # labels of jobs that ran (others came from the cache)
    skipped: list[str] = field(default_factory=list)
    sheets: dict[str, int] = field(default_factory=dict)  # paper -> sheets of card/tile/token faces

    @classmethod
    def of(cls, outcomes: Iterable[JobOutcome]) -> Summary:
        summary = cls()
        for outcome in outcomes:
            if outcome.ran:
                summary.ran.append(outcome.label)
            elif outcome.files:
                summary.skipped.append(outcome.label)
            for record in outcome.files:
                path = outcome.folder / record.name
                (summary.written if record.name in outcome.written else summary.unchanged).append(path)
                if record.sheets:
                    summary.sheets[record.paper] = summary.sheets.get(record.paper, 0) + record.sheets
            summary.removed.extend(outcome.folder / name for name in outcome.removed)
        return summary

    def line(self) -> str:
        total = len(self.written) + len(self.unchanged)
        # the registry's order, whichever game's jobs came first (a reused game's, say)
        papers = ", ".join(f"{self.sheets[paper]} on {paper}" for paper in PAPERS if paper in self.sheets)
        return (f"built {total} files ({len(self.written)} written, {len(self.unchanged)} unchanged; "
                f"{len(self.ran)} jobs run, {len(self.skipped)} up to date)"
                + (f"; component sheets to print: {papers}" if papers else ""))


def execute(job: Job, gate: ReadGate) -> JobResult:
    """Run one job, recording what it reads (the same in this process and in a forked worker)."""
    with gate.recording() as reads:
        files = job.run()
    faces = job.sink.made if job.sink is not None else {}
    return JobResult(files, reads.as_dict(), job.facts.snapshot() if job.facts else {}, faces)


@dataclass(frozen=True)
class HandBack:
    """State a session keeps between builds that forked workers add to (`documents/lines.py`'s paragraph
    lines): `give` runs in a worker after each job (what to send back with its result, or None), `keep`
    in the building process with what came back. Only for a session that builds again (`pnp watch`)."""

    give: Callable[[], Any]
    keep: Callable[[Any], None]


def written_here(job: Job, result: JobResult, out_root: Path) -> JobResult:
    """In a forked worker whose games have all validated: write the result's files and store its faces here,
    and send back only what they were (names, kinds, digests), so the parent is not the one process that
    writes every file of a build."""
    stamps: dict[str, FileStamp] = {}
    written = write_files(job, result.files, out_root, stamps)
    sums = job.sink.store(job.folder, result.files) if job.sink is not None else {}  # (faces linked to those files)
    files = [dataclasses.replace(output, data=b"") for output in result.files]
    return JobResult(files, result.reads, result.facts, {}, written, sums, stamps)


def write_files(job: Job, files: list[OutputFile], out_root: Path,
                 stamps: dict[str, FileStamp] | None = None) -> list[str]:
    """Write a job's (or part's) files atomically inside output/; the names whose bytes changed. With `stamps`,
    each file's manifest stamp is taken as it is written (so nobody reads it back to hash it)."""

    written = []
    folder_inside = job.folder.resolve().is_relative_to(out_root)  # once per job, not once per file
    for output in files:
        path = job.folder / output.name
        inside = folder_inside if _plain_name(output.name) else path.resolve().is_relative_to(out_root)
        if not inside:
            raise UsageError(f"job {job.label!r} tried to write outside output/: {output.name}")
        if write_atomic(path, output.data):
            written.append(output.name)
        if stamps is not None:
            stamps[output.name] = stamp(path, output.data)
    return written


def _plain_name(name: str) -> bool:
    """A file name without folders: it lies in its job's folder (a symbolic link there is refused by
    `write_atomic`, which never writes through one), so the folder's check stands for it."""
    import os

    return name not in ("", ".", "..") and "/" not in name and os.sep not in name and (
        not os.altsep or os.altsep not in name)
