"""The build manifest: skip work whose inputs did not change, and never trust a stale or broken entry.

Stored under `output/.cache/`, keyed by content (sha256), in the spirit of
ninja's depfiles:

* **Jobs** (one output PDF, a component's PNGs...): a job is fresh when its
  static key (code, the options it receives, the model data it draws) is
  unchanged, *every input it actually read* (recorded by the read gate with
  the digest of the bytes read, never re-read afterwards) still has that
  digest, the model values it read still read the same, and every file it
  wrote is still there with the recorded content (re-hashed when size or
  time differ). An edit saved while a build runs therefore leaves the job
  stale for the next build.
* **Games**: the options, the code and the union of every input the game's
  load, validation, plan and jobs read; when all still hold and every file is
  intact, the game is not even loaded.
* **Faces** (one rasterized face): the key hashes the resolved face (its
  drawn elements after Jinja, including the digest of any image), the bleed
  and the resolution. Each entry's content hash is checked on read, so a
  corrupted entry is discarded and redrawn.

A manifest that cannot be read is dropped whole (everything rebuilds) rather
than half-trusted. `pnp build --clean` starts from an empty cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from generator.project import Project, write_atomic
from generator.readgate import ReadGate
from generator.render.base.outputs import FileRecord

CACHE_DIR = ".cache"
MANIFEST = "manifest.json"
FORMAT = 2


@dataclass(frozen=True)
class FileStamp:
    """What vouches for a written file: its size, modification time and the digest of its bytes."""

    size: int
    mtime: int
    sha256: str

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "mtime": self.mtime, "sha256": self.sha256}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FileStamp:
        return cls(int(data["size"]), int(data["mtime"]), str(data["sha256"]))


@dataclass(frozen=True)
class JobRecord:
    """What the manifest keeps of one job run (see the module doc)."""

    key: str
    game: str
    exporter: str
    paper: str
    subject: str
    folder: str  # relative to output/
    inputs: Mapping[str, str]
    facts: Mapping[str, str]
    files: tuple[tuple[FileRecord, FileStamp], ...]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "game": self.game, "exporter": self.exporter, "paper": self.paper,
                "subject": self.subject, "folder": self.folder, "inputs": dict(self.inputs),
                "facts": dict(self.facts), "files": [{**r.to_json(), **stamp.to_json()} for r, stamp in self.files]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JobRecord:
        files = tuple((FileRecord.from_json(f), FileStamp.from_json(f)) for f in data["files"])
        return cls(str(data["key"]), str(data["game"]), str(data["exporter"]), str(data["paper"]),
                   str(data["subject"]), str(data["folder"]), dict(data["inputs"]), dict(data["facts"]), files)

    def records(self) -> list[FileRecord]:
        return [record for record, _ in self.files]

    @cached_property
    def encoded(self) -> str:
        """`to_json()` as the manifest writes it, worked out once per record (a build re-encodes only the jobs
        it ran)."""
        return _dumps(self.to_json())


@dataclass(frozen=True)
class ValidationRecord:
    """A game's last validation that may be reused: the code and inputs it read, and its verdict."""

    code: str
    inputs: Mapping[str, str]
    valid: bool | None
    failures: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "inputs": dict(self.inputs), "valid": self.valid, "failures": list(self.failures)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ValidationRecord:
        valid = data["valid"]
        return cls(str(data["code"]), dict(data["inputs"]), None if valid is None else bool(valid),
                   tuple(str(f) for f in data["failures"]))


@dataclass(frozen=True)
class GameBuildRecord:
    """A game's last whole build: with the same options and code, and every input unchanged, it is reused."""

    options: str  # the options key (`options.options_key`)
    code: str
    inputs: Mapping[str, str]
    jobs: tuple[str, ...]  # the labels of its jobs
    gallery: Mapping[str, Any]  # its gallery entry (`render.site.gallery.GalleryGame.to_json`), as JSON

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options, "code": self.code, "inputs": dict(self.inputs), "jobs": list(self.jobs),
                "gallery": self.gallery}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameBuildRecord:
        return cls(str(data["options"]), str(data["code"]), dict(data["inputs"]), tuple(data["jobs"]),
                   dict(data["gallery"]))


@dataclass(frozen=True)
class GameRecord:
    """What the manifest keeps of one game: its last build, its last validation and each component side's
    layout and preflight checks (`validate.SideChecks`, JSON by the checks' own encoding)."""

    build: GameBuildRecord | None = None
    validation: ValidationRecord | None = None
    sides: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.build is not None:
            data["build"] = self.build.to_json()
        if self.validation is not None:
            data["validation"] = self.validation.to_json()
        if self.sides is not None:
            data["sides"] = self.sides
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        build, validation, sides = data.get("build"), data.get("validation"), data.get("sides")
        return cls(GameBuildRecord.from_json(build) if build else None,
                   ValidationRecord.from_json(validation) if validation else None,
                   dict(sides) if sides is not None else None)


@dataclass(frozen=True)
class GalleryRecord:
    """The gallery page's last writing: the key of everything it shows, and the files it read."""

    key: str
    inputs: Mapping[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "inputs": dict(self.inputs)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GalleryRecord:
        return cls(str(data["key"]), dict(data["inputs"]))


@dataclass
class BuildCache:
    """The manifest of jobs, games and faces under output/.cache; `save()` writes it atomically."""

    root: Path
    output: Path
    jobs: dict[str, JobRecord] = field(default_factory=dict)
    faces: dict[str, str] = field(default_factory=dict)  # face key -> sha256 of the entry's bytes
    games: dict[str, GameRecord] = field(default_factory=dict)
    gallery: GalleryRecord | None = None
    faces_drawn: int = 0
    dropped: str = ""
    _as_read: dict[str, Any] = field(default_factory=dict, repr=False)  # the manifest as opened
    _written: bytes | None = field(default=None, repr=False)  # the manifest as this object last wrote it
    _on_disk: tuple[int, int, int, int] | None = field(default=None, repr=False)  # its file's stamp then

    @classmethod
    def open(cls, project: Project, clean: bool = False, kept: BuildCache | None = None) -> BuildCache:
        """The manifest under `project`'s output/. `kept` is the one a session's last build ended with: it
        is taken again, without reading the file, when the file is still the one it read or wrote (nobody
        else has built into output/ since)."""
        root = project.output_dir / CACHE_DIR
        path = root / MANIFEST
        if kept is not None and not clean and kept.root == root and kept._on_disk is not None \
                and kept._on_disk == _file_stamp(path):
            return kept._again()
        cache = cls(root, project.output_dir)
        if clean:  # --clean: forget everything, but record this build for the next one
            shutil.rmtree(root, ignore_errors=True)
            return cache
        if not path.exists():
            return cache
        try:
            stamp_read = _file_stamp(path)
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                raise ValueError("old format")
            cache.jobs = {label: JobRecord.from_json(entry) for label, entry in data["jobs"].items()}
            cache.faces = dict(data["faces"])
            cache.games = {game: GameRecord.from_json(record) for game, record in data["games"].items()}
            gallery = data["extra"].get("gallery")
            cache.gallery = GalleryRecord.from_json(gallery) if gallery else None
            cache._as_read = data
            cache._on_disk = stamp_read
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            cache.dropped = "the build cache was unreadable and has been rebuilt"
            cache.jobs, cache.faces, cache.games, cache.gallery = {}, {}, {}, None
        return cache

    def save(self) -> None:
        if self._written is None:  # as read from the file: compared as read
            data = {"format": FORMAT, "jobs": {label: job.to_json() for label, job in self.jobs.items()},
                    "faces": self.faces, "games": self._games_json(), "extra": self._extra_json()}
            if data == self._as_read:
                return  # a build that changed nothing leaves the manifest alone (and saves encoding it)
            encoded = _dumps(data).encode()  # the same bytes as `encoded()`, from the records just made
        else:
            encoded = self.encoded()
            if encoded == self._written:
                return
        path = self.root / MANIFEST
        write_atomic(path, encoded)
        self._written, self._as_read, self._on_disk = encoded, {}, _file_stamp(path)

    def encoded(self) -> bytes:
        """The manifest's bytes: `json.dumps(data, sort_keys=True)` of {format, jobs, faces, games, extra},
        compact, so json's C encoder does the work (any indent falls back to pure Python, which cost a
        one-card edit in `pnp watch` more than a tenth of a second on a large manifest); each job's part
        is its record's own (`JobRecord.encoded`)."""
        jobs = ",".join(f"{_dumps(label)}:{self.jobs[label].encoded}" for label in sorted(self.jobs))
        return (f'{{"extra":{_dumps(self._extra_json())},"faces":{_dumps(self.faces)},"format":{_dumps(FORMAT)},'
                f'"games":{_dumps(self._games_json())},"jobs":{{{jobs}}}}}').encode()

    def _games_json(self) -> dict[str, Any]:
        return {game: record.to_json() for game, record in self.games.items()}

    def _extra_json(self) -> dict[str, Any]:
        """The manifest's `extra` part: outputs keyed apart from games (the gallery page)."""
        return {"gallery": self.gallery.to_json()} if self.gallery is not None else {}

    def game(self, game_id: str) -> GameRecord:
        """The game's record (an empty one for a game never built)."""
        return self.games.get(game_id) or GameRecord()

    def _again(self) -> BuildCache:
        """This manifest for the session's next build, its values as reading the file would give them (the
        games' and the gallery's records through JSON: lists, not tuples), so a kept manifest and a read one
        behave alike."""
        if self._written is None:  # its last build changed nothing: the file is what it read
            self._written = _dumps(self._as_read).encode("utf-8")
            self._as_read = {}
        self.games = {game: GameRecord.from_json(json.loads(_dumps(record.to_json())))
                      for game, record in self.games.items()}
        self.faces_drawn, self.dropped = 0, ""
        return self

    # --- jobs -------------------------------------------------------------

    def fresh(self, label: str, key: str, gate: ReadGate) -> JobRecord | None:
        """The record of job `label` when it ran with `key`, everything it read is unchanged and
        all its files are intact (model facts are checked by the caller); None otherwise."""
        entry = self.jobs.get(label)
        if not key or entry is None or entry.key != key:
            return None
        if gate.changed(entry.inputs) or not self.intact(entry):
            return None
        return entry

    def intact(self, entry: JobRecord) -> bool:
        folder = os.path.join(self.output, entry.folder)  # strings: a no-op build looks at every file
        return all(_intact(os.path.join(folder, record.name), stamp) for record, stamp in entry.files)

    def record(self, label: str, key: str, folder: Path, files: Iterable[FileRecord], *, game: str,
               exporter: str, paper: str, subject: str, inputs: Mapping[str, str],
               facts: Mapping[str, str], stamps: Mapping[str, FileStamp] | None = None) -> JobRecord | None:
        """Remember a job that just wrote `files` into `folder` (nothing is kept for a job without a key).

        `stamps` (`stamp`, by file name) are those its writer took as it wrote them; other files are read back."""
        if not key:
            self.jobs.pop(label, None)
            return None
        stamped = []
        for record in files:
            path = folder / record.name
            known = stamps.get(record.name) if stamps else None
            stamped.append((record, known if known is not None else stamp(path, path.read_bytes())))
        entry = JobRecord(key, game, exporter, paper, subject, folder.relative_to(self.output).as_posix(),
                          dict(inputs), dict(facts), tuple(stamped))
        self.jobs[label] = entry
        return entry

    def files_of(self, label: str) -> list[FileRecord]:
        entry = self.jobs.get(label)
        return entry.records() if entry else []

    def jobs_of(self, game: str) -> dict[str, JobRecord]:
        return {label: entry for label, entry in self.jobs.items() if entry.game == game}

    # --- faces ------------------------------------------------------------

    def face(self, key: str) -> bytes | None:
        expected = self.faces.get(key)
        if expected is None:
            return None
        try:
            data = (self.root / "faces" / f"{key}.png").read_bytes()
        except OSError:
            return None
        if _sha(data) != expected:
            self.faces.pop(key, None)  # corrupted: redraw, never trust
            return None
        return data

    def store_face(self, key: str, data: bytes, same_as: Path | None = None) -> None:
        """Keep a rasterized face. `same_as`, a file just written with exactly `data` (a preview), is linked
        instead of copied: one more name for its bytes rather than one more file to create (a big deck's previews
        create thousands, and the file system creates them one at a time, whichever process asks).
        Every read checks the entry's digest, so a later edit of that file in place only costs a redraw."""
        path = self.root / "faces" / f"{key}.png"
        if same_as is None or not _linked(same_as, path):
            write_atomic(path, data)
        self.faces[key] = _sha(data)
        self.faces_drawn += 1


def _linked(existing: Path, path: Path) -> bool:
    """Give `existing` the new name `path` (a hard link); False where that cannot be done (the name is taken, the
    file system has no links), for the caller to write the bytes instead."""
    try:
        os.link(existing, path)
    except FileNotFoundError:  # the cache's faces folder is not made yet (or `existing` is gone)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            os.link(existing, path)
        except OSError:
            return False
    except OSError:
        return False
    return True


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _file_stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What vouches that a file is still the one read or written: size, modification and change time, inode."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino


def stamp(path: Path, data: bytes) -> FileStamp:
    """What the manifest keeps of a file just written with `data`: its size, modification time and digest."""
    info = path.stat()
    return FileStamp(info.st_size, info.st_mtime_ns, _sha(data))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _intact(path: str, stamp: FileStamp) -> bool:
    try:
        info = os.stat(path)
    except OSError:
        return False
    if info.st_size != stamp.size:
        return False
    if info.st_mtime_ns == stamp.mtime:
        return True
    try:
        with open(path, "rb") as file:
            return _sha(file.read()) == stamp.sha256
    except OSError:
        return False
