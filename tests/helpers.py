"""Small helpers for tests that edit a temporary copy of the project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine.registry import Registry
from generator.project import Project
from generator.render.faces.icons import Icon

REPO = Path(__file__).resolve().parents[1]


def copy_sources(root: Path) -> Project:
    """A project at `root` holding a copy of the real data/ and templates/ (output/ starts empty)."""
    for folder in ("data", "templates"):
        if (REPO / folder).is_dir():
            shutil.copytree(REPO / folder, root / folder)
    return Project.at(root)


def shipped_icon(name: str) -> Icon:
    """One icon of the shipped set (`templates/icons/`), for tests that make faces by hand."""
    from generator.render.faces.icons import icon_set

    return icon_set(Project.at(REPO), "").icon(name, None)


def edit(path: Path, old: str, new: str) -> None:
    """Replace exactly one occurrence of `old` in a file (fails loudly if it is not there once)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def run_pnp(capsys: pytest.CaptureFixture[str], *argv: str, registry: Registry | None = None) -> tuple[int, str, str]:
    """`pnp ARGV` in this process: (exit code, stdout, stderr); `registry` adds games of a test's own."""
    try:
        code = main(list(argv), registry) or 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
