"""Tabletop Simulator saved objects: true counts for every deck of every game, tiles and tokens, image URLs."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest
from PIL import Image

from generator.load import load_game
from generator.project import Project
from generator.render.exports.raster import Workers, export_tts
from generator.render.exports.tts import physical_count
from generator.render.faces.renderer import renderer
from tests.helpers import REPO

GAMES = ("counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire")


@pytest.fixture(scope="module")
def real() -> Project:
    return Project.at(REPO)


def tts_files(project, game, component_id: str, base: str = "") -> dict[str, bytes]:
    with Workers(1) as workers:
        files = export_tts(renderer(project), game, game.component(component_id), workers, base)
    return {f.name: f.data for f in files}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_tile_and_token_is_one_object_per_copy(real, game_id) -> None:
    game = load_game(real, game_id)
    for component in (c for c in game.components if c.kind in ("tile", "token")):
        files = tts_files(real, game, component.id)
        states = json.loads(files[f"{component.id}-saved-object.json"])["ObjectStates"]
        expected = {"tile": "Custom_Tile", "token": "Custom_Token"}[component.kind]
        assert {s["Name"] for s in states} == {expected}
        nicknames = Counter(s["Nickname"].rsplit(": ", 1)[1] for s in states)
        assert nicknames == {item.id: item.count for item in component.items}, component.id


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_deck_arrives_with_its_true_counts(real, game_id) -> None:
    game = load_game(real, game_id)
    for component in (c for c in game.components if c.kind == "card"):
        files = tts_files(real, game, component.id)
        saved = json.loads(files[f"{component.id}-saved-object.json"])
        assert physical_count(saved) == sum(item.count for item in component.items), component.id
        (state,) = saved["ObjectStates"]
        if state["Name"] == "CardCustom":  # a one-card component is a card, not a deck
            assert sum(item.count for item in component.items) == 1
            continue
        assert state["Name"] == "DeckCustom" and len(state["ContainedObjects"]) == len(state["DeckIDs"])
        by_id = Counter(state["DeckIDs"])
        for key, deck in state["CustomDeck"].items():
            assert {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"} <= set(deck)
            assert deck["BackIsHidden"] is True
            assert deck["NumWidth"] <= 10 and deck["NumHeight"] <= 7
            assert all(card_id // 100 == int(key) or str(card_id // 100) in state["CustomDeck"] for card_id in by_id)
        nicknames = Counter(card["Nickname"] for card in state["ContainedObjects"])
        assert nicknames == {item.id: item.count for item in component.items}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_landscape_cards_are_sideways_and_portrait_cards_are_not(real, game_id) -> None:
    """TTS draws a custom card on its portrait shape: a landscape card (Pirate Tricks' 120 x 70 mm bids) must
    say SidewaysCard, on the deck and on every card in it, or its face is squeezed into a portrait card."""
    game = load_game(real, game_id)
    for component in (c for c in game.components if c.kind == "card"):
        (state,) = json.loads(tts_files(real, game, component.id)[f"{component.id}-saved-object.json"])["ObjectStates"]
        landscape = component.size.width > component.size.height
        assert state["SidewaysCard"] is landscape, component.id
        assert all(card["SidewaysCard"] is landscape for card in state.get("ContainedObjects", [])), component.id
    if game_id == "pirate-tricks":
        assert game.component("bid").size.width > game.component("bid").size.height


def test_all_hands_shows_90_cards_from_27_designs(real) -> None:
    game = load_game(real, "all-hands-on-deck")
    files = tts_files(real, game, "pirate")
    state = json.loads(files["pirate-saved-object.json"])["ObjectStates"][0]
    assert len(state["DeckIDs"]) == 90 and len(set(state["DeckIDs"])) == 27
    assert state["CustomDeck"]["1"]["FaceURL"] == "pirate-sheet-1.png"
    assert state["CustomDeck"]["1"]["BackURL"] == "pirate-back.png"
    # the hidden slot (the sheet's last) shows the back, not a card
    deck = state["CustomDeck"]["1"]
    sheet = Image.open(io.BytesIO(files["pirate-sheet-1.png"])).convert("RGB")
    cell_w, cell_h = sheet.width // deck["NumWidth"], sheet.height // deck["NumHeight"]
    hidden = sheet.crop((sheet.width - cell_w, sheet.height - cell_h, sheet.width, sheet.height))
    assert hidden.tobytes() == Image.open(io.BytesIO(files["pirate-back.png"])).convert("RGB").tobytes()


def test_tiles_become_custom_tiles_with_both_sides(real) -> None:
    game = load_game(real, "pirates-under-fire")
    ship = game.component("ship")
    files = tts_files(real, game, "ship", base="https://example.org/pnp/pirates-under-fire/tts/")
    states = json.loads(files["ship-saved-object.json"])["ObjectStates"]
    assert len(states) == sum(item.count for item in ship.items)
    assert {s["Name"] for s in states} == {"Custom_Tile"}
    first = states[0]["CustomImage"]
    assert first["ImageURL"].startswith("https://example.org/pnp/pirates-under-fire/tts/ship-")
    assert first["ImageSecondaryURL"].endswith("-back.png")
    for state in states:
        for key in ("ImageURL", "ImageSecondaryURL"):
            assert state["CustomImage"][key].rsplit("/", 1)[1] in files


def test_tokens_become_custom_tokens_cut_out_along_their_circle(real) -> None:
    game = load_game(real, "pirate-tricks")
    loon = game.component("loon")
    files = tts_files(real, game, "loon")
    states = json.loads(files["loon-saved-object.json"])["ObjectStates"]
    assert len(states) == sum(item.count for item in loon.items) == 71
    assert {s["Name"] for s in states} == {"Custom_Token"}
    token = Image.open(io.BytesIO(files[states[0]["CustomImage"]["ImageURL"]]))
    assert token.mode == "RGBA"
    assert token.getpixel((0, 0))[3] == 0 and token.getpixel((token.width // 2, token.height // 2))[3] == 255


@pytest.mark.slow
def test_tts_url_sets_the_image_base_and_the_default_is_a_file_uri(fresh_project, monkeypatch, capsys) -> None:
    from tests.helpers import run_pnp

    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])
    base = ["--root", str(fresh_project.root), "build", "--force", "--only", "port", "--paper", "a4", "--no-gallery",
            "--tts"]
    saved = fresh_project.output_dir / "counterattack" / "tts" / "port-saved-object.json"
    code, _, err = run_pnp(capsys, *base, "--tts-url", "https://example.org/pnp/")
    assert code == 0, err
    deck = json.loads(saved.read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert deck["FaceURL"] == "https://example.org/pnp/counterattack/tts/port-sheet-1.png"
    code, _, err = run_pnp(capsys, *base)
    assert code == 0, err
    deck = json.loads(saved.read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert deck["FaceURL"] == (fresh_project.output_dir.resolve() / "counterattack" / "tts" / "port-sheet-1.png").as_uri()


@pytest.mark.parametrize(("flags", "message"), [
    (["--tts-url", "https://example.org/pnp/"], "--tts-url 'https://example.org/pnp/' needs --tts"),
    (["--tts", "--tts-url", "example.org/pnp"], "--tts-url 'example.org/pnp' must be an http(s):// or file:// URL"),
])
def test_a_tts_url_that_cannot_work_is_refused_in_one_line(fresh_project, capsys, flags, message) -> None:
    from tests.helpers import run_pnp

    code, _, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--only", "port", "--no-gallery",
                           *flags)
    assert code == 2 and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (fresh_project.output_dir / "counterattack").exists()


def test_a_token_shows_its_own_back_as_a_round_tile_and_an_equal_back_is_not_repeated(real) -> None:
    from generator.render.exports.tts import TILE_TYPE, piece_objects

    saved = piece_objects("Coins", "token", "circle", [("coin", 2, "coin.png", "coin-back.png"),
                                                       ("star", 1, "star.png", "")], "", (20.0, 20.0))
    coin, _, star = saved["ObjectStates"]
    assert coin["Name"] == "Custom_Tile" and coin["CustomImage"]["CustomTile"]["Type"] == TILE_TYPE["circle"]
    assert coin["CustomImage"]["ImageSecondaryURL"] == "coin-back.png"
    assert star["Name"] == "Custom_Token" and star["CustomImage"]["ImageSecondaryURL"] == ""
    game = load_game(real, "pirate-tricks")  # a loon's back is drawn like its front: one image, a token
    files = tts_files(real, game, "loon")
    assert not [name for name in files if name.endswith("-back.png")]
    states = json.loads(files["loon-saved-object.json"])["ObjectStates"]
    assert {s["Name"] for s in states} == {"Custom_Token"}


def test_tiles_sharing_a_back_design_each_get_their_back_image_the_same_picture(real) -> None:
    game = load_game(real, "pirates-under-fire")
    mercenary = game.component("mercenary")
    files = tts_files(real, game, "mercenary")
    backs = [files[f"mercenary-{item.id}-back.png"] for item in mercenary.items]
    fronts = [files[f"mercenary-{item.id}.png"] for item in mercenary.items]
    assert len(backs) == len(mercenary.items) > 1
    assert len(set(backs)) == 1  # one back design, drawn and encoded once, written per tile
    assert len(set(fronts)) == len(fronts) and backs[0] not in fronts
    image = Image.open(io.BytesIO(backs[0]))
    assert image.mode == "RGB" and image.size == Image.open(io.BytesIO(fronts[0])).size
