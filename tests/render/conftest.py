"""Render fixtures: a throw-away project holding only Counterattack (stable while other games change)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.load import load_game
from generator.model import Game
from generator.project import Project

REPO = Path(__file__).resolve().parents[2]
def make_project(root: Path) -> Project:
    shutil.copytree(REPO / "data" / "counterattack", root / "data" / "counterattack")
    shutil.copytree(REPO / "templates" / "layouts" / "counterattack", root / "templates" / "layouts" / "counterattack")
    shutil.copytree(REPO / "templates" / "icons", root / "templates" / "icons")  # the project's icon set
    shutil.copytree(REPO / "templates" / "art" / "counterattack", root / "templates" / "art" / "counterattack")
    (root / "templates" / "rulebooks").mkdir(parents=True)  # validation (and so a build) needs the rulebook
    shutil.copy(REPO / "templates" / "rulebooks" / "counterattack.md.j2", root / "templates" / "rulebooks")
    shutil.copytree(REPO / "templates" / "sheets" / "counterattack", root / "templates" / "sheets" / "counterattack")
    return Project.at(root)


@pytest.fixture(scope="session")
def ca_project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return make_project(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="session")
def ca_game(ca_project: Project) -> Game:
    return load_game(ca_project, "counterattack")


@pytest.fixture
def fresh_project(tmp_path: Path) -> Project:
    """A private copy a test may edit (layouts, data)."""
    return make_project(tmp_path)


@pytest.fixture(scope="session")
def all_games_built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """All four games built once with the default options (sheets on every paper, no previews), shared."""
    from generator.build.options import BuildOptions
    from generator.build.session import build
    from generator.render.exports.registry import SHEETS
    from tests.helpers import copy_sources

    project = copy_sources(tmp_path_factory.mktemp("all-games"))
    build(project, (), BuildOptions(exports=(SHEETS,), jobs=2))
    return project
