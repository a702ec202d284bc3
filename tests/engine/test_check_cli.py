"""`pnp check GAME LOG` end to end on the toy Nim engine: exit codes 0, 1 and 2."""

from __future__ import annotations

from pathlib import Path

from tests.engine.conftest import Run


def test_simulated_log_checks_legal_and_tampered_log_names_the_line(
        root: Path, pnp: Run) -> None:
    log = root / "games.jsonl"
    code, _out, _err = pnp("-q", "--root", str(root), "simulate", "nim", "--games", "30", "--players", "2",
                           "--bots", "heuristic,random", "--seed", "4", "--log", str(log))
    assert code == 0
    lines = log.read_text().splitlines()
    assert len(lines) == 30
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 0
    assert out.strip() == "legal: all 30 games (30 finished) replay without an illegal action"

    # tamper with game 17 (line 18): its second action becomes impossible
    import json

    record = json.loads(lines[17])
    record["actions"][1] = "take 7"
    lines[17] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1
    assert out.strip() == "line 18: action 2 ('take 7'): seat 2 took 7 but may take 1 to 3"


def test_single_text_game_prints_final_scores(root: Path, pnp: Run) -> None:
    log = root / "club.txt"
    log.write_text('game: nim\nplayers: 2\ndeal: {"heap": 6}\ntake 2\ntake 3\ntake 1\n')
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 0
    assert out.strip() == "legal: 3 actions; final scores seat 1: 1, seat 2: 0; won by seat 1"


def test_illegal_text_game_exits_1_with_the_line(root: Path, pnp: Run) -> None:
    log = root / "club.txt"
    log.write_text('game: nim\nplayers: 2\ndeal: {"heap": 6}\n\ntake 2\ntake 3\ntake 2\n')
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1
    assert out.strip() == "line 7: seat 1 took 2 but only 1 doubloons are left"


def test_unreadable_log_exits_2_with_file_and_line(root: Path, pnp: Run) -> None:
    log = root / "broken.jsonl"
    log.write_text('{"game": "nim", "players": 2, "seed": 1, "actions": []}\n{"game": nim}\n')
    code, out, err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 2 and out == ""
    assert err.startswith(f"pnp: {log}:2: not valid JSON")
    assert err.count("\n") == 1


def test_log_of_another_game_is_refused(root: Path, pnp: Run) -> None:
    log = root / "other.txt"
    log.write_text("game: counterattack\nplayers: 1\nseed: 3\nplay 4 anchors\n")
    code, _out, err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 2
    assert "records a game of 'counterattack', not 'nim'" in err
