"""Reading and replaying game logs: both forms, line numbers, tampering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.engine.base import Rules
from generator.engine.replay import GameRecord, read_log, replay
from generator.engine.simulate import EngineSource, SimSpec
from generator.engine.simulate.runner import engine_for, run_chunk
from generator.errors import DataError
from tests import fifth_game


@pytest.fixture
def rules(root: Path) -> Rules:
    return engine_for(EngineSource(str(root), "nim", fifth_game.ENGINE))[0]


def _write(tmp_path: Path, text: str, name: str = "game.log") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_json_record_round_trips() -> None:
    record = GameRecord(game="nim", index=3, players=2, bots=("a", "b"), seed=9, deal={"heap": 5},
                        actions=("take 2", "take 3"), result={"scores": [0, 1], "winners": [1]})
    line = record.to_json()
    assert json.loads(line)["actions"] == ["take 2", "take 3"]
    assert list(json.loads(line)) == ["game", "index", "players", "bots", "seed", "deal", "actions", "result"]


def test_simulated_log_replays_legally(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    spec = SimSpec(EngineSource(str(tmp_path), "nim", fifth_game.ENGINE), 3,
                   ("heuristic", "random", "random"), seed=5, games=40, check=True, log=True)
    path = _write(tmp_path, "\n".join(run_chunk(spec, 0, 40).log_lines) + "\n", "sim.jsonl")
    records = read_log(path)
    assert [r.index for r in records] == list(range(40))
    for record in records:
        outcome = replay(rules, record)
        assert outcome.legal and outcome.finished, outcome.problem


def test_text_form_with_seed_and_comments(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    import random

    heap = rules.random_deal(2, random.Random(77))["heap"]
    moves = []
    left = heap
    while left:
        take = min(3, left)
        moves.append(f"take {take}")
        left -= take
    text = "# a game typed in by hand\ngame: nim\nplayers: 2\nseed: 77\n---\n" + "\n\n".join(moves) + "\n"
    (record,) = read_log(_write(tmp_path, text))
    assert record.seed == 77 and record.deal is None
    assert record.action_lines[0] == 6 and record.action_lines[1] == 8  # blank lines keep their numbers
    outcome = replay(rules, record)
    assert outcome.legal and outcome.finished


def test_text_form_reports_the_line_of_the_first_illegal_action(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    text = 'game: nim\nplayers: 2\ndeal: {"heap": 10}\ntake 3\n# think\ntake 3\ntake 4\ntake 1\n'
    (record,) = read_log(_write(tmp_path, text))
    outcome = replay(rules, record)
    assert outcome.problem == "line 7: seat 1 took 4 but may take 1 to 3"
    assert outcome.actions == 2


def test_unreadable_action_text_is_an_illegal_action(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    (record,) = read_log(_write(tmp_path, 'game: nim\nplayers: 2\ndeal: {"heap": 10}\ntake 3\ngrab two\n'))
    assert replay(rules, record).problem == "line 5: unreadable action 'grab two': expected e.g. 'take 2'"


def test_actions_after_the_end_are_reported(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    (record,) = read_log(_write(tmp_path, 'game: nim\nplayers: 2\ndeal: {"heap": 2}\ntake 2\ntake 1\n'))
    assert replay(rules, record).problem == "line 5: the game is already over"


def test_tampered_result_is_reported(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    line = GameRecord(game="nim", players=2, deal={"heap": 4}, actions=("take 1", "take 3"),
                      result={"scores": [1, 0], "winners": [0]}).to_json()
    (record,) = read_log(_write(tmp_path, "\n" + line + "\n"))
    problem = replay(rules, record).problem
    assert problem is not None and problem.startswith("line 2: the log records scores [1, 0]")


def test_unfinished_game_is_legal_so_far(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    (record,) = read_log(_write(tmp_path, 'game: nim\nplayers: 2\ndeal: {"heap": 9}\ntake 1\n'))
    outcome = replay(rules, record)
    assert outcome.legal and not outcome.finished and outcome.actions == 1


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("", 1, "the log is empty"),
        ('{"game": "nim", "players": 2, "seed": 1, "actions": []}\n{"game": \n', 2, "not valid JSON"),
        ('{"game": "nim", "players": 2, "actions": []}\n', 1, "neither a 'deal' nor a 'seed'"),
        ('[1, 2]\n', 1, "each line must be a JSON object"),
        ('{"game": "nim", "players": "two", "seed": 1, "actions": []}\n', 1, "'players' must be"),
        ("game: nim\nplayers: two\nseed: 1\ntake 1\n", 2, "'players' must be a whole number"),
        ("game: nim\nplayers: 2\ndeal: {heap: 3}\ntake 1\n", 3, "'deal' must be JSON on one line"),
        ("game: nim\nseed: 4\ntake 1\n", 1, "has no 'players'"),
    ],
)
def test_unreadable_logs_are_data_errors_with_a_line(tmp_path: Path, text: str, where: int, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DataError) as err:
        read_log(path, "game.log")
    assert err.value.location is not None and err.value.location.line == where
    assert message in err.value.message


def test_missing_log_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="log file not found"):
        read_log(tmp_path / "nope.jsonl")


def test_a_deal_that_does_not_fit_is_a_data_error(tmp_path: Path, rules) -> None:  # type: ignore[no-untyped-def]
    (record,) = read_log(_write(tmp_path, 'game: nim\nplayers: 2\ndeal: {"stones": 3}\ntake 1\n'))
    with pytest.raises(DataError, match="the deal does not fit nim"):
        replay(rules, record)
