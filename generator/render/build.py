"""The build plan: a list of jobs, each producing named files under `output/<game>/`.

`plan(games, project, options, workers)` lists every job; `run(jobs, ...)`
executes them and writes each file with `write_atomic` (unchanged files are
left alone). Card, tile and token sheets come from `card_jobs`; documents
(rulebooks, score sheets, boards) plug in through
`generator.render.documents.document_jobs(game, project, options)` when that
module provides it: it returns more `Job`s, and nothing else changes.

Output layout (documented for users):
  output/<game>/<game>-<component>-<paper>.pdf   sheets to print, one file per component and paper
  output/<game>/png/<component>-<item>-<copy>.png  with --png: every face at 300 dpi with bleed,
                                                 plus <game>-<component>-faces.pdf (TrimBox/BleedBox)
  output/<game>/tts/<component>-sheet-N.png ...  with --tts: Tabletop Simulator deck sheets and backs
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import UsageError
from generator.model import Component, Game
from generator.project import Project, write_atomic
from generator.render.cache import BuildCache, component_key, digest, game_files_digest
from generator.render.imposition import DUPLEX_MODES, SheetOptions, impose
from generator.render.units import PAPERS

PRINTABLE_KINDS = ("card", "tile", "token")
PREVIEW_DIR = "preview"


@dataclass(frozen=True)
class BuildOptions:
    """Everything `pnp build` can be asked; defaults are the documented defaults."""

    papers: tuple[str, ...] = ("a4", "letter")
    bleed: float = 3.0
    duplex: str = "long"
    crop_marks: bool = True
    cut_lines: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    png: bool = False
    tts: bool = False
    jobs: int = 1
    only: tuple[str, ...] = ()
    previews: bool = False
    booklet: bool = False

    def check(self) -> None:
        """Refuse impossible options with one clear line each."""
        for paper in self.papers:
            if paper not in PAPERS:
                raise UsageError(f"--paper {paper!r} is unknown (a4, letter or both)")
        if not 0 <= self.bleed <= 10:
            raise UsageError(f"--bleed {self.bleed:g} must be between 0 and 10 mm")
        if self.duplex not in DUPLEX_MODES:
            raise UsageError(f"--duplex {self.duplex!r} must be long, short or none")
        if any(abs(v) > 10 for v in self.back_offset):
            raise UsageError("--back-offset must be at most 10 mm each way")
        if self.jobs < 1:
            raise UsageError("--jobs must be at least 1")


@dataclass
class Job:
    """One unit of work: `run()` returns file name (relative to `folder`) -> bytes.

    `key` hashes every input of the job (see `generator.render.cache`); a job
    whose key and files are unchanged since the last build is not run again.
    """

    game: str
    label: str
    folder: Path
    run: Callable[[], dict[str, bytes]]
    key: str = ""
    pure: bool = False  # returns bytes and touches nothing else: may run in a forked worker


@dataclass
class Summary:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)  # labels of jobs that ran (others came from the cache)
    skipped: list[str] = field(default_factory=list)
    sheets: dict[str, int] = field(default_factory=dict)  # paper -> sheets of card/tile/token faces

    def line(self) -> str:
        total = len(self.written) + len(self.unchanged)
        papers = ", ".join(f"{count} on {paper}" for paper, count in self.sheets.items())
        return (f"built {total} files ({len(self.written)} written, {len(self.unchanged)} unchanged; "
                f"{len(self.ran)} jobs run, {len(self.skipped)} up to date)"
                + (f"; component sheets to print: {papers}" if papers else ""))


def printable(component: Component) -> bool:
    """Components this pipeline draws (sheets and boards are documents)."""
    return component.kind in PRINTABLE_KINDS


def selected(game: Game, options: BuildOptions) -> list[Component]:
    return [c for c in game.components if printable(c) and (not options.only or c.id in options.only)]


def card_jobs(game: Game, project: Project, options: BuildOptions, workers: object, summary: Summary,
              cache: BuildCache | None = None) -> list[Job]:
    """Sheet PDFs for every printable component and paper, plus PNG/TTS exports and previews when asked."""
    from generator.render import raster
    from generator.render.faces import renderer

    faces = renderer(project)
    folder = project.output_dir / game.id
    jobs: list[Job] = []
    for component in selected(game, options):
        for paper in options.papers:
            sheet = SheetOptions(PAPERS[paper], options.bleed, options.duplex, options.crop_marks,
                                 options.cut_lines, options.back_offset)

            def run_sheet(component: Component = component, sheet: SheetOptions = sheet) -> dict[str, bytes]:
                result = impose(faces, game, component, sheet)
                name = sheet.paper.name
                summary.sheets[name] = summary.sheets.get(name, 0) + result.sheets
                return {f"{game.id}-{component.id}-{sheet.paper.name}.pdf": result.pdf}

            key = component_key(game, component, project, "sheet", paper, options.bleed, options.duplex,
                                options.crop_marks, options.cut_lines, options.back_offset)
            jobs.append(Job(game.id, f"{game.id} {component.id} {paper}", folder, run_sheet, key=key))
        if options.png:
            jobs.append(Job(game.id, f"{game.id} {component.id} png", folder / "png",
                            lambda c=component: raster.export_pngs(faces, game, c, options.bleed, workers, cache=cache),
                            key=component_key(game, component, project, "png", options.bleed)))
        if options.tts:
            jobs.append(Job(game.id, f"{game.id} {component.id} tts", folder / "tts",
                            lambda c=component: raster.export_tts(faces, game, c, workers),
                            key=component_key(game, component, project, "tts")))
        if options.previews:
            jobs.append(Job(game.id, f"{game.id} {component.id} preview", folder / PREVIEW_DIR,
                            lambda c=component: raster.export_previews(faces, game, c, workers, cache=cache),
                            key=component_key(game, component, project, "preview")))
    return jobs


def document_jobs(game: Game, project: Project, options: BuildOptions) -> list[Job]:
    """Jobs contributed by `generator.render.documents.document_jobs`, if that module offers them."""
    try:
        module = importlib.import_module("generator.render.documents")
    except ModuleNotFoundError as exc:
        if exc.name and "generator.render.documents".startswith(exc.name):
            return []
        raise
    provider = getattr(module, "document_jobs", None)
    jobs = list(provider(game, project, options)) if provider else []
    game_inputs = game_files_digest(project, game.id)
    for job in jobs:
        job.key = job.key or digest("document", job.label, game_inputs, options.papers, options.booklet)
    return jobs


def plan(games: Iterable[Game], project: Project, options: BuildOptions, workers: object,
         summary: Summary, documents: bool = True, cache: BuildCache | None = None) -> list[Job]:
    """Every job of a build, games in order, sheets first."""
    options.check()
    jobs: list[Job] = []
    for game in games:
        if options.only:
            known = {c.id for c in game.components}
            missing = [c for c in options.only if c not in known]
            if len(missing) == len(options.only):
                continue  # --only names components of other games
        jobs.extend(card_jobs(game, project, options, workers, summary, cache))
        if documents and not options.only:
            jobs.extend(document_jobs(game, project, options))
    return jobs


def run(jobs: list[Job], project: Project, summary: Summary,
        progress: Callable[[Job], None] | None = None, cache: BuildCache | None = None,
        parallel: int = 1) -> Summary:
    """Run the jobs, writing every file atomically under the project's output folder, in job order.

    With a cache, a job whose inputs and files are unchanged is skipped, and
    files an earlier run of the same job wrote but this one no longer does
    (a renamed card's PNG) are removed. With `parallel` > 1, pure jobs (the
    documents) run in forked workers while this process runs the others.
    """
    out_root = project.output_dir.resolve()
    todo = [job for job in jobs if cache is None or not cache.fresh(job.label, job.key, job.folder)]
    farmed = _farm_out([job for job in todo if job.pure], parallel)
    for job in jobs:
        if job not in todo:
            summary.skipped.append(job.label)
            summary.unchanged.extend(job.folder / name for name in cache.files_of(job.label))  # type: ignore[union-attr]
        else:
            files = farmed.pop(id(job)).result() if id(job) in farmed else job.run()
            summary.ran.append(job.label)
            for name, data in files.items():
                path = job.folder / name
                if not path.resolve().is_relative_to(out_root):
                    raise UsageError(f"job {job.label!r} tried to write outside output/: {name}")
                (summary.written if write_atomic(path, data) else summary.unchanged).append(path)
            if cache is not None:
                for stale in set(cache.files_of(job.label)) - set(files):
                    path = job.folder / stale
                    if path.resolve().is_relative_to(out_root) and path.is_file():
                        path.unlink()
                        summary.removed.append(path)
                cache.record(job.label, job.key, job.folder, files)
        if progress:
            progress(job)
    _FORKED_JOBS.clear()  # a long `pnp watch` session must not keep old games alive
    return summary


_FORKED_JOBS: list[Job] = []


def _run_forked(index: int) -> dict[str, bytes]:
    return _FORKED_JOBS[index].run()


def _farm_out(jobs: list[Job], parallel: int) -> dict[int, Any]:
    """Start pure jobs in forked workers (they inherit the jobs, so nothing but bytes is pickled).

    Only where fork exists and it pays: two or more jobs and more than one core.
    """
    import multiprocessing

    from generator.workers import process_pool

    if parallel < 2 or len(jobs) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return {}
    _FORKED_JOBS[:] = jobs
    pool = process_pool(min(parallel, len(jobs)))
    futures = {id(job): pool.submit(_run_forked, i) for i, job in enumerate(jobs)}
    pool.shutdown(wait=False)  # workers finish the queued jobs; results are collected in job order
    return futures
