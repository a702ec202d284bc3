"""The build session: keys from what jobs read, typed results, removed components, registries, edits mid-build."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image

from generator.build.options import BuildOptions, options_key
from generator.build.session import BuildSession, build
from generator.errors import DataError, Refused
from generator.project import Project
from generator.render.base.units import PAPERS, paper_names
from generator.render.exports.registry import EXPORTERS, Exporter
from tests.helpers import copy_sources, edit

OPTIONS = BuildOptions(papers=("a4",), exports=("sheets", "preview"))


@pytest.fixture(scope="module")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Counterattack built once (a4 sheets, previews, documents); tests copy the whole tree."""
    root = tmp_path_factory.mktemp("built")
    build(copy_sources(root), ["counterattack"], OPTIONS)
    return root


@pytest.fixture
def built(built_once: Path, tmp_path: Path) -> Project:
    shutil.copytree(built_once, tmp_path / "p", symlinks=True)
    return Project.at(tmp_path / "p")


def outputs(project: Project) -> dict[str, bytes]:
    out = project.output_dir
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".cache" not in p.parts}


def test_the_options_key_covers_every_field_even_one_added_later() -> None:
    assert options_key(BuildOptions()) == options_key(BuildOptions(jobs=8, only=("port",)))  # how, not what
    assert options_key(BuildOptions()) != options_key(BuildOptions(bleed=2.0))
    Extended = dataclasses.make_dataclass("BuildOptions", [("finish", str, dataclasses.field(default="matte"))],
                                          bases=(BuildOptions,), frozen=True)
    assert options_key(Extended()) != options_key(Extended(finish="gloss"))


def test_exporters_receive_only_their_settings_and_presets_are_data() -> None:
    options = BuildOptions(bleed=2.0, duplex="short")
    assert dataclasses.asdict(EXPORTERS["png"].settings_for(options)) == {"bleed": 2.0, "dpi": 300, "guides": False,
                                                                          "ink_saver": False, "colour": "rgb"}
    sheet = EXPORTERS["sheets"].settings_for(options, PAPERS["letter"])
    assert (sheet.paper.name, sheet.duplex, sheet.bleed) == ("letter", "short", 2.0)
    preset = Exporter.preset("mpc", "png", folder="mpc", fixed={"bleed": 3.175})
    assert preset.settings_for(options).bleed == 3.175 and preset.folder == "mpc"
    with pytest.raises(DataError, match="no setting 'gloss'"):
        Exporter.preset("x", "png", folder="x", fixed={"gloss": True})


def test_paper_choices_come_from_the_registry() -> None:
    assert paper_names("all") == paper_names("both") == tuple(PAPERS)
    assert PAPERS["letter"].size_pt == (612.0, 792.0)


@pytest.mark.slow
def test_a_field_no_document_shows_leaves_the_rulebook_alone_a_shown_one_rebuilds_it(built: Project) -> None:
    cards = built.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "      name: str\n      art: {type: str, doc: \"the port's illustration: templates/art/<game>/<art>.svg\"}\n"
                "      tricks:", "      name: str\n      flavour: {type: str, default: ''}\n      art: {type: str, doc: "
                "\"the port's illustration: templates/art/<game>/<art>.svg\"}\n      tricks:")
    build(built, ["counterattack"], OPTIONS)  # a new field in the schema: everything may show it
    edit(cards, "{id: nassau,          art: nassau,", "{id: nassau, flavour: salty, art: nassau,")
    unshown = build(built, ["counterattack"], OPTIONS)
    assert sorted(unshown.summary.ran) == ["counterattack port a4", "counterattack port preview"]
    edit(cards, "name: Nassau,", "name: Nassau Bay,")
    shown = build(built, ["counterattack"], OPTIONS)
    assert "counterattack rules a4" in shown.summary.ran
    assert "counterattack campaign-log a4" not in shown.summary.ran  # the log shows no port's name


def art_layout(project: Project) -> Path:
    """Give the port cards a picture (templates/art/ship.png) and return the image's path."""
    art = project.templates_dir / "art"
    art.mkdir(exist_ok=True)
    Image.new("RGB", (96, 96), (10, 60, 120)).save(art / "ship.png")  # 305 dpi at 8 mm: validation passes
    layout = project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    ship = "  - {name: ship, type: image, path: art/ship.png, x: 5, y: 5, w: 8, h: 8}\n"
    layout.write_text(layout.read_text() + ship)
    return art / "ship.png"


@pytest.mark.slow
def test_replacing_an_image_redraws_every_face_that_uses_it_and_only_those(built: Project) -> None:
    ship = art_layout(built)
    build(built, ["counterattack"], OPTIONS)
    before = outputs(built)
    Image.new("RGB", (96, 96), (200, 20, 20)).save(ship)
    again = build(built, ["counterattack"], OPTIONS)
    # the port jobs, the rulebook, which pictures the port cards, and the look page's images, which show one;
    # not the crew or the campaign log
    assert sorted(again.summary.ran) == ["counterattack look", "counterattack port a4", "counterattack port preview",
                                         "counterattack rules a4"]
    # every port face's preview, and the look page's port front: the raster cache key covers the image bytes
    assert again.faces_drawn == 6 + 1
    after = outputs(built)
    changed = {name for name in after if after[name] != before[name]}
    assert "counterattack/preview/port-nassau.png" in changed and "counterattack/counterattack-port-a4-duplex-long.pdf" in changed
    assert not any("main" in name or "exposed" in name or "campaign" in name for name in changed)


@pytest.mark.slow
@pytest.mark.parametrize("content, words", [
    (b"this is not a picture", "is not a readable PNG, JPEG or GIF image"),
    (None, "more than 50 megapixels"),
    ("bomb", "more than 50 megapixels"),
])
def test_a_bad_image_is_one_line_at_the_layout(built: Project, content: bytes | str | None, words: str) -> None:
    ship = art_layout(built)
    if content is None:  # a small file with 64 megapixels
        Image.new("1", (8000, 8000)).save(ship, optimize=True)
    elif content == "bomb":  # past Pillow's own decompression-bomb limit (89 megapixels)
        Image.new("1", (10000, 10000)).save(ship, optimize=True)
    else:
        ship.write_bytes(content)
    with pytest.raises(DataError) as caught:
        build(built, ["counterattack"], OPTIONS, force=True)
    assert words in str(caught.value)
    assert str(caught.value.location).startswith("templates/layouts/counterattack/port.yaml:")


FLAG = """
  - id: flag
    kind: token
    name: flag
    size: poker
    front: counterattack/port
    fields:
      name: str
      art: str
      tricks: {type: int, min: 0, max: 10}
    items:
      - {id: jolly, art: tortuga, name: Jolly Roger, tricks: 1}
"""


@pytest.mark.slow
def test_a_removed_component_takes_its_files_and_gallery_entries_with_it(built: Project) -> None:
    cards = built.data_dir / "counterattack" / "cards.yaml"
    original = cards.read_text()
    cards.write_text(original + FLAG)
    build(built, ["counterattack"], OPTIONS, force=True)
    folder = built.output_dir / "counterattack"
    assert (folder / "counterattack-flag-a4-single-sided.pdf").is_file() and (folder / "preview" / "flag-jolly.png").is_file()
    assert "flag-jolly.png" in (built.output_dir / "index.html").read_text()
    cards.write_text(original)
    result = build(built, ["counterattack"], OPTIONS, force=True)
    assert not (folder / "counterattack-flag-a4-single-sided.pdf").exists()
    assert not list((folder / "preview").glob("flag-*"))
    assert {p.name for p in result.summary.removed} == {"counterattack-flag-a4-single-sided.pdf", "flag-jolly.png",
                                                        "flag-front.png"}  # (the look page's image of it)
    html = (built.output_dir / "index.html").read_text()
    assert "flag-jolly" not in html and "counterattack-flag-a4-single-sided.pdf" not in html


@pytest.mark.slow
def test_a_deleted_game_takes_its_files_with_it_in_a_whole_project_build(built: Project) -> None:
    for other in ("all-hands-on-deck", "pirate-tricks"):
        shutil.rmtree(built.data_dir / other)  # a two-game project, so the whole-project builds stay quick
    made = sorted(p.relative_to(built.output_dir).as_posix() for p in (built.output_dir / "counterattack").rglob("*")
                  if p.is_file())
    shutil.rmtree(built.data_dir / "counterattack")
    build(built, ["pirates-under-fire"], OPTIONS)  # naming games leaves the others' files alone
    assert (built.output_dir / "counterattack").is_dir()
    result = build(built, [], OPTIONS)
    assert not (built.output_dir / "counterattack").exists()
    assert sorted(p.relative_to(built.output_dir).as_posix() for p in result.summary.removed) == made
    assert 'id="counterattack"' not in (built.output_dir / "index.html").read_text()
    again = build(built, [], OPTIONS)
    assert not again.summary.removed and not again.summary.written  # forgotten, and nothing else redone


@pytest.mark.slow
def test_building_one_game_keeps_the_others_in_the_gallery(built: Project) -> None:
    build(built, ["pirates-under-fire"], OPTIONS)
    html = (built.output_dir / "index.html").read_text()
    assert 'id="counterattack"' in html and 'id="pirates-under-fire"' in html
    build(built, ["counterattack"], OPTIONS)
    assert 'id="pirates-under-fire"' in (built.output_dir / "index.html").read_text()


@pytest.mark.slow
def test_an_edit_saved_during_a_build_is_built_by_the_next_one(built: Project) -> None:
    cards = built.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "name: Tortuga,", "name: Tortuga Reef,")
    saved = []

    def save_mid_build(job: object) -> None:
        if not saved:  # after the first job: the game was loaded with "Tortuga Reef" already
            edit(cards, "name: Tortuga Reef,", "name: Tortuga Bay,")
            saved.append(True)

    with BuildSession(built, between_jobs=save_mid_build) as session:
        during = session.build(["counterattack"], OPTIONS)
    assert "data/counterattack/cards.yaml" in during.changed_during_build
    after = build(built, ["counterattack"], OPTIONS)
    assert after.loaded == ["counterattack"] and after.validated == ["counterattack"]
    assert "counterattack port a4" in after.summary.ran
    clean = outputs(built)
    build(built, ["counterattack"], OPTIONS, clean=True)
    assert outputs(built) == clean


@pytest.mark.slow
def test_nothing_outside_the_project_is_read(built: Project, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    rulebook = built.templates_dir / "rulebooks" / "counterattack.md.j2"
    (outside / "rules.md.j2").write_text(rulebook.read_text())
    rulebook.unlink()
    rulebook.symlink_to(outside / "rules.md.j2")
    with pytest.raises(DataError, match="leads outside the project"):
        build(built, ["counterattack"], OPTIONS)


def test_a_game_folder_linked_out_of_data_is_refused(built: Project, tmp_path: Path) -> None:
    shutil.move(built.data_dir / "counterattack", tmp_path / "elsewhere")  # a game whose engine exists
    (built.data_dir / "counterattack").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(DataError, match=r"data/counterattack/game\.yaml leads outside the project"):
        build(built, ["counterattack"], OPTIONS)


def test_a_site_template_include_reaching_a_link_is_refused_at_its_line(built: Project, tmp_path: Path) -> None:
    site = built.templates_dir / "site"
    site.mkdir()
    (tmp_path / "secret.html").write_text("secret")
    (site / "extra.html").symlink_to(tmp_path / "secret.html")
    (site / "index.html.j2").write_text("<html>\n{% include 'site/extra.html' %}\n</html>\n")
    with pytest.raises(DataError) as caught:
        build(built, ["counterattack"], OPTIONS)
    assert "links out" in str(caught.value) and "secret" not in str(caught.value)
    assert str(caught.value.location) == "templates/site/index.html.j2:2"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_fifo_named_yaml_does_not_hang_validate(built: Project) -> None:
    import subprocess
    import sys

    os.mkfifo(built.data_dir / "counterattack" / "more.yaml")
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(built.root), "validate", "counterattack"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "data/counterattack/more.yaml is not a regular file (a named pipe)" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_build_refused_for_validation_exits_1_like_validate(built: Project) -> None:
    layout = built.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text(layout.read_text().replace("max_width: 46", "max_width: 4"))
    with pytest.raises(Refused):
        build(built, ["counterattack"], OPTIONS)
    assert Refused("x").exit_code == 1


def test_a_cli_command_that_fails_to_import_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from generator import cli

    monkeypatch.setitem(cli.COMMANDS, "broken", "no_such_module")
    result = CliRunner().invoke(cli.cli, ["--help"])
    assert isinstance(result.exception, ModuleNotFoundError)


def test_a_session_compiles_the_gallery_template_again_when_the_project_adds_or_edits_its_own(built: Project) -> None:
    index = built.output_dir / "index.html"
    site = built.templates_dir / "site" / "index.html.j2"
    with BuildSession(built) as session:
        session.build(["counterattack"], OPTIONS)
        shipped = index.read_text()
        site.parent.mkdir()
        site.write_text("<p>ours: {{ games | length }}</p>\n")
        session.build(["counterattack"], OPTIONS)
        assert index.read_text() == "<p>ours: 1</p>"
        edit(site, "ours", "edited")
        session.build(["counterattack"], OPTIONS)
        assert index.read_text() == "<p>edited: 1</p>"
        site.unlink()
        session.build(["counterattack"], OPTIONS)
        assert index.read_text() == shipped
