"""The browsable gallery: `output/index.html`, a static page of every game's components and files.

Static files only, relative links, so it works straight from the file system
(no server). The page is a Jinja template rendered in a sandbox with
autoescaping, since data and templates are untrusted: the package ships one
(`generator/render/site/index.html.j2`), and a project may override it with
its own `templates/site/index.html.j2`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined, TemplateError

from generator import __version__
from generator.errors import DataError, Location
from generator.model import Game
from generator.project import Project, write_atomic
from generator.render.sandbox import LimitedEnvironment

TEMPLATE = "site/index.html.j2"
BUILT_IN = Path(__file__).resolve().parent


@dataclass
class FaceImage:
    label: str
    src: str  # relative to output/


@dataclass
class GalleryComponent:
    id: str
    name: str
    kind: str
    size: str
    count: int
    designs: int
    faces: list[FaceImage] = field(default_factory=list)


@dataclass
class GalleryGame:
    id: str
    title: str
    players: str
    minutes: str
    valid: bool | None
    failures: list[str]
    components: list[GalleryComponent]
    files: list[tuple[str, str]]  # (label, href relative to output/)
    simulation: dict[str, Any] | None = None


def collect(game: Game, project: Project, valid: bool | None, failures: list[str],
            previews: dict[str, list[tuple[str, Path]]]) -> GalleryGame:
    """Gather one game's entry from the model and what the build left in output/<game>/.

    `previews` maps a component id to (label, png path) pairs written by the build.
    """
    out = project.output_dir
    folder = out / game.id
    files = sorted(p for p in folder.rglob("*.pdf")) if folder.is_dir() else []
    components = []
    for component in game.components:
        faces = [FaceImage(label, path.relative_to(out).as_posix()) for label, path in previews.get(component.id, [])]
        components.append(
            GalleryComponent(component.id, component.name, component.kind, component.size.label(),
                             component.count, len(component.items), faces)
        )
    sim_path = folder / "simulation.json"
    simulation = None
    if sim_path.is_file():
        try:
            simulation = json.loads(sim_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            simulation = None
    lo, hi = game.play_time
    return GalleryGame(
        id=game.id,
        title=game.title,
        players=f"{game.players_min}" if game.players_min == game.players_max else f"{game.players_min}-{game.players_max}",
        minutes=f"{lo}" if lo == hi else f"{lo}-{hi}",
        valid=valid,
        failures=failures,
        components=components,
        files=[(p.relative_to(folder).as_posix(), p.relative_to(out).as_posix()) for p in files],
        simulation=simulation,
    )


def render_gallery(project: Project, games: list[GalleryGame]) -> str:
    env = LimitedEnvironment(
        loader=ChoiceLoader([FileSystemLoader(str(project.templates_dir)), FileSystemLoader(str(BUILT_IN))]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    where = Location(f"templates/{TEMPLATE}")
    try:
        template = env.get_template(TEMPLATE)
        return template.render(games=games, version=__version__)
    except TemplateError as exc:
        line = getattr(exc, "lineno", None) or 0
        raise DataError(f"gallery template: {exc.message or exc}", Location(where.file, line)) from None


def write_gallery(project: Project, games: list[GalleryGame]) -> Path:
    path = project.output_dir / "index.html"
    write_atomic(path, render_gallery(project, games).encode("utf-8"))
    return path
