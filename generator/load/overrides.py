"""`--set PATH=VALUE`: change one value of a game's data as it is loaded, before it is validated.

A designer tries a value without editing files (`pnp simulate`, `pnp sweep`);
the changed data then goes through the same checks as the YAML itself.

Path syntax: dot-separated steps from a top-level section (`rules.turns`,
`game.play_time`, `components.mercenary.items.fireship.cost`). A step picks a
mapping key (`deal.4`: integer keys are found too), a list entry by its `id`
or by its index from 0, or, on a mapping that has no such key, the one entry
with that `id` in any of its lists (`rules.combinations.full-crew` finds the
row in `combinations.table`). Shortcuts: a path that does not start with a
section starts in `rules` (`combinations.full-crew.points`), `items.ID` is the
item of that id in any component (`items.fireship.cost`), and a component's id
stands for `components.ID`.

The value is read as YAML (`5`, `true`, `[1, 2]`) and must have the type the
data has there; a text value is taken as typed. Any other mistake (an unknown
path, a wrong type) is one UsageError line naming the path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from generator.errors import DataError, Location, UsageError, clipped, did_you_mean, shown
from generator.load.yamlsrc import YList, YMap, parse_yaml

SECTIONS = ("game", "contents", "player_counts", "rules", "components", "theme")


@dataclass(frozen=True)
class Override:
    """One `PATH=VALUE` from the command line, kept as typed (it travels to worker processes)."""

    path: str
    text: str

    @classmethod
    def parse(cls, spec: str) -> Override:
        path, sep, text = spec.partition("=")
        path = path.strip()
        if not sep or not path or any(not step for step in path.split(".")):
            raise UsageError(f"--set {shown(spec)}: write PATH=VALUE, e.g. combinations.full-crew.points=5")
        return cls(path, text.strip())

    def __str__(self) -> str:
        return f"{self.path}={self.text}"

    @property
    def echoed(self) -> str:
        """`PATH=VALUE` for an error line: a long value clipped."""
        return clipped(str(self))


def parse_overrides(specs: Iterable[str]) -> tuple[Override, ...]:
    return tuple(Override.parse(spec) for spec in specs)


def describe(overrides: Sequence[Override]) -> str:
    """' (with --set a=1, b=2)': appended to a validation error caused by overridden data."""
    return f" (with --set {', '.join(o.echoed for o in overrides)})" if overrides else ""


def apply_overrides(sections: dict[str, tuple[Any, Location]], components: list[tuple[Any, Location]],
                    overrides: Sequence[Override]) -> None:
    """Set each override's value in the raw YAML of one game, in the order given."""
    for override in overrides:
        _apply(sections, components, override)


def _apply(sections: dict[str, tuple[Any, Location]], components: list[tuple[Any, Location]],
           override: Override) -> None:
    steps = override.path.split(".")
    node, walked = _start(sections, components, steps, override)
    for step in steps[len(walked):-1]:
        node = _child(node, step, walked, override)
        walked.append(step)
    if len(walked) == len(steps):
        raise _error(override, "names a whole section or entry; name the value to change inside it")
    container, key = _slot(node, steps[-1], walked, override)
    old = container[key] if isinstance(container, list) else container.get(key)
    container[key] = _converted(old, override, container)


def _start(sections: dict[str, tuple[Any, Location]], components: list[tuple[Any, Location]], steps: list[str],
           override: Override) -> tuple[Any, list[str]]:
    """Where the walk begins, and the steps that led there."""
    component_list = YList(entry for entry, _where in components)
    component_list.item_locations = [where for _entry, where in components]
    component_list.location = components[0][1] if components else Location("components")
    head = steps[0]
    if head == "components":
        return component_list, [head]
    if head in sections:
        return sections[head][0], [head]
    if head == "items" and len(steps) > 2:
        found = [item for component in component_list if isinstance(component, dict)
                 for item in (component.get("items") or []) if isinstance(item, dict) and item.get("id") == steps[1]]
        if len(found) != 1:
            what = "no component has" if not found else f"{len(found)} components have"
            every = [str(item["id"]) for component in component_list if isinstance(component, dict)
                     for item in (component.get("items") or []) if isinstance(item, dict) and "id" in item]
            hint = did_you_mean(str(steps[1]), every) if not found else ""
            raise _error(override, f"{what} an item with id {steps[1]!r}{hint}")
        return found[0], steps[:2]
    ids = [component.get("id") for component in component_list if isinstance(component, dict)]
    if head in ids and len(steps) > 1:
        return component_list[ids.index(head)], [head]
    if "rules" in sections:
        return sections["rules"][0], []
    raise _error(override, f"unknown section {head!r} (sections: {', '.join(s for s in SECTIONS if s in sections)})")


def _child(node: Any, step: str, walked: list[str], override: Override) -> Any:
    if isinstance(node, dict):
        key = _key(node, step)
        if key is not None:
            return node[key]
        found = [entry for value in node.values() if isinstance(value, list)
                 for entry in value if isinstance(entry, dict) and entry.get("id") == step]
        if len(found) == 1:
            return found[0]
        raise _error(override, f"{_at(walked)} has no {step!r}{did_you_mean(str(step), _names(node))} "
                               f"(has: {_keys(node)})")
    if isinstance(node, list):
        for entry in node:
            if isinstance(entry, dict) and entry.get("id") == step:
                return entry
        if step.isdigit() and int(step) < len(node):
            return node[int(step)]
        raise _error(override, f"{_at(walked)} is a list with no entry {step!r} (ids: {_keys(node)})")
    raise _error(override, f"{_at(walked)} is a value ({node!r}), it has no {step!r}")


def _slot(node: Any, step: str, walked: list[str], override: Override) -> tuple[Any, Any]:
    """The container and key the value goes to; a missing key may be added only to an entry with an id
    (an optional field of an item, which the loader then checks like any other)."""
    if isinstance(node, dict):
        key = _key(node, step)
        if key is not None:
            return node, key
        if "id" in node:
            return node, step
        _child(node, step, walked, override)  # raises when nothing of that name is there
        raise _error(override, "names a whole entry; name the value to change inside it")
    if isinstance(node, list) and step.isdigit() and int(step) < len(node) and not isinstance(node[int(step)], dict):
        return node, int(step)
    _child(node, step, walked, override)  # raises for a value, or a list without that entry
    raise _error(override, "names a whole entry; name the value to change inside it")


def _key(node: dict[Any, Any], step: str) -> Any:
    if step in node:
        return step
    if step.lstrip("-").isdigit() and int(step) in node:
        return int(step)
    return None


def _converted(old: Any, override: Override, container: Any) -> Any:
    """The override's value in the type the data has at that place."""
    text = override.text
    if isinstance(old, str):
        return text
    try:  # the reader of the data files, with its guards: depth, number length, aliases
        value = parse_yaml(text, "--set") if text else None
    except DataError as exc:
        raise _error(override, f"not a readable value: {exc.message}") from None
    if old is None:
        return _located(value, container)
    expected, ok = _kind(old), False
    if isinstance(old, bool):
        ok = isinstance(value, bool)
    elif isinstance(old, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(old, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif isinstance(old, dict):
        ok = isinstance(value, dict)
    elif isinstance(old, list):
        ok = isinstance(value, list)
    if not ok:
        raise _error(override, f"expected {expected} (the data has {_short(old)}), got {shown(text, 40)}")
    return _located(value, container)


def _located(value: Any, container: Any) -> Any:
    """Give a mapping or list from the command line the locations the loader asks YAML values for."""
    where = getattr(container, "location", Location("--set"))
    if isinstance(value, dict):  # the parsed value's own locations say only '--set'
        located = YMap({k: _located(v, container) for k, v in value.items()})
        located.location, located.key_locations = where, {}
        return located
    if isinstance(value, list):
        seq = YList(_located(v, container) for v in value)
        seq.location, seq.item_locations = where, [where] * len(seq)
        return seq
    return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, dict):
        return "a mapping ({key: value, ...})"
    if isinstance(value, list):
        return "a list ([a, b, ...])"
    return "a value"


def _short(value: Any) -> str:
    text = repr(dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def _names(node: Any) -> list[str]:
    """What a path step may name here: a mapping's keys and the ids of the entries of its lists, or a list's ids."""
    if isinstance(node, dict):
        keys = [str(k) for k in node]
        keys += [str(e["id"]) for v in node.values() if isinstance(v, list)
                 for e in v if isinstance(e, dict) and "id" in e]
        return keys
    return [str(e["id"]) for e in node if isinstance(e, dict) and "id" in e] or [str(i) for i in range(len(node))]


def _keys(node: Any) -> str:
    keys = _names(node)
    return ", ".join(keys[:12]) + (", ..." if len(keys) > 12 else "")


def _at(walked: list[str]) -> str:
    return ".".join(walked) if walked else "the data"


def _error(override: Override, message: str) -> UsageError:
    return UsageError(f"--set {override.echoed}: {message}")
