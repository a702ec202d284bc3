"""The compiled code of dataclasses' generated methods, kept per user between `pnp` processes.

Python makes a dataclass's `__init__`, `__repr__`, `__eq__` and, as asked, `__hash__`,
`__setattr__` and `__delattr__` by writing their source text and running it through `exec`, which
compiles it: about 0.1 ms a method, some 450 methods for the hundred-odd classes a build imports,
a tenth of a fresh process's imports. What `exec` compiles depends only on that text and on the
interpreter, so the code can be kept: `dataclasses` finds `exec` among its own module's globals
before the builtins, and `install` puts there `MethodCode.exec`, which runs the code compiled
before for the same text and compiles only texts it has not seen (as `exec` would: file
"<string>", no `__future__` flags inherited). A class's methods are made from the same code either
way, so they behave the same (two classes whose generated text is the same may now share one code
object, which nothing in the project looks at).

The texts and their code live in one file of the per-user cache folder (`user_cache`), named by
the interpreter's version, bytecode tag and optimisation level. It is read when the first class is
made after `install`, and written again at exit by a process that compiled anything new (never by a
forked worker, which ends without exit handlers and is not the owner): the entries it read, those
another process wrote meanwhile and the new ones, or only those this process used once more than
`MAX_ENTRIES` would be kept. An unreadable or damaged file is ignored and everything compiles.

Only the `pnp` process installs it (`cli.main` without arguments): importing `generator` as a
library leaves `dataclasses` alone. A Python whose `dataclasses` makes methods without calling
`exec` on source text simply compiles as it always did.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from generator.user_cache import private_folder, store_entry, user_folder

HEADER = b"pirate-press dataclass code 1\n"
MAX_ENTRIES = 4096  # a project's classes need some 500; edits to their fields add a few each
MAX_FILE_BYTES = 32 << 20


def file_name() -> str:
    """The cache file of this interpreter: its code would not run on another version or optimisation level."""
    return f"dataclass-code-{sys.implementation.cache_tag}-{sys.hexversion:x}-O{sys.flags.optimize}.marshal"


class MethodCode:
    """The compiled code of generated methods by their source text: read from `path` when first asked,
    written back by `save` when this process compiled new ones."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.owner = os.getpid()
        self.known: dict[str, CodeType] | None = None  # read on the first `exec`
        self.used: set[str] = set()
        self.made: dict[str, CodeType] = {}

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /, **options: Any) -> None:
        """`exec` as `dataclasses` calls it: source text is run from the code kept for that text."""
        if type(source) is str:
            known = self._known()
            code = known.get(source) or self.made.get(source)
            if type(code) is CodeType:
                self.used.add(source)
            else:
                code = self.made[source] = compile(source, "<string>", "exec", dont_inherit=True)
            source = code
        builtins.exec(source, globals, locals, **options)

    def _known(self) -> dict[str, CodeType]:
        if self.known is None:
            self.known = _read(self.path) if self.path is not None else {}
        return self.known

    def save(self) -> None:
        """Write the file again if this process (not a forked worker) compiled anything new."""
        if self.path is None or not self.made or os.getpid() != self.owner:
            return
        entries = {**self._known(), **_read(self.path), **self.made}  # with what another process wrote meanwhile
        if len(entries) > MAX_ENTRIES:  # old texts pile up as classes change: keep what this process used
            entries = {text: code for text, code in entries.items() if text in self.used or text in self.made}
        store_entry(self.path, HEADER + marshal.dumps(entries))
        self.known, self.made = entries, {}

    def uninstall(self) -> None:
        """Give `dataclasses` back the builtin `exec` (what was compiled is not saved)."""
        import dataclasses

        atexit.unregister(self.save)
        if vars(dataclasses).get("exec") == self.exec:
            del dataclasses.exec  # type: ignore[attr-defined]


def _read(path: Path) -> dict[str, CodeType]:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return {}
    if not data.startswith(HEADER) or len(data) > MAX_FILE_BYTES:
        return {}
    try:
        entries = marshal.loads(data[len(HEADER):])
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return {text: code for text, code in entries.items() if type(text) is str and type(code) is CodeType}


def install(folder: Path | None = None) -> MethodCode | None:
    """Keep this process's dataclass method code in the user's cache folder (or `folder`); the cache (its
    `uninstall` undoes this), or None when the cache is off, the folder unusable or `dataclasses` has an
    `exec` of its own already."""
    import dataclasses

    folder = folder if folder is not None else user_folder()
    if folder is None or not private_folder(folder) or "exec" in vars(dataclasses):
        return None
    cache = MethodCode(folder / file_name())
    dataclasses.exec = cache.exec  # type: ignore[attr-defined]
    atexit.register(cache.save)
    return cache
