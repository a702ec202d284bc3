"""Where a project's folders are, and the guard that keeps every path inside them.

`pnp` works on the project folder it runs in (like a site generator), or on
`--root DIR`. Data and templates are untrusted: any path they name is resolved
here and refused if it leaves the project.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from generator.errors import DataError, Location, WriteError
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
        """Games present under data/, in the canonical order first, then any others by name.

        A folder with YAML files but no game.yaml is an error, not a game that silently disappears.
        """
        if not self.data_dir.is_dir():
            return []
        present = set()
        for folder in self.data_dir.iterdir():
            if not folder.is_dir() or folder.name.startswith("."):
                continue
            if (folder / "game.yaml").is_file():
                present.add(folder.name)
            elif any(folder.glob("*.yaml")):  # a game whose game.yaml was lost or misnamed must not vanish
                raise DataError(f"{self.display(folder)}/ holds YAML files but no game.yaml; add game.yaml "
                                f"(with a 'game:' section) or move the folder out of {self.display(self.data_dir)}/",
                                Location(f"{self.display(folder)}/game.yaml"))
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


# Temporary files of `atomic_writer`: `.<name>.<writer pid>.<random>.tmp`, beside the target.
_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp$")
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def shown(path: Path) -> str:
    """A path for a message: relative to the working folder when it lies inside it."""
    try:
        return os.path.relpath(path) if Path(path).absolute().is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


def refuse_unless_plain(path: Path) -> None:
    """Refuse to write over anything but a regular file: a device, a pipe, a folder, or a
    symbolic link (whose target may lie anywhere) is never replaced or written through."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise write_error(exc, path) from None
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise WriteError(f"{shown(path)} is {kind}; pnp only writes new paths or regular files: "
                     f"remove it or choose another path")


def write_error(exc: OSError, path: Path) -> WriteError:
    """An operating-system failure while writing `path`, as one line saying what to do."""
    where = shown(path)
    code = exc.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return WriteError(f"cannot write {where}: the disk is full; free some space and run again")
    if code == errno.EROFS:
        return WriteError(f"cannot write {where}: the file system is read-only; write to another folder")
    if code in (errno.EACCES, errno.EPERM):
        return WriteError(f"cannot write {where}: permission denied; make its folder writable or choose another path")
    if code in (errno.ENOTDIR, errno.EEXIST):
        blocker = next((p for p in [path, *path.parents] if p.exists() and not p.is_dir()), None)
        if blocker is not None and blocker != path:
            return WriteError(f"cannot write {where}: {shown(blocker)} is a file where a folder is needed; "
                              "move it away")
    if code == errno.EISDIR or path.is_dir():
        return WriteError(f"cannot write {where}: it is a folder; move the folder away")
    reason = exc.strerror or exc.__class__.__name__
    return WriteError(f"cannot write {where}: {reason}; check the path and the disk")


@contextmanager
def atomic_writer(path: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file that appears at `path` only when the block ends without error; a failed run
    leaves the old file (or none) and no temporary. Streamed, so it may outgrow memory.

    The temporary is created with mode 0666 so the user's umask decides the final
    permissions (0644 normally), as for any other file the user makes; its name
    carries our process id so that a later build can tell a killed writer's
    leftover (`clean_temporaries`) from a live one. Operating-system failures
    (disk full, read-only, a file where a folder should be) become one-line `WriteError`s.
    """
    refuse_unless_plain(path)
    tmp = ""
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # The temporary is named before it exists, so an interrupt (Ctrl-C, SIGTERM) at any point from
            # here on finds the name below and removes the file: no window between creating it and guarding it.
            for tmp in _temporary_names(path):
                with suppress(FileExistsError):  # a name taken (by a dead writer with our pid): the next one
                    fd = os.open(tmp, _TEMPORARY_FLAGS, 0o666)
                    break
            else:
                raise FileExistsError(errno.EEXIST, "no free temporary name", str(path))
        except OSError as exc:
            raise write_error(exc, path) from None
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp:
            with suppress(OSError):
                os.unlink(tmp)
        if isinstance(exc, OSError):
            raise write_error(exc, path) from None
        raise


_TEMPORARY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def _temporary_names(path: Path, attempts: int = 100) -> Iterator[str]:
    """Names for `path`'s temporary: beside it, with this process's id (see `clean_temporaries`)."""
    for _attempt in range(attempts):
        yield str(path.parent / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def clean_temporaries(folder: Path) -> list[Path]:
    """Remove the temporaries that killed writers left under `folder` (a build calls this at
    its start). A temporary whose writer process still runs is left alone."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for dirpath, _dirnames, filenames in os.walk(folder):
        for filename in filenames:
            match = _TEMPORARY.match(filename)
            if match is None or _alive(int(match.group("pid"))):
                continue
            leftover = Path(dirpath) / filename
            try:
                leftover.unlink()
                removed.append(leftover)
            except OSError:
                pass
    return sorted(removed)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name == "nt":  # signal 0 is not a probe there; a file still open cannot be removed anyway
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def write_atomic(path: Path, data: bytes) -> bool:
    """Write a file via a temporary file and a rename, so no half-written file is ever seen.

    Returns False (and leaves the file and its modification time alone) when the
    content is already identical, which keeps rebuilds cheap and watchers calm.
    """
    refuse_unless_plain(path)
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    with atomic_writer(path, binary=True) as handle:
        handle.write(data)
    return True
