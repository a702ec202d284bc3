"""`pnp check GAME LOG` end to end on the toy Nim engine: exit codes 0, 1 and 2.

Anything wrong inside the log is the check's verdict (exit 1, one line with the
log's line); a log that cannot be opened or records another game is exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    assert out.strip() == "legal: all 30 games replay to their end without an illegal action"

    # tamper with game 17 (line 18): its second action becomes impossible
    import json

    record = json.loads(lines[17])
    record["actions"][1] = "take 7"
    lines[17] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1
    assert out.strip() == "line 18: action 2 ('take 7'): seat 2 took 7 but may take 1 to 3"


def test_a_log_played_with_set_replays_with_the_same_values(root: Path, pnp: Run) -> None:
    """Taking up to 5 is legal only with --set rules.take_max=5: the log keeps it, and check applies it."""
    import json

    log = root / "five.jsonl"
    code, _out, _err = pnp("-q", "--root", str(root), "simulate", "nim", "--games", "20", "--players", "2",
                           "--bots", "random,random", "--seed", "2", "--set", "rules.take_max=5", "--log", str(log))
    assert code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert all(record["set"] == ["rules.take_max=5"] for record in records)
    assert any(int(action.split()[1]) > 3 for record in records for action in record["actions"])  # took 4 or 5
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert (code, out.strip()) == (0, "legal: all 20 games replay to their end without an illegal action")
    for record in records:  # without the values it was played with, the same game breaks the shipped rule
        del record["set"]
    log.write_text("".join(json.dumps(record) + "\n" for record in records))
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1 and "may take 1 to 3" in out


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


def test_unreadable_log_line_exits_1_with_file_and_line(root: Path, pnp: Run) -> None:
    log = root / "broken.jsonl"
    log.write_text('{"game": "nim", "players": 2, "seed": 1, "actions": []}\n{"game": nim}\n')
    code, out, err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1 and out == ""
    assert err.startswith(f"pnp: {log}:2: not valid JSON")
    assert err.count("\n") == 1


def test_log_of_another_game_is_refused(root: Path, pnp: Run) -> None:
    log = root / "other.txt"
    log.write_text("game: counterattack\nplayers: 1\nseed: 3\nplay 4 anchors\n")
    code, _out, err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 2
    assert "records a game of 'counterattack', not 'nim'" in err


GOOD = '{"game": "nim", "players": 2, "deal": {"heap": 6}, "actions": ["take 2", "take 3", "take 1"]'


@pytest.mark.parametrize(("text", "line", "message"), [
    (GOOD + ', "result": {"scores": ["one", 0], "winners": [0]}}',
     2, "'result' must hold 'scores', a list of numbers, got ['one', 0]"),
    (GOOD + ', "bots": 5}', 2, "'bots' must be a list of bot names, one per seat, got 5"),
    ("[" * 100_000 + "]" * 100_000, 2, "the JSON is nested too deeply"),
    ('{"game": "nim", "players": 2, "seed": ' + "7" * 5000 + ', "actions": []}', 2, "unreadable JSON"),
    ("game: nim\nplayers: 2\nseed: " + "7" * 5000 + "\ntake 1\n", 4, "'seed' must be a whole number, got '77777"),
    (GOOD + "}\n" + GOOD[:30], 3, "the line is cut off: the log may be truncated"),
    ("game: nim\nplayers: 2\ndeal: {\"heap\": 6}\ntake 2\n\ntake 3\n", 7,
     "unfinished game: the log ends here, after 2 actions, but the game is not over (seat 1 to act); "
     "the game was stopped early or the log is truncated"),
    (GOOD + ', "result": {"scores": [1, 0], "winners": [0]}}\n' + GOOD.replace('"take 1"', '"take 2"') + "}", 3,
     "action 3 ('take 2'): seat 1 took 2 but only 1 doubloons are left"),
])
def test_bad_logs_give_one_line_with_the_log_line_and_exit_1(root: Path, pnp: Run,
                                                              text: str, line: int, message: str) -> None:
    log = root / "bad.jsonl"
    log.write_text("# a game\n" + text + "\n")
    code, out, err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1
    said = (out + err).strip()
    assert "\n" not in said and "Traceback" not in said
    assert said.removeprefix("pnp: ").removeprefix(f"{log}:").startswith(f"{line}: ") or \
        said.startswith(f"line {line}: "), said
    assert message in said, said
    assert len(said) < 400


def test_a_log_with_a_byte_order_mark_is_refused_at_line_1(root: Path, pnp: Run) -> None:
    log = root / "bom.txt"
    log.write_bytes(b"\xef\xbb\xbfgame: nim\nplayers: 2\ndeal: {\"heap\": 6}\ntake 2\ntake 3\ntake 1\n")
    code, _out, err = pnp("--root", str(root), "check", "nim", str(log))
    assert code == 1
    assert err == f"pnp: {log}:1: the log starts with a byte-order mark (BOM); save it as UTF-8 without BOM\n"


def test_named_players_are_named_in_the_summary(root: Path, pnp: Run) -> None:
    log = root / "club.txt"
    log.write_text('game: nim\nplayers: 2\nnames: Bo, Ann\ndeal: {"heap": 6}\ntake 2\ntake 3\ntake 1\n')
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert (code, out.strip()) == (0, "legal: 3 actions; final scores Bo: 1, Ann: 0; won by Bo")
    log.write_text('game: nim\nplayers: 2\nnames: Bo, Ann\ndeal: {"heap": 6}\ntake 2\ntake 3\n')
    code, out, _err = pnp("--root", str(root), "check", "nim", str(log))
    assert (code, out.strip()) == (1, "line 6: unfinished game: the log ends here, after 2 actions, but the game "
                                      "is not over (Bo to act); the game was stopped early or the log is truncated")


@pytest.mark.slow
def test_python_dash_m_generator_exits_like_pnp(tmp_path: Path) -> None:
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    log = tmp_path / "club.txt"
    log.write_text("game: counterattack\nplayers: 1\nseed: 3\nfly away\n")
    for command in ([sys.executable, "-m", "generator"], [str(Path(sys.executable).with_name("pnp"))]):
        done = subprocess.run([*command, "--root", str(repo), "check", "counterattack", str(log)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 1, (command, done.stderr)
        assert done.stdout.startswith("line 4: unreadable action 'fly away'"), done.stdout


DUPLICATE = {  # game -> (deal key, path to a list of cards in it)
    "counterattack": ("passes", 0),
    "pirate-tricks": ("crew", 0),
    "all-hands-on-deck": ("cards", None),
    "pirates-under-fire": ("decks", 0),
}


@pytest.mark.parametrize("game_id", sorted(DUPLICATE))
def test_a_duplicated_card_in_a_deal_is_reported_at_its_line(game_id: str, tmp_path: Path,
                                                             pnp: Run) -> None:
    import json
    import shutil

    repo = tmp_path / "project"  # a copy: `pnp simulate` keeps its latest run in output/ for the gallery
    shutil.copytree(Path(__file__).resolve().parents[2] / "data" / game_id, repo / "data" / game_id)
    log = tmp_path / "games.jsonl"
    code, _out, err = pnp("-q", "--root", str(repo), "simulate", game_id, "--games", "1", "--bot", "random",
                          "--jobs", "1", "--seed", "3", "--log", str(log))
    assert code == 0, err
    record = json.loads(log.read_text())
    key, row = DUPLICATE[game_id]
    cards = record["deal"][key] if row is None else record["deal"][key][row]
    cards[1] = cards[0]
    log.write_text("# one game\n" + json.dumps(record) + "\n")
    code, out, err = pnp("--root", str(repo), "check", game_id, str(log))
    assert code == 1, err
    assert out.startswith("line 2: the deal is not possible: ") and out.count("\n") == 1, out + err


def test_engine_messages_count_seats_from_1_like_the_summary(tmp_path: Path,
                                                            pnp: Run) -> None:
    from generator.engine.games.pirate_tricks import RULES
    from generator.load import load_game
    from generator.project import Project
    from tests.engine.test_check_named_players import a_game_with_a_revoke

    repo = Path(__file__).resolve().parents[2]
    actions, revoke, _follow, _colour = a_game_with_a_revoke(seed=4)
    state = RULES(load_game(Project.at(repo), "pirate-tricks")).new_game(3, 4)
    for text in actions:
        state.apply_action(state.string_to_action(text))
    seat = state.current_player()
    log = tmp_path / "table.log"
    log.write_text("\n".join(["game: pirate-tricks", "players: 3", "seed: 4", *actions, revoke]) + "\n")
    code, out, _err = pnp("--root", str(repo), "check", "pirate-tricks", str(log))
    assert code == 1
    assert out.startswith(f"line {len(actions) + 4}: seat {seat + 1} played {revoke.removeprefix('play ')} "), out
