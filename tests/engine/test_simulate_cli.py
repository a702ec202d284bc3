"""`pnp simulate` end to end on the toy Nim engine: outputs, determinism, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.engine.conftest import Run


@pytest.mark.slow
def test_json_report_and_log_identical_for_jobs_1_and_2(root: Path, pnp: Run) -> None:
    outputs = []
    for jobs in ("1", "2"):
        code, out, _err = pnp("-q", "--root", str(root), "simulate", "nim", "--games", "2100", "--players", "3",
                              "--bots", "heuristic,random,random", "--seed", "12", "--jobs", jobs, "--json",
                              "--report", str(root / f"r{jobs}.pdf"), "--log", str(root / f"g{jobs}.jsonl"))
        assert code == 0
        outputs.append(out)
    assert outputs[0] == outputs[1]
    assert (root / "r1.pdf").read_bytes() == (root / "r2.pdf").read_bytes()
    assert (root / "r1.pdf").read_bytes().startswith(b"%PDF")
    assert (root / "g1.jsonl").read_bytes() == (root / "g2.jsonl").read_bytes()
    summary = json.loads(outputs[0])
    assert summary["games"] == 2100 and summary["bots"] == ["heuristic", "random", "random"]
    assert [e["seat"] for e in summary["seats"]] == [1, 2, 3]
    assert len((root / "g1.jsonl").read_text().splitlines()) == 2100


def test_text_output_names_seats_and_solo_rate(root: Path, pnp: Run) -> None:
    code, out, _err = pnp("--root", str(root), "simulate", "nim", "--games", "200", "--bot", "random")
    assert code == 0
    assert out.startswith("Plunder Pile: 200 games, 1 player, seed 1\nsolo win rate ")
    assert "95% CI" in out and "lost games" in out and "take-1" in out
    assert re.search(r"\(95% CI -?\d+\.\d% to -?\d+\.\d%\)", out), out  # 'a to b': signed bounds stay readable


def test_user_bot_by_module_path(root: Path, pnp: Run) -> None:
    code, out, _err = pnp("--root", str(root), "simulate", "nim", "--games", "100", "--players", "2",
                          "--bots", "generator.engine.games.example.bots:HeuristicBot,random", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["seats"][0]["rate"] > 0.9


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "mybots:Nope"], "pnp: bot 'mybots:Nope': cannot import module 'mybots'"),
        (["--players", "5"], "pnp: --players 5: nim is played by 1, 2, 3 players"),
        (["--bots", "random,random"], "pnp: --bots names 2 bots for 1 seats"),
    ],
)
def test_bad_options_are_one_clean_line(root: Path, pnp: Run, args: list[str],
                                        message: str) -> None:
    code, out, err = pnp("--root", str(root), "simulate", "nim", "--games", "10", *args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1
    assert not (root / "output").exists()


def test_report_is_deterministic(root: Path, pnp: Run) -> None:
    for name in ("a.pdf", "b.pdf"):
        code, _out, _err = pnp("-q", "--root", str(root), "simulate", "nim", "--games", "300",
                               "--report", str(root / name))
        assert code == 0
    assert (root / "a.pdf").read_bytes() == (root / "b.pdf").read_bytes()


def test_user_bot_module_in_the_working_directory(root: Path, pnp: Run,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (root / "my_nim_bots.py").write_text(
        "from generator.engine.base import Bot\n\n"
        "class AlwaysOne(Bot):\n"
        "    name = 'one'\n\n"
        "    def choose(self, observation, legal):\n"
        "        return legal[0]\n")
    monkeypatch.chdir(root)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", str(root))])
    code, out, err = pnp("--root", str(root), "simulate", "nim", "--games", "50", "--players", "2",
                         "--bots", "my_nim_bots:AlwaysOne,heuristic", "--json", "--check")
    assert code == 0, err
    assert json.loads(out)["bots"] == ["my_nim_bots:AlwaysOne", "heuristic"]


def test_terminal_table_shows_start_positions_and_the_gallery_copy_is_written(root: Path, pnp: Run) -> None:
    code, out, _err = pnp("-q", "--root", str(root), "simulate", "nim", "--games", "100", "--players", "2",
                          "--bot", "heuristic")
    assert code == 0
    assert "start position" in out and "(the rules fix who opens: start position 1 is seat 1)" in out
    saved = json.loads((root / "output" / "nim" / "simulation.json").read_text())
    assert set(saved) == {"headline", "summary"} and saved["summary"]["by_position"][0]["position"] == 1
    assert saved["headline"]["games"] == "100 with 2 player(s), seed 1"


@pytest.mark.parametrize("address", ["notanaddress", "tcp://host", "http://10.0.0.5:8786", "tcp://:8786", "",
                                     "tcp://10.0.0.5:port"])
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_a_malformed_scheduler_address_is_one_line_exit_2(root: Path, pnp: Run, command: str, address: str) -> None:
    """Dask's own parser used to end these in a ValueError traceback, exit 1, after loading the game."""
    extra = ["--vary", "rules.take_max=2,3"] if command == "sweep" else []
    code, out, err = pnp("--root", str(root), command, "nim", "--games", "5", *extra, "--scheduler", address)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"pnp: --scheduler {address!r}: ") and "tcp://HOST:PORT" in err
