"""Shared fixtures: the real project, and throw-away copies of it to mutate."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.project import Project
from tests.helpers import REPO, copy_sources


@pytest.fixture(scope="session", autouse=True)
def template_code_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Compiled templates go to a folder of this test run (and its subprocesses), not the user's cache."""
    folder = tmp_path_factory.mktemp("template-code")
    before = os.environ.get("PIRATE_PRESS_CACHE_DIR")
    os.environ["PIRATE_PRESS_CACHE_DIR"] = str(folder)
    yield folder
    if before is None:
        del os.environ["PIRATE_PRESS_CACHE_DIR"]
    else:
        os.environ["PIRATE_PRESS_CACHE_DIR"] = before


@pytest.fixture(scope="session")
def project() -> Project:
    """The real project (data/ and templates/ as committed). Never write into it from tests."""
    return Project.at(REPO)


@pytest.fixture
def project_copy(tmp_path: Path) -> Project:
    """A temporary copy of data/ and templates/ that a test may edit freely."""
    return copy_sources(tmp_path)
