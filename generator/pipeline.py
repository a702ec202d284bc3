"""One build, start to finish: load, validate, plan, run, gallery — doing only what changed.

Shared by `pnp build` and `pnp watch`. It sits beside the CLI (it may use
both validation, which reads the engines, and the renderer).

Fast paths, in order:
  1. a game whose data, templates, code and options are unchanged since the
     last build, and whose files are intact, is not even loaded;
  2. validation is skipped when the same inputs passed before;
  3. inside a game, only jobs whose own inputs changed run (a one-card edit
     redraws that component's sheets and that card's face, and the game's
     documents), and rasterized faces come from the face cache.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generator.engine.registry import REGISTRY, Registry
from generator.errors import UsageError
from generator.load import load_game
from generator.model import Game
from generator.project import Project, clean_temporaries
from generator.render.build import PREVIEW_DIR, BuildOptions, Job, Summary, plan, run
from generator.render.cache import BuildCache, digest, game_files_digest

Progress = Callable[[int, str], None]  # (jobs in plan, label of the job just done or "")


@dataclass
class BuildResult:
    summary: Summary
    loaded: list[str] = field(default_factory=list)  # games whose YAML had to be read
    validated: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    faces_drawn: int = 0
    gallery_written: bool = False


def _options_key(options: BuildOptions) -> str:
    return digest(options.papers, options.bleed, options.duplex, options.crop_marks, options.cut_lines,
                  options.back_offset, options.png, options.tts, options.previews, options.booklet)


def _validate(game: Game, project: Project, force: bool, result: BuildResult,
              registry: Registry = REGISTRY) -> tuple[bool, list[str]]:
    from generator.validate import validate_game

    report = validate_game(game, project, registry)
    result.validated.append(game.id)
    failures = [f"{c.location}: {c.name}: expected {c.expected}, got {c.actual}" if c.location
                else f"{c.name}: expected {c.expected}, got {c.actual}" for c in report.failures()]
    if failures and not force:
        raise UsageError(f"{game.id} fails validation ({len(failures)} checks; first: {failures[0]}); "
                         "fix it, see `pnp validate`, or build anyway with --force")
    if failures:
        result.warnings.append(f"{game.id} fails validation ({len(failures)} checks); built anyway (--force)")
    return report.ok, failures


def build(project: Project, game_ids: list[str], options: BuildOptions, *, force: bool = False,
          clean: bool = False, gallery: bool = True, workers: object = None,
          progress: Callable[[list[Job]], Callable[[Job], None]] | None = None,
          cache: BuildCache | None = None, registry: Registry = REGISTRY) -> BuildResult:
    """Build the named games (all when empty); returns what was written and what was reused.

    `registry` says which engine checks each game (validation runs its deck checks).

    With `options.jobs` > 1 and several games to redo, each game is built in its
    own process (its files do not depend on the others, so output is the same
    bytes either way); a single game, as in `pnp watch`, stays in this process.
    """
    options.check()
    known = project.game_ids()
    for game_id in game_ids:
        if game_id not in known:
            raise UsageError(f"unknown game {game_id!r} (games: {', '.join(known) or 'none'})")
    ids = list(game_ids) or known
    if not ids:
        raise UsageError(f"no games under {project.display(project.data_dir)}/ (is --root right?)")
    clean_temporaries(project.output_dir)  # what a killed build left behind
    cache = cache or BuildCache.open(project, clean=clean)
    result = BuildResult(Summary())
    if cache.dropped:
        result.warnings.append(cache.dropped)

    statuses: dict[str, tuple[bool | None, list[str]]] = {}
    todo: list[str] = []
    for game_id in ids:
        entry = cache.games.get(game_id, {})
        if not options.only and entry.get("key") == _game_key(project, game_id, options) and _intact(project, cache, entry):
            result.summary.skipped.extend(entry["jobs"])
            for label, folder in entry["jobs"].items():
                result.summary.unchanged.extend(project.output_dir / folder / name for name in cache.files_of(label))
            statuses[game_id] = (entry.get("valid"), entry.get("failures", []))
        else:
            todo.append(game_id)

    games: dict[str, Game] = {}
    if options.jobs > 1 and len(todo) > 1:
        _build_in_processes(project, todo, options, force, cache, result, progress, registry)
    else:
        games = _build_here(project, todo, options, force, cache, result, workers, progress, registry)
    statuses.update({g: (cache.games[g].get("valid"), cache.games[g].get("failures", []))
                     for g in todo if g in cache.games})
    result.faces_drawn = cache.stats["faces_drawn"]
    if gallery and options.previews:
        result.gallery_written = _gallery(project, ids, games, statuses, cache)
    cache.save()
    return result


_LOADED: dict[tuple[str, str], tuple[str, Game]] = {}


def _load(project: Project, game_id: str) -> Game:
    """The game as its files say now; a long-running process (`pnp watch`) reuses an unchanged one."""
    inputs = game_files_digest(project, game_id)
    found = _LOADED.get((str(project.root), game_id))
    if found is not None and found[0] == inputs:
        return found[1]
    game = load_game(project, game_id)
    _LOADED[(str(project.root), game_id)] = (inputs, game)
    return game


def _game_key(project: Project, game_id: str, options: BuildOptions) -> str:
    return digest(game_files_digest(project, game_id), _options_key(options))


def _intact(project: Project, cache: BuildCache, entry: dict[str, Any]) -> bool:
    """Every file of every job of a game is still as the last build left it."""
    return all(cache.fresh(label, cache.jobs.get(label, {}).get("key", ""), project.output_dir / folder)
               for label, folder in entry.get("jobs", {}).items())


def _build_here(project: Project, todo: list[str], options: BuildOptions, force: bool, cache: BuildCache,
                result: BuildResult, workers: object = None,
                progress: Callable[[list[Job]], Callable[[Job], None]] | None = None,
                registry: Registry = REGISTRY) -> dict[str, Game]:
    """Load, validate (unless the same inputs passed before), plan and run the games, in this process."""
    from generator.render.raster import Workers

    games: dict[str, Game] = {}
    statuses: dict[str, tuple[bool | None, list[str]]] = {}
    for game_id in todo:
        game = games[game_id] = _load(project, game_id)
        result.loaded.append(game_id)
        entry = cache.games.get(game_id, {})
        if entry.get("validated") == game_files_digest(project, game_id) and (entry.get("valid") or force):
            statuses[game_id] = (entry.get("valid"), entry.get("failures", []))
        else:
            statuses[game_id] = _validate(game, project, force, result, registry)
    owned_workers = workers is None
    workers = workers or Workers(options.jobs)
    try:
        jobs = plan(list(games.values()), project, options, workers, result.summary, cache=cache)
        run(jobs, project, result.summary, progress(jobs) if progress else None, cache, parallel=options.jobs)
    finally:
        if owned_workers:
            workers.close()  # type: ignore[attr-defined]
    for game_id in todo:
        if options.only:
            continue  # a partial build says nothing about the whole game
        ok, failures = statuses[game_id]
        cache.games[game_id] = {
            "key": _game_key(project, game_id, options),
            "jobs": {j.label: j.folder.relative_to(project.output_dir).as_posix() for j in jobs if j.game == game_id},
            "validated": game_files_digest(project, game_id), "valid": ok, "failures": failures,
        }
    return games


@dataclass
class _GameLabel:
    """Stands in for a job in the progress bar when whole games run in worker processes."""

    label: str


def _build_in_processes(project: Project, todo: list[str], options: BuildOptions, force: bool,
                        cache: BuildCache, result: BuildResult,
                        progress: Callable[[list[Job]], Callable[[Job], None]] | None,
                        registry: Registry = REGISTRY) -> None:
    """One process per game (at most `options.jobs` at once); their cache records merge back here."""
    from generator.workers import process_pool

    single = dataclasses.replace(options, jobs=1)  # no nested pools inside a game's worker
    _warm_up()  # forked workers inherit the imports and fonts instead of each paying for them
    advance = progress([_GameLabel(g) for g in todo]) if progress else None  # type: ignore[list-item]
    with process_pool(min(options.jobs, len(todo))) as pool:
        # Biggest games first (data size is a fair proxy), so no worker is left with a long tail.
        order = sorted(todo, key=lambda g: -sum(p.stat().st_size for p in (project.data_dir / g).glob("*.yaml")))
        futures = {g: pool.submit(_build_one, str(project.root), g, single, force, registry) for g in order}
        for game_id in todo:
            future = futures[game_id]
            part, jobs, faces, entry, stats = future.result()
            result.summary.written += part.summary.written
            result.summary.unchanged += part.summary.unchanged
            result.summary.removed += part.summary.removed
            result.summary.ran += part.summary.ran
            result.summary.skipped += part.summary.skipped
            for paper, count in part.summary.sheets.items():
                result.summary.sheets[paper] = result.summary.sheets.get(paper, 0) + count
            result.loaded += part.loaded
            result.validated += part.validated
            result.warnings += part.warnings
            cache.jobs.update(jobs)
            cache.faces.update(faces)
            if entry is not None:
                cache.games[game_id] = entry
            for key, value in stats.items():
                cache.stats[key] += value
            if advance:
                advance(_GameLabel(game_id))  # type: ignore[arg-type]


def _warm_up() -> None:
    import importlib

    for module in ("generator.validate", "generator.render.faces", "generator.render.raster",
                   "generator.render.documents", "generator.render.documents.rulebook",
                   "generator.render.documents.sheets", "reportlab.platypus"):
        importlib.import_module(module)
    from generator.render.fonts import register_fonts

    register_fonts()


def _build_one(root: str, game_id: str, options: BuildOptions, force: bool, registry: Registry = REGISTRY) -> tuple[BuildResult, dict[str, Any], dict[str, str], dict[str, Any] | None, dict[str, int]]:
    """Worker: build one game against the cache as it was on disk; send back what it recorded."""
    project = Project.at(root)
    cache = BuildCache.open(project)  # never wipes: with --clean the parent already did, before any worker ran
    faces_before = set(cache.faces)
    result = BuildResult(Summary())
    _build_here(project, [game_id], options, force, cache, result, registry=registry)
    labels = set(result.summary.ran) | set(result.summary.skipped)
    jobs = {label: record for label, record in cache.jobs.items() if label in labels}
    faces = {key: value for key, value in cache.faces.items() if key not in faces_before}
    return result, jobs, faces, cache.games.get(game_id), cache.stats


def _gallery(project: Project, ids: list[str], games: dict[str, Game],
             statuses: dict[str, tuple[bool | None, list[str]]], cache: BuildCache) -> bool:
    """Rewrite output/index.html when anything it shows changed (or it is missing)."""
    from generator.render.gallery import collect, write_gallery

    sims = [(project.output_dir / g / "simulation.json") for g in ids]
    key = digest("gallery", [cache.games.get(g, {}).get("key") for g in ids], statuses,
                 [p.stat().st_mtime_ns if p.is_file() else 0 for p in sims])
    index = project.output_dir / "index.html"
    if cache.extra.get("gallery") == key and index.is_file():
        return False
    entries = []
    for game_id in ids:
        game = games.get(game_id) or _load(project, game_id)
        folder = project.output_dir / game_id / PREVIEW_DIR
        previews: dict[str, list[tuple[str, object]]] = {}
        for component in game.components:
            shots = []
            for item in component.items:
                front = folder / f"{component.id}-{item.id}.png"
                if front.is_file():
                    shots.append((item.id, front))
                back = folder / f"{component.id}-{item.id}-back.png"
                if back.is_file():
                    shots.append((f"{item.id} (back)", back))
            shared_back = folder / f"{component.id}-back.png"
            if shared_back.is_file():
                shots.append(("back", shared_back))
            previews[component.id] = shots
        valid, failures = statuses.get(game_id, (None, []))
        entries.append(collect(game, project, valid, failures, previews))  # type: ignore[arg-type]
    write_gallery(project, entries)
    cache.extra["gallery"] = key
    return True
