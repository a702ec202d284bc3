"""The per-user cache folder: compiled templates and font metrics kept between processes.

Where: `$PIRATE_PRESS_CACHE_DIR`, else `$XDG_CACHE_HOME/pirate-press/templates`, else
`~/.cache/pirate-press/templates` (named for its first use); `PIRATE_PRESS_CACHE_DIR=off`, or no home
folder, turns every such cache off. Its entries are code and data this process uses as they are, so
the folder is created private (0700) and used only when it belongs to this user and nobody else may
write to it: the trust Python gives its own `__pycache__`. Restoring someone else's copy of it (a CI
cache of `~/.cache`, say) means running what they ran. Entries are written whole or not at all;
whatever cannot be read or written is simply computed again.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_FOLDER = "PIRATE_PRESS_CACHE_DIR"
OFF = "off"


def user_folder(environ: dict[str, str] | None = None) -> Path | None:
    """Where this user's cache lives, or None when it is turned off."""
    env = os.environ if environ is None else environ
    chosen = env.get(ENV_FOLDER, "")
    if chosen.strip().lower() == OFF:
        return None
    if chosen:
        return Path(chosen)
    base = env.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no home folder to be found: no cache (it only ever saves time)
            return None
    return Path(base) / "pirate-press" / "templates"


def private_folder(folder: Path) -> bool:
    """Create the folder 0700 if missing; usable only if it is ours and nobody else may write to it."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return False
    if os.name != "posix":
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def store_entry(path: Path, data: bytes) -> None:
    """Write a cache entry whole (a temporary file in the same folder, then a rename), or not at all: a full
    disk or a read-only home only means the next process computes it again."""
    import tempfile  # only when writing: a warm process reads its entries and writes none

    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        pass
