"""Three regular expressions that PyYAML and ReportLab compile when imported, compiled when first used instead.

Importing ReportLab's paragraph module compiles `uri_pat` (a web address, used only to split an
address too long for its line) and its text splitter's `rx` (CJK characters, used only by
`cjkwrap`, which fails under Python 3 before it gets there); importing PyYAML compiles
`Reader.NON_PRINTABLE`, which only its pure-Python reader uses (the project parses with libyaml's
where PyYAML has it). The first is case-insensitive over most of Unicode, so compiling it costs
30-40 ms; the other two 4 and 6 ms: together some 8% of a one-card edit's fresh process, for
patterns a build of the shipped games never uses.

`install` (run by the `pnp` process, `cli.main`, before anything imports PyYAML or ReportLab;
importing `generator` as a library changes nothing) puts a finder on `sys.meta_path` that, for
those three modules alone, runs their code while `re.compile` hands back a `DeferredPattern` for
exactly those patterns, in the thread running that code (every other call, and every other thread,
compiles as usual); `re.compile` is itself again once no such module is running, and the finder
takes itself off once all three are imported. A deferred pattern compiles the same pattern with the
same flags on its first attribute use, so it matches as the compiled one does. ReportLab 5.1 and
PyYAML 6 use these patterns only through their methods (`uri_pat.match`, `rx.sub`,
`NON_PRINTABLE.search`); `tests/test_deferred_patterns.py` runs each of those uses against a
deferred pattern. A module imported before `install`, or whose pattern changed in a new version,
compiles as it always did.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import re
import sys
import threading
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

# module -> the (pattern, flags) it compiles when imported that are deferred, as ReportLab 5.1 and PyYAML 6 write them
DEFERRED: dict[str, tuple[tuple[str, int], ...]] = {
    "reportlab.platypus.paragraph": ((
        "(^(?:[a-z0-9\\.\\-\\+]*)://)(?:\\S+(?::\\S*)?@)?(?:(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)(?:\\.(?:25[0-5]|"
        "2[0-4]\\d|[0-1]?\\d?\\d)){3}|\\[[0-9a-f:\\.]+\\]|([a-z\xa1-\uffff0-9](?:[a-z\xa1-\uffff0-9-]{0,61}"
        "[a-z\xa1-\uffff0-9])?(?:\\.(?!-)[a-z\xa1-\uffff0-9-]{1,63}(?<!-))*\\.(?!-)(?:[a-z\xa1-\uffff-]{2,63}|"
        "xn--[a-z0-9]{1,59})(?<!-)\\.?|localhost))(?::\\d{2,5})?(?:[/?#][^\\s]*)?\\Z", re.I),),
    "reportlab.lib.textsplit": (("([\u2e80-\uffff])", re.UNICODE),),
    "yaml.reader": (("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]", 0),),
}


class DeferredPattern:
    """A compiled pattern made on first use: attribute reads (`match`, `sub`, `pattern`...) go to it."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None
        self._lock = threading.Lock()

    @property
    def compiled(self) -> bool:
        return self._compiled is not None

    def _pattern(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            with self._lock:
                if self._compiled is None:
                    self._compiled = re.compile(*self._source)
                compiled = self._compiled
        return compiled

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # copy, pickle and the like ask for dunders: not the pattern's business
            raise AttributeError(name)
        return getattr(self._pattern(), name)

    def __reduce__(self) -> tuple[Any, ...]:  # a copy or a pickle is the compiled pattern
        return re.compile, self._source

    def __repr__(self) -> str:
        return f"DeferredPattern({self._source[0][:40]!r}..., compiled={self.compiled})"


class _Deferring:
    """`re.compile` while one of the listed modules runs its code: the patterns that module lists come back
    deferred in the thread running it; any other call compiles. It replaces `re.compile` while at least one
    such module runs (in any thread) and puts the original back when the last one is done."""

    def __init__(self) -> None:
        self._original: Callable[..., Any] | None = None
        self._running = 0
        self._lock = threading.Lock()  # held only to swap, never while a module runs: no import waits on it
        self._local = threading.local()  # this thread's stack of deferred pattern sets

    def run(self, deferred: frozenset[tuple[str, int]], module_code: Callable[[], None]) -> None:
        stack = self._local.__dict__.setdefault("stack", [])
        with self._lock:
            if self._running == 0:
                self._original = re.compile
                re.compile = self._compile
            self._running += 1
        stack.append(deferred)
        try:
            module_code()
        finally:
            stack.pop()
            with self._lock:
                self._running -= 1
                if self._running == 0 and self._original is not None:
                    re.compile, self._original = self._original, None

    def _compile(self, pattern: Any, flags: int = 0) -> Any:
        stack = self._local.__dict__.get("stack")
        if stack and (pattern, int(flags)) in stack[-1]:
            return DeferredPattern(pattern, flags)
        original = self._original
        return (original if original is not None else _RE_COMPILE)(pattern, flags)


_RE_COMPILE = re.compile  # the real one, for a call that reaches `_compile` after it was swapped back
_DEFERRING = _Deferring()  # the process's one swap of `re.compile`: a shared function needs one owner


class _DeferringLoader:
    """Runs a module's code (through its own loader) with `re.compile` deferring the listed patterns (a
    loader as `importlib` asks for one: `create_module` and `exec_module`; its ABC costs 10 ms to import)."""

    def __init__(self, loader: Any, deferred: Sequence[tuple[str, int]]) -> None:
        self._loader = loader
        self._deferred = frozenset(deferred)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def __getattr__(self, name: str) -> Any:  # get_source, get_filename... (tracebacks, inspect): the real loader's
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._loader, name)

    def exec_module(self, module: ModuleType) -> None:
        _DEFERRING.run(self._deferred, lambda: self._loader.exec_module(module))


class _Finder:
    """Finds the listed modules as the path finder does, and gives them the deferring loader."""

    def __init__(self, deferred: dict[str, tuple[tuple[str, int], ...]]) -> None:
        self._waiting = dict(deferred)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        deferred = self._waiting.get(fullname)
        if deferred is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None  # not found here: the finders after this one look as usual
        del self._waiting[fullname]
        if not self._waiting:
            _remove(self)  # the import system stops looking once a spec is found, so nothing is skipped
        spec.loader = _DeferringLoader(spec.loader, deferred)  # type: ignore[assignment]  # a loader by protocol
        return spec


def _remove(finder: _Finder) -> None:
    with contextlib.suppress(ValueError):  # already taken off
        sys.meta_path.remove(finder)


def install(deferred: dict[str, tuple[tuple[str, int], ...]] = DEFERRED) -> Callable[[], None] | None:
    """Defer the listed patterns of those listed modules not imported yet; the undo (None: nothing to do)."""
    waiting = {name: patterns for name, patterns in deferred.items() if name not in sys.modules}
    if not waiting or any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return None
    finder = _Finder(waiting)
    sys.meta_path.insert(0, finder)
    return lambda: _remove(finder)
