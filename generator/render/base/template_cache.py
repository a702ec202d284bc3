"""Compiled template code kept on disk between processes, so a fresh `pnp build` skips Jinja's compiler.

Turning a template into Python code (parse, generate, `compile`) costs a fresh process
more than rendering it does. The code depends only on the template's text and on the
environment that compiled it, so it is stored under a key that covers both: the source,
its name, Jinja's and Python's versions, the environment's class and lexer settings, and
the source files of the environment's own code and of every filter, test and `finalize`
(Jinja calls those while compiling, to fold constants). Any change gives a new key; an
entry is never stale, only unused.

Safety: the folder is the per-user one (`generator.user_cache`: outside output/, private,
`PIRATE_PRESS_CACHE_DIR=off` turns it off): its entries are code this process runs, so they get
the same trust as Python's own `__pycache__`. What is stored is only what Jinja's sandboxed
compiler produced; templates never choose a path (entries are named by the key's hash). Writes
are atomic; an unreadable or damaged entry is compiled again; a folder that cannot be written
just means no cache.

Beside the code, `plain` keeps plain data found by parsing (marshal's str, int, tuples, None):
what a layout template reads and a layout file's parsed tree (`render.layout`), keyed by their
text or bytes and a fingerprint of the code that made them, so a warm process parses none of it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import CodeType
from typing import Any

from generator.user_cache import private_folder, store_entry, user_folder

_HEADER = b"pirate-press jinja code 1\n"
_LEXER_SETTINGS = (
    "block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
    "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
    "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline", "optimized", "is_async",
)


def _module_files(functions: Iterable[Any]) -> list[str]:
    """The source files of the modules that define these callables (outside Jinja, whose version is keyed)."""
    files = set()
    for function in functions:
        module = sys.modules.get(getattr(function, "__module__", "") or "")
        path = getattr(module, "__file__", None)
        if path and not (module is not None and module.__name__.split(".")[0] == "jinja2"):
            files.add(path)
    return sorted(files)


def environment_fingerprint(env: Any) -> bytes:
    """Everything besides the template's text that the compiled code depends on."""
    import jinja2

    digest = hashlib.sha256()

    def add(value: object) -> None:
        digest.update(repr(value).encode() + b"\0")

    add((jinja2.__version__, sys.version, importlib.util.MAGIC_NUMBER))
    add([f"{cls.__module__}.{cls.__qualname__}" for cls in type(env).__mro__])
    add([getattr(env, name) for name in _LEXER_SETTINGS])
    add(env.autoescape if isinstance(env.autoescape, bool) else "callable")
    add(sorted(env.extensions))
    add((sorted(getattr(env, "intercepted_binops", ())), sorted(getattr(env, "intercepted_unops", ()))))
    for table in (env.filters, env.tests):
        add(sorted((name, str(getattr(function, "jinja_pass_arg", None))) for name, function in table.items()))
    finalize = env.finalize
    add(None if finalize is None else str(getattr(finalize, "jinja_pass_arg", None)))
    callables = [*env.filters.values(), *env.tests.values(), type(env)]
    if finalize is not None:
        callables.append(finalize)
    for path in _module_files(callables):
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            add(("unreadable", path))
    return digest.digest()


class CodeCache:
    """One folder of compiled template code; every failure to read or write falls back to compiling."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder if folder is not None and private_folder(folder) else None

    @classmethod
    def for_user(cls) -> CodeCache:
        return cls(user_folder())

    def compiled(self, key_parts: tuple[object, ...], fingerprint: bytes, compile_now: Callable[[], CodeType]) -> CodeType:
        """The code for this key: from disk when an entry is there, else compiled now (and stored)."""
        if self.folder is None:
            return compile_now()
        digest = hashlib.sha256(fingerprint + repr(key_parts).encode()).hexdigest()
        path = self.folder / f"{digest}.code"
        code = self._load(path, digest)
        if code is None:
            code = compile_now()
            self._store(path, digest, code)
        return code

    def plain(self, key_parts: tuple[object, ...], fingerprint: bytes, make: Callable[[], Any],
              valid: Callable[[Any], bool]) -> Any:
        """Like `compiled`, for plain data marshal writes (str, int, tuples, frozensets, None) that was found
        by parsing a template: what it reads (`layout.template_references`), so a warm process need not
        parse it at all. `fingerprint` must cover the code that made the value; an entry that is not
        `valid` is made again."""
        if self.folder is None:
            return make()
        digest = hashlib.sha256(b"plain\0" + fingerprint + repr(key_parts).encode()).hexdigest()
        path = self.folder / f"{digest}.plain"
        head = _HEADER + digest.encode() + b"\n"
        try:
            data = path.read_bytes()
            if data.startswith(head):
                value = marshal.loads(data[len(head):])
                if valid(value):
                    return value
        except (OSError, ValueError, EOFError, TypeError):
            pass
        value = make()
        self._store(path, digest, value)
        return value

    @staticmethod
    def _load(path: Path, digest: str) -> CodeType | None:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        head = _HEADER + digest.encode() + b"\n"
        if not data.startswith(head):
            return None
        try:
            code = marshal.loads(data[len(head):])
        except (ValueError, EOFError, TypeError):
            return None
        return code if isinstance(code, CodeType) else None

    def _store(self, path: Path, digest: str, code: Any) -> None:
        store_entry(path, _HEADER + digest.encode() + b"\n" + marshal.dumps(code))
