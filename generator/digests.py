"""Content keys: a canonical digest of values, and the digest of the generator's own code.

The build cache, the validation cache and the face cache all key their entries with these, so they live
on the ground floor where render, validate and build can reach them without importing each other.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator import __version__

PACKAGE_DIR = Path(__file__).resolve().parent


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


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The generator's own code, fonts and built-in templates, so a new version never reuses old output.

    Constant for a process: it describes the code that process runs.
    """
    h = hashlib.sha256(__version__.encode())
    for name, info in sorted(_package_files(str(PACKAGE_DIR), "")):
        h.update(f"{name}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _package_files(folder: str, prefix: str) -> Iterator[tuple[str, os.stat_result]]:
    """(relative name, stat) of every file under `folder`, bytecode caches left out (not descended into:
    a fresh process pays for one scandir per folder and one stat per file, nothing more)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir():
                if entry.name != "__pycache__":
                    yield from _package_files(entry.path, f"{prefix}{entry.name}/")
            elif entry.is_file():
                yield f"{prefix}{entry.name}", entry.stat()
