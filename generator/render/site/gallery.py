"""The browsable gallery: `output/index.html`, a static page of every game's components and files.

Static files only, relative links, so it works straight from the file system
(no server). The page is a Jinja template rendered in a sandbox with
autoescaping, since data and templates are untrusted: the package ships one
(`generator/render/site/index.html.j2`), and a project may override it with
its own `templates/site/index.html.j2`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from generator import __version__
from generator.errors import DataError, Location
from generator.model import Game
from generator.project import Project, write_atomic
from generator.render.base.outputs import FileKind, FileRecord
from generator.render.site.look import LookDesign, designs, look_images

TEMPLATE = "site/index.html.j2"
LOOK_TEMPLATE = "site/look.html.j2"  # the look page (`generator.render.site.look`), written beside the gallery
BUILT_IN = Path(__file__).resolve().parents[1]  # render/, whose site/*.j2 are the built-in templates


DEFAULT_SAFE_MM = 3.0  # read for manifests of builds older than the component's own `safe` (Component.safe)
# A page of 100,000 faces is too big to browse (and to write): a component shows its first faces, a game its
# first failures, and says how many more there are and where they are.
MAX_FACES_SHOWN = 400
MAX_FAILURES_SHOWN = 50
# The files the look page names as documents: printed pages, not faces (a booklet is the rulebook again, a
# fillable copy is typed into rather than printed, a board is a design the page shows).
PRINTED_DOCUMENTS = frozenset({FileKind.RULES, FileKind.SCORE_SHEET})


@dataclass
class FaceImage:
    label: str
    src: str  # relative to output/, with `?v=<content hash>` so a browser never shows a stale face
    large: str = ""  # the 300 dpi face with its bleed (`--png`), for the lightbox; "" when not built
    words: str = ""  # what the search finds it by besides its label: the item's name ("Tortuga Cay" for tortuga)


@dataclass
class GalleryComponent:
    id: str
    name: str
    kind: str
    size: str
    count: int
    designs: int
    faces: list[FaceImage] = field(default_factory=list)
    # Face geometry for the lightbox's bleed, trim and safe lines (defaults read manifests of older builds).
    width_mm: float = 0.0
    height_mm: float = 0.0
    shape: str = "rect"
    corner_mm: float = 0.0
    bleed_mm: float = 0.0
    safe_mm: float = DEFAULT_SAFE_MM
    counts: list[tuple[int, int]] = field(default_factory=list)  # (players, copies in play)
    more_faces: int = 0  # previews made but not shown (over MAX_FACES_SHOWN)


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
    showcase: list[FaceImage] = field(default_factory=list)  # `pnp build --showcase` images, shown at the top
    more_failures: int = 0  # validation failures not shown (over MAX_FAILURES_SHOWN)
    look: list[LookDesign] = field(default_factory=list)  # the look page's designs, at print size
    documents: list[str] = field(default_factory=list)  # what the game prints as documents: "rulebook", "score pad"

    def to_json(self) -> dict[str, Any]:
        """The entry as the build manifest keeps it (validation and simulation are added when written)."""
        data = asdict(self)
        for status in ("valid", "failures", "more_failures", "simulation"):
            data.pop(status)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], valid: bool | None, failures: list[str]) -> GalleryGame:
        components = [GalleryComponent(**{**c, "faces": [FaceImage(**f) for f in c["faces"]],
                                          "counts": [(p, n) for p, n in c.get("counts", [])]})
                      for c in data["components"]]
        return cls(data["id"], data["title"], data["players"], data["minutes"], valid,
                   list(failures[:MAX_FAILURES_SHOWN]), components, [(label, href) for label, href in data["files"]],
                   showcase=[FaceImage(**f) for f in data.get("showcase", [])],
                   look=[LookDesign(**d) for d in data.get("look", [])],
                   documents=list(data.get("documents", [])),
                   more_failures=max(0, len(failures) - MAX_FAILURES_SHOWN))


def collect(game: Game, project: Project, outputs: Iterable[tuple[Path, FileRecord, str]],
            bleed: float = 0.0) -> GalleryGame:
    """One game's entry from the model and the typed files its build made (`(folder, record, sha256)`).

    Previews are the `preview` files, in the order their job made them; the file
    list is every PDF, by path. `bleed` is the build's bleed in mm (the lightbox
    draws it). Validation and simulation are filled in when the page is written
    (`with_simulation`).
    """
    out = project.output_dir
    folder = out / game.id
    previews: dict[str, list[FaceImage]] = {}
    showcase: list[FaceImage] = []
    with_bleed: dict[tuple[str, str], str] = {}  # (component, PNG label) -> src of the --png face
    pdfs: list[Path] = []
    looks: list[tuple[str, str, str, str]] = []  # (component, name, src, label) of the look page's images
    documents: dict[str, None] = {}  # the printed documents' labels, once each (every paper has its own file)
    for where, record, sha in outputs:
        path = where / record.name
        image = FaceImage(record.label, f"{path.relative_to(out).as_posix()}?v={sha[:12]}")
        if record.kind is FileKind.PREVIEW:
            previews.setdefault(record.component, []).append(image)
        if record.kind is FileKind.SHOWCASE:
            showcase.append(image)
        if record.kind is FileKind.LOOK:
            looks.append((record.component, record.name, image.src, record.label))
        if record.kind is FileKind.PNG:
            with_bleed[(record.component, record.label)] = image.src
        if record.name.endswith(".pdf"):
            pdfs.append(path)
        if record.kind in PRINTED_DOCUMENTS and record.label:
            documents[record.label] = None
    made = {component_id: len(faces) for component_id, faces in previews.items()}
    names = {c.id: {item.id: str(item.fields.get("name") or "") for item in c.items} for c in game.components}
    for component_id, faces in previews.items():
        del faces[MAX_FACES_SHOWN:]
        for face in faces:
            face.large = with_bleed.get((component_id, _first_copy(face.label)), "")
            face.words = names.get(component_id, {}).get(face.label.partition(" (back)")[0], "")
    components = [GalleryComponent(c.id, c.name, c.kind, c.size.label(), c.count, len(c.items), previews.get(c.id, []),
                                   c.size.width, c.size.height, c.size.shape, c.size.corner, bleed, c.safe,
                                   counts=_counts_by_players(game, c.id),
                                   more_faces=max(0, made.get(c.id, 0) - MAX_FACES_SHOWN))
                  for c in game.components]
    lo, hi = game.play_time
    return GalleryGame(
        id=game.id,
        title=game.title,
        players=f"{game.players_min}" if game.players_min == game.players_max else f"{game.players_min}-{game.players_max}",
        minutes=f"{lo}" if lo == hi else f"{lo}-{hi}",
        valid=None,
        failures=[],
        components=components,
        files=[(p.relative_to(folder).as_posix(), p.relative_to(out).as_posix()) for p in sorted(pdfs)],
        showcase=showcase,
        look=designs(game, look_images(looks)),
        documents=list(documents),
    )


def _first_copy(preview_label: str) -> str:
    """The label the `--png` export gives the first copy of a preview's design (`port-royal` -> `port-royal 1`)."""
    if preview_label == "back":
        return "back"
    item, back, _ = preview_label.partition(" (back)")
    return f"{item} 1 (back)" if back else f"{item} 1"


def _counts_by_players(game: Game, component_id: str) -> list[tuple[int, int]]:
    """Copies in play at each player count, from the data's player-count removals."""
    return [(players, len(game.deck(component_id, players))) for players in game.player_range]


def with_simulation(entry: GalleryGame, project: Project) -> GalleryGame:
    """The entry with the game's `simulation.json` (written by `pnp simulate`), if there is a readable one."""
    sim_path = project.output_dir / entry.id / "simulation.json"
    simulation = None
    if sim_path.is_file():
        try:
            simulation = json.loads(sim_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            simulation = None
    return replace(entry, simulation=simulation)


def _compile_gallery(project: Project, name: str = TEMPLATE) -> Any:
    # Jinja is imported here, when the page is drawn again, not by a no-op build that only checks its key.
    from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, StrictUndefined, TemplateNotFound

    from generator.render.base.sandbox import LimitedEnvironment
    from generator.render.base.template_cache import CodeCache

    class GateLoader(BaseLoader):
        """Jinja loads the project's site templates (and whatever they include) through the read gate."""

        def __init__(self, project: Project) -> None:
            self.project = project

        def get_source(self, environment: Any, template: str) -> tuple[str, str, Callable[[], bool]]:
            base = self.project.templates_dir
            path = self.project.inside(base, template, Location(f"templates/{template}"))
            if not self.project.gate.exists(path):
                raise TemplateNotFound(template)
            return self.project.gate.read_text(path), str(path), lambda: False

    fields_of = {cls: frozenset(f.name for f in fields(cls))
                 for cls in (GalleryGame, GalleryComponent, FaceImage, LookDesign)}

    class GalleryEnvironment(LimitedEnvironment):
        """The sandbox, which lets a template read the fields of the page's own records (plain data: strings,
        numbers, lists) straight away instead of vetting each of the page's thousands of reads."""

        def getattr(self, obj: Any, attribute: str) -> Any:
            names = fields_of.get(type(obj))
            if names is not None and attribute in names:
                return getattr(obj, attribute)
            return super().getattr(obj, attribute)

    env = GalleryEnvironment(
        code_cache=CodeCache.for_user(),
        loader=ChoiceLoader([GateLoader(project), FileSystemLoader(str(BUILT_IN))]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template(name)


def render_gallery(project: Project, games: list[GalleryGame], name: str = TEMPLATE) -> str:
    """The page (`name`: the gallery, or the look page). Its template is compiled once per project handle
    (`pnp watch` keeps one), kept by the read gate with the files it read: a project's own template, once
    added or edited, is compiled again."""
    from jinja2 import TemplateError

    where = Location(f"templates/{name}")
    try:
        template = project.gate.derived(("gallery-template", name), lambda: _compile_gallery(project, name))
        return str(template.render(games=games, version=__version__))
    except TemplateError as exc:
        line = getattr(exc, "lineno", None) or 0
        raise DataError(f"gallery template: {exc.message or exc}", Location(where.file, line)) from None
    except DataError as exc:  # an include the read gate refused: say where the include is
        raise DataError(f"gallery template: {exc}", _template_line(project, name)) from None


def render_look(project: Project, games: list[GalleryGame]) -> str:
    """The look page (`generator.render.site.look`): every game's designs at print size."""
    return render_gallery(project, games, LOOK_TEMPLATE)


def _template_line(project: Project, name: str = TEMPLATE) -> Location:
    """The innermost template line of the exception being handled (Jinja maps frames to template lines)."""
    tb = sys.exc_info()[2]
    found = Location(f"templates/{name}")
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(".j2"):
            found = Location(project.gate.name(Path(name)) if Path(name).is_relative_to(project.root) else name,
                             tb.tb_lineno)
        tb = tb.tb_next
    return found


GALLERY_PAGES = ("index.html", "look.html")  # the pages `write_gallery` writes in output/


def write_gallery(project: Project, games: list[GalleryGame]) -> Path:
    """The gallery and the look page; both are rendered before either is written, so a template error leaves
    the pages of the last build as they were."""
    index, look = render_gallery(project, games).encode("utf-8"), render_look(project, games).encode("utf-8")
    write_atomic(project.output_dir / "look.html", look)
    path = project.output_dir / "index.html"
    write_atomic(path, index)
    return path
