"""Icons are SVG files in the project: read through the read gate, overridden per game, drawn from the file's
paths in the layout's colour, and every edit of one rebuilds what shows it; bad ones fail in one line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.build.options import BuildOptions
from generator.build.session import build
from generator.errors import DataError
from generator.load import load_game
from generator.project import Project
from generator.render.faces.fit import printable_sides
from generator.render.faces.icons import icon_set
from generator.render.faces.renderer import FaceRenderer
from generator.starter import STARTER
from tests.helpers import REPO, copy_sources, edit, run_pnp
from tests.render.test_layouts import BASE, write_layout

GAMES = ("counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire")
SQUARE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="-50 -50 100 100">'
          '<path fill="currentColor" d="M -40 -40 H 40 V 40 H -40 Z"/></svg>\n')
HALF = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'  # another view box: scaled to the 100 box
        '<path fill="#123456" d="M 0 256 H 512 V 512 H 0 Z"/></svg>\n')


def port_face(project: Project, layout: str) -> tuple:
    write_layout(project, "counterattack/port", BASE + layout)
    game = load_game(project, "counterattack")
    component = game.component("port")
    return FaceRenderer(project).face(game, component, component.items[0], "front").elements


def test_an_icon_is_its_svg_file_drawn_in_the_layout_colour(fresh_project: Project) -> None:
    (fresh_project.templates_dir / "icons" / "flag.svg").write_text(SQUARE)
    (icon,) = [e for e in port_face(fresh_project, "  - {name: f, type: icon, icon: flag, x: 30, y: 30, size: 10}\n")
               if e.type == "icon"]
    flag = icon.get("icon")
    assert (flag.name, flag.source) == ("flag", "templates/icons/flag.svg")
    assert flag.extent()[:4] == pytest.approx((-40, -40, 40, 40), abs=1e-3)  # the file's square, y up
    assert not re.search(r"\b(rg|RG|k|K|g|G)\b", flag.operators())  # no colour of its own: the layout's


def test_any_view_box_is_fitted_to_the_icon_box_and_any_colour_is_the_layout_s(fresh_project: Project) -> None:
    (fresh_project.templates_dir / "icons" / "half.svg").write_text(HALF)
    half = icon_set(fresh_project, "counterattack").icon("half", None)
    assert half.extent()[:4] == pytest.approx((-50, -50, 50, 0), abs=1e-3)  # the lower half of a 512 box
    assert not re.search(r"\b(rg|RG|k|K|g|G)\b", half.operators())  # its own #123456 is left out


def test_a_current_colour_stroke_is_drawn_without_a_color_attribute(fresh_project: Project) -> None:
    (fresh_project.templates_dir / "icons" / "line.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-50 -50 100 100"><path fill="none" '
        'stroke="currentColor" stroke-width="10" stroke-linecap="round" d="M -30 0 L 30 0"/></svg>')
    line = icon_set(fresh_project, "counterattack").icon("line", None)
    assert "S" in line.operators().split()
    assert line.extent()[:4] == pytest.approx((-35, -5, 35, 5), abs=1e-3)  # widened by half the stroke


def test_a_game_s_own_icons_win_by_name_and_add_names(fresh_project: Project) -> None:
    own = fresh_project.templates_dir / "layouts" / "counterattack" / "icons"
    own.mkdir()
    (own / "flag.svg").write_text(SQUARE)
    (own / "kraken.svg").write_text(SQUARE)
    elements = port_face(fresh_project, "  - {name: f, type: icon, icon: flag, x: 30, y: 30, size: 10}\n"
                                        "  - {name: t, type: textbox, x: 5, y: 50, w: 50, h: 20, text: 'a :kraken:'}\n")
    by_name = {e.name: e for e in elements}
    assert by_name["f"].get("icon").source == "templates/layouts/counterattack/icons/flag.svg"
    (kraken,) = by_name["t"].get("inline_icons")
    assert kraken.source == "templates/layouts/counterattack/icons/kraken.svg"
    shared = icon_set(fresh_project, "another-game")
    assert "kraken" not in shared and shared.icon("flag", None).source == "templates/icons/flag.svg"


def test_an_unknown_icon_is_one_line_at_the_layout_with_the_nearest_name(fresh_project: Project) -> None:
    with pytest.raises(DataError) as caught:
        port_face(fresh_project, "  - {name: f, type: icon, icon: flagg, x: 30, y: 30, size: 10}\n")
    assert str(caught.value) == ("templates/layouts/counterattack/port.yaml:5: element 'f' icon 'flagg' is unknown; "
                                 "did you mean 'flag'?")
    shutil.rmtree(fresh_project.templates_dir / "icons")
    with pytest.raises(DataError) as caught:
        port_face(fresh_project, "  - {name: f, type: icon, icon: flag, x: 30, y: 30, size: 10}\n")
    assert "icon 'flag' is unknown (an icon is an SVG file in templates/icons/ or " in str(caught.value)
    assert "this project has none: copy the shipped set" in str(caught.value)  # a project older than icon files


@pytest.mark.parametrize("name, text, words", [
    ("bad.svg", "<svg xmlns='http://www.w3.org/2000/svg'><script>x</script></svg>", "contains a script"),
    ("bad.svg", "<svg", "is not well-formed XML"),
    ("bad.svg", "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 9 9'><image href='data:image/png;base64,"
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='"
                " width='9' height='9'/></svg>", "is not plain one-colour paths"),
    ("Sea Serpent.svg", SQUARE, "cannot be named in text"),
])
def test_a_bad_icon_file_is_one_line_naming_it(fresh_project: Project, capsys: pytest.CaptureFixture[str],
                                               name: str, text: str, words: str) -> None:
    (fresh_project.templates_dir / "icons" / name).write_text(text)
    code, out, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--paper", "a4")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"pnp: templates/icons/{name}") and words in err, err
    assert not fresh_project.output_dir.exists() or not any(fresh_project.output_dir.rglob("*.pdf"))


def test_the_starter_project_gets_the_shipped_icon_set() -> None:
    """`pnp init` writes templates/icons/ from the starter: the same files as the games here (one set, kept in step)."""
    starter = STARTER / "project" / "templates" / "icons"
    shipped = REPO / "templates" / "icons"
    assert sorted(p.name for p in starter.glob("*.svg")) == sorted(p.name for p in shipped.glob("*.svg"))
    for path in shipped.glob("*.svg"):
        assert (starter / path.name).read_bytes() == path.read_bytes(), path.name


def test_every_icon_named_in_the_four_games_templates_has_a_file() -> None:
    """Every literal `icon: name` and inline `:name:` in the shipped layouts, rulebooks and sheets is an SVG file."""
    shared = {p.stem for p in (REPO / "templates" / "icons").glob("*.svg")}
    named: set[tuple[str, str]] = set()
    for game in GAMES:
        own = {p.stem for p in (REPO / "templates" / "layouts" / game / "icons").glob("*.svg")}
        files = [*(REPO / "templates" / "layouts" / game).glob("*.yaml"),
                 *(REPO / "templates" / "sheets" / game).glob("*"),
                 REPO / "templates" / "rulebooks" / f"{game}.md.j2"]
        for path in files:
            text = path.read_text(encoding="utf-8")
            found = set(re.findall(r"\bicon: *['\"]?([a-z][a-z0-9_-]*)\b", text))
            found |= set(re.findall(r"(?<![\w:]):([a-z][a-z0-9_-]*)(?:#[0-9a-fA-F]{3,6})?:(?!\w)", text))
            named |= {(path.name, name) for name in found - shared - own}
    assert named == set()


@pytest.mark.slow
def test_every_icon_the_four_games_draw_comes_from_a_file(project: Project) -> None:
    drawn: set[str] = set()
    for game_id in GAMES:
        for side in printable_sides(load_game(project, game_id), project):
            assert side.error is None, side.error
            for _item, face in side.faces:
                for element in face.elements:
                    icons = [element.get("icon")] if element.type in ("icon", "pips") else []
                    icons += list(element.get("inline_icons") or ())
                    drawn |= {icon.source for icon in icons}
    assert len(drawn) >= 10
    assert all((project.root / source).is_file() and source.endswith(".svg") for source in drawn)


def _outputs(project: Project) -> dict[str, bytes]:
    out = project.output_dir
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".cache" not in p.parts and p.suffix in (".pdf", ".png")}


@pytest.mark.slow
def test_editing_an_icon_rebuilds_what_shows_it_and_equals_a_clean_build(tmp_path: Path) -> None:
    project = copy_sources(tmp_path / "a")
    rulebook = project.templates_dir / "rulebooks" / "counterattack.md.j2"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "\nEach port flies its :flag: flag.\n", encoding="utf-8")
    options = BuildOptions(papers=("a4",))
    build(project, ["counterattack"], options)
    before = _outputs(project)
    edit(project.templates_dir / "icons" / "flag.svg", "M -40 48 L -34 48", "M -40 30 L -34 30")  # a shorter pole
    again = build(project, ["counterattack"], options)
    after = _outputs(project)
    changed = {name for name in after if after[name] != before.get(name)}
    assert "counterattack-port-a4-duplex-long.pdf" in {Path(name).name for name in changed}  # the port shows a flag
    assert "counterattack-rules-a4.pdf" in {Path(name).name for name in changed}  # and so does the rulebook now
    assert {"counterattack port a4", "counterattack rules a4"} <= set(again.summary.ran)

    clean = Project.at(tmp_path / "b")
    for folder in ("data", "templates"):
        shutil.copytree(project.root / folder, clean.root / folder)
    build(clean, ["counterattack"], options)
    assert _outputs(clean) == after  # incremental equals clean, byte for byte


def test_under_fire_draws_gold_as_its_own_coin_not_a_star(project: Project) -> None:
    """Review finding: Under Fire's text said gold with the shared coin, whose star read as a victory point.
    The game's own coin (a rimmed coin with the board's diamond) wins by name, and the gold tokens carry
    the same diamond; neither draws the star that means victory points."""
    game = load_game(project, "pirates-under-fire")
    icons = icon_set(project, game.id)
    gold = icons.icon(game.theme["board"]["icons"]["gold"], None)
    assert gold.source == "templates/layouts/pirates-under-fire/icons/coin.svg"
    vp = icons.icon(game.theme["board"]["icons"]["vp"], None)
    assert gold.sha256 not in (vp.sha256, icon_set(project, "counterattack").icon("coin", None).sha256)
    marks = {e.get("icon").name for side in printable_sides(game, project) if side.component.id == "gold"
             for _, face in side.faces for e in face.elements if e.type == "icon"}
    assert marks == {"diamond"}
