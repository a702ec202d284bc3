"""Print-service presets: the registry as data, and every preset's files read back (sizes, dpi, pages, counts)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from render_pdf import MM

from generator.errors import DataError
from generator.load import load_game
from generator.project import Project
from generator.render.exports.presets import PRESETS_FILE, load_presets, nothing_written, registry
from generator.render.exports.raster import Workers
from generator.render.exports.service import export_preset
from generator.render.faces.renderer import renderer
from tests.helpers import REPO, run_pnp

SHIPPED = PRESETS_FILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def real() -> Project:
    return Project.at(REPO)


@pytest.fixture(scope="module")
def all_hands(real):
    return load_game(real, "all-hands-on-deck")


def export(project, game, component_id: str, preset) -> dict[str, bytes]:
    with Workers(1) as workers:
        files = export_preset(renderer(project), game, game.component(component_id), preset, workers)
    return {f.name: f.data for f in files}


def rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode())))


@pytest.fixture(scope="module")
def tgc_pirates(real, all_hands) -> dict[str, bytes]:
    return export(real, all_hands, "pirate", registry()["tgc"])


def test_registry_holds_every_service_with_its_source() -> None:
    presets = registry()
    assert {"tgc", "mpc", "drivethrucards", "printplaygames", "home-a4", "home-letter"} <= set(presets)
    assert all(p.source and p.service for p in presets.values())
    assert presets["drivethrucards"].page_order == ("back", "front")
    assert presets["drivethrucards"].ink_limit == 240 and presets["drivethrucards"].colour == "cmyk"
    assert (presets["home-a4"].paper, presets["home-letter"].paper) == ("a4", "letter")


@pytest.mark.slow
def test_tgc_writes_one_825_by_1125_png_per_unique_face_at_300_dpi(tgc_pirates, all_hands) -> None:
    pngs = sorted(name for name in tgc_pirates if name.endswith(".png"))
    pirate = all_hands.component("pirate")
    assert len(pngs) == len(pirate.items) + 1  # 27 designs and the one shared back
    assert pngs[0] == "pirate-000-back.png" and pngs[1].startswith("pirate-001-")
    for name in pngs[:3]:
        image = Image.open(io.BytesIO(tgc_pirates[name]))
        assert image.size == (825, 1125) and image.mode == "RGB"
        assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)


@pytest.mark.slow
def test_manifest_counts_equal_the_data(tgc_pirates, all_hands) -> None:
    pirate = all_hands.component("pirate")
    table = rows(tgc_pirates["pirate-manifest.csv"])
    fronts = {row["item"]: int(row["copies"]) for row in table if row["side"] == "front"}
    assert fronts == {item.id: item.count for item in pirate.items}
    assert sum(fronts.values()) == 90
    assert [row["copies"] for row in table if row["side"] == "back"] == ["90"]
    assert [row["file"] for row in table] == sorted(row["file"] for row in table)  # listed as the service sorts
    assert set(tgc_pirates) == {row["file"] for row in table} | {"pirate-manifest.csv"}


def test_plain_png_export_also_says_300_dpi(real, all_hands) -> None:
    from generator.render.exports.raster import export_pngs

    with Workers(1) as workers:
        files = export_pngs(renderer(real), all_hands, all_hands.component("start-player"), 3.0, workers)
    png = next(f for f in files if f.name.endswith(".png"))
    assert tuple(round(v) for v in Image.open(io.BytesIO(png.data)).info["dpi"]) == (300, 300)


def test_mpc_is_822_by_1122(real, all_hands) -> None:
    files = export(real, all_hands, "curse", registry()["mpc"])
    image = Image.open(io.BytesIO(files["curse-001-curse.png"]))
    assert image.size == (822, 1122) and round(image.info["dpi"][0]) == 300
    assert {row["item"]: row["copies"] for row in rows(files["curse-manifest.csv"])}["curse"] == "9"


def test_printplaygames_writes_separate_fronts_and_backs_with_2_mm_bleed(real, all_hands) -> None:
    files = export(real, all_hands, "pirate", registry()["printplaygames"])
    fronts = PdfReader(io.BytesIO(files["all-hands-on-deck-pirate-fronts.pdf"]))
    backs = PdfReader(io.BytesIO(files["all-hands-on-deck-pirate-backs.pdf"]))
    assert len(fronts.pages) == 27 and len(backs.pages) == 1  # one shared back
    for page in (fronts.pages[0], backs.pages[0]):
        assert abs(float(page.trimbox.width) / MM - 63) < 0.01 and abs(float(page.trimbox.height) / MM - 88) < 0.01
        assert abs(float(page.bleedbox.width) / MM - 67) < 0.01 and abs(float(page.mediabox.height) / MM - 92) < 0.01
    table = rows(files["pirate-manifest.csv"])
    assert sum(int(r["copies"]) for r in table if r["side"] == "front") == 90


def test_home_presets_impose_every_copy_on_their_paper(real, all_hands) -> None:
    for name, width_pt in (("home-a4", 210 * MM), ("home-letter", 612.0)):
        files = export(real, all_hands, "curse", registry()[name])
        pdf = PdfReader(io.BytesIO(files[f"all-hands-on-deck-curse-{name[5:]}.pdf"]))
        assert abs(float(pdf.pages[0].mediabox.width) - width_pt) < 0.1
        assert rows(files["curse-manifest.csv"]) == [{"file": f"all-hands-on-deck-curse-{name[5:]}.pdf",
                                                      "item": "curse", "copies": "9"}]


def test_a_home_preset_names_a_component_without_backs_single_sided(real) -> None:
    """The folder prints duplex: a file of fronts only must say so, or its second page lands on the first's back."""
    tricks = load_game(real, "pirate-tricks")
    files = export(real, tricks, "bid", registry()["home-a4"])
    pdf = PdfReader(io.BytesIO(files["pirate-tricks-bid-a4-single-sided.pdf"]))
    assert len(pdf.pages) == 2  # two pages of fronts, no back pages between them
    assert rows(files["bid-manifest.csv"])[0]["file"] == "pirate-tricks-bid-a4-single-sided.pdf"


def test_a_component_the_service_does_not_take_is_skipped_with_a_reason(real) -> None:
    tricks = load_game(real, "pirate-tricks")
    fire = load_game(real, "pirates-under-fire")
    tgc = registry()["tgc"]
    assert "sheets are not printed" in (tgc.skip_reason(tricks.component("screen")) or "")
    reason = tgc.skip_reason(fire.component("ship")) or ""
    assert reason.startswith("tile 34×34 mm: no size The Game Crafter sells is within 1 mm of it (the rect tile "
                             "sizes it sells: small-square-chit 12.7×12.7, ")
    assert "\n" not in reason
    assert export(real, fire, "ship", tgc) == {}


def test_tokens_go_to_the_chit_within_a_millimetre(real) -> None:
    fire = load_game(real, "pirates-under-fire")
    tgc = registry()["tgc"]
    fits = {c.id: tgc.fitting(c) for c in fire.components if c.kind == "token"}
    assert {key: fit.rule.name for key, fit in fits.items() if fit and fit.rule} == {
        "vp-token": "large-circle-chit", "gold": "medium-circle-chit"}
    files = export(real, fire, "gold", tgc)
    image = Image.open(io.BytesIO(files["gold-001-gold-1.png"]))
    assert image.size == (300, 300)  # TGC's Medium Circle Chit file: 3/4 in and 1/8 in bleed a side


def test_a_landscape_card_is_a_tarot_card_turned_at_every_card_service(real) -> None:
    """Pirate Tricks' 120 x 70 mm bids were skipped by every service: they are tarot cards on their side."""
    tricks = load_game(real, "pirate-tricks")
    bid = tricks.component("bid")
    for name in ("tgc", "mpc", "drivethrucards"):
        fit = registry()[name].fitting(bid)
        assert fit is not None and fit.rule is not None, name
        assert (fit.rule.name, fit.turned) == ("tarot", True)
    files = export(real, tricks, "bid", registry()["tgc"])
    image = Image.open(io.BytesIO(files["bid-001-bid-card.png"]))
    assert image.size == (900, 1500)  # TGC's upright tarot template, the bid drawn a quarter turn on it
    pixels = image.convert("L")
    # the bid's long side runs up the page: its frame spans the height, not the width
    dark_rows = [y for y in range(image.height) if pixels.crop((0, y, image.width, y + 1)).getextrema()[0] < 80]
    assert dark_rows[-1] - dark_rows[0] > 0.75 * image.height
    assert rows(files["bid-manifest.csv"]) == [{"file": "bid-001-bid-card.png", "item": "bid-card",
                                                "side": "front", "copies": "5"}]


def test_every_size_a_service_sells_names_its_source() -> None:
    for preset in registry().values():
        for rule in preset.sizes:
            assert rule.source.startswith("https://") and rule.says, (preset.name, rule.name)
            assert rule.trim_mm is not None
    tgc = {rule.name for rule in registry()["tgc"].sizes}
    assert {"poker", "bridge", "mini", "tarot", "square", "jumbo"} <= tgc


GAMES = ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tgc", "mpc", "drivethrucards", "printplaygames", "home-a4"])
def test_each_preset_writes_every_component_it_can_print_or_names_why_not(real, name) -> None:
    """Every component of the four games: files whose manifest holds its every copy, or one line saying why not."""
    chosen = registry()[name]
    with Workers(1) as workers:
        for game_id in GAMES:
            game = load_game(real, game_id)
            written = 0
            for component in game.components:
                reason = chosen.skip_reason(component)
                if reason is not None:
                    assert "\n" not in reason and component.id not in reason
                    continue
                files = {f.name: f.data for f in export_preset(renderer(real), game, component, chosen, workers)}
                table = rows(files.pop(f"{component.id}-manifest.csv"))
                assert files and {row["file"] for row in table} == set(files), (game_id, component.id)
                copies = sum(int(row["copies"]) for row in table if row.get("side", "front") == "front")
                assert copies == component.count, (game_id, component.id)
                written += 1
            empty = nothing_written(chosen, game_id, game.components)
            assert (empty is None) == (written > 0), (game_id, empty)


@pytest.mark.slow
def test_a_game_no_size_fits_is_named_in_one_line() -> None:
    from generator.project import Project as P

    fire = load_game(P.at(REPO), "pirates-under-fire")
    line = nothing_written(registry()["drivethrucards"], fire.id, fire.components)
    assert line == ("--preset drivethrucards writes nothing for pirates-under-fire: none of its 5 components "
                    "(board, tile, token) fits what DriveThruCards prints (the warnings name each)")
    assert nothing_written(registry()["printplaygames"], fire.id, fire.components) is None


NEW_SERVICE = """
presets:
  squarecut:
    service: Square Cut Printing
    source: https://example.org/spec
    writes: png
    dpi: 150
    kinds: [card]
    sizes: {}
    bleed_mm: 2
    copies: unique
    naming: "{game}_{component}_{index:02}{side}"
    manifest: json
"""


def test_a_new_service_is_one_yaml_entry(real, all_hands) -> None:
    presets = load_presets(SHIPPED.replace("presets:\n", NEW_SERVICE.strip() + "\n", 1), "copy/presets.yaml")
    squarecut = presets["squarecut"]
    assert "tgc" in presets
    files = export(real, all_hands, "curse", squarecut)
    image = Image.open(io.BytesIO(files["all-hands-on-deck_curse_01.png"]))
    assert image.size == (round(67 / 25.4 * 150), round(92 / 25.4 * 150))
    assert round(image.info["dpi"][0]) == 150
    assert '"copies": 9' in files["curse-manifest.json"].decode()


NAMING = "naming: \"{component}-{index:03}-{item}{side}\""


@pytest.mark.slow
@pytest.mark.parametrize(("change", "message"), [
    (("writes: png", "writes: jpeg"), "presets.yaml:36: preset 'tgc' 'writes' must be one of png"),
    ((NAMING, "naming: \"{item.__class__}\""),
     "presets.yaml:197: preset 'tgc': naming placeholder {item.__class__} is not allowed"),
    ((NAMING, "naming: \"../{item}\""), "presets.yaml:197: preset 'tgc': naming '../{item}' must be a plain file name"),
    ((NAMING, "naming: \"{component}-{index:03}\""),
     "presets.yaml:197: preset 'tgc': naming '{component}-{index:03}' needs {side}, or two files"),
    ((NAMING, "naming: \"{index:03}-{item}{side}\""),
     "presets.yaml:197: preset 'tgc': naming '{index:03}-{item}{side}' needs {component}"),
    ((NAMING, "naming: \"{component}{side}\""), "presets.yaml:197: preset 'tgc': naming '{component}{side}' needs {index} or {item}"),
    (("    fit: pad\n    bleed_mm: 3.175\n", "    fit: pad\n    bleed_mm: 3.175\n    colour_space: rgb\n"),
     "presets.yaml:196: unknown key 'colour_space' in preset 'tgc'"),
    (("writes: png\n    dpi: 300\n    colour: rgb", "writes: png\n    dpi: 300\n    colour: cmyk"),
     "presets.yaml:38: preset 'tgc': colour cmyk needs a PDF"),
    (("px: [825, 1125]", "px: [825.5, 1125]"),
     "presets.yaml:43: preset 'tgc' size 'poker' px must be [width, height] in positive whole pixels"),
    (("        px: [825, 1125]\n        source: https://github.com/andymeneely/squib/wiki/Sane-Defaults\n",
      "        px: [825, 1125]\n"), "presets.yaml:42: preset 'tgc' size 'poker' is missing 'source' (a string)"),
    (("        px: [825, 1125]\n", "        px: [825, 1125]\n        shape: hexagon\n"),
     "presets.yaml:44: preset 'tgc' size 'poker' 'shape' must be one of rect, circle"),
    (("        px: [825, 1125]\n", "        px: [825, 1125]\n        kinds: [board]\n"),
     "presets.yaml:44: preset 'tgc' size 'poker' kinds: 'board' is not one of card"),
])
def test_a_bad_preset_entry_is_one_line_at_its_file_and_line(change, message) -> None:
    old, new = change
    assert old in SHIPPED
    with pytest.raises(DataError) as error:
        load_presets(SHIPPED.replace(old, new, 1), "presets.yaml")
    assert str(error.value).startswith(message), str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.slow
def test_pnp_build_preset_writes_its_folder_and_refuses_an_unknown_name(fresh_project, monkeypatch, capsys) -> None:
    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    base = ["--root", str(fresh_project.root), "build", "--force", "--only", "port", "--paper", "a4", "--no-gallery"]
    code, _, err = run_pnp(capsys, *base, "--preset", "tgc", "--preset", "printplaygames")
    assert code == 0, err
    out = Path(fresh_project.output_dir) / "counterattack"
    assert (out / "tgc" / "port-manifest.csv").is_file()
    assert (out / "printplaygames" / "counterattack-port-fronts.pdf").is_file()
    code, _, err = run_pnp(capsys, *base, "--preset", "kinkos")
    assert code != 0 and "unknown preset 'kinkos' (presets: tgc, mpc" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("named", [["--preset", "tgc"], ["--preset", "tgc", "--preset", "tgc"]])
def test_a_preset_that_writes_nothing_for_a_game_exits_1_and_says_so(project_copy, monkeypatch, capsys,
                                                                     named) -> None:
    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    code, _, err = run_pnp(capsys, "--root", str(project_copy.root), "build", "pirate-tricks", "--force",
                           "--only", "bid-marker", "--paper", "a4", "--no-gallery", *named)
    assert code == 1, err
    warnings = [line for line in err.splitlines() if line.startswith("warning: --preset tgc")]
    assert warnings == ["warning: --preset tgc skips pirate-tricks bid-marker: token ⌀16 mm: no size The Game "
                        "Crafter sells is within 1 mm of it (the circle token sizes it sells: small-circle-chit "
                        "⌀12.7, medium-circle-chit ⌀19.05, large-circle-chit ⌀25.4, mini-circle-tile ⌀31.75)"]
    assert err.strip().splitlines()[-1] == (
        "pnp: --preset tgc writes nothing for pirate-tricks: none of its 1 component (token) fits what "
        "The Game Crafter prints (the warnings name each)")
    assert "Traceback" not in err
    assert not (project_copy.output_dir / "pirate-tricks" / "tgc").exists()


def test_a_sheet_component_is_named_too(project_copy, monkeypatch, capsys) -> None:
    """The player screen (kind sheet) is no preset's: a warning says so rather than leaving it out silently."""
    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    code, _, err = run_pnp(capsys, "--root", str(project_copy.root), "build", "pirate-tricks", "--force",
                           "--only", "screen", "--only", "go-first", "--only", "bid", "--paper", "a4", "--no-gallery",
                           "--preset", "tgc")
    assert code == 0, err
    warnings = [line for line in err.splitlines() if line.startswith("warning: --preset tgc")]
    assert [line.split(":")[1] for line in warnings] == [" --preset tgc skips pirate-tricks go-first",
                                                         " --preset tgc skips pirate-tricks screen"]
    assert warnings[1].endswith("sheets are not printed by The Game Crafter (kinds: card, tile, token); its PDF is "
                                "in the game's folder")
    assert (project_copy.output_dir / "pirate-tricks" / "tgc" / "bid-001-bid-card.png").is_file()


def test_printplaygames_backs_page_by_page_when_backs_differ(real) -> None:
    """Ships have a burning side per fleet: page N of the backs file is the back of page N of the fronts."""
    fire = load_game(real, "pirates-under-fire")
    ships = fire.component("ship")
    files = export(real, fire, "ship", registry()["printplaygames"])
    fronts = PdfReader(io.BytesIO(files["pirates-under-fire-ship-fronts.pdf"]))
    backs = PdfReader(io.BytesIO(files["pirates-under-fire-ship-backs.pdf"]))
    assert len(fronts.pages) == len(backs.pages) == len(ships.items)
    table = rows(files["ship-manifest.csv"])
    front_items = [r["item"] for r in table if r["side"] == "front"]
    assert front_items == [r["item"] for r in table if r["side"] == "back"] == [item.id for item in ships.items]
    assert [r["page"] for r in table if r["side"] == "back"] == [str(n) for n in range(1, len(ships.items) + 1)]
    assert sum(int(r["copies"]) for r in table if r["side"] == "front") == sum(item.count for item in ships.items)


def test_fit_scale_covers_the_service_trim_and_pad_keeps_true_size(all_hands) -> None:
    from dataclasses import replace

    from generator.render.base.units import pt
    from generator.render.exports.service import geometry

    pirate = all_hands.component("pirate")
    pad = registry()["drivethrucards"]
    scaled = replace(pad, fit="scale")
    face_w, face_h = pirate.size.width, pirate.size.height
    for preset in (pad, scaled):
        geo = geometry(preset, pirate)
        assert (geo.trim_w, geo.trim_h) == (63.5, 88.9)
        assert abs(geo.page_w - pt(63.5 + 2 * preset.bleed_mm)) < 1e-6
        # the face drawn with its reach covers the whole page: no paper shows at the page edge
        assert (face_w + 2 * geo.reach) * geo.scale >= geo.page_w / pt(1)
        assert (face_h + 2 * geo.reach) * geo.scale >= geo.page_h / pt(1)
    assert geometry(pad, pirate).scale == 1.0
    big = geometry(scaled, pirate).scale
    assert face_w * big >= 63.5 - 1e-9 and face_h * big >= 88.9 - 1e-9  # the face itself covers the trim
    assert min(face_w * big - 63.5, face_h * big - 88.9) < 1e-9  # and no more than it must


def test_guides_and_ink_saver_never_reach_a_print_service_file() -> None:
    """The styles are for checking and home printing: a preset's exporter receives the preset and nothing else."""
    from generator.build.options import BuildOptions
    from generator.render.exports.registry import preset_exporter
    from generator.render.exports.service import PresetSettings

    tgc = registry()["tgc"]
    styled = BuildOptions(guides=True, ink_saver=True, colour="cmyk", presets=("tgc",))
    assert preset_exporter(tgc).settings_for(styled) == PresetSettings(preset=tgc)


BOARD_SHOP = """
presets:
  boardshop:
    service: Board Shop
    source: https://example.org/boards
    writes: pdf-sides
    kinds: [card, tile, token, board]
    sizes: {}
    bleed_mm: 3
    naming: "{game}-{component}-{side}"
    manifest: csv
"""


def test_a_service_that_prints_boards_gets_them_with_the_game_s_first_component(real) -> None:
    """The build makes no job for a board: the first printable component's preset job brings it."""
    from generator.render.exports.registry import ExportInput, preset_exporter

    shop = load_presets(BOARD_SHOP, "shop.yaml")["boardshop"]
    fire = load_game(real, "pirates-under-fire")
    exporter = preset_exporter(shop)
    reads: dict[str, dict[str, str]] = {}
    with Workers(1) as workers:
        def drawn(component_id: str) -> dict[str, bytes]:
            given = ExportInput(renderer(real), fire, fire.component(component_id), workers)
            with real.gate.recording() as recorded:
                files = exporter.draw(given, exporter.settings_for(None))
            reads[component_id] = recorded.as_dict()
            return {f.name: f.data for f in files}

        host = drawn("ship")  # the game's first card, tile or token
        other = drawn("gold")
    assert "data/pirates-under-fire/game.yaml" in reads["ship"]  # an edit anywhere in the game redoes the host
    board = PdfReader(io.BytesIO(host["pirates-under-fire-sea-board-fronts.pdf"]))
    assert len(board.pages) == 2  # the red sea and the blue
    assert abs(float(board.pages[0].trimbox.width) / MM - 190) < 0.01
    assert abs(float(board.pages[0].mediabox.width) / MM - 196) < 0.01
    assert [r["copies"] for r in rows(host["sea-board-manifest.csv"])] == ["1", "1"]
    assert not any(name.startswith("pirates-under-fire-sea-board") for name in other)
    assert shop.skip_reason(fire.component("sea-board")) is None


def test_a_home_preset_cannot_take_boards() -> None:
    text = BOARD_SHOP.replace("writes: pdf-sides", "writes: sheets\n    paper: a4")
    with pytest.raises(DataError) as error:
        load_presets(text, "shop.yaml")
    assert str(error.value).startswith("shop.yaml:8: preset 'boardshop': writes sheets imposes faces on paper")
