"""An observation mapping built only when a bot reads it.

Random bots never look at what they see; building the dictionary for them on
every move would cost more than the move itself. Shared by the engines of this
studio (it would sit well in `generator/engine/base.py`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping


class LazyObservation(Mapping[str, Any]):
    """A read-only mapping whose contents come from `build()` on first access."""

    __slots__ = ("_build", "_arg", "_data")

    def __init__(self, build: Callable[[Any], dict[str, Any]], arg: Any = None) -> None:
        self._build = build
        self._arg = arg
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._build(self._arg)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"LazyObservation({self._get()!r})"
