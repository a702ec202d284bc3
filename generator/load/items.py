"""Components and their items: field schemas, `generate` (cartesian products), ranges and counts.

So that a 60-card deck is one entry, not sixty:

    items:
      - generate: {suit: [red, green, blue], rank: {range: [1, 20]}}
        id: "{suit}-{rank}"
"""

from __future__ import annotations

import itertools
import re
import string
from types import MappingProxyType
from typing import Any

from generator.errors import DataError, Location, shown
from generator.load import schema
from generator.load.reader import Section, is_kind, list_entries
from generator.load.sheets import BACK_PREFIX, Sheet, SheetReader, cell_value, check_columns, count_value
from generator.model import COMPONENT_KINDS, NAMED_SIZES, PRINTABLE_KINDS, Component, FieldSpec, Item, Size

SHEET_CHOICES = ("own", "mixed", "spill")  # a component's own sheet PDF, the game's sheet of small pieces, or
# its full pages on its own and the rest on the small pieces' sheet
# ... or any other name: a sheet shared with the game's other components of the same size that give it
SHEET_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")

ID_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
LAYOUT_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*(/[a-z0-9][a-z0-9_-]*)*$")
FIELD_TYPES = ("int", "number", "str", "text", "enum", "bool", "list")
MAX_GENERATED = 10_000
MAX_COUNT = 1_000

# Keys an item entry uses for itself; every other key is a field value.
ITEM_KEYS = ("id", "count", "generate", "back", "designed")


MAX_ID_WIDTH = 100  # an id is a short name: no format width or precision beyond this


def check_pattern(pattern: str, where: Location) -> None:
    """An id pattern may name fields and pad them ('{rank:02}'); nothing more, since the data is
    untrusted: no attribute or index lookups ('{suit.__class__}') and no giant widths."""
    try:
        parts = list(string.Formatter().parse(pattern))
    except ValueError as exc:
        raise DataError(f"id pattern {pattern!r} is not a valid pattern ({exc})", where) from None
    for _literal, field_name, spec, _conversion in parts:
        if field_name is None:
            continue
        if not field_name.isidentifier():
            raise DataError(f"id pattern {pattern!r}: '{{{field_name}}}' must name a field, like '{{rank}}'", where)
        if "{" in (spec or "") or any(int(d) > MAX_ID_WIDTH for d in re.findall(r"\d+", spec or "")):
            raise DataError(f"id pattern {pattern!r}: format '{spec}' is not allowed "
                            f"(widths up to {MAX_ID_WIDTH}, e.g. '{{rank:02}}')", where)


MAX_ID_CHARS = 64  # an id names files (`<game>-<component>-<id>-front.png`); a file name holds 255 bytes


def check_id(value: str, what: str, where: Location) -> str:
    if len(value) > MAX_ID_CHARS:
        raise DataError(f"{what} {shown(value, 40)} is longer than {MAX_ID_CHARS} characters (it names files); "
                        "shorten it", where)
    if not ID_RE.match(value):
        raise DataError(
            f"{what} {shown(value)} must be lower-case letters, digits, '-', '_' or '.' (it names files)", where
        )
    return value


def parse_size(value: Any, what: str, where: Location) -> Size:
    if isinstance(value, str):
        if value not in NAMED_SIZES:
            raise DataError(
                f"{what} size {value!r} is not a named size (one of: {', '.join(NAMED_SIZES)}), "
                "or give {width: MM, height: MM} or {diameter: MM}",
                where,
            )
        return NAMED_SIZES[value]
    section = Section(value, f"{what} size", where, schema.SIZE)
    corner = section.take("corner", float, 0.0)
    if section.has("diameter"):
        diameter = section.take("diameter", float)
        section.done()
        _positive(diameter, f"{what} size diameter", section.where("diameter"))
        return Size(float(diameter), float(diameter), shape="circle")
    width = section.take("width", float)
    height = section.take("height", float)
    section.done()
    for name, dim in (("width", width), ("height", height)):
        _positive(dim, f"{what} size {name}", section.where(name))
    return Size(float(width), float(height), corner=float(corner))


def _positive(value: float, what: str, where: Location) -> None:
    if not 0 < value <= 2000:
        raise DataError(f"{what} must be between 0 and 2000 mm, got {value}", where)


def parse_field_specs(value: Any, what: str, where: Location) -> tuple[FieldSpec, ...]:
    specs = []
    section = Section(value, f"{what} fields", where, schema.FIELDS)
    for name in list(section.data):
        spec_where = section.where(name)
        if not isinstance(name, str) or not re.match(r"^[a-z_][a-z0-9_]*$", name) or name in ITEM_KEYS:
            raise DataError(
                f"field name {name!r} must be a lower-case identifier and not one of {', '.join(ITEM_KEYS)}",
                spec_where,
            )
        raw = section.take(name, (dict, str))
        if isinstance(raw, str):
            raw = {"type": raw}
        spec = Section(raw, f"field '{name}'", spec_where, schema.FIELD)
        kind = spec.take_choice("type", FIELD_TYPES)
        values = spec.take("values", list, None)
        if kind == "enum" and not values:
            raise DataError(f"field '{name}' of type enum needs 'values: [...]'", spec.location)
        lo = spec.take("min", float, None)
        hi = spec.take("max", float, None)
        required = spec.take("required", bool, True)
        default = spec.take("default", (str, int, float, bool, list), None)
        doc = spec.take("doc", str, "")
        spec.done()
        specs.append(
            FieldSpec(name, kind, lo, hi, tuple(values) if values else None, required and default is None, default, doc)
        )
    return tuple(specs)


def check_field(spec: FieldSpec, value: Any, what: str, where: Location) -> Any:
    """Check one field value against its spec; the message says what would be right."""
    ok = {
        "int": lambda v: is_kind(v, int),
        "number": lambda v: is_kind(v, float),
        "str": lambda v: isinstance(v, str) and "\n" not in v.strip(),
        "text": lambda v: isinstance(v, str),
        "enum": lambda v: spec.values is not None and v in spec.values,
        "bool": lambda v: isinstance(v, bool),
        "list": lambda v: isinstance(v, list) and all(isinstance(x, (str, int)) for x in v),
    }[spec.type](value)
    if ok and spec.type in ("int", "number"):
        ok = (spec.min is None or value >= spec.min) and (spec.max is None or value <= spec.max)
    if not ok:
        raise DataError(f"{what} '{spec.name}' must be {spec.describe()}, got {value!r}", where)
    if spec.type == "list":
        return tuple(value)
    if spec.type == "str":
        return value.strip()
    return value


def _item_fields(
    values: dict[str, Any],
    specs: tuple[FieldSpec, ...],
    what: str,
    where_of: Any,
    base: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Validate and complete one face's fields. `base` holds inherited values (a back face's front)."""
    known = {s.name for s in specs}
    for key in values:
        if key not in known:
            hint = f" (declared fields: {', '.join(sorted(known))})" if known else " (the component declares no fields)"
            raise DataError(f"unknown field {key!r} on {what}{hint}", where_of(key))
    result = dict(base or {})
    for spec in specs:
        if spec.name in values:
            result[spec.name] = check_field(spec, values[spec.name], what, where_of(spec.name))
        elif spec.name in result:
            continue
        elif spec.default is not None:
            result[spec.name] = tuple(spec.default) if isinstance(spec.default, list) else spec.default
        elif spec.required:
            raise DataError(f"{what} is missing field '{spec.name}' ({spec.describe()})", where_of(None))
        else:
            result[spec.name] = None
    return result


def _expand_axis(name: str, axis: Any, where: Location) -> list[Any]:
    if isinstance(axis, list):
        if not axis:
            raise DataError(f"generate '{name}' has an empty list", where)
        return list(axis)
    if isinstance(axis, dict):
        spec = Section(axis, f"generate '{name}'", where, schema.GENERATE)
        bounds = spec.take("range", list)
        step = spec.take_int("step", 1, lo=1)
        spec.done()
        if len(bounds) != 2 or not all(is_kind(b, int) for b in bounds) or bounds[0] > bounds[1]:
            raise DataError(f"generate '{name}' range must be [first, last] integers with first <= last, got {bounds!r}", where)
        return list(range(bounds[0], bounds[1] + 1, step))
    return [axis]


def parse_items(
    value: Any, component: str, noun: str, specs: tuple[FieldSpec, ...], double_sided: bool, where: Location,
    decisions: list[Any], read_sheet: SheetReader | None = None,
) -> tuple[Item, ...]:
    """Items from YAML entries and from sheets (`- from: crew.csv`, or `items: {from: crew.csv}` alone)."""
    items: list[Item] = []
    seen: dict[str, Location] = {}
    if isinstance(value, dict) and "from" in value:
        value = [value]  # `items: {from: crew.csv}`: the sheet is the only source
    for entry, entry_where in list_entries(value, f"component '{component}' items", where):
        section = Section(entry, f"{noun} entry", entry_where, schema.ITEM)
        if section.has("from"):
            items.extend(_sheet_items(section, component, noun, specs, double_sided, read_sheet, seen, decisions))
            continue
        count = section.take_int("count", 1, lo=0, hi=MAX_COUNT)
        back = section.take("back", dict, None)
        note = section.take("designed", str, None)
        if note:
            decisions.append((section.where("designed"), note))
        if back is not None and not double_sided:
            raise DataError(
                f"{noun} has its own 'back' but component '{component}' is not double_sided (set double_sided: true)",
                section.where("back"),
            )
        if section.has("generate"):
            axes_raw = section.take("generate", dict)
            pattern = section.take("id", str)
            gen_where = section.where("generate")
            axes = {name: _expand_axis(name, axis, gen_where) for name, axis in axes_raw.items()}
            combos = 1
            for values in axes.values():
                combos *= len(values)
            if combos > MAX_GENERATED:
                raise DataError(f"generate makes {combos} items; at most {MAX_GENERATED}", gen_where)
            constants = section.rest()
            generated = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())]
        else:
            item_id = section.take("id", str)
            constants = section.rest()
            pattern = item_id
            generated = [{}]
            gen_where = section.where("id")

        def where_of(key: Any, _s: Section = section, _g: Location = gen_where) -> Location:
            """The line to blame: the key's own line, the generate line, or the entry itself."""
            if key is None:
                return _s.location
            return _s.where(key) if _s.has(key) else _g

        check_pattern(pattern, section.where("id"))
        for combo in generated:
            raw = {**constants, **combo}
            try:
                item_id = pattern.format(**raw)
            except (KeyError, IndexError, ValueError) as exc:
                raise DataError(f"id pattern {pattern!r} names an unknown field ({exc})", section.where("id")) from None
            check_id(item_id, f"{noun} id", section.where("id"))
            if item_id in seen:
                raise DataError(
                    f"duplicate {noun} id {item_id!r} (first defined on line {seen[item_id].line})", entry_where
                )
            seen[item_id] = entry_where
            what = f"{noun} '{item_id}'"
            fields = _item_fields(raw, specs, what, where_of)
            back_fields = None
            if double_sided:
                back_section = back if back is not None else {}
                back_where = section.where("back")
                back_fields = _item_fields(
                    dict(back_section), specs, f"{what} back",
                    lambda key, _b=back_section, _w=back_where: _b.where(key) if hasattr(_b, "where") and key else _w,
                    base=fields,
                )
            items.append(
                Item(
                    id=item_id,
                    component=component,
                    count=count,
                    fields=MappingProxyType(fields),
                    location=entry_where,
                    back=MappingProxyType(back_fields) if back_fields is not None else None,
                )
            )
    return tuple(items)


def _sheet_items(
    section: Section, component: str, noun: str, specs: tuple[FieldSpec, ...], double_sided: bool,
    read_sheet: SheetReader | None, seen: dict[str, Location], decisions: list[Any],
) -> list[Item]:
    """One item per row of a sheet, checked exactly as YAML entries are; errors name file:row:column."""
    source = section.take("from", str)
    worksheet = section.take("sheet", str, None)
    section.done()
    if read_sheet is None:
        raise DataError(f"items 'from' {source!r}: sheets are read only for a game's own data", section.where("from"))
    sheet = read_sheet(source, worksheet, section.where("from"))
    check_columns(sheet, specs, double_sided, noun)
    by_name = {spec.name: spec for spec in specs}
    items = []
    for row in sheet.rows:
        items.append(_row_item(sheet, row.line, row.cells, component, noun, by_name, specs, double_sided, seen,
                               decisions))
    return items


def _row_item(
    sheet: Sheet, line: int, cells: dict[str, Any], component: str, noun: str, by_name: dict[str, FieldSpec],
    specs: tuple[FieldSpec, ...], double_sided: bool, seen: dict[str, Location], decisions: list[Any],
) -> Item:
    row_where = sheet.at(line)
    raw_id = cells.get("id")
    if raw_id is None:
        raise DataError(f"the row has no id (each {noun} needs one, like 'red-1')", sheet.at(line, "id"))
    item_id = check_id(str(raw_id).strip(), f"{noun} id", sheet.at(line, "id"))
    if item_id in seen:
        raise DataError(f"duplicate {noun} id {item_id!r} (first defined at {seen[item_id]})", sheet.at(line, "id"))
    seen[item_id] = row_where
    count = count_value(cells.get("count", 1))
    if not is_kind(count, int) or not 0 <= count <= MAX_COUNT:
        raise DataError(f"{noun} '{item_id}' 'count' must be an integer 0..{MAX_COUNT}, got {count!r}",
                        sheet.at(line, "count"))
    if isinstance(cells.get("designed"), str):
        decisions.append((sheet.at(line, "designed"), cells["designed"]))
    front = {name: cell_value(by_name[name], cell) for name, cell in cells.items() if name in by_name}
    back = {name[len(BACK_PREFIX):]: cell_value(by_name[name[len(BACK_PREFIX):]], cell)
            for name, cell in cells.items() if name.startswith(BACK_PREFIX)}
    what = f"{noun} '{item_id}'"
    fields = _item_fields(front, specs, what, lambda key: sheet.at(line, key) if key else row_where)
    back_fields = None
    if double_sided:
        back_fields = _item_fields(back, specs, f"{what} back",
                                   lambda key: sheet.at(line, BACK_PREFIX + key) if key else row_where, base=fields)
    return Item(
        id=item_id,
        component=component,
        count=count,
        fields=MappingProxyType(fields),
        location=row_where,
        back=MappingProxyType(back_fields) if back_fields is not None else None,
    )


def parse_component(
    entry: Any, where: Location, decisions: list[Any], read_sheet: SheetReader | None = None
) -> Component:
    section = Section(entry, "component", where, schema.COMPONENT)
    comp_id = check_id(section.take("id", str), "component id", section.where("id"))
    kind = section.take_choice("kind", COMPONENT_KINDS)
    name = section.take("name", str)
    plural = section.take("plural", str, name + "s")
    size = parse_size(section.take("size", (str, dict)), f"component '{comp_id}'", section.where("size"))
    front = section.take("front", str)
    back = section.take("back", str, None)
    for key, layout in (("front", front), ("back", back)):
        if layout is not None and not LAYOUT_RE.match(layout):
            raise DataError(
                f"component '{comp_id}' {key} layout {layout!r} must be a name like 'game/layout' (no '..', no file suffix)",
                section.where(key),
            )
    double_sided = section.take("double_sided", bool, False)
    per_player = section.take("per_player", bool, False)
    sheet = section.take("sheet", str, "own")
    if not SHEET_RE.match(sheet):
        raise DataError(f"component '{comp_id}' sheet {sheet!r} must be one of {', '.join(SHEET_CHOICES)} or the "
                        "name of a sheet shared with components of the same size (a-z, 0-9, '-')",
                        section.where("sheet"))
    if sheet != "own" and kind not in PRINTABLE_KINDS:
        what = "the mixed sheet" if sheet in ("mixed", "spill") else "a sheet"
        raise DataError(f"component '{comp_id}' is a {kind}: only cards, tiles and tokens can share {what} "
                        f"(remove 'sheet: {sheet}')", section.where("sheet"))
        raise DataError(f"component '{comp_id}' is a {kind}: only cards, tiles and tokens can share the mixed "
                        "sheet (remove 'sheet: mixed')", section.where("sheet"))
    description = section.take("description", str, "")
    safe = section.take("safe", (int, float), 3.0)
    if isinstance(safe, bool) or not 0 <= safe <= 20:
        raise DataError(f"component '{comp_id}' safe must be a distance in mm from 0 to 20, got {safe!r}",
                        section.where("safe"))
    note = section.take("designed", str, None)
    if note:
        decisions.append((section.where("designed"), note))
    specs = parse_field_specs(section.take("fields", dict, {}), f"component '{comp_id}'", section.where("fields"))
    items = parse_items(
        section.take("items", (list, dict)), comp_id, name, specs, double_sided, section.where("items"), decisions,
        read_sheet,
    )
    section.done()
    if not items:
        raise DataError(f"component '{comp_id}' has no items", section.where("items"))
    return Component(
        id=comp_id,
        kind=kind,
        name=name,
        plural=plural,
        size=size,
        front=front,
        back=back,
        double_sided=double_sided,
        fields=specs,
        items=items,
        location=section.location,
        description=description,
        per_player=per_player,
        safe=float(safe),
        sheet=sheet,
    )


def check_shared_sheets(components: list[Component]) -> None:
    """Components that name one shared sheet (`sheet: <name>`) are imposed in one grid, so they must be one size;
    the sheet's file is named like a component's, so its name is no component's id nor the mixed sheet's."""
    ids = {c.id for c in components}
    first: dict[str, Component] = {}
    for component in components:
        name = component.sheet
        if name in SHEET_CHOICES:
            continue
        if name in ids or name == "tokens":
            whose = "a component's id" if name in ids else "the mixed sheet's file name"
            raise DataError(f"component '{component.id}' sheet '{name}' is {whose}: name the shared sheet "
                            "something else", component.location)
        host = first.setdefault(name, component)
        if (host.size.width, host.size.height) != (component.size.width, component.size.height):
            raise DataError(f"component '{component.id}' shares sheet '{name}' with '{host.id}' but is "
                            f"{component.size.label()}, not {host.size.label()}: only faces of one size share a "
                            "sheet (use 'sheet: mixed' for pieces of different sizes)", component.location)
