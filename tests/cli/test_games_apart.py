"""A project's games stand apart: a data-only game builds beside the four shipped ones, and a broken game is
its own error line while the others are listed, validated and built; the exit code says something failed."""

from __future__ import annotations

import re

import pytest

from generator.project import Project
from tests.helpers import run_pnp

SHIPPED = ("counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire")


def _break(project: Project) -> None:
    """Two broken games beside the good ones: one whose YAML does not parse, one that fails validation."""
    wreck = project.data_dir / "wreck"
    wreck.mkdir()
    (wreck / "game.yaml").write_text("game:\n  id: wreck\n  title: [unclosed\n", encoding="utf-8")
    cards = project.data_dir / "miscount" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("value: 2, text: Look at one card in another player's hand., count: 3",
                                  "value: 2, text: Look at one card in another player's hand., count: 4"),
                     encoding="utf-8")


@pytest.mark.slow
def test_a_data_only_game_builds_beside_the_shipped_ones_and_broken_ones_do_not_stop_them(
        project_copy: Project, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(project_copy.root)
    for game_id in ("extra", "miscount"):
        assert run_pnp(capsys, "--root", root, "-q", "new", game_id)[0] == 0
    _break(project_copy)

    code, out, err = run_pnp(capsys, "--root", root, "list")
    assert code == 2 and err == "pnp: data/wreck/game.yaml:4: not valid YAML: did not find expected ',' or ']'\n"
    assert [line.split()[0] for line in out.splitlines()[2:] if line[:1].isalpha()] == [*SHIPPED, "extra", "miscount"]

    code, out, err = run_pnp(capsys, "--root", root, "validate", "--failures-only")
    assert code == 2
    heads = [line.split(":")[0] for line in out.splitlines() if re.match(r"^\S+: \d+ checks, ", line)]
    assert heads == [*SHIPPED, "extra", "miscount"]
    assert "  data/miscount/game.yaml:" in out and "contents: treasure cards: expected 12, got 13" in out
    assert err.splitlines() == ["pnp: miscount: 1 of 6 game(s) failed validation",
                                "pnp: data/wreck/game.yaml:4: not valid YAML: did not find expected ',' or ']'"]

    code, out, err = run_pnp(capsys, "--root", root, "-q", "build", "--paper", "a4")
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("pnp: miscount fails validation (1 check; first: data/miscount/game.yaml:")
    assert lines[1] == "pnp: data/wreck/game.yaml:4: not valid YAML: did not find expected ',' or ']'"
    output = project_copy.output_dir
    for game_id in (*SHIPPED, "extra"):
        assert (output / game_id / f"{game_id}-rules-a4.pdf").is_file(), game_id
    assert not (output / "miscount").exists() and not (output / "wreck").exists()
    gallery = (output / "index.html").read_text(encoding="utf-8")
    assert "Extra" in gallery and "Pirates Port: Counterattack" in gallery


def test_one_broken_game_alone_still_fails_as_before(project_copy: Project, capsys: pytest.CaptureFixture[str]) -> None:
    """Named alone, a broken game is the whole command's error, as it always was: one line, exit 2."""
    root = str(project_copy.root)
    assert run_pnp(capsys, "--root", root, "-q", "new", "miscount")[0] == 0
    _break(project_copy)
    code, out, err = run_pnp(capsys, "--root", root, "-q", "build", "wreck")
    assert (code, out) == (2, "")
    assert err == "pnp: data/wreck/game.yaml:4: not valid YAML: did not find expected ',' or ']'\n"
