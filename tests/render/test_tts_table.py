"""The whole game on one Tabletop Simulator table: every component with its count, the boards and sheets, each
deck and pile in a place of its own, read back from the saved object's JSON."""

from __future__ import annotations

import io
import json
from collections import Counter, defaultdict

import pytest
from PIL import Image

from generator.load import load_game
from generator.project import Project
from generator.render.documents.sheets import sheet_name, sheet_templates
from generator.render.exports.raster import Workers, export_tts
from generator.render.exports.tts import grid_plan
from generator.render.exports.tts_table import export_tts_table, table_name
from generator.render.faces.renderer import renderer
from tests.helpers import REPO

GAMES = ("counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire")


@pytest.fixture(scope="module")
def real() -> Project:
    return Project.at(REPO)


@pytest.fixture(scope="module")
def tables(real) -> dict[str, dict[str, bytes]]:
    out = {}
    with Workers(1) as workers:
        for game_id in GAMES:
            game = load_game(real, game_id)
            out[game_id] = {f.name: f.data for f in export_tts_table(renderer(real), game, workers)}
    return out


def saved(tables, game) -> dict:
    return json.loads(tables[game.id][table_name(game)])


def physical(states: list[dict]) -> int:
    return sum(len(s["DeckIDs"]) if s["Name"] == "DeckCustom" else 1 for s in states)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_component_and_sheet_is_on_the_table_with_its_count(real, tables, game_id) -> None:
    game = load_game(real, game_id)
    by_tag: dict[str, list[dict]] = defaultdict(list)
    for state in saved(tables, game)["ObjectStates"]:
        (tag,) = state["Tags"]
        by_tag[tag].append(state)
    for component in game.components:
        if component.kind == "sheet":
            continue  # a sheet is drawn by its template: counted below
        assert physical(by_tag[component.id]) == component.count, component.id
    for template in sheet_templates(game, real):
        name = sheet_name(template)
        sheet = next((c for c in game.components if c.kind == "sheet" and c.id == name), None)
        states = by_tag[name]
        assert states and {s["Name"] for s in states} == {"Custom_Tile"}, name
        if sheet is not None:
            assert len(states) == sheet.count, name  # the screen comes 5 times, the score sheet 6
    assert set(by_tag) == ({c.id for c in game.components if c.kind != "sheet"}
                           | {sheet_name(t) for t in sheet_templates(game, real)})


@pytest.mark.slow
def test_under_fire_is_playable_from_the_table_its_sea_boards_included(real, tables) -> None:
    fire = load_game(real, "pirates-under-fire")
    states = saved(tables, fire)["ObjectStates"]
    boards = [s for s in states if s["Tags"] == ["sea-board"]]
    assert sorted(s["Nickname"] for s in boards) == ["Pirates Under Fire: sea boards: blue",
                                                     "Pirates Under Fire: sea boards: red"]
    for board in boards:
        assert board["Name"] == "Custom_Tile" and board["CustomImage"]["CustomTile"]["Type"] == 0
        image = Image.open(io.BytesIO(tables[fire.id][board["CustomImage"]["ImageURL"]]))
        assert image.size == (1496, 1740)  # 190 x 221 mm at 200 dpi, under TTS's 4096 px
        assert abs(board["Transform"]["scaleX"] - 221 / 25.4) < 1e-9  # a tile is scaled by its longer side
    counts = Counter(s["Tags"][0] for s in states)
    assert counts == {"ship": 36, "mercenary": 7, "vp-token": 38, "gold": 38, "sea-board": 2, "score-pad": 1}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_deck_pile_and_board_has_its_own_place(real, tables, game_id) -> None:
    game = load_game(real, game_id)
    piles: dict[tuple[str, str], set[tuple[float, float]]] = defaultdict(set)
    for state in saved(tables, game)["ObjectStates"]:
        where = state["Transform"]
        piles[(state["Tags"][0], state["Nickname"])].add((where["posX"], where["posZ"]))
    assert all(len(spots) == 1 for spots in piles.values())  # a pile's copies stack on one spot
    spots = [next(iter(s)) for s in piles.values()]
    assert len(set(spots)) == len(spots)  # and no two piles, decks or boards share one
    by_component: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for (tag, _), spot in zip(piles, spots):
        by_component[tag].append(spot)
    if len(by_component) > 1:
        assert len({min(s) for s in by_component.values()}) == len(by_component)  # not all at the origin


@pytest.mark.slow
def test_every_image_the_table_names_is_one_the_export_writes(real, tables) -> None:
    """Boards and sheets come with the table; decks, tiles and tokens from their component's export."""
    tricks = load_game(real, "pirate-tricks")
    written = set(tables[tricks.id])
    with Workers(1) as workers:
        for component in tricks.components:
            if component.kind in ("card", "tile", "token"):
                written |= {f.name for f in export_tts(renderer(real), tricks, component, workers)}
    named = set()
    for state in saved(tables, tricks)["ObjectStates"]:
        for deck in state.get("CustomDeck", {}).values():
            named |= {deck["FaceURL"], deck["BackURL"]}
        image = state.get("CustomImage", {})
        named |= {image.get("ImageURL", ""), image.get("ImageSecondaryURL", "")} - {""}
    assert named and named <= written
    screen = next(s for s in saved(tables, tricks)["ObjectStates"] if s["Tags"] == ["screen"])
    assert screen["CustomImage"]["ImageSecondaryURL"] == "screen-page-2.png"  # the inside of the screen


@pytest.mark.slow
def test_the_same_game_gives_the_same_table(real, tables) -> None:
    fire = load_game(real, "pirates-under-fire")
    with Workers(1) as workers:
        again = {f.name: f.data for f in export_tts_table(renderer(real), fire, workers)}
    assert again == tables[fire.id]


def test_the_grid_plan_packs_rows_without_overlap() -> None:
    rooms = [(8.0, 8.0), (3.0, 4.0), (30.0, 2.0), (5.0, 5.0), (1.0, 1.0)]
    centres = grid_plan(rooms, row_width=40.0, gap=2.0)
    assert centres == grid_plan(rooms, row_width=40.0, gap=2.0)
    for i, (a, (aw, ad)) in enumerate(zip(centres, rooms)):
        for b, (bw, bd) in zip(centres[i + 1:], rooms[i + 1:]):
            apart_x = abs(a[0] - b[0]) >= (aw + bw) / 2 + 2.0 - 1e-9
            apart_z = abs(a[1] - b[1]) >= (ad + bd) / 2 + 2.0 - 1e-9
            assert apart_x or apart_z
    assert all(abs(x) + w / 2 <= 20.0 + 1e-9 for (x, _), (w, _) in zip(centres, rooms))


def test_a_component_s_piles_stand_apart_and_its_copies_stack(real) -> None:
    fire = load_game(real, "pirates-under-fire")
    with Workers(1) as workers:
        files = {f.name: f.data for f in export_tts(renderer(real), fire, fire.component("gold"), workers)}
    states = json.loads(files["gold-saved-object.json"])["ObjectStates"]
    spots: dict[str, set[tuple[float, float]]] = defaultdict(set)
    heights: dict[str, list[float]] = defaultdict(list)
    for state in states:
        spots[state["Nickname"]].add((state["Transform"]["posX"], state["Transform"]["posZ"]))
        heights[state["Nickname"]].append(state["Transform"]["posY"])
    assert all(len(s) == 1 for s in spots.values()) and len({next(iter(s)) for s in spots.values()}) == 2
    assert all(h == sorted(set(h)) for h in heights.values())  # each copy above the last


@pytest.mark.slow
def test_pnp_build_tts_writes_the_table_and_follows_an_edit(project_copy, monkeypatch, capsys) -> None:
    """The table rides on the first component's TTS job: an edit to another component still redoes it."""
    from tests.helpers import run_pnp

    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    build = ["--root", str(project_copy.root), "build", "pirates-under-fire", "--force", "--paper", "a4",
             "--no-gallery", "--tts", "--tts-url", "https://example.org/pnp/"]
    code, _, err = run_pnp(capsys, *build)
    assert code == 0, err
    folder = project_copy.output_dir / "pirates-under-fire" / "tts"
    table = folder / "pirates-under-fire-table-saved-object.json"
    states = json.loads(table.read_text())["ObjectStates"]
    board = next(s for s in states if s["Tags"] == ["sea-board"])
    assert board["CustomImage"]["ImageURL"].startswith("https://example.org/pnp/pirates-under-fire/tts/sea-board-")
    assert (folder / "sea-board-red.png").is_file() and (folder / "score-pad-page-1.png").is_file()
    assert sum(s["Tags"] == ["gold"] for s in states) == 38
    tiles = project_copy.root / "data" / "pirates-under-fire" / "tiles.yaml"
    tiles.write_text(tiles.read_text().replace("{id: gold-5, value: 5, count: 8}", "{id: gold-5, value: 5, count: 9}"))
    code, _, err = run_pnp(capsys, *build)  # --force: the contents list still says 38
    assert code == 0, err
    assert sum(s["Tags"] == ["gold"] for s in json.loads(table.read_text())["ObjectStates"]) == 39
