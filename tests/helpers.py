"""Small helpers for tests that edit a temporary copy of the project."""

from __future__ import annotations

from pathlib import Path


def edit(path: Path, old: str, new: str) -> None:
    """Replace exactly one occurrence of `old` in a file (fails loudly if it is not there once)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")
