"""`pnp check` reads a log a bounded line at a time: `/dev/zero`, a giant line or a giant log is one line at its
place in the log, never a MemoryError or gigabytes held (issue 30)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from generator.engine.replay import MAX_LINE_BYTES, LogError, read_log
from generator.project import Project
from tests.helpers import run_pnp


def test_dev_zero_is_a_line_too_long(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_pnp(capsys, "--root", str(project.root), "check", "counterattack", "/dev/zero")
    assert code == 1 and not out and "Traceback" not in err
    assert err.strip() == (f"pnp: /dev/zero:1: line 1 is longer than {MAX_LINE_BYTES >> 20} MB; a logged game is a "
                           "few kilobytes (is this a log?)")


def test_a_giant_line_is_refused_at_its_line(tmp_path: Path) -> None:
    log = tmp_path / "games.log"
    log.write_bytes(b'{"game": "counterattack"}\n' + b'{"game": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n')
    with pytest.raises(LogError) as info:
        read_log(log, "games.log")
    assert str(info.value).startswith("games.log:2: line 2 is longer than")


def test_bad_utf8_is_named_at_its_line(tmp_path: Path) -> None:
    log = tmp_path / "games.log"
    log.write_bytes(b"game: counterattack\nplayers: 1\n\xff\xfe\n")
    with pytest.raises(LogError) as info:
        read_log(log, "games.log")
    assert str(info.value) == "games.log:3: the log is not UTF-8 text; save it as UTF-8"


@pytest.mark.slow
def test_a_1_gb_line_is_read_in_bounded_memory(project: Project, tmp_path: Path) -> None:
    log = tmp_path / "huge.log"
    with log.open("wb") as handle:  # sparse: a gigabyte of NUL bytes without writing them
        handle.truncate(1 << 30)

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(project.root), "check", "counterattack",
                           str(log)], capture_output=True, text=True, timeout=60, preexec_fn=limit_memory, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().endswith("huge.log:1: line 1 is longer than 4 MB; a logged game is a few kilobytes "
                                        "(is this a log?)")
