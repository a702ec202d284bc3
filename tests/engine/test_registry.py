"""The registry of games and engines: engines are optional plugins found by entry point, and every misfit
is one line about its own game alone."""

from __future__ import annotations

import pickle
import re
import textwrap
from pathlib import Path

import pytest

from generator.engine.registry import GROUP, REGISTRY, EngineError, Registry
from generator.project import Project
from tests import fifth_game
from tests.helpers import run_pnp

EXAMPLE = textwrap.dedent("""\
    from generator.engine.games.example import BOTS, RULES, composition_checks
    """)
NO_ENGINE = ("pnp: nim has no rules engine, so it cannot be simulated, swept, checked or played (it builds and "
             "validates without one); to add one, install a package that registers it in the entry-point group "
             "pirate_press.engines (see docs/new-game.md)\n")


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


def test_an_engine_that_fails_to_import_is_one_line_naming_the_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _engine_module(tmp_path, monkeypatch, "crashing_engine", "x = 1\nraise ValueError('bad\\nconfig')\n")
    with pytest.raises(EngineError) as exc:
        Registry({"nim": module}).engine("nim")
    message = _one_line(exc)
    assert message.startswith("engine crashing_engine for game 'nim' fails to import: ValueError: bad config at ")
    assert message.endswith("crashing_engine.py:2; fix the engine or uninstall it")


def test_an_entry_point_must_name_a_module_or_its_rules() -> None:
    with pytest.raises(EngineError) as exc:
        Registry({"nim": "generator.engine.games.example:BOTS"}).engine("nim")
    assert "must name a module or 'module:RULES', not 'BOTS'" in _one_line(exc)
    engine = Registry({"nim": "generator.engine.games.example:RULES"}).engine("nim")
    assert engine.module == "generator.engine.games.example"  # what worker processes import again


def test_the_shipped_engines_are_plugins_of_this_package(project: Project) -> None:
    """The four games register through entry points, as any plugin does (pyproject.toml); a registry
    made without them sees none."""
    assert REGISTRY.game_ids == tuple(sorted(project.game_ids()))
    assert {REGISTRY.origin(game_id) for game_id in REGISTRY.game_ids} == {"pirate-press"}
    assert all(value.endswith(":RULES") for value in REGISTRY.engines.values())
    assert Registry({}).game_ids == ()


def test_a_registry_discovers_plugins_when_it_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution on sys.path whose metadata registers an engine is found by the next Registry()
    (importlib.metadata reads its entry_points.txt); the registry made before it stays as it was."""
    before = Registry()
    monkeypatch.syspath_prepend(str(fifth_game.install_plugin(tmp_path / "site")))
    after = Registry()
    assert "nim" not in before.game_ids and "nim" in after.game_ids
    assert after.origin("nim") == "plunder-pile" and after.engines["nim"] == "plunder_pile:RULES"
    engine = after.engine("nim")
    assert engine.module == "plunder_pile" and set(engine.bots) == {"random", "heuristic", "greedy"}
    assert after.engine("counterattack").game_id == "counterattack"  # the shipped ones beside it


def test_two_plugins_claiming_one_game_stop_only_that_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = fifth_game.install_plugin(tmp_path / "site")
    fifth_game.write_distribution(site, "nim-deluxe", "2.0", {GROUP: {"nim": "nim_deluxe:RULES"}})
    monkeypatch.syspath_prepend(str(site))
    registry = Registry()
    with pytest.raises(EngineError) as exc:
        registry.engine("nim")
    assert _one_line(exc) == ("game 'nim' has an engine in more than one installed package: nim-deluxe "
                              "(nim_deluxe:RULES); plunder-pile (plunder_pile:RULES); uninstall all but one")
    assert registry.engine("pirate-tricks").game_id == "pirate-tricks"


def test_a_game_without_an_engine_builds_and_validates_and_says_what_it_cannot_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifth_game.make_project(tmp_path)  # the installed registry: no engine for nim
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "list")
    assert code == 0 and "Plunder Pile" in out and err == ""
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "validate", "--failures-only")
    assert code == 0 and re.match(r"nim: \d+ checks, ok", out), out + err
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "show", "nim")
    assert code == 0 and "rules engine: none (it builds and validates; " in out
    log = tmp_path / "game.log"
    log.write_text("game: nim\nplayers: 2\ntake 1\n")
    for command in (["simulate", "nim"], ["sweep", "nim", "--vary", "rules.take_max=2,3"], ["check", "nim", str(log)]):
        code, out, err = run_pnp(capsys, "--root", str(tmp_path), *command)
        assert (code, out, err) == (2, "", NO_ENGINE), command


def test_a_broken_engine_fails_its_game_s_validation_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifth_game.make_project(tmp_path)
    broken = REGISTRY.with_engine("nim", "no_such_plunder_engine:RULES")
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "validate", "--failures-only", registry=broken)
    assert code == 1
    assert "data/nim/game.yaml:4: rules engine loads: expected an engine that loads and fits the game, got engine " \
           "no_such_plunder_engine for game 'nim' is not installed" in out
    assert err == "pnp: nim: 1 of 1 game(s) failed validation\n"


def test_the_registry_is_an_immutable_value() -> None:
    extended = REGISTRY.with_engine("nim", fifth_game.ENGINE)
    assert "nim" in extended.game_ids and "nim" not in REGISTRY.game_ids
    with pytest.raises(TypeError):
        REGISTRY.engines["nim"] = fifth_game.ENGINE  # type: ignore[index]
    with pytest.raises(AttributeError):
        REGISTRY._entries = ()  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(extended)) == extended  # what a build's worker processes receive


def test_every_shipped_game_has_a_working_engine(project: Project) -> None:
    assert [e.game_id for e in REGISTRY.verify(project)] == project.game_ids()


def test_a_stale_copy_of_this_package_hides_no_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An old egg-info of pirate-press in a checkout on sys.path (made before the engines were entry points)
    lacks the group: every copy on the path is read, so the installed registrations still count."""
    fifth_game.write_distribution(tmp_path, "pirate-press", "0.0.1", {"console_scripts": {"pnp": "generator.cli:main"}})
    monkeypatch.syspath_prepend(str(tmp_path))
    assert Registry().game_ids == REGISTRY.game_ids
