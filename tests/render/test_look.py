"""The look page (output/look.html): every game's designs at print size, fronts beside backs, made by the build."""

from __future__ import annotations

import hashlib
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from PIL import Image

from generator.build.options import BuildOptions
from generator.build.plan import look_label
from generator.build.session import build
from generator.load import load_game
from generator.model import NAMED_SIZES, Game
from generator.project import Project
from generator.render.base.outputs import FileKind
from generator.render.base.units import px
from generator.render.exports.raster import Workers
from generator.render.faces.layout import back_layout
from generator.render.faces.renderer import renderer
from generator.render.site.gallery import GalleryGame, collect, render_gallery, render_look
from generator.render.site.look import LOOK_DPI, LookSettings, draw_look, looked
from tests.cdp import CHROMIUM, Page
from tests.helpers import edit

OPTIONS = BuildOptions(papers=("a4",), exports=("sheets", "preview"))


class Designs(HTMLParser):
    """The page read back: per (game, component) its images (src, alt, style) and blank backs (style)."""

    def __init__(self) -> None:
        super().__init__()
        self.game = ""
        self.component = ""
        self.images: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.blanks: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.headings: list[tuple[str, str]] = []  # (tag, id)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "section" and "data-game" in a:
            self.game = a["data-game"]
        if tag == "article":
            self.component = a["data-component"]
        if tag in ("h1", "h2", "h3"):
            self.headings.append((tag, a.get("id", "")))
        if tag == "a":
            self.links.append(a["href"])
        if tag == "img":
            self.images.setdefault((self.game, self.component), []).append(a)
        if tag in ("div", "p") and "blank" in a.get("class", "").split():
            self.blanks.setdefault((self.game, self.component), []).append(a)


def read_page(html: str) -> Designs:
    parser = Designs()
    parser.feed(html)
    return parser


def mm(style: str, name: str) -> float:
    found = re.search(rf"(?<![-\w]){name}: ([0-9.]+)mm", style)
    assert found, (name, style)
    return float(found.group(1))


@pytest.fixture(scope="module")
def pages(project: Project) -> tuple[dict[str, Game], dict[str, dict[str, bytes]], str, str]:
    """Every game's look images drawn as the look job draws them, and the two pages from their entries."""
    games = {game_id: load_game(project, game_id) for game_id in project.game_ids()}
    images: dict[str, dict[str, bytes]] = {}
    entries: list[GalleryGame] = []
    for game in games.values():
        files = draw_look(renderer(project), game, Workers(1), None, LookSettings())
        assert all(f.kind is FileKind.LOOK for f in files)
        images[game.id] = {f.name: f.data for f in files}
        folder = project.output_dir / game.id / "look"
        entries.append(collect(game, project, [(folder, f.record(), hashlib.sha256(f.data).hexdigest())
                                               for f in files]))
    return games, images, render_look(project, entries), render_gallery(project, entries)


@pytest.mark.slow
def test_every_design_of_every_game_shows_its_front_beside_its_back(pages: tuple) -> None:
    games, _, look, _ = pages
    page = read_page(look)
    assert len(games) == 4
    for game in games.values():
        shown = {component for g, component in page.images if g == game.id}
        faced = [c for c in game.components if c.kind != "sheet"]  # sheets are documents, not faces
        assert shown == {c.id for c in faced} == {c.id for c in looked(game)}
        for component in faced:
            sides = [img["src"].split("?")[0] for img in page.images[(game.id, component.id)]]
            back = back_layout(component)
            if back:  # the front, then its back, beside it
                assert sides == [f"{game.id}/look/{component.id}-front.png", f"{game.id}/look/{component.id}-back.png"]
            else:  # the front, and a blank the size of the face (a note, for a board): nothing printed on the back
                assert sides == [f"{game.id}/look/{component.id}-front.png"]
                assert len(page.blanks[(game.id, component.id)]) == 1
        # every layout a component draws with is on the page
        named = {c.front for c in faced} | {back_layout(c) for c in faced if back_layout(c)}
        drawn = {c.front for c in looked(game)} | {back_layout(c) for c in looked(game) if back_layout(c)}
        assert named == drawn and named
    assert "other side (double-sided)" in look and "back (every copy)" in look and "back (this design&#39;s own)" in look


def written_sizes(project: Project, game_id: str) -> dict[str, tuple[float, float, bool]]:
    """Each component's (width, height, round) as the data files write them, read straight from the YAML."""
    written = {}
    for path in sorted((project.data_dir / game_id).glob("*.yaml")):
        for raw in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("components", []):
            size = raw["size"]
            if isinstance(size, str):
                named = NAMED_SIZES[size]
                written[raw["id"]] = (named.width, named.height, named.shape == "circle")
            elif "diameter" in size:
                written[raw["id"]] = (size["diameter"], size["diameter"], True)
            else:
                written[raw["id"]] = (size["width"], size["height"], False)
    return written


@pytest.mark.slow
def test_sizes_in_mm_are_the_trim_sizes_in_the_data(pages: tuple, project: Project) -> None:
    games, images, look, _ = pages
    page = read_page(look)
    for game in games.values():
        written = written_sizes(project, game.id)
        for component in looked(game):
            width, height, circle = written[component.id]
            blanks = page.blanks.get((game.id, component.id), [])
            if max(width, height) > 120:  # a board: its blank back is said, not drawn
                assert all("note" in blank["class"] and "style" not in blank for blank in blanks)
                blanks = []
            for style in ([img["style"] for img in page.images[(game.id, component.id)]]
                          + [blank["style"] for blank in blanks]):
                assert (mm(style, "width"), mm(style, "height")) == (width, height), (game.id, component.id)
                assert ("border-radius: 50%" in style) == circle
                if not circle:
                    assert mm(style, "border-radius") == component.size.corner
            for name, data in images[game.id].items():  # the images hold the face at LOOK_DPI, no bleed
                if name.startswith(f"{component.id}-") and name[len(component.id) + 1:] in ("front.png", "back.png"):
                    with Image.open(io.BytesIO(data)) as image:
                        assert image.size == (px(width, LOOK_DPI), px(height, LOOK_DPI))
                        assert round(image.info["dpi"][0]) == LOOK_DPI
    board = written_sizes(project, "pirates-under-fire")["sea-board"]
    assert f"width: {board[0]:.1f}mm; height: {board[1]:.1f}mm" in look  # the sea board, at full size
    assert "This bar is 100 mm long at print size." in look and 'style="width: 100mm"' in look


def test_the_page_is_linked_from_the_gallery_and_back(pages: tuple) -> None:
    games, _, look, index = pages
    assert '<a href="look.html">' in index
    page = read_page(look)
    assert "index.html" in page.links
    for game_id in games:
        assert f'href="look.html#look-{game_id}"' in index  # from each game's section of the gallery
        assert f"look-{game_id}" in page.ids


def test_the_page_works_offline_and_reads_with_a_keyboard_and_a_screen_reader(pages: tuple) -> None:
    games, _, look, _ = pages
    page = read_page(look)
    assert not re.search(r'(?:src|href)="(?:[a-z]+:|//)', look)  # nothing fetched from elsewhere
    assert "@import" not in look and "url(" not in look
    tags = [tag for tag, _ in page.headings]
    assert tags[0] == "h1" and tags.count("h1") == 1 and tags.count("h2") == len(games)
    assert tags.count("h3") == sum(len(looked(game)) for game in games.values())
    for (game_id, component), shown in page.images.items():
        game = games[game_id]
        name = next(c.name for c in game.components if c.id == component)
        for img in shown:
            assert img["alt"].startswith(f"{game.title}, {name}, ")  # says which game, which design, which side
    # each image is a link (focusable, opens the image), and the skip link leads to the designs
    assert look.count("<img ") == len(re.findall(r'<a href="[^"]+"><img ', look))
    assert '<a class="skip" href="#designs">' in look and "designs" in page.ids
    assert 'role="img" aria-label="A bar 100 millimetres long' in look


@pytest.mark.slow
def test_a_layout_edit_redraws_the_look_and_an_incremental_build_equals_a_clean_one(fresh_project: Project,
                                                                                  tmp_path: Path) -> None:
    project = fresh_project
    first = build(project, ["counterattack"], OPTIONS)
    assert look_label("counterattack") in first.summary.ran
    out = project.output_dir
    before = {p.name: p.read_bytes() for p in (out / "counterattack" / "look").iterdir()}
    assert set(before) == {"port-front.png", "port-back.png", "exposed-port-front.png", "exposed-port-back.png",
                           "main-front.png", "main-back.png"}
    page_before = (out / "look.html").read_text(encoding="utf-8")
    assert build(project, ["counterattack"], OPTIONS).summary.ran == []  # nothing changed: nothing redrawn

    layout = project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    data = yaml.safe_load(layout.read_text(encoding="utf-8"))
    data["elements"].append({"name": "look-test", "type": "circle", "x": 10, "y": 10, "r": 4, "fill": "#d0021b"})
    layout.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    again = build(project, ["counterattack"], OPTIONS)
    assert look_label("counterattack") in again.summary.ran
    after = {p.name: p.read_bytes() for p in (out / "counterattack" / "look").iterdir()}
    assert after["port-front.png"] != before["port-front.png"]
    assert {n: d for n, d in after.items() if n != "port-front.png"} == {
        n: d for n, d in before.items() if n != "port-front.png"}  # only the edited face changed
    page_after = (out / "look.html").read_text(encoding="utf-8")
    digest = hashlib.sha256(after["port-front.png"]).hexdigest()[:12]
    assert f"counterattack/look/port-front.png?v={digest}" in page_after and page_after != page_before

    incremental = snapshot(out)
    clean_copy = tmp_path / "clean"
    for folder in ("data", "templates"):
        shutil.copytree(project.root / folder, clean_copy / folder)
    build(Project.at(clean_copy), ["counterattack"], OPTIONS, clean=True)
    assert snapshot(clean_copy / "output") == incremental  # byte for byte


@pytest.mark.slow
def test_a_data_edit_redraws_the_look_only_when_a_shown_face_reads_it(fresh_project: Project) -> None:
    project = fresh_project
    build(project, ["counterattack"], OPTIONS)
    cards = project.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "name: Nassau,", "name: Nassau Harbour,")  # not the port card the page shows (Port Royal)
    assert look_label("counterattack") not in build(project, ["counterattack"], OPTIONS).summary.ran
    edit(cards, "name: Port Royal,", "name: Port Royale,")  # the one it shows
    again = build(project, ["counterattack"], OPTIONS)
    assert look_label("counterattack") in again.summary.ran
    assert "Port Royale" in (project.output_dir / "look.html").read_text(encoding="utf-8")


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.parts}


@pytest.mark.slow
def test_a_no_gallery_build_keeps_look_images_that_still_match(fresh_project: Project) -> None:
    """`--no-gallery` draws no look images and leaves the last ones; the gallery entry keeps them while they
    match the data, so the next gallery build's look page shows them without drawing them again."""
    project = fresh_project
    build(project, ["counterattack"], OPTIONS)
    no_gallery = BuildOptions(papers=("a4",), exports=("sheets",))
    build(project, ["counterattack"], no_gallery)
    assert (project.output_dir / "counterattack" / "look" / "port-front.png").is_file()
    again = build(project, ["counterattack"], OPTIONS)
    assert look_label("counterattack") not in again.summary.ran
    assert "counterattack/look/port-front.png?v=" in (project.output_dir / "look.html").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_in_a_browser_every_design_is_its_trim_size_in_css_millimetres(fresh_project: Project) -> None:
    build(fresh_project, ["counterattack"], OPTIONS)
    page_path = fresh_project.output_dir / "look.html"
    with Page(page_path.as_uri()) as page:
        page.wait_for("document.readyState === 'complete' && document.querySelector('article.design img') !== null"
                      " && [...document.images].every(i => i.complete)", what="the look page's images")
        shown = page.evaluate("""[...document.querySelectorAll('article.design img')].map(img => {
            const box = img.getBoundingClientRect(), design = img.closest('article').dataset;
            return [img.naturalWidth, box.width, box.height, +design.widthMm, +design.heightMm,
                    img.closest('a').tabIndex];
        })""")
    assert len(shown) == 6
    for natural, width, height, width_mm, height_mm, tab_index in shown:
        assert natural > 0  # loaded
        assert width == pytest.approx(width_mm * 96 / 25.4, abs=0.5)  # CSS: 96 px to the inch
        assert height == pytest.approx(height_mm * 96 / 25.4, abs=0.5)
        assert tab_index == 0  # reached with Tab


@pytest.mark.slow
def test_the_page_names_every_printed_document_once(fresh_project: Project) -> None:
    """Rulebooks and sheets are pages, not faces: the look page names them once each (not once per paper, nor
    again for the booklet or the fillable copy), so a game whose sheets are no component still lists them."""
    build(fresh_project, ["counterattack"], BuildOptions(papers=("a4", "letter"), exports=("sheets", "preview"),
                                                         booklet=True))
    look = (fresh_project.output_dir / "look.html").read_text(encoding="utf-8")
    (listed,) = re.findall(r'<p class="documents">.*?</a>\):\s*(.*?)\.</p>', look, re.S)
    assert listed == "rulebook, campaign log"
