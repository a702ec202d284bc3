"""The speed machinery is one switch away from plain drawing, with the same bytes (`generator.speed`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.speed import SWITCH, VERIFIED_REPORTLAB, reportlab_verified, speedups
from tests.helpers import REPO, copy_sources


def test_the_switch_turns_every_mechanism_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SWITCH, raising=False)
    assert speedups().memos and speedups().fork
    assert speedups().replay == reportlab_verified()
    for word in ("off", "OFF", "0", "no", "false"):
        monkeypatch.setenv(SWITCH, word)
        assert not any(vars(speedups()).values()) and not speedups().replay


def test_replays_run_only_on_a_verified_reportlab() -> None:
    assert reportlab_verified(VERIFIED_REPORTLAB[0] + "0")
    assert not reportlab_verified("5.2.0") and not reportlab_verified("4.4.1") and not reportlab_verified("15.1.0")


def _build(root: Path, switch: str) -> dict[str, bytes]:
    env = {**os.environ, SWITCH: switch, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(root), "build", "-q", "--booklet",
                           "--jobs", "2", "--paper", "a4"], check=False, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    output = root / "output"
    return {path.relative_to(output).as_posix(): path.read_bytes() for path in sorted(output.rglob("*"))
            if path.is_file() and ".cache" not in path.parts}


@pytest.mark.slow
def test_every_game_builds_the_same_bytes_with_the_machinery_on_and_off(tmp_path: Path) -> None:
    """Sheets, faces, previews, rulebooks (with their one-pass contents), booklets, score sheets and boards of
    all four games, on A4: drawn with the replays, memos and forked workers, and without."""
    on = _build(copy_sources(tmp_path / "on").root, "on")
    off = _build(copy_sources(tmp_path / "off").root, "off")
    assert len(on) > 200 and any(name.endswith("-rules-a4.pdf") for name in on)
    assert on.keys() == off.keys()
    differ = [name for name in on if on[name] != off[name]]
    assert differ == []
