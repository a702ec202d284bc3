"""Shared fixtures: the real project, and throw-away copies of it to mutate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.project import Project

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def project() -> Project:
    """The real project (data/ and templates/ as committed). Never write into it from tests."""
    return Project.at(REPO)


@pytest.fixture
def project_copy(tmp_path: Path) -> Project:
    """A temporary copy of data/ and templates/ that a test may edit freely."""
    for folder in ("data", "templates"):
        if (REPO / folder).is_dir():
            shutil.copytree(REPO / folder, tmp_path / folder)
    return Project.at(tmp_path)
