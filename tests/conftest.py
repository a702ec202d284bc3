"""Shared fixtures: the real project, and throw-away copies of it to mutate."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.project import Project
from tests.helpers import REPO, copy_sources


@pytest.fixture(scope="session")
def project() -> Project:
    """The real project (data/ and templates/ as committed). Never write into it from tests."""
    return Project.at(REPO)


@pytest.fixture
def project_copy(tmp_path: Path) -> Project:
    """A temporary copy of data/ and templates/ that a test may edit freely."""
    return copy_sources(tmp_path)
