"""The print-service preset registry: `presets.yaml` (package data) read into typed, validated `Preset`s.

A preset says what one service asks for (file kind, dpi, colour, ink limit,
page order, file names, manifest) and the product sizes it sells, each with
the page that publishes it. `Preset.fitting` picks the size a component is
printed as (within `tolerance_mm`, upright or turned); `skip_reason` says in
one line why none fits, and `nothing_written` when a game gets no file at all
(the CLI exits 1 on it). Adding a service is adding a YAML entry; `load_presets`
checks every value and names the file:line of any mistake. The drawing lives
in `generator.render.exports.service`.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.errors import DataError, Location
from generator.load.reader import Section, list_entries
from generator.load.yamlsrc import YMap, parse_yaml
from generator.model import Component
from generator.render.base.units import PAPERS

PRESETS_FILE = Path(__file__).with_name("presets.yaml")
WRITES = ("png", "pdf-deck", "pdf-sides", "sheets")
KINDS = ("card", "tile", "token", "board")  # a board rides on the game's first card, tile or token job (hosted.py)
SIDES = ("front", "back")
PLACEHOLDERS = {
    "png": ("game", "component", "index", "item", "side"),
    "pdf-deck": ("game", "component"),
    "pdf-sides": ("game", "component", "side"),
    "sheets": ("game", "component"),
}
# Placeholders a pattern needs so no two files of one preset folder share a name: one of each group.
_UNIQUE_BY = {
    "png": (("component",), ("index", "item"), ("side",)),
    "pdf-deck": (("component",),),
    "pdf-sides": (("component",), ("side",)),
    "sheets": (("component",),),
}
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_SPEC = re.compile(r"^(0\d)?$")  # a placeholder may only be zero-padded: {index:03}


SHAPES = ("rect", "circle")


@dataclass(frozen=True)
class SizeRule:
    """One product size a service sells: its trim (mm), for PNGs the exact pixels, the component kinds
    and shape it takes, and the page that says so (`source`, with what it says)."""

    name: str
    trim_mm: tuple[float, float] | None = None
    px: tuple[int, int] | None = None
    kinds: tuple[str, ...] = ("card",)
    shape: str = "rect"
    source: str = ""
    says: str = ""

    def label(self) -> str:
        if self.trim_mm is None:
            return self.name
        w, h = self.trim_mm
        return f"{self.name} ⌀{w:g}" if self.shape == "circle" else f"{self.name} {w:g}×{h:g}"


@dataclass(frozen=True)
class Fit:
    """Where a component goes at a service: the size it is printed as, turned a quarter turn or not.

    `rule` is None for a preset that takes every size at its own trim (`sizes: {}`)."""

    rule: SizeRule | None
    turned: bool = False


@dataclass(frozen=True)
class Preset:
    """One print service's needs; see presets.yaml for the meaning of each field."""

    name: str
    service: str
    source: str
    writes: str
    dpi: int
    colour: str
    ink_limit: int | None
    kinds: tuple[str, ...]
    sizes: tuple[SizeRule, ...]
    fit: str
    bleed_mm: float
    copies: str
    page_order: tuple[str, ...]
    naming: str
    manifest: str
    paper: str = ""
    designed: str = ""
    tolerance_mm: float = 1.0

    def fitting(self, component: Component) -> Fit | None:
        """The size this service prints the component as, or None when no size it sells fits.

        A size fits when it takes the component's kind and shape and each side of the component is within
        `tolerance_mm` of the service's trim, as it stands or turned a quarter turn (a 120 x 70 mm card is
        a tarot card on its side). The closest size wins; a tie goes to the upright one, then to the first listed.
        """
        if component.kind not in self.kinds:
            return None
        if not self.sizes:
            return Fit(None)
        best: tuple[float, int, Fit] | None = None
        w, h = component.size.width, component.size.height
        for order, rule in enumerate(self.sizes):
            if component.kind not in rule.kinds or rule.shape != component.size.shape or rule.trim_mm is None:
                continue
            tw, th = rule.trim_mm
            for turned, (cw, ch) in ((False, (w, h)), (True, (h, w))):
                off = max(abs(cw - tw), abs(ch - th))
                if off <= self.tolerance_mm + 1e-9 and (best is None or (off, order) < best[:2]):
                    best = (off, order, Fit(rule, turned and cw != ch))
        return best[2] if best else None

    def size_rule(self, component: Component) -> SizeRule | None:
        """The service size this component is printed as; None when the preset takes every size at its own
        trim (or none fits: see `skip_reason`)."""
        found = self.fitting(component)
        return found.rule if found else None

    def skip_reason(self, component: Component) -> str | None:
        """Why this service does not take the component (None: it does), in one line."""
        if component.kind not in self.kinds:
            where = "; its PDF is in the game's folder" if component.kind in ("sheet", "board") else ""
            return f"{component.kind}s are not printed by {self.service} (kinds: {', '.join(self.kinds)}){where}"
        if self.fitting(component) is None:
            offered = [rule.label() for rule in self.sizes
                       if component.kind in rule.kinds and rule.shape == component.size.shape]
            return (f"{component.kind} {component.size.label()}: no size {self.service} sells is within "
                    f"{self.tolerance_mm:g} mm of it (the {component.size.shape} {component.kind} sizes it sells: "
                    f"{', '.join(offered) or 'none'})")
        return None

    def file_name(self, ext: str, **fields: Any) -> str:
        """A file name from the naming pattern (fields beyond the pattern's are ignored)."""
        return self.naming.format(**fields) + f".{ext}"


def load_presets(text: str, display_name: str) -> Mapping[str, Preset]:
    """Every preset in a presets YAML text, checked; DataError at file:line on any mistake."""
    data = parse_yaml(text, display_name)
    top = Section(data, "the presets file", Location(display_name, 1))
    entries = top.take("presets", dict)
    top.done()
    presets: dict[str, Preset] = {}
    for name, body in entries.items():
        where = entries.where(name) if isinstance(entries, YMap) else Location(display_name)
        if not isinstance(name, str) or not _NAME.match(name):
            raise DataError(f"preset name {name!r} must be lower-case letters, digits and dashes (it is a folder)",
                            where)
        presets[name] = _preset(name, Section(body, f"preset {name!r}", where))
    return MappingProxyType(presets)


def _preset(name: str, entry: Section) -> Preset:
    writes = entry.take_choice("writes", WRITES)
    colour = entry.take_choice("colour", ("rgb", "cmyk"), "rgb")
    ink_limit = entry.take_int("ink_limit", None, lo=100, hi=400)
    if colour == "cmyk" and writes == "png":
        raise DataError(f"preset {name!r}: colour cmyk needs a PDF (writes: pdf-deck, pdf-sides or sheets), "
                        "not png", entry.where("colour"))
    if ink_limit is not None and colour != "cmyk":
        raise DataError(f"preset {name!r}: ink_limit applies to colour cmyk only", entry.where("ink_limit"))
    kinds = tuple(_strings(entry, "kinds", KINDS, default=["card", "tile", "token"]))
    if writes == "sheets" and "board" in kinds:
        raise DataError(f"preset {name!r}: writes sheets imposes faces on paper; a board is tiled over paper by "
                        "the game's own board PDF (take board out of kinds)", entry.where("kinds"))
    fit = entry.take_choice("fit", ("pad", "scale"), "pad")
    bleed = float(entry.take("bleed_mm", float, 3.0))
    if not 0 <= bleed <= 10:
        raise DataError(f"preset {name!r}: bleed_mm must be between 0 and 10, got {bleed:g}", entry.where("bleed_mm"))
    paper = entry.take("paper", str, "")
    if writes == "sheets" and paper not in PAPERS:
        raise DataError(f"preset {name!r}: writes sheets needs paper: one of {', '.join(PAPERS)}",
                        entry.where("paper") if entry.has("paper") else entry.location)
    naming = entry.take("naming", str)
    _check_naming(name, naming, writes, entry.where("naming"))
    preset = Preset(
        name=name,
        service=entry.take("service", str),
        source=entry.take("source", str),
        writes=writes,
        dpi=entry.take_int("dpi", 300, lo=72, hi=1200),
        colour=colour,
        ink_limit=ink_limit,
        kinds=kinds,
        sizes=_sizes(name, entry, writes, kinds),
        fit=fit,
        bleed_mm=bleed,
        copies=entry.take_choice("copies", ("unique", "every"), "unique"),
        page_order=tuple(_strings(entry, "page_order", SIDES, default=list(SIDES))),
        naming=naming,
        manifest=entry.take_choice("manifest", ("csv", "json"), "csv"),
        paper=paper,
        designed=entry.take("designed", str, ""),
        tolerance_mm=_tolerance(name, entry),
    )
    entry.done()
    return preset


def _strings(entry: Section, key: str, choices: tuple[str, ...], default: list[str]) -> list[str]:
    values = entry.take(key, list, default)
    for value, where in list_entries(values, f"{entry.what} {key}", entry.where(key)):
        if value not in choices:
            raise DataError(f"{entry.what} {key}: {value!r} is not one of {', '.join(choices)}", where)
    if not values:
        raise DataError(f"{entry.what} {key} must name at least one of {', '.join(choices)}", entry.where(key))
    return [str(v) for v in values]


def _tolerance(name: str, entry: Section) -> float:
    value = float(entry.take("tolerance_mm", (int, float), 1.0))
    if not 0 <= value <= 5:
        raise DataError(f"preset {name!r}: tolerance_mm must be between 0 and 5, got {value:g}",
                        entry.where("tolerance_mm"))
    return value


def _sizes(name: str, entry: Section, writes: str, kinds: tuple[str, ...]) -> tuple[SizeRule, ...]:
    """The sizes a service sells: each with its trim, the kinds and shape it takes, and its source."""
    raw = entry.take("sizes", dict, {})
    rules = []
    for size_name, body in raw.items():
        where = raw.where(size_name) if isinstance(raw, YMap) else entry.where("sizes")
        if not isinstance(size_name, str) or not _NAME.match(size_name):
            raise DataError(f"preset {name!r}: size name {size_name!r} must be lower-case letters, digits and "
                            "dashes", where)
        rule = Section(body, f"preset {name!r} size {size_name!r}", where)
        trim = _pair(rule, "trim_mm", float)
        px = _pair(rule, "px", int)
        taken = tuple(_strings(rule, "kinds", kinds, default=["card"]))
        shape = rule.take_choice("shape", SHAPES, "rect")
        source = rule.take("source", str)
        says = rule.take("says", str)
        rule.done()
        if trim is None:
            raise DataError(f"preset {name!r} size {size_name!r} needs trim_mm: [width, height]", where)
        if px is not None and writes != "png":
            raise DataError(f"preset {name!r} size {size_name!r}: px fixes PNG files only (writes: {writes})", where)
        rules.append(SizeRule(size_name, trim, px, taken, shape, source, says))
    return tuple(rules)


def _pair(rule: Section, key: str, kind: type) -> tuple[Any, Any] | None:
    value = rule.take(key, list, None)
    if value is None:
        return None
    if len(value) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in value) \
            or (kind is int and not all(isinstance(v, int) for v in value)):
        what = "whole pixels" if kind is int else "millimetres"
        raise DataError(f"{rule.what} {key} must be [width, height] in positive {what}, got {value!r}",
                        rule.where(key))
    return kind(value[0]), kind(value[1])


def _check_naming(name: str, pattern: str, writes: str, where: Location) -> None:
    """Only known placeholders, at most zero-padded, and enough of them that every file gets its own name.

    A pattern cannot reach attributes or escape its folder, and cannot silently
    write two faces (or two components) to one file.
    """
    allowed = PLACEHOLDERS[writes]
    try:
        parts = list(string.Formatter().parse(pattern))
    except ValueError as exc:
        raise DataError(f"preset {name!r}: naming {pattern!r} is not a valid pattern ({exc})", where) from None
    for literal, field_name, spec, conversion in parts:
        if "/" in literal or "\\" in literal or literal.startswith("."):
            raise DataError(f"preset {name!r}: naming {pattern!r} must be a plain file name (no folders)", where)
        if field_name is None:
            continue
        if field_name not in allowed or conversion or not _SPEC.match(spec or ""):
            raise DataError(f"preset {name!r}: naming placeholder {{{field_name}}} is not allowed for writes "
                            f"{writes} (use {', '.join('{' + a + '}' for a in allowed)}, optionally "
                            "zero-padded like {index:03})", where)
    used = {field_name for _, field_name, _, _ in parts if field_name}
    for needed in _UNIQUE_BY[writes]:
        if not used & set(needed):
            raise DataError(f"preset {name!r}: naming {pattern!r} needs {' or '.join('{' + n + '}' for n in needed)}, "
                            "or two files of the folder get the same name and one is lost", where)


@functools.lru_cache(maxsize=1)
def registry() -> Mapping[str, Preset]:
    """The shipped presets (read once; the file is package data, not project input)."""
    return load_presets(PRESETS_FILE.read_text(encoding="utf-8"), "generator/render/exports/presets.yaml")


def preset(name: str) -> Preset:
    """The shipped preset `name`; a UsageError naming the choices otherwise."""
    from generator.errors import UsageError

    found = registry().get(name)
    if found is None:
        raise UsageError(f"unknown preset {name!r} (presets: {', '.join(registry())})")
    return found


def nothing_written(preset: Preset, game_id: str, components: Sequence[Component]) -> str | None:
    """The one line saying `preset` writes no file at all for this game's asked `components` (None when one
    of them fits a size the service sells): a print order with nothing in it is a failure, not a success."""
    if any(preset.skip_reason(component) is None for component in components):
        return None
    kinds = ", ".join(sorted({component.kind for component in components}))
    return (f"--preset {preset.name} writes nothing for {game_id}: none of its {len(components)} "
            f"component{'s' if len(components) != 1 else ''} "
            f"({kinds}) fits what {preset.service} prints (the warnings name each)")
