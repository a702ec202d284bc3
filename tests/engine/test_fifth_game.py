"""Adding a fifth game, end to end: Plunder Pile (tests/fifth_game) runs through every command and every
registry-parametrised engine check, without a line of any test list or shipped module edited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.engine.registry import REGISTRY
from generator.project import Project
from tests import fifth_game
from tests.engine.conftest import Run
from tests.engine.test_engine_contract import (
    actions_read_back,
    build_rules,
    deal_survives_json,
    engine_cases,
    observations_and_gibberish,
)


def test_the_registry_checks_see_the_fifth_game(root: Path) -> None:
    project = Project.at(root)
    cases = engine_cases(fifth_game.REGISTRY, project)
    assert cases == [("nim", 1), ("nim", 2), ("nim", 3)]
    rules = build_rules(fifth_game.REGISTRY, project)
    for game_id, players in cases:
        actions_read_back(rules[game_id], players)
        deal_survives_json(rules[game_id], players)
        observations_and_gibberish(rules[game_id], players)
    with pytest.raises(Exception, match="has no rules engine"):
        engine_cases(REGISTRY, project)  # without its registry entry the game is refused, not skipped


def test_validate_passes_and_build_writes_its_files(root: Path, pnp: Run) -> None:
    code, out, err = pnp("--root", str(root), "validate", "--failures-only")
    assert code == 0, out + err
    assert out.startswith("nim: ") and "ok" in out
    code, _out, err = pnp("-q", "--root", str(root), "build", "nim", "--paper", "a4")
    assert code == 0, err
    built = sorted(p.name for p in (root / "output" / "nim").glob("*.pdf"))
    assert "nim-rules-a4.pdf" in built and any(name.startswith("nim-doubloon") for name in built)


def test_a_missing_rulebook_fails_validate_as_it_fails_build(root: Path, pnp: Run) -> None:
    (root / "templates" / "rulebooks" / "nim.md.j2").unlink()
    code, out, err = pnp("--root", str(root), "validate", "--failures-only")
    assert code == 1
    assert "no rulebook template: templates/rulebooks/nim.md.j2 is missing" in out
    assert err == "pnp: nim: 1 of 1 game(s) failed validation\n"
    code, _out, err = pnp("-q", "--root", str(root), "build", "nim", "--paper", "a4")
    assert code != 0 and "rulebook" in err


def test_simulate_and_check_play_it(root: Path, pnp: Run) -> None:
    log = root / "games.jsonl"
    code, out, _err = pnp("-q", "--root", str(root), "simulate", "nim", "--games", "40", "--players", "2",
                          "--bot", "heuristic", "--json", "--log", str(log))
    assert code == 0
    assert json.loads(out)["games"] == 40
    assert (root / "output" / "nim" / "simulation.json").is_file()  # the gallery's copy of the latest run
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 0 and out.startswith("legal: all 40 games")
