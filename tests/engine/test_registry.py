"""The registry of games and engines fails loudly: every misfit is one line, at start-up, naming the fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.engine.registry import REGISTRY, EngineError, Registry
from generator.project import Project
from tests import fifth_game
from tests.helpers import run_pnp

EXAMPLE = textwrap.dedent("""\
    from generator.engine.games.example import BOTS, RULES, composition_checks
    """)


def _engine_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> str:
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def _one_line(exc: pytest.ExceptionInfo[EngineError]) -> str:
    message = str(exc.value)
    assert "\n" not in message
    return message


def test_a_misspelt_hook_is_named_with_the_likely_typo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _engine_module(tmp_path, monkeypatch, "typo_engine", textwrap.dedent("""\
        from generator.engine.games.example import BOTS, RULES
        from generator.engine.games.example import composition_checks as compositon_checks
        """))
    with pytest.raises(EngineError) as exc:
        Registry({"nim": module}).engine("nim")
    message = _one_line(exc)
    assert "does not define composition_checks" in message and "found compositon_checks: a misspelt hook?" in message


def test_an_engine_whose_game_id_differs_from_its_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _engine_module(tmp_path, monkeypatch, "renamed_engine", EXAMPLE)
    with pytest.raises(EngineError) as exc:
        Registry({"plunder": module}).engine("plunder")
    assert "NimRules.game_id is 'nim', but it is registered for game 'plunder'" in _one_line(exc)


def test_an_engine_without_a_heuristic_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _engine_module(tmp_path, monkeypatch, "lazy_engine", EXAMPLE + "BOTS = {'random': BOTS['random']}\n")
    with pytest.raises(EngineError) as exc:
        Registry({"nim": module}).engine("nim")
    assert "BOTS lacks 'heuristic'" in _one_line(exc)


def test_an_engine_that_is_not_installed() -> None:
    with pytest.raises(EngineError) as exc:
        Registry({"nim": "generator.engine.no_such_engine"}).engine("nim")
    assert "engine generator.engine.no_such_engine for game 'nim' is not installed" in _one_line(exc)


def test_a_game_folder_without_an_engine_stops_every_command_at_start_up(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifth_game.make_project(tmp_path)
    for command in (["list"], ["validate"], ["simulate", "nim"]):
        code, out, err = run_pnp(capsys, "--root", str(tmp_path), *command)  # the shipped registry: no nim
        assert code == 2 and out == ""
        assert err == ("pnp: data/nim/ has no rules engine: map 'nim' to its engine package in "
                       "generator/engine/registry.py (engines: counterattack, pirate-tricks, all-hands-on-deck, "
                       "pirates-under-fire)\n")


def test_with_the_engine_registered_the_same_project_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = fifth_game.make_project(tmp_path)
    assert [e.game_id for e in fifth_game.REGISTRY.verify(project)] == ["nim"]
    code, out, _err = run_pnp(capsys, "--root", str(tmp_path), "list", registry=fifth_game.REGISTRY)
    assert code == 0 and "Plunder Pile" in out


def test_the_registry_is_an_immutable_value() -> None:
    extended = REGISTRY.with_engine("nim", fifth_game.ENGINE)
    assert "nim" in extended.game_ids and "nim" not in REGISTRY.game_ids
    with pytest.raises(TypeError):
        REGISTRY.engines["nim"] = fifth_game.ENGINE  # type: ignore[index]


def test_every_shipped_game_has_a_working_engine(project: Project) -> None:
    assert [e.game_id for e in REGISTRY.verify(project)] == project.game_ids()
