"""The build plan: a list of jobs, each producing typed files under `output/<game>/`.

`plan(games, project, options, workers)` lists every job; `run(jobs, ...)`
executes them and writes each file with `write_atomic` (unchanged files are
left alone). Component jobs come from the exporter registry
(`generator.render.exports.registry`); documents (rulebooks, score sheets, boards)
come from `generator.render.documents.document_jobs(game, project, options)`.

A job's cache key has two parts. The static part is known before it runs:
the code, the settings it receives (derived from the options), and the model
data it draws. The dynamic part is recorded while it runs: every file it
read through the read gate (digest of the bytes read) and, for documents,
every item field it read. `run` skips a job only when both still hold and
its files are intact.

Output layout (documented for users):
  output/<game>/<game>-<component>-<paper>-<mode>.pdf   sheets to print, one file per component and paper;
                                                 <mode>: duplex-long, duplex-short, gutterfold or single-sided
  output/<game>/png/<component>-<item>-<copy>.png  with --png: every face at 300 dpi with bleed,
                                                 plus <game>-<component>-faces.pdf (TrimBox/BleedBox)
  output/<game>/tts/<component>-sheet-N.png ...  with --tts: Tabletop Simulator deck sheets and backs
  output/<game>/preview/<component>-<item>.png   gallery previews
  output/<game>/<preset>/...                     with --preset NAME: what that print service asks for,
                                                 plus <component>-manifest.csv (copies per face)
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from generator.build.cache import BuildCache, JobRecord
from generator.digests import code_digest, digest
from generator.errors import DataError, PnpError, UsageError
from generator.model import Component, Game
from generator.project import Project, write_atomic
from generator.readgate import ReadGate
from generator.render.base.modelreads import FieldReads, component_digest, facts_hold
from generator.render.base.outputs import FileRecord, OutputFile
from generator.render.base.units import PAPERS, paper
from generator.render.exports.registry import EXPORTERS, SHEETS, Exporter, ExportInput, preset_exporter
from generator.render.sheets.options import DUPLEX_MODES

DOCUMENTS = "documents"  # the exporter name of document jobs (rulebooks, sheets, boards)
BOOKLET = "booklet"  # ... and of the booklets, which only --booklet asks for
SHOWCASE = "showcase"  # ... and of the showcase images, which only --showcase asks for
HOW = {"how": True}  # metadata of options that change how a build runs, never a byte of its output


@dataclass(frozen=True)
class BuildOptions:
    """Everything `pnp build` can be asked; defaults are the documented defaults.

    Every field is part of the build's options key (`options_key`) unless its
    metadata marks it as `how` the build runs (processes, a partial build).
    """

    papers: tuple[str, ...] = tuple(PAPERS)
    bleed: float = 3.0
    duplex: str = "long"
    crop_marks: bool = True
    cut_lines: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    exports: tuple[str, ...] = (SHEETS,)  # names from the exporter registry
    booklet: bool = False
    guides: bool = False  # --guides: trim, bleed and safe lines over the faces; files named -guides
    ink_saver: bool = False  # --ink-saver: marked backgrounds white, frames thin; files named -inksaver
    presets: tuple[str, ...] = ()  # print-service presets (generator/render/exports/presets.yaml), one folder each
    colour: str = "rgb"  # cmyk: sheets and face PDFs as CMYK PDF/X (generator.render.exports.cmyk)
    tts_url: str = ""  # base URL of output/ as hosted, for TTS saved objects ("" = bare file names)
    showcase: bool = False  # also draw the showcase images (generator.render.site.showcase)
    jobs: int = field(default=1, metadata=HOW)
    only: tuple[str, ...] = field(default=(), metadata=HOW)

    def check(self) -> None:
        """Refuse impossible options with one clear line each."""
        for name in self.papers:
            paper(name)
        for name in self.exports:
            if name not in EXPORTERS:
                raise UsageError(f"unknown export {name!r} (exports: {', '.join(EXPORTERS)})")
        if not 0 <= self.bleed <= 10:
            raise UsageError(f"--bleed {self.bleed:g} must be between 0 and 10 mm")
        if self.duplex not in DUPLEX_MODES:
            raise UsageError(f"--duplex {self.duplex!r} must be long, short or none")
        if any(abs(v) > 10 for v in self.back_offset):
            raise UsageError("--back-offset must be at most 10 mm each way")
        if self.jobs < 1:
            raise UsageError("--jobs must be at least 1")
        if self.presets:
            from generator.render.exports.presets import preset  # reads presets.yaml: only when one is asked for

            for name in self.presets:
                preset(name)
        if self.colour not in ("rgb", "cmyk"):
            raise UsageError(f"--colour {self.colour!r} must be rgb or cmyk")

    def exporters(self) -> list[Exporter]:
        asked = [EXPORTERS[name] for name in EXPORTERS if name in self.exports]
        if not self.presets:
            return asked  # and the presets module stays unimported
        from generator.render.exports.presets import preset

        return asked + [preset_exporter(preset(name)) for name in self.presets]


def options_key(options: Any) -> str:
    """Every field of the options (a dataclass) that can change output: a field added later is in it by itself."""
    return digest(type(options).__name__, {f.name: getattr(options, f.name) for f in dataclasses.fields(options)
                                           if not f.metadata.get("how")})


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
    stamps: dict[str, dict[str, Any]] = field(default_factory=dict)  # the written files' `cache.stamp`s, by name
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


def asked(game: Game, options: BuildOptions) -> list[Component]:
    """The components `--only` names (every one without it), printable or not."""
    return [c for c in game.components if not options.only or c.id in options.only]


def selected(game: Game, options: BuildOptions) -> list[Component]:
    return [c for c in asked(game, options) if c.printable]


def card_jobs(game: Game, project: Project, options: BuildOptions, workers: object,
              cache: BuildCache | None = None) -> list[Job]:
    """One job per printable component and asked exporter (and paper, for those that print on paper)."""
    from generator.render.faces.renderer import renderer

    faces = renderer(project)
    jobs: list[Job] = []
    for component in selected(game, options):
        given = ExportInput(faces, game, component, workers, cache)  # type: ignore[arg-type]
        drawn = component_digest(game, component)
        for exporter in options.exporters():
            if exporter.name == SHEETS and component.sheet == "mixed":
                continue  # printed on the game's mixed sheet (`mixed_sheet_jobs`)
            for paper_name in (options.papers if exporter.per_paper else ("",)):
                settings = exporter.settings_for(options, PAPERS[paper_name] if paper_name else None)
                label = component_label(game.id, component.id, paper_name or exporter.name)
                key = _component_key(exporter, settings, drawn)
                job = Job(game.id, label, project.output_dir / game.id / exporter.folder,
                          functools.partial(exporter.draw, given, settings), key=key,
                          exporter=exporter.name, paper=paper_name, subject=component.id,
                          pure=exporter.pure, cost=estimated_cost(exporter.name, component.count))
                if exporter.parts is not None:
                    job.parts = _parts(job, exporter.parts(given, settings))
                jobs.append(job)
    if SHEETS in options.exports:
        jobs.extend(mixed_sheet_jobs(game, project, options, faces))
    return jobs


def component_label(game_id: str, component_id: str, part: str) -> str:
    """A component job's label (and manifest key): `part` is its paper, or its exporter when not on paper."""
    return f"{game_id} {component_id} {part}"


def showcase_label(game_id: str) -> str:
    return f"{game_id} {SHOWCASE}"


def _component_key(exporter: Exporter, settings: Any, drawn: str) -> str:
    """A component job's key: what it draws (every item), with what settings, by which code."""
    return digest("component", exporter.name, code_digest(), dataclasses.asdict(settings), drawn)


def kept_for_gallery(game: Game, options: BuildOptions, cache: BuildCache, gate: ReadGate,
                     planned: Iterable[str]) -> dict[str, JobRecord]:
    """The gallery's previews and showcase images that an earlier build made and this one did not plan
    (`--no-gallery`, no `--showcase`), kept while they are exactly what this build's options would draw from
    the data as it is now: same key, same reads, files intact. Anything else an earlier build left (other
    papers, `--png`) the gallery does not show: it may no longer match the data."""
    from generator.render.exports.registry import PREVIEW

    kept: dict[str, JobRecord] = {}
    skip = set(planned)
    preview = EXPORTERS[PREVIEW]
    for component in selected(game, options):
        label = component_label(game.id, component.id, PREVIEW)
        if label not in skip and label in cache.jobs:
            key = _component_key(preview, preview.settings_for(options, None), component_digest(game, component))
            record = cache.fresh(label, key, gate)
            if record is not None:
                kept[label] = record
    label = showcase_label(game.id)
    if label not in skip and label in cache.jobs:
        record = cache.fresh(label, showcase_key(game), gate)
        if record is not None:
            kept[label] = record
    return kept


def _parts(job: Job, parts: list[Any]) -> list[Job]:
    """The pure part jobs of `job` (`raster.Part`s), each costed by the pieces it draws."""
    return [Job(job.game, f"{job.label} [{index + 1}/{len(parts)}]", job.folder, part.run, exporter=job.exporter,
                paper=job.paper, subject=job.subject, pure=True, cost=estimated_cost(job.exporter, part.pieces),
                part_of=job, sink=part.sink)
            for index, part in enumerate(parts)]


def mixed_sheet_jobs(game: Game, project: Project, options: BuildOptions, faces: Any) -> list[Job]:
    """One job per paper for the game's mixed sheet, whole even when `--only` names one of its pieces."""
    from generator.render.exports.registry import mixed_sheet
    from generator.render.sheets.imposition import MIXED, mixed_components

    members = mixed_components(game)
    if not members or (options.only and not any(c.id in options.only for c in members)):
        return []
    clash = next((c for c in game.components if c.id == MIXED), None)
    if clash is not None:
        raise DataError(f"component id '{MIXED}' is the name of the game's mixed sheet: rename the component, "
                        "or take 'sheet: mixed' off the others", clash.location)
    drawn = [component_digest(game, c) for c in members]
    jobs = []
    for paper_name in options.papers:
        settings = EXPORTERS[SHEETS].settings_for(options, PAPERS[paper_name])
        key = digest("mixed", code_digest(), dataclasses.asdict(settings), drawn)
        jobs.append(Job(game.id, f"{game.id} {MIXED} {paper_name}", project.output_dir / game.id,
                        functools.partial(mixed_sheet, faces, game, members, settings), key=key,
                        exporter=SHEETS, paper=paper_name, subject=MIXED,
                        cost=estimated_cost(SHEETS, sum(c.count for c in members))))
    return jobs


def document_jobs(game: Game, project: Project, options: BuildOptions) -> list[Job]:
    """The game's documents (`generator.render.documents.document_specs`) as jobs, for each paper in
    `options.papers`, with their static keys.

    Each job renders from a watched copy of the game, so its record holds the item fields it read
    (`generator.render.base.modelreads`)."""
    from generator.render.base.modelreads import skeleton_digest, watched
    from generator.render.documents import DocumentSpec, document_specs
    from generator.render.documents.lines import paragraph_lines
    from generator.render.documents.parses import template_parses

    lines = paragraph_lines(project)

    def produce(spec: DocumentSpec, paper: str, reads: FieldReads) -> list[OutputFile]:
        seen = watched(game, reads)
        if spec.subject == "rules":
            lines.drew(game.id, paper)
        with template_parses(project).serving(game, seen, reads):  # templates parsed once per build
            return spec.produce(seen)

    folder = project.output_dir / game.id
    skeleton = skeleton_digest(game)
    jobs = []
    for sheet in lines.first_papers(game.id, tuple(options.papers)):  # a forked worker takes the first rulebook
        for spec in document_specs(game, project, sheet, options.booklet, options):
            reads = FieldReads()
            printing = options_key(options) if spec.subject == "rules" else ""  # the rules' "How to print" page
            jobs.append(Job(game.id, spec.label, folder, partial(produce, spec, sheet, reads),
                            exporter=spec.exporter, paper=sheet, subject=spec.subject,
                            pure=True, facts=reads, model=game,  # bytes out, nothing else touched
                            key=digest("document", code_digest(), spec.label, sheet, skeleton, printing),
                            cost=estimated_cost(DOCUMENTS if spec.subject != "rules" else "rules", 0)))
    return jobs


# Rough milliseconds of CPU per job (measured on the development machine, cold build): a rulebook is
# laid out twice and its how-to-print page lays out the sheets again; a score sheet or board is one
# document; card sheets and faces grow with the pieces drawn. Only the order of jobs depends on them.
FIXED_COST = {"rules": 300.0, DOCUMENTS: 100.0, SHEETS: 20.0}
COST_PER_PIECE = {SHEETS: 0.8, "png": 8.0, "tts": 4.0, "preview": 3.5}


def estimated_cost(kind: str, pieces: int) -> float:
    """A job's likely cost from its kind and how many pieces (copies) it draws, for longest-first scheduling."""
    return FIXED_COST.get(kind, 20.0) + COST_PER_PIECE.get(kind, 4.0) * pieces


def plan(games: Iterable[Game], project: Project, options: BuildOptions, workers: object,
         cache: BuildCache | None = None, documents: bool = True) -> list[Job]:
    """Every job of a build, games in order, component jobs first."""
    options.check()
    jobs: list[Job] = []
    for game in games:
        if options.only:
            known = {c.id for c in game.components}
            if not any(c in known for c in options.only):
                continue  # --only names components of other games
        jobs.extend(card_jobs(game, project, options, workers, cache))
        if documents and not options.only:
            jobs.extend(document_jobs(game, project, options))
        if options.showcase and not options.only:
            jobs.extend(showcase_jobs(game, project, workers, cache))
    return jobs


def showcase_jobs(game: Game, project: Project, workers: object, cache: BuildCache | None = None) -> list[Job]:
    """The game's showcase images: one job, keyed by every component it shows (its reads are recorded)."""
    from generator.render.faces.renderer import renderer
    from generator.render.site.showcase import ShowcaseSettings, draw_showcase

    settings = ShowcaseSettings()
    run = functools.partial(draw_showcase, renderer(project), game, workers, cache, settings)  # type: ignore[arg-type]
    return [Job(game.id, showcase_label(game.id), project.output_dir / game.id / SHOWCASE, run, key=showcase_key(game),
                exporter=SHOWCASE, subject=game.id)]


def showcase_key(game: Game) -> str:
    """The showcase job's key: every component it shows, and its settings."""
    from generator.render.site.showcase import ShowcaseSettings, showcased

    drawn = [component_digest(game, c) for c in showcased(game)]
    return digest("showcase", code_digest(), dataclasses.asdict(ShowcaseSettings()), drawn)


def execute(job: Job, gate: ReadGate) -> JobResult:
    """Run one job, recording what it reads (the same in this process and in a forked worker)."""
    with gate.recording() as reads:
        files = job.run()
    faces = job.sink.made if job.sink is not None else {}
    return JobResult(files, reads.as_dict(), job.facts.snapshot() if job.facts else {}, faces)


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


@dataclass(frozen=True)
class HandBack:
    """State a session keeps between builds that forked workers add to (`documents/lines.py`'s paragraph
    lines): `give` runs in a worker after each job (what to send back with its result, or None), `keep`
    in the building process with what came back. Only for a session that builds again (`pnp watch`)."""

    give: Callable[[], Any]
    keep: Callable[[Any], None]


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
    return _write_files(job, result.files, out_root, result.stamps)


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


def _written_here(job: Job, result: JobResult, out_root: Path) -> JobResult:
    """In a forked worker whose games have all validated: write the result's files and store its faces here,
    and send back only what they were (names, kinds, digests), so the parent is not the one process that
    writes every file of a build."""
    stamps: dict[str, dict[str, Any]] = {}
    written = _write_files(job, result.files, out_root, stamps)
    sums = job.sink.store(job.folder, result.files) if job.sink is not None else {}  # (faces linked to those files)
    files = [dataclasses.replace(output, data=b"") for output in result.files]
    return JobResult(files, result.reads, result.facts, {}, written, sums, stamps)


def _write_files(job: Job, files: list[OutputFile], out_root: Path,
                 stamps: dict[str, dict[str, Any]] | None = None) -> list[str]:
    """Write a job's (or part's) files atomically inside output/; the names whose bytes changed. With `stamps`,
    each file's manifest stamp is taken as it is written (so nobody reads it back to hash it)."""
    from generator.build.cache import stamp

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


def _plain_name(name: str) -> bool:
    """A file name without folders: it lies in its job's folder (a symbolic link there is refused by
    `write_atomic`, which never writes through one), so the folder's check stands for it."""
    import os

    return name not in ("", ".", "..") and "/" not in name and os.sep not in name and (
        not os.altsep or os.altsep not in name)


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


def longest_first(jobs: list[Job]) -> list[int]:
    """The order workers take jobs in: highest estimated cost first (ties in job order), so no long job
    starts last and leaves one core idle at the end."""
    return sorted(range(len(jobs)), key=lambda index: (-jobs[index].cost, index))


FRONT, END, WRITING = 0, 1, 2  # the slots of `ForkedJobs`'s `Shared`


class Shared:
    """A few integers shared by this process and the workers it forks: an anonymous shared mapping, with a
    lock made of a pipe that holds one token. multiprocessing's Array and Value (ctypes, a shared heap)
    cost a build's serial start some 7 ms before the first fork."""

    def __init__(self, *values: int) -> None:
        import mmap
        import os

        self._map = mmap.mmap(-1, 8 * len(values))  # MAP_SHARED: a forked worker sees the same memory
        self._slots = memoryview(self._map).cast("q")
        for index, value in enumerate(values):
            self._slots[index] = value
        self._take, self._give = os.pipe()
        os.write(self._give, b".")

    def __getitem__(self, index: int) -> int:
        return int(self._slots[index])

    def __setitem__(self, index: int, value: int) -> None:
        self._slots[index] = value

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the token: no other process holding this object reads or changes the slots meanwhile."""
        import os

        os.read(self._take, 1)
        try:
            yield
        finally:
            os.write(self._give, b".")

    def close(self) -> None:
        import os

        self._slots.release()
        self._map.close()
        os.close(self._take)
        os.close(self._give)


def _serve(jobs: list[Job], order: list[int], shared: Shared, gate: ReadGate, send: Any, parent: int,
           out_root: Path, hand_back: HandBack | None = None) -> None:
    """In a forked worker: take the next job from the front of `order` (longest first; `shared` holds the
    front and the end of what is left, and whether writing is allowed) until none is left, sending
    (index, ok, result or error) back. The worker ends with its parent, even one killed with `kill -9`.
    Once writing is allowed (every game of the build has validated), the worker writes a job's files itself.

    Results go out through a sender thread: a result bigger than the pipe's buffer would otherwise hold
    the worker until the parent reads it, and the parent may be busy (validating, drawing previews).
    """
    import queue
    import threading

    from generator.workers import watch_parent

    watch_parent(parent)
    outbox: queue.SimpleQueue[tuple[int, bool, Any] | None] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(outbox, send), name="send-results", daemon=True)
    sender.start()
    try:
        while True:
            with shared.locked():
                position, end = shared[FRONT], shared[END]
                shared[FRONT] = position + 1
            if position >= end:
                break
            index = order[position]
            job = jobs[index]
            try:
                result = execute(job, gate)
                if shared[WRITING]:
                    result = _written_here(job, result, out_root)
                if hand_back is not None:
                    result = dataclasses.replace(result, kept=hand_back.give())
                outbox.put((index, True, result))
            except BaseException as exc:  # sent back and raised in the parent when it reaches the job
                error = exc if isinstance(exc, PnpError) else RuntimeError(f"{job.label}: {exc!r}")
                outbox.put((index, False, error))
                with shared.locked():
                    shared[FRONT] = shared[END]  # the build fails: the other workers stop after their current job
                break
    finally:
        outbox.put(None)
        sender.join()
        send.close()


def _send_all(outbox: Any, send: Any) -> None:
    while (message := outbox.get()) is not None:
        try:
            send.send(message)
        except OSError:  # the parent stopped listening (it failed or was interrupted)
            return
        except Exception as exc:  # a result or error that does not pickle: say so, as that job's failure
            send.send((message[0], False, RuntimeError(f"a job's result could not be sent back: {exc!r}")))


class ForkedJobs:
    """Pure jobs run in forked worker processes, longest first; results are collected as they come.

    Forking lets workers inherit the jobs (closures over loaded games), so only
    results travel back. The jobs are sorted by estimated cost (`Job.cost`); the
    `parallel - 1` forked workers take the longest from the front of that list,
    and this process, once its own jobs are done, takes the shortest from the
    back (`rest`), so both cores stay busy to the end whatever the mix, and in
    `pnp watch` the edited card's sheets are written first while a worker draws
    the rulebooks. Only where fork exists and it pays: two or more jobs and
    `parallel` > 1. Pool creation is this one constructor, easy to swap.
    A big job comes as its parts (`Job.parts`), each one of these jobs; once
    `allow_writing` (every game validated), a worker writes what it made itself
    and sends back only names and stamps, so no one process writes every file.
    """

    def __init__(self, jobs: list[Job], parallel: int, gate: ReadGate,
                 before_fork: Callable[[], None] | None = None, out_root: Path | None = None,
                 hand_back: HandBack | None = None) -> None:
        import gc
        import os

        self._jobs = jobs
        self._index = {id(job): index for index, job in enumerate(jobs)}
        self._pending: dict[int, tuple[bool, Any]] = {}
        self._delivered: set[int] = set()
        self._receivers: list[Any] = []
        self._processes: list[Any] = []
        self._order: list[int] = []  # longest first: workers take from the front, this process from the back
        self._shared: Shared | None = None  # the front and end of `_order` left, and whether workers may write
        self._gate = gate
        self._hand_back = hand_back
        if parallel < 2 or len(jobs) < 2 or not hasattr(os, "fork"):
            self._index = {}
            return  # and multiprocessing stays unimported
        import multiprocessing

        if before_fork is not None:
            before_fork()
        context = multiprocessing.get_context("fork")
        self._order = order = longest_first(jobs)
        self._shared = shared = Shared(0, len(order), 0)
        gc.freeze()  # a worker's collector then never walks (and so copies) the heap it inherited
        try:
            for _ in range(min(parallel - 1, len(jobs) - 1)):  # this process is the last worker (`rest`)
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_serve, daemon=True,
                                          args=(jobs, order, shared, gate, send, os.getpid(), out_root, hand_back))
                process.start()
                send.close()
                self._processes.append(process)
                self._receivers.append(receive)
        finally:
            gc.unfreeze()

    def has(self, job: Job) -> bool:
        return id(job) in self._index

    def allow_writing(self) -> None:
        """Every game of the build has validated: workers may write the files of the jobs they run."""
        if self._shared is not None:
            self._shared[WRITING] = 1

    def ready(self) -> list[tuple[Job, JobResult]]:
        """Results that arrived so far, without waiting (a failure waits for `rest`)."""
        self._collect(block=False)
        return [self._take(index) for index in sorted(self._pending) if self._pending[index][0]]

    def rest(self) -> Iterator[tuple[Job, JobResult]]:
        """Every result not handed out yet, as it comes: between two jobs of its own (the shortest nobody has
        started), this process hands out what the workers finished, so their files are written meanwhile and
        not after the last one. A failure stops the workers; once they have ended, the first failure in job
        order is raised."""
        while len(self._delivered) < len(self._index):
            self._collect(block=False)
            if not any(not ok for ok, _ in self._pending.values()):
                if self._pending:
                    for index in sorted(self._pending):
                        yield self._take(index)
                    continue
                if self._run_next_here():
                    continue
                if self._collect(block=True):
                    continue
            while self._collect(block=True):  # a failure: let the workers finish their current job and end
                pass
            failed = sorted(i for i, (ok, _) in self._pending.items() if not ok)
            if failed:
                self._take(failed[0])
            missing = next(job for job in self._jobs if self._index[id(job)] not in self._delivered | set(self._pending))
            raise RuntimeError(f"the worker process running {missing.label!r} ended without a result")

    def _run_next_here(self) -> bool:
        """Take the shortest job nobody has started yet and run it in this process, instead of waiting
        idle for the workers (what it warms up, compiled templates and layouts, stays in this process
        for the next build's forks); once only documents are left, the longest of them instead; False
        when every job is taken."""
        if self._shared is None:
            return False
        with self._shared.locked():
            front, end = self._shared[FRONT], self._shared[END]
            if front >= end:
                return False
            if self._jobs[self._order[end - 1]].exporter in (DOCUMENTS, BOOKLET):
                # only documents (or longer) left: the longest, as the workers take them, so a watch edit's
                # rulebooks for two papers are drawn side by side, not one after the other in one worker
                position, self._shared[FRONT] = front, front + 1
            else:
                position = self._shared[END] = end - 1
        index = self._order[position]
        job = self._jobs[index]
        try:
            self._pending[index] = (True, execute(job, self._gate))
        except Exception as exc:  # raised when `rest` reaches the job, as a worker's failure would be
            self._pending[index] = (False, exc if isinstance(exc, PnpError) else RuntimeError(f"{job.label}: {exc!r}"))
            with self._shared.locked():
                self._shared[END] = self._shared[FRONT]  # the build fails: the workers stop after their current job
        return True

    def _take(self, index: int) -> tuple[Job, JobResult]:
        ok, value = self._pending.pop(index)
        self._delivered.add(index)
        if not ok:
            raise value
        if value.kept is not None and self._hand_back is not None:
            self._hand_back.keep(value.kept)
        return self._jobs[index], value

    def _collect(self, block: bool) -> bool:
        """Receive what the workers sent; False when every worker has ended and nothing came."""
        if not self._receivers:
            return False  # no worker (one job, --jobs 1): multiprocessing stays unimported
        from multiprocessing.connection import wait

        got = False
        while self._receivers:
            readable: list[Any] = wait(self._receivers, timeout=None if block and not got else 0)
            if not readable:
                break
            for receive in readable:
                try:
                    index, ok, value = receive.recv()
                except EOFError:
                    self._receivers.remove(receive)
                    receive.close()
                    continue
                self._pending[index] = (ok, value)
                got = True
            if got and block:
                break
        return got

    def close(self) -> None:
        """Stop the workers. Once every result is in, they have nothing left to take and end by themselves:
        they are not waited for (a worker that finished last spends a few ms unmapping its copy of this
        process, on the build's path), and multiprocessing reaps them at the next fork or at exit."""
        for receive in self._receivers:
            receive.close()
        finished = len(self._delivered) == len(self._index)
        for process in self._processes:
            if finished:
                continue
            process.join(timeout=0.1)
            if process.is_alive():
                process.terminate()
                process.join()
        self._receivers = []
        self._processes = []
        if self._shared is not None:
            self._shared.close()
            self._shared = None
