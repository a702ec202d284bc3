"""One build session: load, validate, plan, run, gallery — doing only what changed.

`pnp build` makes a `BuildSession` for one build; `pnp watch` keeps one for
its whole run, so loaded games, compiled layouts and resolved faces stay warm
between rebuilds. All build state lives in the session (its read gate and
the project handle reading through it) or in the manifest on disk
(`output/.cache`); nothing is kept in module-wide variables.

It sits beside the CLI (it may use both validation, which reads the engines,
and the renderer).

Fast paths, in order:
  1. a game whose options and code are the same and every input its last
     build read (data, layouts, images, templates, folder listings) still has
     the digest it was read with, and whose files are intact, is not even loaded;
  2. validation is skipped when the same inputs passed before;
  3. inside a game, only jobs whose own inputs changed run (a one-card edit
     redraws that component's sheets and that card's face; documents rebuild
     only when a value they show changed), and rasterized faces come from the
     face cache.

Digests are those of the bytes each step actually read, so an edit saved
while a build runs is seen by the next build; `BuildResult.changed_during_build`
names such inputs at once (`pnp watch` rebuilds again right away).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from generator.build.cache import BuildCache, GalleryRecord, GameBuildRecord, ValidationRecord
from generator.build.jobs import HandBack, Job, JobOutcome, Summary
from generator.build.options import BuildOptions, options_key
from generator.build.plan import plan
from generator.build.run import Started, remove_obsolete, remove_vanished_games, run, start
from generator.digests import code_digest, digest
from generator.engine.registry import REGISTRY, Registry
from generator.errors import DataError, Refused, UsageError
from generator.model import Game
from generator.project import Project, clean_temporaries
from generator.readgate import ReadGate, ReadSet
from generator.render.exports.registry import PREVIEW
from generator.speed import speedups

Progress = Callable[[list[Job]], Callable[[Job], None]]  # given the jobs that will run, returns "one is done"


@dataclass
class GameOutcome:
    """What one build did with one game (typed, so results from worker processes just append)."""

    game: str
    loaded: bool = False
    validated: bool = False  # validation ran (it is skipped when the same inputs passed before)
    valid: bool | None = None
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    jobs: list[JobOutcome] = field(default_factory=list)
    faces_drawn: int = 0


@dataclass
class BuildResult:
    games: list[GameOutcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    gallery_written: bool = False
    changed_during_build: list[str] = field(default_factory=list)  # inputs edited while the build read them

    @property
    def summary(self) -> Summary:
        return Summary.of(job for game in self.games for job in game.jobs)

    @property
    def loaded(self) -> list[str]:
        """Games whose YAML had to be read."""
        return [game.game for game in self.games if game.loaded]

    @property
    def validated(self) -> list[str]:
        return [game.game for game in self.games if game.validated]

    @property
    def faces_drawn(self) -> int:
        return sum(game.faces_drawn for game in self.games)

    def all_warnings(self) -> list[str]:
        return self.warnings + [w for game in self.games for w in game.warnings]


class BuildSession:
    """One build session: a project handle with its own read gate, and what it keeps warm.

    Use as a context manager (it may own a process pool for rasterizing).
    `between_jobs`, if given, is called after every job: tests use it to save
    an edit while a build runs. `watching`: the session will build again (`pnp watch`), so forked
    workers hand back the paragraph lines they broke (`documents/lines.py`) for the next build.
    """

    def __init__(self, project: Project, *, raster_jobs: int | None = None,
                 between_jobs: Callable[[Job], None] | None = None, registry: Registry = REGISTRY,
                 watching: bool = False) -> None:
        self.registry = registry  # which engine checks each game (validation runs its deck checks)
        self.gate = ReadGate(project.root, per_build=True)
        self.project = project.with_gate(self.gate)
        self.between_jobs = between_jobs
        self.watching = watching
        self._cache: BuildCache | None = None  # the manifest as the last build left it (`BuildCache.open`)
        self._workers: Any = None
        if raster_jobs:
            from generator.render.exports.raster import Workers

            self._workers = Workers(raster_jobs)

    def __enter__(self) -> BuildSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._workers is not None:
            self._workers.close()

    def load(self, game_id: str) -> Game:
        """The game as its files say now; loaded again only when a file it read changed."""
        from generator.load import load_game  # YAML's parser only when a game is loaded, not for a no-op build

        return self.gate.derived(("game", game_id), lambda: load_game(self.project, game_id))

    def game_ids(self, game_ids: Iterable[str] = ()) -> list[str]:
        known = self.project.game_ids()
        for game_id in game_ids:
            if game_id not in known:
                raise UsageError(f"unknown game {game_id!r} (games: {', '.join(known) or 'none'})")
        ids = list(game_ids) or known
        if not ids:
            raise UsageError(f"no games under {self.project.display(self.project.data_dir)}/ (is --root right?)")
        return ids

    def build(self, game_ids: Iterable[str] = (), options: BuildOptions | None = None, *, force: bool = False,
              clean: bool = False, progress: Progress | None = None) -> BuildResult:
        """Build the named games (all when none are named); returns what was written and what was reused.

        With `options.jobs` > 1 the pure jobs of every game to redo share one set of forked
        workers, longest first across games (`_build_here`); every job writes its own
        files, so output is the same bytes for any `--jobs`.
        """
        options = options or BuildOptions()
        options.check()
        named = list(game_ids)
        ids = self.game_ids(named)
        clean_temporaries(self.project.output_dir)  # what a killed build left behind
        self.gate.next_generation()
        kept = self._cache if speedups().memos else None  # a watch's manifest stays in memory (generator.speed)
        cache = BuildCache.open(self.project, clean=clean, kept=kept)
        self._cache = None
        result = BuildResult(warnings=[cache.dropped] if cache.dropped else [])
        try:
            with self.gate.recording() as everything:
                todo = []
                for game_id in ids:
                    reused = self._reuse(game_id, options, cache)
                    if reused is not None:
                        result.games.append(reused)
                    else:
                        todo.append(game_id)
                result.games += self._build_here(todo, options, force, cache, progress)
                if not named and not options.only:  # the whole project: what a deleted game left goes too
                    result.games += _vanished(remove_vanished_games(ids, cache, self.project))
                if PREVIEW in options.exports:
                    result.gallery_written = self._gallery(cache)
        except BaseException:
            # Stopped (Ctrl-C, SIGTERM) or failed: the forked workers have been stopped and waited for by now,
            # and one stopped mid-write leaves its temporary; it goes now, not at the next build.
            clean_temporaries(self.project.output_dir)
            raise
        finally:
            cache.save()
            self._cache = cache  # for the next build of this session, if nobody else writes the manifest
        result.changed_during_build = self.gate.changed(everything)
        return result

    # -- one game ----------------------------------------------------------------------

    def _reuse(self, game_id: str, options: BuildOptions, cache: BuildCache) -> GameOutcome | None:
        """The game's outcome from the manifest when nothing it depends on changed; None otherwise."""
        record = cache.game(game_id)
        built = record.build
        if options.only or built is None or built.options != options_key(options) or built.code != code_digest():
            return None
        jobs = [cache.jobs.get(label) for label in built.jobs]
        if any(job is None for job in jobs) or self.gate.changed(built.inputs):
            return None
        if not all(cache.intact(job) for job in jobs if job is not None):
            return None
        self.gate.inherit(built.inputs)
        validation = record.validation
        return GameOutcome(game_id, valid=validation.valid if validation else None,
                           failures=list(validation.failures) if validation else [],
                           jobs=[JobOutcome(game_id, label, self.project.output_dir / job.folder, False,
                                            tuple(job.records()))
                                 for label, job in zip(built.jobs, jobs, strict=True) if job is not None])

    def _validate(self, game_id: str, force: bool, cache: BuildCache, outcome: GameOutcome) -> None:
        """Validate unless the same inputs passed before; refuse an invalid deck unless `force`."""
        from generator.validate import SideChecks, validate_game

        record = cache.game(game_id)
        known = record.validation
        if (known is not None and known.code == code_digest() and (known.valid or force)
                and not self.gate.changed(known.inputs)):
            self.gate.inherit(known.inputs)
            outcome.valid, outcome.failures = known.valid, list(known.failures)
        else:
            sides = SideChecks(record.sides)  # each component side's checks, kept by what they read
            with self.gate.recording() as reads:
                report = validate_game(self.load(game_id), self.project, self.registry, sides, share_parses=True)
            record = cache.games[game_id] = dataclasses.replace(record, sides=sides.current)
            broken = next((check for check in report.failures() if check.broken), None)
            if broken is not None and not force:  # bad data, not a bad deck: exit 2 with its file:line (with
                raise DataError(broken.actual, broken.location)  # --force, only a job that meets it fails)
            outcome.validated = True
            outcome.valid = report.ok
            outcome.failures = [f"{c.location}: {c.name}: expected {c.expected}, got {c.actual}" if c.location
                                else f"{c.name}: expected {c.expected}, got {c.actual}" for c in report.failures()]
            if not outcome.failures or force:
                cache.games[game_id] = dataclasses.replace(record, validation=ValidationRecord(
                    code_digest(), reads.as_dict(), outcome.valid, tuple(outcome.failures)))
        checks = f"{len(outcome.failures)} {'check' if len(outcome.failures) == 1 else 'checks'}"
        if outcome.failures and not force:
            raise Refused(f"{game_id} fails validation ({checks}; first: {outcome.failures[0]}); fix it, "
                          "see `pnp validate`, or build anyway with --force")
        if outcome.failures:
            outcome.warnings.append(f"{game_id} fails validation ({checks}); built anyway (--force)")

    def _build_here(self, todo: list[str], options: BuildOptions, force: bool, cache: BuildCache,
                    progress: Progress | None) -> list[GameOutcome]:
        """Load, validate, plan and run the games in this process, each game's reads recorded apart.

        With --jobs > 1 every game is planned first and the pure jobs of all of them (sheets, documents)
        go to one set of forked workers, longest first across games, while this process validates the
        games on the other core; then this process runs the rest and takes the shortest farmed jobs,
        so every core stays busy to the end. Nothing is written before every game has validated: a
        refused game stops the workers and the build writes nothing.
        """
        if not todo:
            return []  # nothing to redo: a no-op build imports no drawing code (ReportLab, PIL, pdfium)
        from generator.render.exports.raster import Workers

        workers = self._workers or Workers(options.jobs)
        started: Started | None = None
        try:
            prepared: list[tuple[Game, GameOutcome, ReadSet, list[Job] | None]] = []
            for game_id in todo:
                with self.gate.recording() as reads:
                    game = self.load(game_id)
                    early = self._plan_early(game, options, workers, cache)
                prepared.append((game, GameOutcome(game_id, loaded=True), reads, early))
            forks = options.jobs if speedups().fork else 1  # forked workers are speed machinery (generator.speed)
            if forks > 1:
                # what the jobs import is imported once here, not again in every build's forked workers
                started = start([job for *_, jobs in prepared for job in jobs or ()], self.project, cache,
                                forks, before_fork=_warm_up, hand_back=self._hand_back())
            planned: list[tuple[Game, GameOutcome, ReadSet, list[Job]]] = []
            for game, outcome, reads, early in prepared:
                with self.gate.recording() as checked:
                    self._validate(game.id, force, cache, outcome)
                    jobs = early if early is not None else plan([game], self.project, options, workers, cache=cache)
                reads.merge(checked)
                planned.append((game, outcome, reads, jobs))
            every_job = [job for *_, jobs in planned for job in jobs]
            advance = progress(every_job) if progress else None
            ran = run(every_job, self.project, cache, advance, forks, self.between_jobs, started)
            started = None  # `run` closed the workers
            by_game: dict[str, list[JobOutcome]] = {}
            for job_outcome in ran:
                by_game.setdefault(job_outcome.game, []).append(job_outcome)
            for game, outcome, reads, jobs in planned:
                outcome.jobs = by_game.get(game.id, [])
                for job_outcome in outcome.jobs:
                    reads.merge(job_outcome.inputs)
                outcome.faces_drawn = sum(job_outcome.faces_drawn for job_outcome in outcome.jobs)
                if not options.only:  # a partial build says nothing about the whole game
                    outcome.jobs += remove_obsolete(game, jobs, options, cache, self.project)
                    self._record_game(game, options, reads, cache, jobs)
        finally:
            if started is not None:
                started.close()  # refused or failed before its run
            if workers is not self._workers:
                workers.close()
        return [outcome for _, outcome, _, _ in prepared]

    def _hand_back(self) -> HandBack | None:
        """In a watching session, what forked workers hand back: the paragraph lines they broke."""
        if not self.watching:
            return None
        from generator.render.documents.lines import paragraph_lines

        lines = paragraph_lines(self.project)
        return HandBack(lines.hand_back, lines.take_back)

    def _plan_early(self, game: Game, options: BuildOptions, workers: Any, cache: BuildCache) -> list[Job] | None:
        """With --jobs > 1, plan the game before it is validated, so its pure jobs can start in workers
        meanwhile (nothing is written before `run`). None with one job, or when planning fails here: the
        same plan then runs after validation, which reports a bad game first."""
        if options.jobs < 2:
            return None
        try:
            return plan([game], self.project, options, workers, cache=cache)
        except Exception:  # a broken game: validation (or the plan after it) says what is wrong, in one line
            return None

    def _record_game(self, game: Game, options: BuildOptions, reads: ReadSet, cache: BuildCache,
                     planned: list[Job]) -> None:
        """Keep what this build made of the game, for the next build with the same options to reuse.

        Only this build's jobs count, and the previews and showcase images still exactly as it would draw
        them (`kept_for_gallery`): the manifest also keeps jobs of other papers and exports (an earlier
        `--png` or `--paper letter` build), whose files it leaves alone but which may no longer match the
        data; the gallery must not link them, nor the summary count them."""
        from generator.build.plan import kept_for_gallery
        from generator.render.site.gallery import collect

        jobs = {job.label: cache.jobs[job.label] for job in planned if job.label in cache.jobs}
        kept = kept_for_gallery(game, options, cache, self.gate, jobs)
        for record in kept.values():
            reads.merge(record.inputs)  # the gallery entry depends on them too: a next no-op build checks them
        shown = {**jobs, **kept}
        outputs = [(self.project.output_dir / job.folder, file, stamp.sha256)
                   for job in shown.values() for file, stamp in job.files]
        built = GameBuildRecord(options_key(options), code_digest(), reads.as_dict(), tuple(jobs),
                                collect(game, self.project, outputs, options.bleed).to_json())
        cache.games[game.id] = dataclasses.replace(cache.game(game.id), build=built)

    # -- the gallery -----------------------------------------------------------------

    def _gallery(self, cache: BuildCache) -> bool:
        """Rewrite output/index.html and output/look.html when anything they show changed (or one is missing).

        Every game with a recorded build is shown, not only the ones built now.
        """
        from generator.render.site.gallery import GALLERY_PAGES, GalleryGame, with_simulation, write_gallery

        entries, shown = [], []
        for game_id in self.project.game_ids():
            record = cache.game(game_id)
            if record.build is None:
                continue
            validation = record.validation
            valid, failures = (validation.valid, list(validation.failures)) if validation else (None, [])
            entry = with_simulation(GalleryGame.from_json(record.build.gallery, valid, failures), self.project)
            entries.append(entry)
            shown.append([record.build.gallery, valid, failures, entry.simulation])  # what makes the entry
        key = digest("gallery", code_digest(), shown)  # the recorded JSON as it is: no dataclasses.asdict walk
        pages = [self.project.output_dir / name for name in GALLERY_PAGES]  # the gallery and the look page
        stored = cache.gallery
        if (stored is not None and stored.key == key and all(page.is_file() for page in pages)
                and not self.gate.changed(stored.inputs)):
            self.gate.inherit(stored.inputs)
            return False
        with self.gate.recording() as reads:
            write_gallery(self.project, entries)
        cache.gallery = GalleryRecord(key, reads.as_dict())
        return True


def _vanished(removed: list[JobOutcome]) -> list[GameOutcome]:
    """One outcome per deleted game, holding the removal of what its last build made."""
    by_game: dict[str, list[JobOutcome]] = {}
    for outcome in removed:
        by_game.setdefault(outcome.game, []).append(outcome)
    return [GameOutcome(game_id, jobs=jobs) for game_id, jobs in by_game.items()]


def build(project: Project, game_ids: Iterable[str] = (), options: BuildOptions | None = None, *,
          force: bool = False, clean: bool = False, progress: Progress | None = None,
          registry: Registry = REGISTRY) -> BuildResult:
    """One build in a session of its own (what `pnp build` does)."""
    with BuildSession(project, registry=registry) as session:
        return session.build(game_ids, options, force=force, clean=clean, progress=progress)


def _warm_up() -> None:
    """What the forked workers' jobs import, imported once before forking; validation, which only this
    process runs, imports its modules (engines, fit and preflight checks) after the fork."""
    import importlib

    for module in ("generator.render.faces.renderer", "generator.render.exports.raster",
                   "generator.render.documents", "generator.render.documents.rulebook",
                   "generator.render.documents.sheets", "reportlab.platypus",
                   # what document jobs import as they run (the rulebooks' print plan, fillable score sheets)
                   "generator.render.documents.print_plan", "generator.render.faces.style", "generator.render.sheets.mixed",
                   "generator.render.documents.two_up", "reportlab.pdfbase.acroform", "encodings.unicode_escape",
                   # what a worker imports as it starts (`build._serve`), before its first job: a few ms of each fork
                   "queue", "generator.workers"):
        importlib.import_module(module)
    from generator.render.base.fonts import register_fonts

    register_fonts()
