"""Running a build's jobs: reuse the fresh ones, start workers on the pure rest, write and record each result,
and remove what a job, a component or a game no longer makes."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from generator.build.cache import BuildCache, JobRecord
from generator.build.forked import ForkedJobs
from generator.build.jobs import HandBack, Job, JobOutcome, JobResult, execute, write_files
from generator.build.options import BOOKLET, DOCUMENTS, LOOK, SHOWCASE, BuildOptions
from generator.model import Game
from generator.project import Project
from generator.readgate import ReadGate
from generator.render.base.modelreads import facts_hold
from generator.render.exports.registry import PREVIEW


def fresh(job: Job, cache: BuildCache, gate: ReadGate) -> JobRecord | None:
    """The job's record when nothing it depends on changed and its files are intact; None otherwise."""
    record = cache.fresh(job.label, job.key, gate)
    if record is None:
        return None
    if record.facts and (job.model is None or not facts_hold(job.model, record.facts)):
        return None
    return record


@dataclass
class Started:
    """Jobs of a build under way: which are fresh (reused), and the workers already running the pure rest."""

    reused: dict[int, JobRecord]
    farmed: ForkedJobs
    checked: frozenset[int] = frozenset()  # the jobs (by id) whose freshness `start` checked

    def close(self) -> None:
        """Stop the workers (a refused build writes nothing; `run` closes it when done)."""
        self.farmed.close()


def start(jobs: list[Job], project: Project, cache: BuildCache | None = None, parallel: int = 1,
          before_fork: Callable[[], None] | None = None, hand_back: HandBack | None = None) -> Started:
    """Find the fresh jobs and start the workers on the pure rest at once, before `run`.

    Workers only compute: nothing is written until `run`, so a caller may start
    the jobs, validate the game meanwhile (on the other core), and close them
    unwritten if it refuses the build. `before_fork` runs only when workers are
    forked (to import what they would each import again); `hand_back`, what workers hand back.
    """
    reused: dict[int, JobRecord] = {}
    if cache is not None:
        for job in jobs:
            record = fresh(job, cache, project.gate)
            if record is not None:
                reused[id(job)] = record
    units = [unit for job in jobs if id(job) not in reused for unit in (job.parts or [job]) if unit.pure]
    farmed = ForkedJobs(units, parallel, project.gate, before_fork, project.output_dir.resolve(), hand_back)
    return Started(reused, farmed, frozenset(id(job) for job in jobs))


def run(jobs: list[Job], project: Project, cache: BuildCache | None = None,
        progress: Callable[[Job], None] | None = None, parallel: int = 1,
        between_jobs: Callable[[Job], None] | None = None, started: Started | None = None) -> list[JobOutcome]:
    """Run the jobs, writing every file atomically under the project's output folder; outcomes in job order.

    With a cache, a job that is still fresh is skipped (its recorded reads count
    as read now), and files an earlier run of the same job wrote but this one no
    longer does (a renamed card's PNG) are removed. With `parallel` > 1, pure jobs
    (sheets, documents) run in forked workers, longest first, while this process
    runs the others; their results are written as they come, so this process never
    waits for a worker while it has work of its own. Every job writes its own files,
    so the order of writing changes no byte. `started` (from `start`, for these jobs or
    some of them) has the workers running already.
    `between_jobs` is called after each job (tests use it to edit a file mid-build).
    """
    gate = project.gate
    out_root = project.output_dir.resolve()
    started = started or start(jobs, project, cache, parallel)
    reused, farmed = started.reused, started.farmed
    farmed.allow_writing()  # `run` is called once every game of the build has validated
    outcomes: dict[int, JobOutcome] = {}
    parts_in: dict[int, dict[int, tuple[JobResult, list[str]]]] = {}  # split job -> part index -> result, written
    faces_stored: set[str] = set()  # face keys the parts of this build kept in the build cache

    def done_with(job: Job) -> None:
        if progress:
            progress(job)
        if between_jobs:
            between_jobs(job)

    def finish(job: Job, result: JobResult, faces_drawn: int = 0) -> None:
        whole = job.part_of
        if whole is not None:  # a part: its files are written now, the job is recorded with its last part
            gate.inherit(result.reads)
            got = parts_in.setdefault(id(whole), {})
            got[whole.parts.index(job)] = (result, _written(job, result, out_root))
            stored = _store_faces(result, cache, faces_stored, job)
            if len(got) == len(whole.parts):
                results = [got[index] for index in range(len(whole.parts))]
                files = [file for part, _ in results for file in part.files]
                reads = {name: sha for part, _ in results for name, sha in part.reads.items()}
                written = [name for _, names in results for name in names]
                stamps = {name: value for part, _ in results for name, value in part.stamps.items()}
                outcome = _conclude(whole, JobResult(files, reads, {}, stamps=stamps), written, cache, out_root)
                previous = outcomes.get(id(whole))
                drawn = (previous.faces_drawn if previous is not None else 0) + stored
                outcomes[id(whole)] = dataclasses.replace(outcome, faces_drawn=drawn)
                done_with(whole)
            else:
                count = outcomes[id(whole)].faces_drawn if id(whole) in outcomes else 0
                outcomes[id(whole)] = JobOutcome(whole.game, whole.label, whole.folder, True, faces_drawn=count + stored)
            return
        gate.inherit(result.reads)
        written = _written(job, result, out_root)
        stored = _store_faces(result, cache, faces_stored)
        outcomes[id(job)] = dataclasses.replace(_conclude(job, result, written, cache, out_root),
                                                faces_drawn=faces_drawn + stored)
        done_with(job)

    try:
        for job in jobs:
            record = reused.get(id(job))
            if record is None and cache is not None and id(job) not in started.checked:
                record = fresh(job, cache, gate)  # planned after `start` (a game whose early plan failed)
            if record is not None:
                gate.inherit(record.inputs)  # what it read last time is what this build depends on
                outcomes[id(job)] = JobOutcome(job.game, job.label, job.folder, False, tuple(record.records()),
                                               inputs=record.inputs)
                done_with(job)
            elif job.parts and not farmed.has(job.parts[0]):  # (no workers) its parts, here, one by one
                for part in job.parts:
                    finish(part, execute(part, gate))
            elif not job.parts and not farmed.has(job):
                drawn = cache.faces_drawn if cache is not None else 0
                result = execute(job, gate)
                finish(job, result, cache.faces_drawn - drawn if cache is not None else 0)
            for done, result in farmed.ready():  # what the workers finished meanwhile
                finish(done, result)
        for done, result in farmed.rest():
            finish(done, result)
    finally:
        farmed.close()
    return [outcomes[id(job)] for job in jobs]


def _written(job: Job, result: JobResult, out_root: Path) -> list[str]:
    """The names of the job's files whose bytes changed: written now (stamped into `result.stamps`), or by the
    worker that ran it."""
    if result.written is not None:
        return result.written
    return write_files(job, result.files, out_root, result.stamps)


def _store_faces(result: JobResult, cache: BuildCache | None, stored: set[str], job: Job | None = None) -> int:
    """Keep a part's rasterized faces in the build cache (this process owns its index), or register those the
    worker already stored in its folder; how many were new to this build (`stored`: the keys kept so far).
    With the part's `job`, whose files are written, a face one of them holds is linked, not written again."""
    if cache is None:
        return 0
    new = 0
    held: dict[bytes, Path] = {}
    if result.faces and job is not None:  # (only a part drawn by `raster` has faces: it is imported already)
        from generator.render.exports.raster import written_as

        held = written_as(result.files, job.folder)
    for key, image in result.faces.items():
        if key not in stored:  # else another part drew the same face (a deck's equal copies)
            cache.store_face(key, image, held.get(image))
            stored.add(key)
            new += 1
    for key, sha in result.face_sums.items():
        cache.faces[key] = sha
        if key not in stored:
            cache.faces_drawn += 1
            stored.add(key)
            new += 1
    return new


def _conclude(job: Job, result: JobResult, written: list[str], cache: BuildCache | None,
              out_root: Path) -> JobOutcome:
    """A job whose files are written: remove what it made last time and no longer does, and record it."""
    removed = []
    records = tuple(output.record() for output in result.files)
    if cache is not None:
        names = {record.name for record in records}
        for stale in cache.files_of(job.label):
            path = job.folder / stale.name
            if stale.name not in names and path.resolve().is_relative_to(out_root) and path.is_file():
                path.unlink()
                removed.append(stale.name)
        cache.record(job.label, job.key, job.folder, records, game=job.game, exporter=job.exporter,
                     paper=job.paper, subject=job.subject, inputs=result.reads, facts=result.facts,
                     stamps=result.stamps)
    return JobOutcome(job.game, job.label, job.folder, True, records, tuple(written), tuple(removed),
                      inputs=result.reads)


def remove_obsolete(game: Game, jobs: list[Job], options: BuildOptions, cache: BuildCache,
                    project: Project) -> list[JobOutcome]:
    """Delete what an earlier build made of this game that no longer exists.

    A recorded job is obsolete when its subject (component, sheet, board) is gone
    from the game, or when this build would have made it (its exporter and paper
    were asked for) but did not plan it. Outputs of other papers or exports that
    this build did not ask for are left alone.
    """
    planned = {job.label for job in jobs}
    subjects = {job.subject for job in jobs} | {c.id for c in game.components} | {game.id}
    asked = {e.name for e in options.exporters()} | {DOCUMENTS} | ({BOOKLET} if options.booklet else set())
    asked |= {SHOWCASE} if options.showcase else set()
    asked |= {LOOK} if PREVIEW in options.exports else set()
    outcomes = []
    for label, record in cache.jobs_of(game.id).items():
        if label in planned:
            continue
        gone = record.subject not in subjects
        unplanned = record.exporter in asked and (not record.paper or record.paper in options.papers)
        if not (gone or unplanned):
            continue
        outcomes.append(_remove_job(game.id, label, record, cache, project))
    return outcomes


def remove_vanished_games(present: Iterable[str], cache: BuildCache, project: Project) -> list[JobOutcome]:
    """Delete what an earlier build made of games whose folders are gone from data/, and forget them, so a
    whole-project build leaves the output a clean build would; folders left empty go too."""
    out_root = project.output_dir.resolve()
    outcomes = []
    recorded = set(cache.games) | {record.game for record in cache.jobs.values()}
    for game_id in sorted(recorded - set(present)):
        folders = set()
        for label, record in cache.jobs_of(game_id).items():
            folders.add(project.output_dir / record.folder)
            outcomes.append(_remove_job(game_id, label, record, cache, project))
        cache.games.pop(game_id, None)
        for folder in sorted(folders | {f.parent for f in folders}, key=lambda f: -len(f.parts)):
            if folder.resolve().is_relative_to(out_root) and folder.resolve() != out_root and folder.is_dir():
                with contextlib.suppress(OSError):  # not empty (the user's own file lives there): left alone
                    folder.rmdir()
    return outcomes


def _remove_job(game_id: str, label: str, record: JobRecord, cache: BuildCache, project: Project) -> JobOutcome:
    """Delete one recorded job's files (only inside output/) and its manifest entry."""
    out_root = project.output_dir.resolve()
    folder = project.output_dir / record.folder
    removed = []
    for file in record.records():
        path = folder / file.name
        if path.resolve().is_relative_to(out_root) and path.is_file():
            path.unlink()
            removed.append(file.name)
    del cache.jobs[label]
    return JobOutcome(game_id, label, folder, False, (), (), tuple(removed))
