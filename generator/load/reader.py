"""Reading one YAML mapping strictly: typed keys, unknown keys refused, errors at their line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.errors import DataError, Location, did_you_mean
from generator.load.schema import Block
from generator.load.yamlsrc import YList, YMap

_TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a mapping",
}


def type_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)


def is_kind(value: Any, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds
    if float in kinds and isinstance(value, int):
        return True
    return isinstance(value, kinds)


class Section:
    """A strict view of one YAML mapping: take the keys you know, then `done()` refuses the rest."""

    def __init__(self, data: Any, what: str, where: Location, schema: Block | None = None) -> None:
        if not isinstance(data, dict):
            raise DataError(f"{what} must be a mapping (key: value lines), got {_describe(data)}", where)
        self.data = data
        self.what = what
        self.location: Location = getattr(data, "location", where)
        self._taken: set[Any] = set()
        self.schema = schema  # the declared keys (`load.schema`): the only ones this section may take

    def where(self, key: Any) -> Location:
        if isinstance(self.data, YMap):
            return self.data.where(key)
        return self.location

    def has(self, key: str) -> bool:
        return key in self.data

    def take(self, key: str, kind: type | tuple[type, ...], default: Any = ..., *, required: bool | None = None) -> Any:
        """The value of `key`, checked to be of `kind`; missing keys use `default` or are errors."""
        self._declared(key, kind)
        self._taken.add(key)
        if key not in self.data or (self.data[key] is None and default is not ...):
            if default is ... or required:
                raise DataError(f"{self.what} is missing '{key}' ({type_name(kind)})", self.location)
            return default
        value = self.data[key]
        if not is_kind(value, kind):
            raise DataError(
                f"{self.what} '{key}' must be {type_name(kind)}, got {_describe(value)}", self.where(key)
            )
        return value

    def take_int(self, key: str, default: Any = ..., lo: int | None = None, hi: int | None = None) -> Any:
        value = self.take(key, int, default)
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if is_int and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            if lo is not None and hi is not None:
                bounds = f"{lo}..{hi}"
            else:
                bounds = f">= {lo}" if lo is not None else f"<= {hi}"
            raise DataError(f"{self.what} '{key}' must be an integer {bounds}, got {value}", self.where(key))
        return value

    def take_choice(self, key: str, choices: Iterable[str], default: Any = ...) -> Any:
        choices = tuple(choices)
        value = self.take(key, str, default)
        if value is not default and value not in choices:
            raise DataError(
                f"{self.what} '{key}' must be one of {', '.join(choices)}, got {value!r}{did_you_mean(str(value), choices)}",
                self.where(key),
            )
        return value

    def _declared(self, key: str, kind: type | tuple[type, ...]) -> None:
        """A key the loader takes is declared in its block, with this type: the table (and so the generated
        docs/layouts.md) cannot drift from what is read. A mismatch is the loader's bug, not the designer's."""
        schema = self.schema
        if schema is None:
            return
        declared = schema.key(key)
        if declared is None:
            if schema.open:
                return
            raise LookupError(f"the loader reads '{key}' in {schema.name}, which generator/load/schema.py does not "
                              "declare: add it there (with its documentation)")
        if type_name(declared.kind) != type_name(kind):
            raise LookupError(f"the loader reads {schema.name} '{key}' as {type_name(kind)}, but "
                              f"generator/load/schema.py declares {type_name(declared.kind)}")

    def rest(self) -> dict[Any, Any]:
        """Keys not taken yet (for mappings whose other keys are data, like item fields)."""
        return {k: v for k, v in self.data.items() if k not in self._taken}

    def done(self, allowed_extra: Iterable[str] = ()) -> None:
        """Refuse any key nobody took: typos must not pass silently."""
        known = self._taken | set(allowed_extra)
        listed = known | set(self.schema.names if self.schema is not None else ())
        for key in self.data:
            if key not in known:
                raise DataError(
                    f"unknown key {key!r} in {self.what}{did_you_mean(str(key), [str(k) for k in listed])}"
                    f" (known keys: {', '.join(sorted(str(k) for k in listed))})",
                    self.where(key),
                )


def list_entries(value: Any, what: str, where: Location) -> list[tuple[Any, Location]]:
    """A YAML list's entries with their lines."""
    if not isinstance(value, list):
        raise DataError(f"{what} must be a list ('- ' lines), got {_describe(value)}", where)
    if isinstance(value, YList):
        return [(entry, value.where(i)) for i, entry in enumerate(value)]
    return [(entry, where) for entry in value]


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)
