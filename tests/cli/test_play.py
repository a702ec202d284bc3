"""`pnp play` in the terminal: whole games answered `1`, logs `pnp check` accepts, games stopped early,
undo without a new deal, hints, and nothing of another seat's hand on the screen."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from generator.engine.registry import Registry
from generator.project import Project
from tests import fifth_game
from tests.helpers import REPO, run_pnp

GAMES = ["counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire"]


class Answers(io.StringIO):
    """A person's answers on stdin; `interrupt_after` answers, Ctrl-C."""

    def __init__(self, text: str, interrupt_after: int | None = None) -> None:
        super().__init__(text)
        self.left = interrupt_after

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.left is not None:
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
        return super().readline()


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, root: Path, *argv: str,
         answers: str = "", interrupt_after: int | None = None,
         registry: Registry | None = None) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", Answers(answers, interrupt_after))
    return run_pnp(capsys, "--root", str(root), "play", *argv, registry=registry)


@pytest.fixture
def nim_root(tmp_path: Path) -> Path:
    fifth_game.make_project(tmp_path / "nim")
    return tmp_path / "nim"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", [*GAMES, "nim"])
def test_a_whole_game_answering_1_writes_a_log_check_accepts(
        game_id: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path, nim_root: Path) -> None:
    root, registry = (nim_root, fifth_game.REGISTRY) if game_id == "nim" else (REPO, None)
    log = tmp_path / "game.jsonl"
    code, out, err = play(capsys, monkeypatch, root, game_id, "--seed", "3", "--log", str(log),
                          answers="1\n" * 2000, registry=registry)
    assert code == 0, err
    assert "game over. scores: you " in out
    assert re.search(r"^(won by .+|nobody won)$", out, re.M)
    assert out.rstrip().splitlines()[-1].startswith("saved the game (seed 3, ")
    assert "seed" not in out.splitlines()[0]  # the seed tells the deal: said only once the game is over
    record = json.loads(log.read_text())
    assert record["game"] == game_id and record["seed"] == 3 and "result" in record
    code, out, err = run_pnp(capsys, "--root", str(root), "check", game_id, str(log), registry=registry)
    assert code == 0, out + err
    assert out.startswith("legal: ") and "won by" in out


@pytest.mark.parametrize(("how", "answers", "interrupt", "code", "said"), [
    ("end of input", "1\n1\n1\n", None, 0, "input ended: saved the unfinished game (")
    , ("quit", "1\n1\nquit\n", None, 0, "stopped: saved the unfinished game (")
    , ("Ctrl-C", "1\n1\n1\n1\n", 2, 130, "interrupted: saved the unfinished game (")
])
def test_a_game_stopped_halfway_is_saved_and_refused_only_as_unfinished(
        how: str, answers: str, interrupt: int | None, code: int, said: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, nim_root: Path) -> None:
    log = tmp_path / "part.jsonl"
    got, out, err = play(capsys, monkeypatch, REPO, "counterattack", "--seed", "8", "--log", str(log),
                         answers=answers, interrupt_after=interrupt)
    assert got == code, err
    last = out.rstrip().splitlines()[-1]
    assert last.startswith(said) and str(log) in last, how
    assert err == ""  # the one line says it all: no 'pnp: interrupted' after it
    record = json.loads(log.read_text())
    assert "result" not in record and len(record["actions"]) >= 2
    got, out, _err = run_pnp(capsys, "--root", str(REPO), "check", "counterattack", str(log))
    assert got == 1
    assert re.fullmatch(r"line 1: unfinished game: the log ends here, after \d+ actions, but the game is not "
                        r"over \(you to act\); the game was stopped early or the log is truncated\n", out), out


def test_undo_goes_back_to_the_last_decision_on_the_same_deal(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    straight, with_undo = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    play(capsys, monkeypatch, REPO, "counterattack", "--seed", "4", "--log", str(straight), answers="1\n2\n")
    code, out, _err = play(capsys, monkeypatch, REPO, "counterattack", "--seed", "4", "--log", str(with_undo),
                           answers="1\n3\nundo\n2\n")
    assert code == 0
    assert "undone: back to your move 2" in out
    a, b = json.loads(straight.read_text()), json.loads(with_undo.read_text())
    assert a == b  # the same deal, and the bots answered the same after the undo
    code, out, _err = play(capsys, monkeypatch, REPO, "counterattack", "--seed", "4", "--log", str(with_undo),
                           answers="undo\n")
    assert "nothing to undo: you have not moved yet" in out


def test_hint_help_and_bad_answers_say_one_line_and_ask_again(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out, _err = play(capsys, monkeypatch, REPO, "counterattack", "--seed", "4", "--log",
                           str(tmp_path / "g.jsonl"), answers="hint\nhelp\n42\nplay 99 anchors\nquit\n")
    assert code == 0
    hint = next(line for line in out.splitlines() if line.startswith("hint: "))
    assert re.match(r"hint: (play \d+ \w+|flip exposed port): in \d+ play-outs from deals consistent with what "
                    r"you see, it scored [01]\.\d\d", hint), hint
    assert "undo            back to your previous decision" in out
    assert "there is no move 42: choose 1 to " in out
    assert "unreadable action 'play 99 anchors'" in out


@pytest.mark.parametrize(("argv", "message"), [
    (("--players", "7"), "--players 7: counterattack is played by 1, 2 players"),
    (("--seat", "3"), "--seat 3: a table of 2 has seats 1 to 2"),
    (("--bots", "heuristic,random"), "--bots names 2 bots for 1 other seats"),
    (("--bots", "clever"), "unknown bot 'clever'"),
])
def test_bad_options_are_one_line(argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = play(capsys, monkeypatch, REPO, "counterattack", *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_screen_never_names_a_card_in_another_hand_nor_another_seat_s_bid(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from generator.load import load_game

    log = tmp_path / "pt.jsonl"
    code, out, _err = play(capsys, monkeypatch, REPO, "pirate-tricks", "--players", "3", "--seed", "11",
                           "--log", str(log), answers="1\n" * 6)
    assert code == 0
    record = json.loads(log.read_text())
    rules = Registry().engine("pirate-tricks").rules(load_game(Project.at(REPO), "pirate-tricks"))
    state = rules.new_state(3, record["deal"])
    face_up = {c for row in state.observation(0)["rows"] for c in row["face_up"]}  # a row won goes to a hand
    for text in record["actions"]:
        state.apply_action(state.string_to_action(text))
    names = rules.config.card_names
    face_up |= {c for shown in state.observation(0)["shown"] for c in shown}  # laid out for recruitment
    face_up |= {c for _row, cards in state.observation(0)["last_ties"] for c in cards}  # tie cards, turned up
    hidden = [names[c] for seat in (1, 2) for c in state.hands[seat] if c not in face_up]  # type: ignore[attr-defined]
    assert hidden
    for name in hidden:
        assert not re.search(rf"(?<!\d){name}\b", out), name
    assert "seat 2 (heuristic): bids" in out and not re.search(r"seat [23] \(heuristic\): bid \d", out)
