"""The build plan: a list of jobs, each producing typed files under `output/<game>/`.

`plan(games, project, options, workers)` lists every job (`run.run` executes
them). Component jobs come from the exporter registry
(`generator.render.exports.registry`); documents (rulebooks, score sheets,
boards) from the specs `generator.render.documents.document_specs` hands over;
the showcase from `generator.render.site.showcase`.

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
  output/<game>/look/<component>-<side>.png      the look page's images (output/look.html): one design of each
                                                 component, front and back, at 192 dpi
  output/<game>/<preset>/...                     with --preset NAME: what that print service asks for,
                                                 plus <component>-manifest.csv (copies per face)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from functools import partial
from typing import Any

from generator.build.cache import BuildCache, JobRecord
from generator.build.jobs import Job
from generator.build.options import DOCUMENTS, LOOK, SHOWCASE, BuildOptions, options_key
from generator.digests import code_digest, digest
from generator.errors import DataError
from generator.model import Component, Game
from generator.project import Project
from generator.readgate import ReadGate
from generator.render.base.modelreads import FieldReads, component_digest, facts_hold
from generator.render.base.outputs import OutputFile
from generator.render.base.units import PAPERS
from generator.render.exports.registry import EXPORTERS, PREVIEW, SHEETS, Exporter, ExportInput


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
            if exporter.name == SHEETS and component.sheet not in ("own", "spill"):
                continue  # printed on the game's mixed sheet or a shared one (`mixed_sheet_jobs`, `shared_sheet_jobs`)
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
        jobs.extend(shared_sheet_jobs(game, project, options, faces))
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
    papers, `--png`) the gallery does not show: it may no longer match the data. The look page's images
    are kept alike."""
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
    for label, keyed in ((showcase_label(game.id), showcase_key), (look_label(game.id), look_key)):
        if label not in skip and label in cache.jobs:
            record = cache.fresh(label, keyed(game), gate)
            if record is not None and facts_hold(game, record.facts):  # the item fields it read (the look's)
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


def shared_sheet_jobs(game: Game, project: Project, options: BuildOptions, faces: Any) -> list[Job]:
    """One job per paper for each sheet shared by components of one size (`sheet: <name>`), whole even when
    `--only` names one of its piles."""
    from generator.render.exports.registry import shared_sheet
    from generator.render.sheets.imposition import shared_sheets

    jobs = []
    for name, members in shared_sheets(game).items():
        if members[0].sheet in ("own", "spill") or (options.only and not any(c.id in options.only for c in members)):
            continue
        drawn = [component_digest(game, c) for c in members]
        for paper_name in options.papers:
            settings = EXPORTERS[SHEETS].settings_for(options, PAPERS[paper_name])
            key = digest("shared", name, code_digest(), dataclasses.asdict(settings), drawn)
            jobs.append(Job(game.id, f"{game.id} {name} {paper_name}", project.output_dir / game.id,
                            functools.partial(shared_sheet, faces, game, name, members, settings), key=key,
                            exporter=SHEETS, paper=paper_name, subject=name,
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
            return in_colour(spec.produce(seen), options.colour)

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
                            key=digest("document", code_digest(), spec.label, sheet, skeleton, printing,
                                       options.colour),
                            cost=estimated_cost(DOCUMENTS if spec.subject != "rules" else "rules", 0)))
    return jobs


def in_colour(files: list[OutputFile], colour: str) -> list[OutputFile]:
    """A document's PDFs as --colour asks: `cmyk` converts rulebooks, score sheets, screens and boards
    as it does the card sheets (CMYK PDF/X through the shipped profile, ink at most 240 %)."""
    if colour != "cmyk":
        return files
    from generator.render.exports.cmyk import PROFILE_INK_LIMIT, to_pdfx

    return [dataclasses.replace(f, data=to_pdfx(f.data, PROFILE_INK_LIMIT, "")) if f.name.endswith(".pdf") else f
            for f in files]


# Rough milliseconds of CPU per job (measured on the development machine, cold build): a rulebook is
# laid out twice and its how-to-print page lays out the sheets again; a score sheet or board is one
# document; card sheets and faces grow with the pieces drawn. Only the order of jobs depends on them.
FIXED_COST = {"rules": 300.0, DOCUMENTS: 100.0, SHEETS: 20.0}


COST_PER_PIECE = {SHEETS: 0.8, "png": 8.0, "tts": 4.0, "preview": 3.5, LOOK: 14.0}


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
        if PREVIEW in options.exports and not options.only:  # the look page comes with the gallery
            jobs.extend(look_jobs(game, project, workers, cache))
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
    front = (game.theme.get("box_art"), dict(game.theme.get("colours", {})), game.title, game.players_min,
             game.players_max, game.play_time)  # the box front's art file is a read the job records
    return digest("showcase", code_digest(), dataclasses.asdict(ShowcaseSettings()), drawn, repr(front))


def look_label(game_id: str) -> str:
    return f"{game_id} {LOOK}"


def look_jobs(game: Game, project: Project, workers: object, cache: BuildCache | None = None) -> list[Job]:
    """The look page's images of the game (`generator.render.site.look`): one job. Like a document, it draws
    from a watched copy of the game, so its record holds the item fields it read (the shown items' fields,
    and what every back reads to tell whether one back serves all): an edit to a field no look face shows
    leaves it alone. The layouts, art and fonts it reads are recorded as it runs."""
    from generator.render.faces.renderer import renderer
    from generator.render.site.look import looked

    reads = FieldReads()
    run = functools.partial(_draw_look, renderer(project), game, reads, workers, cache)
    sides = sum(2 if c.back or c.double_sided else 1 for c in looked(game))
    return [Job(game.id, look_label(game.id), project.output_dir / game.id / LOOK, run, key=look_key(game),
                exporter=LOOK, subject=game.id, facts=reads, model=game, cost=estimated_cost(LOOK, sides))]


def _draw_look(faces: Any, game: Game, reads: FieldReads, workers: Any, cache: BuildCache | None) -> list[OutputFile]:
    from generator.render.base.modelreads import watched
    from generator.render.site.look import LookSettings, draw_look

    return draw_look(faces, watched(game, reads), workers, cache, LookSettings())


def look_key(game: Game) -> str:
    """The look job's static key: the game apart from its item fields (those it reads are recorded), its
    settings, the code."""
    from generator.render.base.modelreads import skeleton_digest
    from generator.render.site.look import LookSettings

    return digest("look", code_digest(), dataclasses.asdict(LookSettings()), skeleton_digest(game))
