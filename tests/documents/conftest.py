"""Shared fixtures: the real project, and a throw-away copy of it for edits."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.load import load_game
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAMES = [g for g in ("counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire")
         if (ROOT / "data" / g / "game.yaml").is_file() and (ROOT / "templates" / "rulebooks" / f"{g}.md.j2").is_file()]


@pytest.fixture(scope="session")
def project() -> Project:
    return Project.at(ROOT)


@pytest.fixture(scope="session")
def games(project: Project) -> dict:
    return {g: load_game(project, g) for g in GAMES}


@pytest.fixture()
def copy_project(tmp_path: Path) -> Project:
    """A copy of data/ and templates/ that a test may edit freely."""
    for folder in ("data", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return Project.at(tmp_path)
