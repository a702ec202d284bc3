"""Rules values an engine cannot play are refused at their YAML line, before any game starts (issue 30).

Each engine's `PLAYABLE` table (`generator.engine.playable`) is checked by `Rules`, so `pnp validate`,
`build`, `simulate`, `sweep`, `check` and `--set` all refuse a value such as a hand of 0 cards with one
line at the value's line; the property test draws values inside and outside the tables and asserts that
no path ends in a traceback or a game that never ends.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.engine.base import RandomBot
from generator.engine.playable import Needs, Span, check, checks, values_at
from generator.engine.registry import REGISTRY
from generator.errors import DataError, PnpError
from generator.load import load_game
from generator.load.overrides import Override
from generator.project import Project
from tests.helpers import copy_sources, edit, run_pnp

CA = "counterattack"
AHOD = "all-hands-on-deck"


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """One unedited copy for the --set, --vary and check cases (they never write into data/)."""
    return copy_sources(tmp_path_factory.mktemp("playable"))


def _line(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# --- the generic checker ----------------------------------------------------------------------------------------


def test_span_names_every_misfit_at_its_line(project: Project) -> None:
    game = load_game(project, AHOD)
    table = (Span("deal.*", 18, 100, "cards dealt"),)
    found = checks(game, table)
    assert [c.name for c in found] == ["rules: 'deal.3'", "rules: 'deal.4'", "rules: 'deal.5'", "rules: 'deal.6'"]
    assert {c.expected for c in found} == {"18..100 (cards dealt)"}
    assert [c.actual for c in found] == ["17", "15", "15", "15"]
    assert found[0].location == game.rule_location("deal.3")
    with pytest.raises(DataError) as info:
        check(game, table)
    assert str(info.value).endswith("game.yaml:" + str(game.rule_location("deal.3").line)
                                    + ": rules: 'deal.3' must be 18..100 (cards dealt), got 17")


def test_relations_are_asked_only_once_every_span_holds(project: Project) -> None:
    game = load_game(project, CA)
    asked: list[str] = []

    def rule(_game: object) -> tuple[str, str] | None:
        asked.append("asked")
        return ("2", "1")

    assert [c.name for c in checks(game, (Span("hand_size", 11, 20), Needs("ports_to_win", rule)))] == \
        ["rules: 'hand_size'"]
    assert not asked
    (only,) = checks(game, (Needs("ports_to_win", rule),))
    assert (only.ok, only.expected, only.actual, only.location) == (False, "2", "1", game.rule_location("ports_to_win"))
    assert all(c.ok for c in checks(game, REGISTRY.engine(CA).rules.playable))


def test_every_shipped_engine_declares_what_it_plays(project: Project) -> None:
    for game_id in project.game_ids():
        table = REGISTRY.engine(game_id).rules.playable
        assert any(isinstance(entry, Span) for entry in table), game_id
        assert all(c.ok for c in checks(load_game(project, game_id), table)), game_id


# --- the cases of issue 30 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "old", "new", "path", "wanted"), [
    (CA, "hand_size: 10 ", "hand_size: 0 ", "hand_size", "1..50"),
    (CA, "hands_per_pass: 2 ", "hands_per_pass: 0 ", "hands_per_pass", "1..10"),
    (CA, "ports_to_win: 6", "ports_to_win: 1000000", "ports_to_win", "1..50"),
    (AHOD, "deal: {2: 20,", "deal: {2: 0,", "deal.2", "1..100"),
    (AHOD, "shape: set, size: 3,", "shape: set, size: 0,", "combinations.table.5.size", "1..12"),
])
def test_validate_blames_the_value_at_its_line(project_copy: Project, capsys: pytest.CaptureFixture[str],
                                               game_id: str, old: str, new: str, path: str, wanted: str) -> None:
    yaml_path = project_copy.data_dir / game_id / "game.yaml"
    edit(yaml_path, old, new)
    line = _line(yaml_path, new)
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", game_id)
    assert code == 1 and "Traceback" not in out + err
    assert f"data/{game_id}/game.yaml:{line}: rules: '{path}': expected {wanted}" in out
    assert "templates/" not in out  # not the campaign log's loop, nor the rulebook's stack
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "simulate", game_id, "-n", "2")
    assert code == 2 and "Traceback" not in out + err
    assert err.strip().startswith(f"pnp: data/{game_id}/game.yaml:{line}: rules: '{path}' must be {wanted}")


@pytest.mark.slow
def test_build_refuses_the_value_at_its_line(project_copy: Project, capsys: pytest.CaptureFixture[str]) -> None:
    yaml_path = project_copy.data_dir / CA / "game.yaml"
    edit(yaml_path, "hands_per_pass: 2 ", "hands_per_pass: 0 ")
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "build", CA)
    assert code == 1 and "Traceback" not in out + err
    assert f"data/counterattack/game.yaml:{_line(yaml_path, 'hands_per_pass: 0')}: rules: 'hands_per_pass'" in err


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "wanted"), [
    (("simulate", CA, "-n", "2", "--set", "hand_size=0"), "rules: 'hand_size' must be 1..50"),
    (("simulate", CA, "-n", "2", "--set", "hands_per_pass=0"), "rules: 'hands_per_pass' must be 1..10"),
    (("simulate", CA, "-n", "2", "--set", "hand_size=9"), "2 x 9 x 2 + 4 = 40"),
    (("simulate", AHOD, "-n", "2", "--set", "stock_cards=0"), "rules: 'stock_cards' must be 1..10"),
    (("simulate", "pirate-tricks", "-n", "2", "--set", "ditch=3"), "rules: 'tricks' must be hand_size"),
    (("simulate", "pirates-under-fire", "-n", "2", "--set", "turns=3"), "rules: 'turns' must be the turns"),
    (("sweep", CA, "-n", "2", "--metric", "seat:1", "--vary", "hand_size=10,0"), "rules: 'hand_size' must be 1..50"),
])
def test_set_and_vary_refuse_before_any_game(copy: Project, capsys: pytest.CaptureFixture[str],
                                             argv: tuple[str, ...], wanted: str) -> None:
    code, out, err = run_pnp(capsys, "--root", str(copy.root), "-q", *argv)
    assert code == 2 and "Traceback" not in out + err and not out
    (line,) = err.strip().splitlines()
    assert wanted in line and line.startswith("pnp: data/")


def test_check_refuses_a_logs_set_before_replaying(copy: Project, capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    log = tmp_path / "games.log"
    code, _out, err = run_pnp(capsys, "--root", str(copy.root), "-q", "simulate", CA, "-n", "2", "--set",
                              "hand_size=10", "--log", str(log))
    assert code == 0, err
    records = [json.loads(line) for line in log.read_text().splitlines()]
    records[1]["set"] = ["hands_per_pass=0"]
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, err = run_pnp(capsys, "--root", str(copy.root), "check", CA, str(log))
    assert code == 1 and "Traceback" not in out + err and not out  # the first game is not replayed either
    assert err.strip().startswith(f'pnp: {log}:2: its "set" cannot be played: data/counterattack/game.yaml:')
    assert "rules: 'hands_per_pass' must be 1..10" in err


# --- the property: no value, inside or outside the tables, ends in a traceback or a game without end -----------

MAX_ACTIONS = 20_000  # every shipped game ends in far fewer; a game past it is one that never ends


def _paths(project: Project) -> list[tuple[str, str, int, int]]:
    """(game, a concrete rules path, low, high) for every span of every shipped engine."""
    out = []
    for game_id in project.game_ids():
        game = load_game(project, game_id)
        for entry in REGISTRY.engine(game_id).rules.playable:
            if isinstance(entry, Span):
                out += [(game_id, path, entry.low, entry.high)
                        for path, _value in values_at(game.rules, entry.path.split("."))]
    return sorted(set(out))


PATHS = _paths(Project.at(Path(__file__).resolve().parents[2]))


@st.composite
def _edits(draw: st.DrawFn) -> tuple[str, tuple[Override, ...]]:
    game_id = draw(st.sampled_from(sorted({entry[0] for entry in PATHS})))
    spans = [entry[1:] for entry in PATHS if entry[0] == game_id]
    chosen = draw(st.lists(st.sampled_from(spans), min_size=1, max_size=3, unique_by=lambda span: span[0]))
    values = [draw(st.one_of(st.integers(low - 3, high + 3), st.integers(low, min(high, low + 12)),
                             st.sampled_from([-1, 0, 10**6, -(10**9), 10**18]))) for _path, low, high in chosen]
    return game_id, tuple(Override(f"rules.{path}", str(value))
                          for (path, _low, _high), value in zip(chosen, values, strict=True))


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_edits())
def test_no_value_ends_in_a_traceback(project: Project, edits: tuple[str, tuple[Override, ...]]) -> None:
    game_id, overrides = edits
    engine = REGISTRY.engine(game_id)
    try:
        game = load_game(project, game_id, overrides)
        rules = engine.rules(game)
    except PnpError:
        return  # refused in one line: what the CLI prints
    engine.composition_checks(game)  # validate's engine checks: failed checks, never an exception
    for players in rules.player_counts:
        state = rules.new_game(players, seed=players, check=True)
        bots = [RandomBot(rules, seat, random.Random(seat)) for seat in range(players)]
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                break
            state.apply_action(bots[state.current_player()].choose({}, state.legal_actions()))
        assert state.is_terminal(), f"{game_id} {overrides}: no end after {MAX_ACTIONS} actions"


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_edits())
def test_no_value_ends_in_a_traceback_from_the_commands(copy: Project, capsys: pytest.CaptureFixture[str],
                                                        edits: tuple[str, tuple[Override, ...]]) -> None:
    """The same draws through validate's checks and `pnp simulate`, `sweep` and `check`: a result or one line."""
    from generator.validate import validate_game

    game_id, overrides = edits
    sets = [arg for o in overrides for arg in ("--set", str(o))]
    try:
        game = load_game(copy, game_id, overrides)
    except PnpError:
        game = None
    if game is not None:
        validate_game(game, copy)  # every failure is a check, never an exception
    log = copy.root / "out.log"
    code, out, err = run_pnp(capsys, "--root", str(copy.root), "-q", "simulate", game_id, "-n", "2", "--log", str(log),
                             *sets)
    assert code in (0, 2) and "Traceback" not in out + err
    assert code == 2 or log.is_file()
    if code == 0:
        code, out, err = run_pnp(capsys, "--root", str(copy.root), "check", game_id, str(log))
        assert code == 0, out + err
    first, *rest = overrides
    code, out, err = run_pnp(capsys, "--root", str(copy.root), "-q", "sweep", game_id, "-n", "1", "--metric",
                             "seat:1", "--vary", f"{first.path}={first.text},{first.text}0",
                             *[arg for o in rest for arg in ("--set", str(o))])
    assert code in (0, 2) and "Traceback" not in out + err

