"""`pnp` as a process (the script, `python -m generator`) exits as `sys.exit` does: the same status, every line
of output, exit handlers run, a running thread waited for, and a build's files and manifest complete."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import copy_sources

ENTRY = "from generator.cli import main\nmain()\n"  # what the `pnp` script does: main() without arguments


def pnp(*args: str, before: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", before + ENTRY, *args], check=False, capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_output_through_a_pipe_is_complete_and_exit_handlers_run() -> None:
    done = pnp("--help", before="import atexit\natexit.register(lambda: print('handler ran'))\n")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Usage: pnp") and "export-items" in done.stdout
    assert lines[-1] == "handler ran"  # after everything the command printed


def test_an_error_keeps_its_exit_status_and_one_line(tmp_path: Path) -> None:
    done = pnp("--root", str(tmp_path / "missing"), "validate")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"pnp: --root '{tmp_path / 'missing'}' is not a folder"]


def test_a_thread_still_running_is_waited_for() -> None:
    thread = ("import threading, time\n"
              "threading.Thread(target=lambda: (time.sleep(0.3), print('thread done', flush=True))).start()\n")
    done = pnp("--version", before=thread)
    assert done.returncode == 0
    # both lines, in whichever order the thread's flush and the exit's flush came (a loaded machine may be slower
    # than the thread's 0.3 s): what matters is that the process waited for the thread
    assert sorted(done.stdout.splitlines()) == ["pnp, version 0.1.0", "thread done"]


@pytest.mark.slow
def test_a_build_in_its_own_process_leaves_complete_files_and_manifest(tmp_path: Path) -> None:
    """Two processes in a row: the second finds the first's manifest whole, so it has nothing to redo."""
    copy_sources(tmp_path)
    args = ("--root", str(tmp_path), "build", "counterattack", "--paper", "a4", "--jobs", "2")
    first = pnp(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("built ") and "written" in first.stdout
    again = pnp(*args)
    assert again.returncode == 0, again.stderr
    assert "(0 written," in again.stdout and "0 jobs run" in again.stdout
    assert (tmp_path / "output" / "index.html").is_file()
