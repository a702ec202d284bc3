"""Shared fixtures: the real project, and a throw-away copy of it for edits."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.engine.registry import REGISTRY
from generator.load import load_game
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAMES = list(REGISTRY.game_ids)  # every registered game has data and a rulebook: a missing one fails, never skips


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


@pytest.fixture(scope="session")
def books(project: Project, games: dict) -> dict[tuple[str, str], bytes]:
    """Every game's rulebook on both papers, built once for the tests that read them."""
    from generator.render.documents.rulebook import rulebook_pdf

    return {(g, paper): rulebook_pdf(games[g], project, paper) for g in GAMES for paper in ("a4", "letter")}


@pytest.fixture(scope="session")
def booklets(project: Project, games: dict) -> dict[tuple[str, str], bytes]:
    """Every game's rulebook as a saddle-stitched booklet on both papers, built once for the tests that read them."""
    from generator.render.documents.rulebook import rulebook_pdf

    return {(g, paper): rulebook_pdf(games[g], project, paper, booklet=True) for g in GAMES for paper in ("a4", "letter")}
