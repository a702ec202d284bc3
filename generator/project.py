"""Where a project's folders are, and the guard that keeps every path inside them.

`pnp` works on the project folder it runs in (like a site generator), or on
`--root DIR`. Data and templates are untrusted: any path they name is resolved
here and refused if it leaves the project.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from generator.errors import DataError, Location
from generator.readgate import ReadGate

GAME_IDS = ("counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire")


@dataclass(frozen=True)
class Project:
    """A project folder, and the read gate every read of its files goes through.

    Each handle has its own gate (`generator.readgate`): a build session makes
    its own handle (`with_gate`) so that what its jobs read is recorded there.
    """

    root: Path
    gate: ReadGate = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.gate is None:
            object.__setattr__(self, "gate", ReadGate(self.root))

    @classmethod
    def at(cls, root: str | os.PathLike[str] | None = None) -> Project:
        return cls(Path(root or ".").resolve())

    def with_gate(self, gate: ReadGate) -> Project:
        """The same project read through `gate` (a build session's own)."""
        return replace(self, gate=gate)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def output_dir(self) -> Path:
        return self.root / "output"

    def display(self, path: Path) -> str:
        """A path as the user should see it in messages: relative to the project root."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def game_ids(self) -> list[str]:
        """Games present under data/, in the canonical order first, then any others by name."""
        if not self.data_dir.is_dir():
            return []
        present = {p.name for p in self.data_dir.iterdir() if p.is_dir() and (p / "game.yaml").is_file()}
        known = [g for g in GAME_IDS if g in present]
        return known + sorted(present - set(known))

    def inside(self, base: Path, relative: str, where: Location) -> Path:
        """Resolve `relative` under `base`, refusing absolute paths and escapes (.., symlinks)."""
        if not relative or os.path.isabs(relative) or relative.startswith(("~", "\\")):
            raise DataError(f"path {relative!r} must be relative to {self.display(base)}/", where)
        target = (base / relative).resolve()
        if not target.is_relative_to(self.root) or not target.is_relative_to(base.resolve()):
            raise DataError(f"path {relative!r} leaves {self.display(base)}/ (no '..' or links out)", where)
        return target


@contextmanager
def atomic_writer(path: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file that appears at `path` only when the block ends without error; a failed run
    leaves the old file (or none) and no temporary. Streamed, so it may outgrow memory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_atomic(path: Path, data: bytes) -> bool:
    """Write a file via a temporary file and a rename, so no half-written file is ever seen.

    Returns False (and leaves the file and its modification time alone) when the
    content is already identical, which keeps rebuilds cheap and watchers calm.
    """
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    with atomic_writer(path, binary=True) as handle:
        handle.write(data)
    return True
