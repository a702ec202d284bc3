"""The read gate: every read of a project file goes through here, and is remembered.

Data and templates are untrusted, and a build must know exactly which bytes
each of its jobs read (as ninja's depfiles or Bazel's action inputs do). So
there is one way in, `ReadGate`, owned by whoever owns the project handle (a
build session, or a one-off command):

* it resolves the real path and refuses anything outside the project root
  (a symlinked template, an `{% include %}` that reaches a link, a game folder
  linked out of `data/`), and anything that is not a regular file (a FIFO
  named `cards.yaml` must not hang the command);
* it records the sha256 of the bytes it returned into every open recording
  (`with gate.recording() as reads:`), so a job's inputs are what it actually
  opened, digested when read, never re-read later;
* it answers "is this recorded input still what was read?" cheaply
  (`changed`), reusing a file's hash while its size, modification and change
  times and inode stay the same (a file is only remembered when those times
  were over 2 s old as it was hashed, as git does); a new process keeps no
  such memo: it hashes what it checks;
* it caches derived objects (a loaded game, a compiled layout) with the
  reads they were built from (`derived`): a caller that uses one inherits
  those reads, and the object is rebuilt when any of them changed.

Recorded names: a file is its path relative to the project root; `?path`
records whether a file exists; `ls:dir/pattern` records a folder listing.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import stat
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from generator.errors import DataError, Location

T = TypeVar("T")

ABSENT = "absent"  # the digest of a file or folder that is not there
OUTSIDE = "outside-the-project"
NOT_A_FILE = "not-a-regular-file"
CHANGED_WHILE_READ = "changed-while-read"  # read twice with different bytes: never matches, so it rebuilds
RACY_NS = 2_000_000_000  # within this of now, a timestamp cannot vouch for the content
MAX_READ = 256 << 20  # no project file is larger than this


class ReadSet:
    """Recorded inputs: name -> digest of what was read. Plain data, so it pickles from workers."""

    def __init__(self, entries: Mapping[str, str] | None = None) -> None:
        self.entries: dict[str, str] = dict(entries or {})

    def add(self, name: str, digest: str) -> None:
        known = self.entries.get(name)
        self.entries[name] = digest if known is None or known == digest else CHANGED_WHILE_READ

    def merge(self, other: ReadSet | Mapping[str, str]) -> None:
        """`add` every entry of `other`, in one dict update (builds merge cached objects' reads thousands
        of times): names read with other bytes before become CHANGED_WHILE_READ, as `add` makes them."""
        source = other.entries if isinstance(other, ReadSet) else other
        entries = self.entries
        clashes = [name for name in source.keys() & entries.keys() if entries[name] != source[name]] if entries else []
        entries.update(source)
        for name in clashes:
            entries[name] = CHANGED_WHILE_READ

    def as_dict(self) -> dict[str, str]:
        return dict(sorted(self.entries.items()))

    def __len__(self) -> int:
        return len(self.entries)


@dataclass
class _Derived:
    value: Any
    reads: ReadSet
    generation: int


@dataclass
class ReadGate:
    """The one way to read a project's files; see the module doc."""

    root: Path
    # A build session bumps `generation` at each build and derived objects are re-checked once per build;
    # a one-off handle (`per_build=False`) re-checks them at every use.
    per_build: bool = False
    generation: int = 0
    _recordings: list[ReadSet] = field(default_factory=list, repr=False)
    _hashes: dict[str, tuple[int, int, int, int, str]] = field(default_factory=dict, repr=False)
    _derived: dict[Hashable, _Derived] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(os.path.realpath(self.root))

    # -- names -------------------------------------------------------------------------

    def name(self, path: Path) -> str:
        """The recorded name of `path`: relative to the project root when it lies under it."""
        absolute = Path(os.path.abspath(self.root / path))
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix()

    def path(self, name: str) -> Path:
        return self.root / name

    def _real(self, path: Path, where: Location | None) -> Path:
        """The real path of `path`, refused when it leaves the project."""
        real = Path(os.path.realpath(self.root / path))
        if not real.is_relative_to(self.root):
            name = self.name(path)
            raise DataError(f"{name} leads outside the project (to {real}); copy it into the project "
                            "instead of linking to it", where or Location(name))
        return real

    # -- reading -----------------------------------------------------------------------

    def read_bytes(self, path: Path, where: Location | None = None, limit: int = MAX_READ) -> bytes:
        """The file's bytes, recorded; refused outside the project, for non-files and above `limit`."""
        name = self.name(path)
        where = where or Location(name)
        real = self._real(path, where)
        data, digest = self._read(real, name, where, limit)
        self._record(name, digest)
        return data

    def read_text(self, path: Path, where: Location | None = None, limit: int = MAX_READ) -> str:
        """The file as UTF-8 text (a bad byte is reported at its line)."""
        data = self.read_bytes(path, where, limit)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise DataError("not UTF-8 text (save the file as UTF-8)", Location(self.name(path), line)) from None

    def exists(self, path: Path, where: Location | None = None) -> bool:
        """Is `path` a regular file? Recorded, so creating or deleting it later counts as a change."""
        name = self.name(path)
        self._real(path, where)
        state = self._state(path)
        self._record(f"?{name}", state)
        return state == "file"

    def listdir(self, folder: Path, pattern: str = "*", where: Location | None = None) -> list[Path]:
        """Entries of `folder` matching `pattern`, by name; the listing is recorded."""
        name = self.name(folder)
        real = self._real(folder, where)
        names = _listing(real, pattern)
        self._record(f"ls:{name}/{pattern}", _listing_digest(names))
        return [folder / entry for entry in names or ()]

    def _read(self, real: Path, name: str, where: Location, limit: int) -> tuple[bytes, str]:
        try:
            info = os.stat(real)
            if not stat.S_ISREG(info.st_mode):
                raise DataError(f"{name} is not a regular file ({_kind(info.st_mode)}); "
                                "replace it with a file", where)
            if info.st_size > limit:
                raise DataError(f"file too large ({info.st_size} bytes; at most {limit})",
                                Location(where.file, where.line or 1))
            # Non-blocking and no link following: a FIFO or a link swapped in since the check
            # fails here instead of hanging or escaping.
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise DataError(f"{name} does not exist", where) from None
        except OSError as exc:
            raise DataError(f"cannot read {name}: {exc.strerror}", where) from None
        try:
            before = os.fstat(fd)
            if not stat.S_ISREG(before.st_mode):
                raise DataError(f"{name} is not a regular file ({_kind(before.st_mode)})", where)
            chunks = []
            size = 0
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise DataError(f"file too large (over {limit} bytes)", Location(where.file, where.line or 1))
            after = os.fstat(fd)
        except OSError as exc:
            raise DataError(f"cannot read {name}: {exc.strerror}", where) from None
        finally:
            os.close(fd)
        data = b"".join(chunks)
        digest = hashlib.sha256(data).hexdigest()
        stamp = _stamp(before)
        settled = time.time_ns() - max(before.st_mtime_ns, before.st_ctime_ns) > RACY_NS
        if settled and stamp == _stamp(after) and size == before.st_size:
            # Only a file whose times were already old when it was hashed: a later write within the
            # same timestamp tick would otherwise leave every stamp as it was (git's "racy" case).
            self._hashes[str(real)] = (*stamp, digest)
        return data, digest

    # -- recording ---------------------------------------------------------------------

    @contextmanager
    def recording(self) -> Iterator[ReadSet]:
        """Collect every read made inside the block (recordings nest: outer ones see inner reads)."""
        reads = ReadSet()
        self._recordings.append(reads)
        try:
            yield reads
        finally:
            self._recordings.remove(reads)

    def inherit(self, reads: ReadSet | Mapping[str, str]) -> None:
        """Count reads made earlier (a cached object's, a worker's) as made now, in every open recording."""
        for recording in self._recordings:
            recording.merge(reads)

    def _record(self, name: str, digest: str) -> None:
        for recording in self._recordings:
            recording.add(name, digest)

    # -- freshness ---------------------------------------------------------------------

    def current(self, name: str, folders: dict[str, str] | None = None) -> str:
        """What a recorded name's digest would be if it were read now (`folders`: see `_stat_inside`)."""
        if name.startswith("ls:"):
            folder, _, pattern = name[3:].rpartition("/")
            real = Path(os.path.realpath(self.path(folder)))
            if not real.is_relative_to(self.root):
                return OUTSIDE
            return _listing_digest(_listing(real, pattern))
        if name.startswith("?"):
            if folders is not None and os.sep == "/":
                state = self._plain_state(name[1:], folders)
                if state is not None:
                    return state
            return self._state(self.path(name[1:]), folders)
        if folders is not None and os.sep == "/":
            known_now = self._unchanged_digest(name, folders)
            if known_now is not None:
                return known_now
        real, info = self._stat_inside(self.path(name), folders)
        if isinstance(info, str):
            return info
        if not stat.S_ISREG(info.st_mode):
            return NOT_A_FILE
        known = self._hashes.get(str(real))
        if known is not None and known[:4] == _stamp(info):
            return known[4]
        try:
            return self._read(real, name, Location(name), MAX_READ)[1]
        except DataError:
            return NOT_A_FILE

    def _plain_real(self, name: str, folders: dict[str, str]) -> str | None:
        """The real path of a plain name (no empty, `.` or `..` part) whose folder resolves inside the project,
        as `_stat_inside` finds it, on strings; None for any other name."""
        parts = name.split("/")
        if "" in parts or "." in parts or ".." in parts:
            return None
        root = str(self.root)
        base = parts[-1]
        folder = root if len(parts) == 1 else f"{root}/{name[:-len(base) - 1]}"
        real_folder = folders.get(folder)
        if real_folder is None:
            real_folder = folders[folder] = os.path.realpath(folder)
        real = f"{real_folder}/{base}" if real_folder != "/" else f"/{base}"
        if root != "/" and not real.startswith(f"{root}/"):
            return None
        return real

    def _plain_state(self, name: str, folders: dict[str, str]) -> str | None:
        """`_state` of a plain name on strings: "file", ABSENT or what else it is; None (the general way
        decides) for a link in the last place, an odd name or a folder outside the project."""
        real = self._plain_real(name, folders)
        if real is None:
            return None
        try:
            info = os.lstat(real)
        except FileNotFoundError:
            return ABSENT
        except OSError:
            return None
        if stat.S_ISLNK(info.st_mode):
            return None
        return "file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)

    def _unchanged_digest(self, name: str, folders: dict[str, str]) -> str | None:
        """`current`'s common case on plain strings (a pass of `changed` looks at hundreds of names): a plain
        name whose file, inside the project and no link, still has the stamp it was hashed with. None for
        anything else (a link, an odd name, a file not known or changed), which the general way decides."""
        real = self._plain_real(name, folders)
        if real is None:
            return None
        known = self._hashes.get(real)
        if known is None:
            return None
        try:
            info = os.lstat(real)
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode) or known[:4] != _stamp(info):
            return None
        return known[4]

    def changed(self, reads: ReadSet | Mapping[str, str]) -> list[str]:
        """Recorded names whose content is no longer what was read (empty: all still current)."""
        entries = reads.entries if isinstance(reads, ReadSet) else reads
        folders: dict[str, str] = {}  # the real path of each folder, resolved once for this pass
        return [name for name, digest in entries.items() if self.current(name, folders) != digest]

    def _state(self, path: Path, folders: dict[str, str] | None = None) -> str:
        _real, info = self._stat_inside(self.root / path, folders)
        if isinstance(info, str):
            return info
        return "file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)

    def _stat_inside(self, path: Path, folders: dict[str, str] | None = None) -> tuple[Path, os.stat_result | str]:
        """The real path and its stat, or OUTSIDE / ABSENT in place of the stat.

        With `folders` (one pass of `changed` over many names), each folder's real path is resolved
        once and kept there; the file itself is looked at without following it (`lstat`), and a
        link in the last place takes the full `realpath` as before. Every component is still
        resolved in this pass, so a link anywhere on the way is followed and checked the same.
        """
        if folders is not None:
            folder, base = os.path.split(path)
            if base not in ("", ".", ".."):
                real_folder = folders.get(folder)
                if real_folder is None:
                    real_folder = folders[folder] = os.path.realpath(folder)
                candidate = Path(real_folder, base)
                if not candidate.is_relative_to(self.root):
                    return candidate, OUTSIDE
                try:
                    info = os.lstat(candidate)
                except FileNotFoundError:
                    return candidate, ABSENT
                except OSError:
                    info = None
                if info is not None and not stat.S_ISLNK(info.st_mode):
                    return candidate, info
        real = Path(os.path.realpath(path))
        if not real.is_relative_to(self.root):
            return real, OUTSIDE
        try:
            return real, os.stat(real)
        except OSError:
            return real, ABSENT

    # -- derived objects ---------------------------------------------------------------

    def next_generation(self) -> None:
        """A new build begins: cached derived objects are checked against their reads again."""
        self.generation += 1

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """The object `build()` makes, cached with the reads it made; callers inherit those reads.

        Rebuilt when any of its reads changed (checked once per generation), never
        cached when building fails.
        """
        entry = self._derived.get(key)
        settled = self.per_build and entry is not None and entry.generation == self.generation
        if entry is not None and (settled or not self.changed(entry.reads)):
            entry.generation = self.generation
            self.inherit(entry.reads)
            value: T = entry.value
            return value
        with self.recording() as reads:
            value = build()
        self._derived[key] = _Derived(value, reads, self.generation)
        return value


def _stamp(info: os.stat_result) -> tuple[int, int, int, int]:
    """What vouches for a file's content between two reads: size, modification time, inode, and the
    change time, which every write and every `utime` (a restored modification time) moves and no
    user can set back."""
    return info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns


def _listing(real: Path, pattern: str) -> list[str] | None:
    try:
        return sorted(entry for entry in os.listdir(real) if fnmatch.fnmatchcase(entry, pattern))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return []


def _listing_digest(names: list[str] | None) -> str:
    if names is None:
        return ABSENT
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"
