"""Fixtures for engine tests: a project holding the fifth game (Nim, the example engine), and `pnp` on it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests import fifth_game
from tests.helpers import run_pnp

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A project folder whose only game is Nim (tests/fifth_game)."""
    fifth_game.make_project(tmp_path)
    return tmp_path


@pytest.fixture
def pnp(capsys: pytest.CaptureFixture[str]) -> Run:
    """`pnp ARGV` in this process with Nim's engine registered: (exit code, stdout, stderr)."""
    def run(*argv: str) -> tuple[int, str, str]:
        return run_pnp(capsys, *argv, registry=fifth_game.REGISTRY)
    return run
