"""Shared fixtures: the real project, and throw-away copies of it to mutate."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.project import Project
from generator.user_cache import private_folder
from tests.helpers import REPO, copy_sources

# the runs' bytecode folder, the PYTHONDONTWRITEBYTECODE it stands in for (where the environment forbids
# __pycache__), and this process's own bytecode settings before the run
BYTECODE = pytest.StashKey[tuple[str, str, str | None, bool]]()


def pytest_configure(config: pytest.Config) -> None:
    """Where the environment forbids bytecode files (PYTHONDONTWRITEBYTECODE, common in containers), every
    `pnp` process a test starts, and every xdist worker, would compile the package and the tests from source
    again, run after run: they share a bytecode folder in the user's cache instead (PYTHONPYCACHEPREFIX, kept
    between runs, so only the first run on a machine compiles), and the checkout stays free of __pycache__
    as the environment asked. Set before xdist starts its workers. This process uses the folder too, from
    here on (the documented `sys.pycache_prefix`): pytest rewrites the asserts of every module of a plugin's
    distribution, and without a place to keep them it rewrote all of Hypothesis's again at each run's end
    (1-2 s, for its summary)."""
    forbidden = os.environ.get("PYTHONDONTWRITEBYTECODE")
    if forbidden and "PYTHONPYCACHEPREFIX" not in os.environ and "PYTEST_XDIST_WORKER" not in os.environ:
        folder = bytecode_folder()
        if folder is not None:
            config.stash[BYTECODE] = (str(folder), forbidden, sys.pycache_prefix, sys.dont_write_bytecode)
            os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
            del os.environ["PYTHONDONTWRITEBYTECODE"]
            sys.pycache_prefix, sys.dont_write_bytecode = str(folder), False


def bytecode_folder() -> Path | None:
    """The test runs' bytecode folder: under XDG_CACHE_HOME (or ~/.cache), private to the user as the
    product's own caches are (`user_cache.private_folder`: what it holds is run); None where it cannot be
    made or trusted (then modules compile from source, as the environment asked)."""
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found
        return None
    folder = base / "pirate-press" / "test-bytecode"
    return folder if private_folder(folder) else None


def pytest_unconfigure(config: pytest.Config) -> None:
    kept = config.stash.get(BYTECODE, None)
    if kept is not None:  # the folder stays for the next run; the environment is given back as it was
        _folder, forbidden, prefix, dont_write = kept
        os.environ["PYTHONDONTWRITEBYTECODE"] = forbidden
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        sys.pycache_prefix, sys.dont_write_bytecode = prefix, dont_write


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


# Shared fixtures too cheap to be worth keeping their tests on one worker.
CHEAP_SHARED = frozenset({"project", "games", "ca_project", "ca_game", "template_code_cache"})


def pytest_itemcollected(item: pytest.Item) -> None:
    """Tests that share a built session or module fixture (a whole build, every rulebook) run on one xdist
    worker, so it is built once, not once per worker (pyproject's `--dist loadgroup` reads the groups)."""
    group = shared_build(item)
    if group and item.get_closest_marker("xdist_group") is None:
        item.add_marker(pytest.mark.xdist_group(group))


def shared_build(item: pytest.Item) -> str | None:
    """The group of the costliest shared fixture `item` uses: a session fixture's conftest, else its module."""
    info = getattr(item, "_fixtureinfo", None)  # what pytest resolved for the item (None on non-function items)
    if info is None:
        return None
    module = None
    for name in item.fixturenames:  # type: ignore[attr-defined]
        definitions = info.name2fixturedefs.get(name)
        if not definitions or name in CHEAP_SHARED or not definitions[-1].baseid.startswith("tests"):
            continue  # a cheap shared fixture, or pytest's own (tmp_path, tmp_path_factory)
        scope = definitions[-1].scope
        if scope == "session":  # one group per conftest: its session fixtures (books, booklets) share a worker
            return f"{definitions[-1].baseid} session"
        if scope == "module":
            module = item.nodeid.split("::")[0]
    return module
