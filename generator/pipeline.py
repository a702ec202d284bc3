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

from dataclasses import dataclass, field
from typing import Callable

from generator.errors import UsageError
from generator.load import load_game
from generator.model import Game
from generator.project import Project
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


def _validate(game: Game, project: Project, force: bool, result: BuildResult) -> tuple[bool, list[str]]:
    from generator.validate import validate_game

    report = validate_game(game, project)
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
          cache: BuildCache | None = None) -> BuildResult:
    """Build the named games (all when empty); returns what was written and what was reused."""
    from generator.render.raster import Workers

    options.check()
    known = project.game_ids()
    for game_id in game_ids:
        if game_id not in known:
            raise UsageError(f"unknown game {game_id!r} (games: {', '.join(known) or 'none'})")
    ids = list(game_ids) or known
    if not ids:
        raise UsageError(f"no games under {project.display(project.data_dir)}/ (is --root right?)")
    cache = cache or BuildCache.open(project, enabled=not clean)
    result = BuildResult(Summary())
    if cache.dropped:
        result.warnings.append(cache.dropped)
    options_key = _options_key(options)
    partial = bool(options.only)

    games: dict[str, Game] = {}
    statuses: dict[str, tuple[bool | None, list[str]]] = {}
    keys: dict[str, str] = {}
    todo: list[Game] = []
    for game_id in ids:
        inputs = game_files_digest(project, game_id)
        keys[game_id] = digest(inputs, options_key)
        entry = cache.games.get(game_id, {})
        if (not partial and entry.get("key") == keys[game_id] and
                all(cache.fresh(label, cache.jobs.get(label, {}).get("key", ""), project.output_dir / folder)
                    for label, folder in entry.get("jobs", {}).items())):
            result.summary.skipped.extend(entry["jobs"])
            for label, folder in entry["jobs"].items():
                result.summary.unchanged.extend(project.output_dir / folder / name for name in cache.files_of(label))
            statuses[game_id] = (entry.get("valid"), entry.get("failures", []))
            continue
        game = games[game_id] = load_game(project, game_id)
        result.loaded.append(game_id)
        if entry.get("validated") == inputs and (entry.get("valid") or force):
            statuses[game_id] = (entry.get("valid"), entry.get("failures", []))
        else:
            statuses[game_id] = _validate(game, project, force, result)
        todo.append(game)

    owned_workers = workers is None
    workers = workers or Workers(options.jobs)
    try:
        jobs = plan(todo, project, options, workers, result.summary, cache=cache)
        run(jobs, project, result.summary, progress(jobs) if progress else None, cache)
    finally:
        if owned_workers:
            workers.close()  # type: ignore[attr-defined]

    for game in todo:
        game_jobs = {j.label: j.folder.relative_to(project.output_dir).as_posix() for j in jobs if j.game == game.id}
        if not partial:
            ok, failures = statuses[game.id]
            cache.games[game.id] = {"key": keys[game.id], "jobs": game_jobs, "validated": game_files_digest(project, game.id),
                                    "valid": ok, "failures": failures}
    result.faces_drawn = cache.stats["faces_drawn"]
    if gallery and options.previews:
        result.gallery_written = _gallery(project, ids, games, statuses, cache)
    cache.save()
    return result


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
        game = games.get(game_id) or load_game(project, game_id)
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
