"""Fixtures for engine tests: a project holding the toy Nim game."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.engine import registry
from tests.engine import toy_nim as toy


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder whose only game is Nim, with its engine registered for this test."""
    (tmp_path / "data" / "nim").mkdir(parents=True)
    (tmp_path / "data" / "nim" / "game.yaml").write_text(toy.GAME_YAML)
    monkeypatch.setitem(registry.ENGINES, "nim", "tests.engine.toy_nim")
    return tmp_path
