"""The build cache: skip work whose inputs did not change, and never trust a stale or broken entry.

Two levels, both keyed by content (sha256), stored under `output/.cache/`:

* **Jobs** (one output PDF, a component's PNGs...): a job's key hashes
  everything it reads — the component's data, the game's theme, the layout
  and icon sources, the code, the fonts and the build options. The manifest
  records each job's key and the size, modification time and sha256 of every
  file it wrote. A job is skipped only when its key matches *and* every
  file is still there with the recorded content (re-hashed when size or
  time differ), so a deleted or edited output is rebuilt.
* **Faces** (one rasterized face): the key hashes the resolved face (its
  drawn elements, after Jinja), the bleed and the resolution. Each entry's
  content hash is kept in the manifest and checked on read, so a corrupted
  entry is discarded and redrawn.

A manifest that cannot be read is dropped whole (everything rebuilds) rather
than half-trusted. `pnp build --clean` starts from an empty cache.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator import __version__
from generator.model import Component, Game
from generator.project import Project, write_atomic

CACHE_DIR = ".cache"
MANIFEST = "manifest.json"
FORMAT = 1
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def digest(*parts: Any) -> str:
    """sha256 of a canonical JSON encoding of the parts (dict keys sorted)."""
    text = json.dumps(parts, sort_keys=True, default=_plain, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(value: Any) -> Any:
    if hasattr(value, "items"):
        return dict(value.items())
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return str(value)


RACY_NS = 2_000_000_000  # as git does: within this of now, a timestamp cannot vouch for the content
_FILE_HASHES: dict[Path, tuple[int, int, bytes]] = {}  # path -> (size, mtime_ns, sha256): read once per change


def _file_hash(path: Path) -> bytes | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    known = _FILE_HASHES.get(path)
    settled = time.time_ns() - stat.st_mtime_ns > RACY_NS  # a file touched just now may change again
    if known is not None and settled and known[0] == stat.st_size and known[1] == stat.st_mtime_ns:
        return known[2]
    value = hashlib.sha256(path.read_bytes()).digest()
    _FILE_HASHES[path] = (stat.st_size, stat.st_mtime_ns, value)
    return value


def tree_digest(paths: Iterable[Path]) -> str:
    """Contents of files (by name and bytes), for folders a designer edits. A file's hash is
    reused while its size and modification time stay the same, so asking again is cheap."""
    h = hashlib.sha256()
    for path in sorted(paths):
        value = _file_hash(path)
        if value is not None:
            h.update(path.as_posix().encode())
            h.update(b"\0")
            h.update(value)
    return h.hexdigest()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The generator's own code and fonts, so a new version never reuses old output."""
    h = hashlib.sha256(__version__.encode())
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.suffix in (".py", ".ttf") and "__pycache__" not in path.parts:
            stat = path.stat()
            h.update(f"{path.relative_to(PACKAGE_DIR)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return h.hexdigest()


def templates_digest(project: Project, folders: Iterable[str]) -> str:
    files: list[Path] = []
    for folder in folders:
        base = project.templates_dir / folder
        if base.is_dir():
            files.extend(p for p in base.rglob("*") if p.is_file())
    return tree_digest(files)


def game_files_digest(project: Project, game_id: str) -> str:
    """Everything a game's build reads: its data folder and every template (cheap: a few dozen files)."""
    data = project.data_dir / game_id
    files = [p for p in data.rglob("*") if p.is_file()] if data.is_dir() else []
    files += [p for p in project.templates_dir.rglob("*") if p.is_file()] if project.templates_dir.is_dir() else []
    return digest(tree_digest(files), code_digest())


def component_data(component: Component) -> dict[str, Any]:
    """The component as it draws: no YAML line numbers, so editing another card does not touch it."""
    return {
        "id": component.id,
        "kind": component.kind,
        "name": component.name,
        "plural": component.plural,
        "size": [component.size.width, component.size.height, component.size.shape, component.size.corner],
        "front": component.front,
        "back": component.back,
        "double_sided": component.double_sided,
        "items": [[i.id, i.count, dict(i.fields), dict(i.back) if i.back is not None else None]
                  for i in component.items],
    }


def component_key(game: Game, component: Component, project: Project, *options: Any) -> str:
    return digest(
        "component", code_digest(), templates_digest(project, ("layouts", "icons")),
        game.id, game.title, game.theme, component_data(component), options,
    )


@dataclass
class BuildCache:
    """The manifest of jobs and faces under output/.cache; `save()` writes it atomically."""

    root: Path
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    faces: dict[str, str] = field(default_factory=dict)  # face key -> sha256 of the entry's bytes
    games: dict[str, dict[str, Any]] = field(default_factory=dict)  # game id -> {key, jobs, validation}
    extra: dict[str, Any] = field(default_factory=dict)  # other keyed outputs (the gallery)
    stats: dict[str, int] = field(default_factory=lambda: {"faces_drawn": 0})
    dropped: str = ""

    @classmethod
    def open(cls, project: Project, clean: bool = False) -> BuildCache:
        root = project.output_dir / CACHE_DIR
        cache = cls(root)
        if clean:  # --clean: forget everything, but record this build for the next one
            shutil.rmtree(root, ignore_errors=True)
            return cache
        path = root / MANIFEST
        if not path.exists():
            return cache
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                raise ValueError("old format")
            cache.jobs = dict(data["jobs"])
            cache.faces = dict(data["faces"])
            cache.games = dict(data["games"])
            cache.extra = dict(data["extra"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            cache.dropped = "the build cache was unreadable and has been rebuilt"
            cache.jobs, cache.faces, cache.games, cache.extra = {}, {}, {}, {}
        return cache

    def save(self) -> None:
        data = {"format": FORMAT, "jobs": self.jobs, "faces": self.faces, "games": self.games, "extra": self.extra}
        write_atomic(self.root / MANIFEST, json.dumps(data, sort_keys=True, indent=0).encode("utf-8"))

    # --- jobs -------------------------------------------------------------

    def fresh(self, label: str, key: str, folder: Path) -> bool:
        """True when job `label` ran with `key` before and all its files are intact."""
        entry = self.jobs.get(label)
        if not key or entry is None or entry.get("key") != key:
            return False
        for name, record in entry["files"].items():
            if not _intact(folder / name, record):
                return False
        return True

    def record(self, label: str, key: str, folder: Path, names: Iterable[str]) -> None:
        if not key:
            return
        files = {}
        for name in names:
            path = folder / name
            stat = path.stat()
            files[name] = {"size": stat.st_size, "mtime": stat.st_mtime_ns, "sha256": _sha(path.read_bytes())}
        self.jobs[label] = {"key": key, "files": files}

    def files_of(self, label: str) -> list[str]:
        return list(self.jobs.get(label, {}).get("files", {}))

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

    def store_face(self, key: str, data: bytes) -> None:
        write_atomic(self.root / "faces" / f"{key}.png", data)
        self.faces[key] = _sha(data)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _intact(path: Path, record: dict[str, Any]) -> bool:
    try:
        stat = path.stat()
    except OSError:
        return False
    if stat.st_size != record["size"]:
        return False
    if stat.st_mtime_ns == record["mtime"]:
        return True
    return _sha(path.read_bytes()) == record["sha256"]
