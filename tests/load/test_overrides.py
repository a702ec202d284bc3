"""`--set PATH=VALUE`: the changed data is validated like the YAML; every mistake is one line naming the path."""

from __future__ import annotations

import json

import pytest

from generator.errors import DataError, UsageError
from generator.load import load_game
from generator.load.overrides import Override, parse_overrides
from generator.project import Project
from tests.helpers import copy_sources, run_pnp

AHOD, FIRE = "all-hands-on-deck", "pirates-under-fire"


def _row(game, combination: str) -> dict:
    return next(r for r in game.rules["combinations"]["table"] if r["id"] == combination)


def _item(game, item_id: str):
    return next(i for c in game.components for i in c.items if i.id == item_id)


@pytest.mark.parametrize("path", ["combinations.full-crew.points", "rules.combinations.full-crew.points",
                                  "rules.combinations.table.full-crew.points", "rules.combinations.table.9.points"])
def test_every_spelling_of_a_path_reaches_the_same_value(project: Project, path: str) -> None:
    game = load_game(project, AHOD, parse_overrides([f"{path}=4"]))
    assert _row(game, "full-crew")["points"] == 4
    assert _row(game, "street")["points"] == _row(load_game(project, AHOD), "street")["points"]


def test_items_components_integer_keys_and_text(project: Project) -> None:
    game = load_game(project, FIRE, parse_overrides(
        ["items.fireship.cost=4", "components.mercenary.items.ram.cost=6", "mercenary.items.galleon.vp=3",
         "items.smuggler.text=Take 2 gold, now", "starting_gold.value=3"]))
    assert (_item(game, "fireship").fields["cost"], _item(game, "ram").fields["cost"]) == (4, 6)
    assert _item(game, "galleon").fields["vp"] == 3
    assert _item(game, "smuggler").fields["text"] == "Take 2 gold, now"
    assert game.rules["starting_gold"]["value"] == 3
    deal = load_game(project, AHOD, parse_overrides(["deal.4=14"])).rules["deal"]
    assert deal[4] == 14 and deal[3] == 17
    # an optional field an item leaves out may be given
    assert _item(load_game(project, FIRE, parse_overrides(["items.smuggler.vp=1"])), "smuggler").fields["vp"] == 1


@pytest.mark.parametrize(("spec", "message"), [
    ("combinations.full-crew.points=ten", "--set combinations.full-crew.points=ten: expected a whole number "
                                          "(the data has 6), got 'ten'"),
    ("combinations.full-house.points=3", "--set combinations.full-house.points=3: combinations has no 'full-house'"),
    ("combinations.full-crew=3", "--set combinations.full-crew=3: names a whole entry"),
    ("items.kraken.cost=3", "--set items.kraken.cost=3: no component has an item with id 'kraken'"),
    ("game.title.size=3", "--set game.title.size=3: game.title is a value ('All Hands on Deck'), it has no 'size'"),
    ("captain_penalty.redsash=true", "expected a whole number (the data has 1), got 'true'"),
    ("deal=[1, 2]", "expected a mapping"),
    ("points", "--set 'points': write PATH=VALUE"),
    ("a..b=1", "write PATH=VALUE"),
    ("combinations.full-crwe.points=3", "combinations has no 'full-crwe'; did you mean 'full-crew'?"),
    ("items.gunnr.count=3", "no component has an item with id 'gunnr'; did you mean 'gunner'?"),
])
def test_bad_overrides_are_one_line_usage_errors(project: Project, spec: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        load_game(project, AHOD, parse_overrides([spec]))
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(("spec", "message"), [
    ("items.fireship.cost=0", "tiles.yaml:119: mercenary ship 'fireship' 'cost' must be an integer 1..20, got 0 "
                              "(with --set items.fireship.cost=0)"),
    ("items.fireship.colour=red", "unknown field 'colour' on mercenary ship 'fireship'"),
])
def test_overridden_values_are_validated_like_the_yaml(project: Project, spec: str, message: str) -> None:
    with pytest.raises(DataError) as caught:
        load_game(project, FIRE, parse_overrides([spec]))
    assert message in str(caught.value)


def test_overrides_change_only_the_loaded_copy(project: Project) -> None:
    load_game(project, AHOD, (Override("combinations.full-crew.points", "1"),))
    assert _row(load_game(project, AHOD), "full-crew")["points"] != 1


def test_simulate_set_changes_the_game_and_says_so(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(copy_sources(tmp_path).root)
    argv = ("-q", "--root", root, "simulate", AHOD, "-n", "40", "--json")
    base = json.loads(run_pnp(capsys, *argv)[1])
    code, out, _err = run_pnp(capsys, *argv, "--set", "combinations.full-crew.points=0")
    changed = json.loads(out)
    assert code == 0 and changed["overrides"] == ["combinations.full-crew.points=0"]
    shares = {r["source"]: r["mean"] for r in changed["balance"]["sources"]}
    assert shares.get("full-crew", 0) == 0 and base["balance"] != changed["balance"]
    code, _out, err = run_pnp(capsys, *argv, "--set", "combinations.full-crew.points=lots")
    assert code == 2 and err.strip().endswith("expected a whole number (the data has 6), got 'lots'")
    assert len(err.strip().splitlines()) == 1
