"""Face layouts: `templates/layouts/<game>/<name>.yaml`, read once, compiled once, resolved per item.

A layout is a list of named elements (rect, circle, line, text, textbox,
icon, pips, image, track: a row of numbered boxes) with positions in millimetres from the top-left corner of
the trim box, font sizes and stroke widths in points. Any string value may be
a Jinja template over the item (`"{{ card.rank }}"`); `when:` is a Jinja
expression that hides the element when false; `vars:` are named expressions
evaluated per item before the elements (`suit: theme.suits[card.suit]`).

Templates run in Jinja's immutable sandbox with StrictUndefined (`sandbox.NamedUndefined`), so a layout
(untrusted data) cannot reach Python internals and a misspelt field is an
error at the layout's file:line rather than an empty string on 54 cards.

`rows:` and `cols:` repeat an element over a grid (a board's sea spaces):
every copy sees `row` and `col` (from 0) in its templates.

A rect or circle with `frame: true` is the frame `pnp validate` keeps text and
icons inside (`render.preflight`); `fine: true` on a text marks fine print, which the
accessibility preflight (`render.faces.access`) allows down to 6 pt instead of 7, and a
top-level `waive: {contrast: "reason"}` (or `size:`) waives one of its rules for the
layout, with a written reason `pnp show` lists; `ink: background` / `ink: frame` mark what
`--ink-saver` lightens (`render.facestyle`). A filled rect that reaches the trim
runs on into the bleed by itself (`draw._rect`).

`extends: game/base` inherits a parent's vars and elements; a child element
with the same `name` overrides the parent's keys (or drops it with
`remove: true`), new names are appended on top.

Compiling (YAML parse + Jinja compile) happens once per layout and project
handle (kept by the read gate with the files it read), resolving is a handful of template renders per
face, and the result (`Face`) is a hashable value, so identical faces (all the
shared backs) are drawn once as a PDF form. Across processes, the per-user code cache
(`render.template_cache`) keeps each layout file's parsed tree, each template's code and what
each template reads, so a warm process parses no layout at all.
"""

from __future__ import annotations

import math
import re
from collections import ChainMap
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from generator.errors import DataError, Location, did_you_mean, shown
from generator.load.schema import COMMON, LAYOUT, LAYOUT_TYPES, UNSET
from generator.load.schema import REQUIRED as SCHEMA_REQUIRED
from generator.load.yamlsrc import MAX_FILE_BYTES, YList, YMap, parse_yaml_bytes, read_yaml
from generator.model import Component, Game, Item
from generator.project import Project
from generator.render.base.project_fonts import ProjectFont
from generator.render.faces.glyphs import composed
from generator.render.faces.icons import ICON_NAME, Icon, IconSet, icon_set
from generator.render.faces.images import Picture, load_picture
from generator.render.faces.text import FITS, INLINE_ICONS, icon_names
from generator.speed import speedups

LAYOUT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*/[a-z0-9][a-z0-9_-]*$")
HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
WAIVABLE = ("contrast", "size")  # rules of the accessibility preflight (`render.faces.access`) a layout may waive
MAX_EXTENDS = 8
ICON_TYPES = ("icon", "pips", "textbox")  # elements that draw icons: named, or inline in their text

# Keys, value kinds, defaults and required keys of every element type: made from the one declared table,
# `generator.load.schema` (which docs/layouts.md is generated from). Value kinds: num (mm or pt), colour,
# font, icon, align, valign, fit, bool, ink (a role), text (free string), expr, path.
TOP_KEYS = LAYOUT.names
COMMON_KEYS: dict[str, str] = {key.name: key.kind for key in COMMON.keys}
INK_ROLES = ("background", "frame")  # `ink:` marks what --ink-saver lightens (see render.inksaver)
MAX_REPEAT = 400  # copies one element may make with rows x cols
ABOVE_ZERO = frozenset({"size", "min_size", "r", "leading"})  # sizes: nothing to draw at zero, mirrored below it
NOT_NEGATIVE = frozenset({"w", "h", "radius", "stroke_width", "max_width"})
MAX_MM = 10_000.0  # any position or size (mm, pt or degrees): ten metres, far past any sheet, and no sum overflows
WHOLE = frozenset({"count", "columns", "first", "last"})  # pips and track boxes: each one is drawn and measured
TYPE_KEYS: dict[str, dict[str, str]] = {kind: {key.name: key.kind for key in block.keys}
                                        for kind, block in LAYOUT_TYPES.items()}
ALLOWED_KEYS: dict[str, dict[str, str]] = {kind: {**COMMON_KEYS, **keys} for kind, keys in TYPE_KEYS.items()}
DEFAULTS: dict[str, Any] = {key.name: key.value for block in (COMMON, *LAYOUT_TYPES.values()) for key in block.keys
                            if key.value is not UNSET}
REQUIRED: dict[str, tuple[str, ...]] = {kind: tuple(key.name for key in block.keys if key.default is SCHEMA_REQUIRED)
                                        for kind, block in LAYOUT_TYPES.items()}
_MISSING = object()
ALIGNS = ("left", "centre", "center", "right")
VALIGNS = ("top", "middle", "bottom")


@dataclass(frozen=True)
class Element:
    """One resolved element of one face: plain values only, hashable (see `Face`)."""

    type: str
    name: str
    props: tuple[tuple[str, Any], ...]
    _lookup: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        self._lookup.update(self.props)

    def get(self, key: str) -> Any:
        """The element's value for `key`, or the documented default."""
        found = self._lookup.get(key, _MISSING)
        return DEFAULTS.get(key) if found is _MISSING else found


@dataclass(frozen=True)
class Face:
    """Everything needed to draw one side of one item: trim size (mm) and its resolved elements."""

    width: float
    height: float
    shape: str
    corner: float
    elements: tuple[Element, ...]

    def __hash__(self) -> int:
        """Hashed once: a face keys the sheet's form names and the form store's recordings, each a few times."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.width, self.height, self.shape, self.corner, self.elements))
            object.__setattr__(self, "_hash", found)
        return found

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the cached hash: another process hashes strings differently."""
        return {key: value for key, value in self.__dict__.items() if key != "_hash"}


@dataclass
class _Value:
    """A compiled element value: a constant, or a Jinja template to render per item."""

    raw: Any
    where: Location
    template: Any = None  # jinja2.Template, or a compiled expression for `when`
    refs: References | None = None  # what the template reads (None: not known statically)


@dataclass(frozen=True)
class References:
    """What one template reads: item fields by name (`card.rank`, `front.suit`) and other top-level names.

    Found in the template's syntax tree, so a face's element can be resolved once per
    distinct value of the fields it shows (`FaceMemo`) instead of once per item.
    """

    fields: frozenset[tuple[str, str]]  # ("card", key) or ("front", key); `item` is `card`
    names: frozenset[str]


@dataclass
class _RawElement:
    name: str
    values: dict[str, _Value]
    where: Location
    game: str = ""  # the game whose layout folder wrote it: where its project fonts are looked up
    bold: str | None = None  # a textbox's project font's `<Stem>-Bold` face, when it names no `bold_font`


@dataclass
class Layout:
    """A compiled layout: vars and elements with their Jinja templates compiled once."""

    name: str
    file: str
    vars: list[tuple[str, _Value]]
    elements: list[_RawElement]
    where: Location
    image_paths: dict[str, Path] = field(default_factory=dict)
    # Rules of the accessibility preflight this layout waives: rule -> (the written reason, its line).
    waivers: dict[str, tuple[str, Location]] = field(default_factory=dict)
    # The item fields each var and element depends on (vars they use included), in a fixed order;
    # None where that is not known statically: that one is resolved for every item.
    var_deps: list[tuple[tuple[str, str], ...] | None] = field(default_factory=list)
    element_deps: list[tuple[tuple[str, str], ...] | None] = field(default_factory=list)

    @property
    def fully_known(self) -> bool:
        """Every var and element says which item fields it reads (so they settle the whole face)."""
        found = self.__dict__.get("_fully_known")
        if found is None:  # asked once per face; the deps are set once, when the layout is compiled
            found = self.__dict__["_fully_known"] = all(deps is not None for deps in (*self.var_deps, *self.element_deps))
        return bool(found)

    @property
    def field_deps(self) -> tuple[tuple[str, str], ...]:
        """Every item field some var or element depends on (read once per face)."""
        found = self.__dict__.get("_field_deps")
        if found is None:
            found = self.__dict__["_field_deps"] = tuple(sorted({d for deps in (*self.var_deps, *self.element_deps)
                                                                 if deps for d in deps}))
        return found

    def templates(self) -> list[tuple[str, _Value]]:
        """Every compiled value with a label, for checks that walk them all."""
        found = [(f"var '{name}'", value) for name, value in self.vars]
        for element in self.elements:
            found.extend((f"element '{element.name}' {key}", v) for key, v in element.values.items())
        return found


class _NotPlain(Exception):
    """A parsed YAML value `_plain_yaml` cannot write as marshal's plain data."""


_YAML_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain_yaml(node: Any) -> Any:
    """A parsed layout (YMap / YList / scalars, with their lines) as plain nested tuples for the cache."""
    kind = type(node)
    if kind is YMap:
        entries = []
        for key, value in node.items():
            if type(key) not in _YAML_SCALARS:
                raise _NotPlain(key)
            entries.append((key, _plain_line(node.key_locations[key]), _plain_yaml(value)))
        return ("M", _plain_line(node.location), tuple(entries))
    if kind is YList:
        if len(node.item_locations) != len(node):
            raise _NotPlain(node)
        return ("L", _plain_line(node.location),
                tuple((_plain_line(where), _plain_yaml(value)) for where, value in zip(node.item_locations, node)))
    if kind in _YAML_SCALARS:
        return ("S", node)
    raise _NotPlain(node)


def _plain_line(where: Location) -> int:
    if where.column:
        raise _NotPlain(where)
    return where.line


def _rebuilt_yaml(plain: Any, display: str, places: dict[int, Location]) -> Any:
    """`_plain_yaml`'s tuples back as the YMap / YList tree `read_yaml` returned (locations in `display`)."""
    kind = plain[0]
    if kind == "S":
        return plain[1]
    if kind == "M":
        mapping = YMap()
        mapping.location = _place(places, display, plain[1])
        mapping.key_locations = {}
        for key, line, value in plain[2]:
            mapping[key] = _rebuilt_yaml(value, display, places)
            mapping.key_locations[key] = _place(places, display, line)
        return mapping
    if kind == "L":
        entries = YList(_rebuilt_yaml(value, display, places) for _, value in plain[2])
        entries.location = _place(places, display, plain[1])
        entries.item_locations = [_place(places, display, line) for line, _ in plain[2]]
        return entries
    raise ValueError(f"not a cached YAML node: {kind!r}")


def _place(places: dict[int, Location], display: str, line: int) -> Location:
    """One `Location` per line of a rebuilt file (they are frozen values: shared)."""
    found = places.get(line)
    if found is None:
        if type(line) is not int:
            raise TypeError(line)
        found = places[line] = Location(display, line)
    return found


def _stored_references(value: Any) -> bool:
    """A cached `_references` entry has the shape it writes: None, or (fields, names) of strings."""
    if value is None:
        return True
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple)
            and isinstance(value[1], tuple)
            and all(isinstance(f, tuple) and len(f) == 2 and all(isinstance(p, str) for p in f) for f in value[0])
            and all(isinstance(n, str) for n in value[1]))


class LayoutLibrary:
    """Loads and caches compiled layouts of one project; one per process is enough."""

    def __init__(self, project: Project) -> None:
        from generator.render.base.sandbox import LimitedEnvironment, NamedUndefined
        from generator.render.base.template_cache import CodeCache

        self.project = project
        self.env = LimitedEnvironment(code_cache=CodeCache.for_user(), undefined=NamedUndefined, autoescape=False)
        self._compiled: dict[tuple[Any, ...], Any] = {}  # Jinja compiles are the costly part: share repeats
        self._memos: dict[tuple[int, int, int, str], FaceMemo] = {}  # see `_memo`
        self._memoize = speedups().memos  # off: every face resolved afresh (generator.speed), the same faces
        self._memo_generation = -1

    @property
    def base(self) -> Path:
        return self.project.templates_dir / "layouts"

    def get(self, name: str, where: Location | None = None, _chain: tuple[str, ...] = ()) -> Layout:
        """The compiled layout `name` ('game/layout'); DataError at `where` when it is missing.

        Compiled once per project handle and kept with the files it read (its YAML, its
        parents', its images): a caller inherits those reads, and an edit recompiles it.
        """
        if name in _chain:
            raise DataError(f"layout {name!r} extends itself ({' -> '.join((*_chain, name))})", where)
        if len(_chain) >= MAX_EXTENDS:
            raise DataError(f"layout {name!r}: 'extends' chain deeper than {MAX_EXTENDS}", where)
        if not LAYOUT_NAME.match(name):
            raise DataError(f"layout name {name!r} must look like 'game/layout' (lower case, no suffix)", where)
        return self.project.gate.derived(("layout", name), lambda: self._load(name, where, _chain))

    def _load(self, name: str, where: Location | None, chain: tuple[str, ...]) -> Layout:
        gate = self.project.gate
        path = self.project.inside(self.base, f"{name}.yaml", where or Location(name))
        display = gate.name(path)
        if not gate.exists(path, where):
            known = sorted(p.stem for p in path.parent.glob("*.yaml")) if path.parent.is_dir() else []
            hint = f" (layouts there: {', '.join(known)})" if known else ""
            raise DataError(f"layout {name!r} not found: {display} does not exist{hint}", where)
        return self._compile(name, self._read_layout(path, display), display, (*chain, name))

    def _read_layout(self, path: Path, display: str) -> Any:
        """The layout file parsed (`read_yaml`), or rebuilt from the per-user cache when a process before
        parsed the very same bytes: the same mappings, lists, values and lines. The file is read once,
        through the gate, whichever way it is turned into the tree."""
        gate = self.project.gate
        cache = self.env.code_cache
        if cache is None:
            return read_yaml(path, display, gate)
        import hashlib

        data = gate.read_bytes(path, Location(display), limit=MAX_FILE_BYTES)  # recorded, as read_yaml records it
        key = ("layout-yaml", hashlib.sha256(data).hexdigest())

        def parse() -> Any:
            try:
                return _plain_yaml(parse_yaml_bytes(data, display))
            except _NotPlain:
                return None  # a value marshal cannot keep (a date): parsed every time

        stored = cache.plain(key, self._fingerprint("yaml"), parse, lambda value: value is None or
                             isinstance(value, tuple))
        if stored is not None:
            try:
                return _rebuilt_yaml(stored, display, {})
            except (TypeError, ValueError, IndexError, KeyError):
                pass  # not what `_plain_yaml` writes: parse it
        return parse_yaml_bytes(data, display)

    # -- compiling -------------------------------------------------------------------------

    def _compile(self, name: str, doc: Any, display: str, chain: tuple[str, ...]) -> Layout:
        top = Location(display, 1)
        if not isinstance(doc, YMap):
            raise DataError("a layout must be a mapping with 'elements:' (and optionally 'extends:', 'vars:')", top)
        for key in doc:
            if key not in TOP_KEYS:
                raise DataError(f"unknown key {key!r} in layout{did_you_mean(str(key), TOP_KEYS)} "
                                f"(known keys: {', '.join(TOP_KEYS)})", doc.where(key))
        parent: Layout | None = None
        if "extends" in doc:
            if not isinstance(doc["extends"], str):
                raise DataError("layout 'extends' must be a layout name like 'game/base'", doc.where("extends"))
            parent = self.get(doc["extends"], doc.where("extends"), chain)
        variables = list(parent.vars) if parent else []
        raw_vars = doc.get("vars", {})
        if not isinstance(raw_vars, dict):
            raise DataError("layout 'vars' must be a mapping of name: expression", doc.where("vars"))
        for var_name, expr in raw_vars.items():
            where = raw_vars.where(var_name) if isinstance(raw_vars, YMap) else top
            if not isinstance(var_name, str) or not var_name.isidentifier():
                raise DataError(f"layout var name {var_name!r} must be an identifier (letters, digits, _)", where)
            value = _Value(expr, where, self._expression(str(expr), where, f"var '{var_name}'"),
                           self._references(str(expr), expression=True))
            variables = [(n, v) for n, v in variables if n != var_name] + [(var_name, value)]
        elements = [_RawElement(e.name, dict(e.values), e.where, e.game) for e in parent.elements] if parent else []
        raw_elements = doc.get("elements", [])
        if not isinstance(raw_elements, list):
            raise DataError("layout 'elements' must be a list ('- ' entries)", doc.where("elements"))
        for index, entry in enumerate(raw_elements):
            where = raw_elements.where(index) if hasattr(raw_elements, "where") else top
            self._merge_element(elements, entry, where, index, name.split("/")[0])
        layout = Layout(name, display, variables, elements, top,
                        waivers={**(parent.waivers if parent else {}), **_waivers(doc)})
        for element in elements:
            self._check_element(element)
        layout.var_deps, layout.element_deps = _dependencies(variables, elements)
        return layout

    def _merge_element(self, elements: list[_RawElement], entry: Any, where: Location, index: int,
                       game: str) -> None:
        if not isinstance(entry, YMap):
            raise DataError("a layout element must be a mapping (type:, x:, y:, ...)", where)
        name = entry.get("name", f"#{index + 1}")
        if not isinstance(name, str):
            raise DataError("element 'name' must be a string", entry.where("name"))
        existing = next((e for e in elements if e.name == name), None)
        if entry.get("remove") is True:
            if existing is None:
                raise DataError(f"'remove: true' but no inherited element is named {name!r}", entry.where("remove"))
            elements.remove(existing)
            return
        values: dict[str, _Value] = dict(existing.values) if existing else {}
        for key, raw in entry.items():
            if key == "remove":
                raise DataError("'remove' must be true (it drops an inherited element)", entry.where(key))
            values[key] = _Value(raw, entry.where(key))
        if existing:
            existing.values = values
            existing.game = game
        else:
            elements.append(_RawElement(name, values, where, game))

    def _check_element(self, element: _RawElement) -> None:
        """Strict keys and types, and compile every template once."""
        type_value = element.values.get("type")
        if type_value is None:
            raise DataError(f"element '{element.name}' has no 'type' (one of {', '.join(TYPE_KEYS)})", element.where)
        kind = type_value.raw
        if kind not in TYPE_KEYS:
            raise DataError(f"element '{element.name}' type {kind!r} is unknown{did_you_mean(str(kind), tuple(TYPE_KEYS))} "
                            f"(types: {', '.join(TYPE_KEYS)})", type_value.where)
        allowed = {**COMMON_KEYS, **TYPE_KEYS[kind]}
        for key, value in element.values.items():
            if key not in allowed:
                raise DataError(f"unknown key {key!r} in {kind} element '{element.name}'"
                                f"{did_you_mean(str(key), tuple(allowed))} (known keys: {', '.join(sorted(allowed))})",
                                value.where)
            value_kind = allowed[key]
            if key == "when":
                value.template = self._expression(str(value.raw), value.where, f"element '{element.name}' when")
                value.refs = self._references(str(value.raw), expression=True)
            elif isinstance(value.raw, str) and ("{{" in value.raw or "{%" in value.raw):
                value.template = self._template(value.raw, value.where, f"element '{element.name}' {key}")
                value.refs = self._references(value.raw, expression=False)
            elif not isinstance(value.raw, (ProjectFont, Icon)):  # an inherited font or icon is already resolved
                value.raw = _coerce(value.raw, value_kind, key, element.name, value.where)
                if value_kind == "path":  # checked now; read when a face is resolved (so only faces depend on it)
                    self.image_path(value.raw, value.where)
                elif value_kind == "font":  # read now: the layout's reads cover the font file's bytes
                    value.raw = self.font(value.raw, value.where, element.game)
                elif value_kind == "icon":  # the icon set is read now: the layout's reads cover its files
                    value.raw = self.icon(value.raw, value.where, element.name, element.game)
        for key in REQUIRED[kind]:
            if key not in element.values:
                raise DataError(f"{kind} element '{element.name}' needs '{key}'", element.where)
        element.bold = self._own_bold(element) if kind == "textbox" else None
        if kind in ICON_TYPES:  # its icons (inline ones too) come from this set: the layout's reads cover its files
            self.icons(element.game)
        fit = element.values.get("fit")
        if fit is not None and fit.raw == "shrink" and "min_size" not in element.values:
            raise DataError(f"{kind} element '{element.name}' has 'fit: shrink' but no 'min_size' "
                            "(the smallest size in points it may shrink to, e.g. min_size: 6)", fit.where)
        if fit is not None and fit.raw == "shrink" and kind == "text" and "max_width" not in element.values:
            raise DataError(f"text element '{element.name}' has 'fit: shrink' but no 'max_width' (the width in mm "
                            "it must fit)", fit.where)

    def _template(self, source: str, where: Location, what: str) -> Any:
        from jinja2 import TemplateSyntaxError

        key = ("template", source)
        if key in self._compiled:
            return self._compiled[key]
        try:
            compiled = self._compiled[key] = self.env.from_string(source)
            return compiled
        except TemplateSyntaxError as exc:
            raise DataError(f"{what}: bad Jinja template: {exc.message}", where) from None

    def _expression(self, source: str, where: Location, what: str) -> Any:
        from jinja2 import TemplateSyntaxError

        key = ("expression", source)
        if key in self._compiled:
            return self._compiled[key]
        try:
            compiled = self._compiled[key] = self.env.compile_expression(source, undefined_to_none=False)
            return compiled
        except TemplateSyntaxError as exc:
            raise DataError(f"{what}: bad Jinja expression {source!r}: {exc.message}", where) from None

    def _references(self, source: str, expression: bool) -> References | None:
        """What a template that compiled reads (see `References`), parsed once per source text."""
        key = ("references", expression, source)
        if key not in self._compiled:
            def parse() -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]] | None:
                from jinja2.parser import Parser

                tree = (Parser(self.env, source, state="variable").parse_expression() if expression
                        else self.env.parse(source))
                found = template_references(tree)
                return None if found is None else (tuple(sorted(found.fields)), tuple(sorted(found.names)))

            cache = self.env.code_cache
            stored = parse() if cache is None else cache.plain(key, self._references_fingerprint(), parse,
                                                                _stored_references)
            self._compiled[key] = None if stored is None else References(frozenset(stored[0]), frozenset(stored[1]))
        found: References | None = self._compiled[key]
        return found

    def _references_fingerprint(self) -> bytes:
        """What `template_references` finds depends on: Jinja's parser (the environment's fingerprint),
        this module's code and the names it treats as reserved (read from classes at import)."""
        return self._fingerprint("references")

    def _fingerprint(self, what: str) -> bytes:
        """The code a cached value of kind `what` was made by: "references" (`_references`: Jinja's parser,
        this module, the reserved names), "yaml" (`_read_layout`: PyYAML, yamlsrc.py, this module)."""
        found = self._compiled.get(("fingerprint", what))
        if found is None:
            import hashlib

            digest = hashlib.sha256(what.encode() + b"\0")
            digest.update(Path(__file__).read_bytes())
            if what == "references":
                from generator.render.base.template_cache import environment_fingerprint

                digest.update(environment_fingerprint(self.env))
                digest.update(repr((sorted(_RESERVED), sorted(_PER_ITEM.items()), sorted(_UNKNOWABLE_NAMES),
                                    sorted(_UNKNOWABLE_FILTERS))).encode())
            else:
                import yaml

                from generator.load import yamlsrc

                digest.update(repr((yaml.__version__, yaml.__with_libyaml__)).encode())
                digest.update(Path(yamlsrc.__file__).read_bytes())
            found = self._compiled[("fingerprint", what)] = digest.digest()
        return cast(bytes, found)

    def image_path(self, relative: str, where: Location) -> Path:
        """An image file named by a layout, resolved inside templates/, or for an `art/...` path not there,
        inside the project's own art/ folder (no escapes either way); it must exist."""
        gate = self.project.gate
        path = self.project.inside(self.project.templates_dir, relative, where)
        if gate.exists(path, where):
            return path
        if relative.startswith("art/"):
            art = self.project.root / "art"
            path = self.project.inside(art, relative[len("art/"):], where)
            if gate.exists(path, where):
                return path
            raise DataError(f"image {relative!r} not found under templates/ or the project's art/", where)
        raise DataError(f"image {relative!r} not found under templates/", where)

    def font(self, name: str, where: Location, game: str) -> str:
        """The font a layout names: a shipped font's name, or a project font (`fonts/<name>.ttf`, or the
        game's `data/<game>/fonts/`) read through the gate and registered under a name with its digest."""
        from generator.render.base.project_fonts import resolve_font

        return resolve_font(self.project, game, name, where)

    def icons(self, game: str) -> IconSet:
        """The icons a layout of `game` may name (`templates/icons/`, the game's own `icons/` folder winning),
        read through the gate once per build (`faces.icons`)."""
        return icon_set(self.project, game)

    def icon(self, name: str, where: Location, element: str, game: str, item: Item | None = None) -> Icon:
        """The icon an element names, or a DataError at its line with the nearest names."""
        icons = self.icons(game)
        found = icons.get(name)
        if found is None:
            raise DataError(f"element '{element}' icon {name!r} is unknown{icons.hint(name)}{_whose(item)}", where)
        return found

    def image(self, relative: str, where: Location) -> Picture:
        """An image named by a layout: read through the gate inside templates/, checked to be a
        real, reasonably sized image, and carried (bytes and digest) in the resolved face."""
        path = self.image_path(relative, where)
        gate = self.project.gate
        return gate.derived(("image", gate.name(path)), lambda: load_picture(gate, path, relative, where))

    # -- resolving ---------------------------------------------------------------------------

    def face(self, game: Game, component: Component, item: Item, side: str) -> Face:
        """Resolve the component's layout for one side of one item into plain values.

        A var or element whose item fields are known (`Layout.var_deps`, `element_deps`) is
        resolved once per distinct value of those fields on this component side; the same
        values give the same result, so the face is equal to one resolved afresh.
        """
        layout_name = component.front if side == "front" else back_layout(component)
        if layout_name is None:
            raise DataError(f"component '{component.id}' has no back layout", component.location)
        layout = self.get(layout_name, component.location)
        fields = item.fields
        if side == "back" and component.double_sided and item.back is not None:
            fields = item.back
        context = face_context(game, component, item, fields, side)
        memo = self._memo(layout, game, component, side)
        values = memo.field_values(layout.field_deps, context)
        whole = layout.fully_known  # then the fields read settle the whole face
        if whole and values in memo.faces:
            return memo.faces[values]
        known = dict(zip(layout.field_deps, values, strict=True))
        for index, (var_name, value) in enumerate(layout.vars):
            deps = layout.var_deps[index]
            if deps is None:
                context[var_name] = _run(value, context, f"var '{var_name}'", item)
                continue
            key = (index, tuple(known[d] for d in deps))
            found = memo.vars.get(key, _MISSING)
            if found is _MISSING:
                found = memo.vars[key] = _run(value, context, f"var '{var_name}'", item)
            context[var_name] = found
        elements: list[Element] = []
        for index, element in enumerate(layout.elements):
            deps = layout.element_deps[index]
            if deps is not None:
                key = (index, tuple(known[d] for d in deps))
                if key in memo.elements:
                    made = memo.elements[key]
                else:
                    resolved = self._resolve(element, context, item)
                    made = memo.elements[key] = (None if resolved is None
                                                 else Element(resolved[0], element.name, resolved[1]))
                if made is not None:
                    elements.append(made)
                continue
            rows, cols = (self._repeats(element, key, context, item) for key in ("rows", "cols"))
            if rows * cols > MAX_REPEAT:
                raise DataError(f"element '{element.name}' rows x cols makes {rows * cols} copies, "
                                f"at most {MAX_REPEAT}", element.values["rows"].where)
            for row in range(rows):
                for col in range(cols):
                    scope = context if rows == cols == 1 else {**context, "row": row, "col": col}
                    resolved = self._resolve(element, scope, item)
                    if resolved is not None:
                        name = element.name if rows == cols == 1 else f"{element.name}[{row},{col}]"
                        elements.append(Element(resolved[0], name, resolved[1]))
        size = component.size
        face = Face(size.width, size.height, size.shape, size.corner, tuple(elements))
        if whole:
            memo.faces[values] = face
        return face

    def _memo(self, layout: Layout, game: Game, component: Component, side: str) -> FaceMemo:
        """The resolved vars and elements of one layout on one component side of one game object.

        Kept for one build (one read-gate generation): everything else a face's templates
        see (game, theme, rules, component, size, side) is the same for all its items.
        """
        if not self._memoize:
            return FaceMemo((layout, game, component))
        generation = self.project.gate.generation
        if generation != self._memo_generation:
            self._memo_generation, self._memos = generation, {}
        key = (id(layout), id(game), id(component), side)
        memo = self._memos.get(key)
        if memo is None or memo.owners[0] is not layout or memo.owners[1] is not game:
            memo = self._memos[key] = FaceMemo((layout, game, component))
        return memo

    def _repeats(self, element: _RawElement, key: str, context: dict[str, Any], item: Item) -> int:
        value = element.values.get(key)
        if value is None:
            return 1
        raw = value.raw
        if value.template is not None:
            raw = _coerce(_run(value, context, f"element '{element.name}' {key}", item), "num", key, element.name,
                          value.where, item)
        count = int(raw)
        if count != raw or not 0 <= count <= MAX_REPEAT:
            raise DataError(f"element '{element.name}' {key} must be a whole number 0..{MAX_REPEAT}, got {raw}",
                            value.where)
        return count

    def _resolve(self, element: _RawElement, context: dict[str, Any], item: Item) -> tuple[str, tuple] | None:
        """One element's plain values in `context`, or None when its `when` is false."""
        when = element.values.get("when")
        if when is not None and not _holds(when, context, f"element '{element.name}' when", item):
            return None
        kind = element.values["type"].raw
        allowed = ALLOWED_KEYS[kind]
        props = []
        for key, value in element.values.items():
            if key in ("name", "type", "when", "rows", "cols"):
                continue
            resolved = value.raw
            if value.template is not None:
                text = _run(value, context, f"element '{element.name}' {key}", item)
                resolved = _coerce(text, allowed[key], key, element.name, value.where, item)
            if allowed[key] == "path":
                resolved = self.image(resolved, value.where)
            elif allowed[key] == "font" and value.template is not None:
                resolved = self.font(resolved, value.where, element.game)
            elif allowed[key] == "icon" and value.template is not None:
                resolved = self.icon(resolved, value.where, element.name, element.game, item)
            props.append((key, resolved))
        if kind == "textbox":
            inline = self._inline_icons(element, dict(props).get("text"))
            if inline:
                props.append((INLINE_ICONS, inline))
        if element.bold is not None:
            props.append(("bold_font", element.bold))
        return kind, tuple(sorted(props))

    def _inline_icons(self, element: _RawElement, text: Any) -> tuple[Icon, ...]:
        """The icons a textbox's text names inline (`:coin:`), carried in its face: drawing takes them from
        there, and a face's key covers their bytes. A name that is no icon stays text (validate reports it)."""
        if not isinstance(text, str) or ":" not in text:
            return ()
        icons = self.icons(element.game)
        found = {name: icons.icons[name] for name in icon_names(text) if name in icons}
        return tuple(found[name] for name in sorted(found))

    def _own_bold(self, element: _RawElement) -> str | None:
        """The bold face of a textbox's project font (`fonts/<Stem>-Bold.ttf` beside `<Stem>.ttf`), read now
        with the layout, for `**bold**` runs when the element names no `bold_font`."""
        from generator.render.base.project_fonts import font_files, resolve_font

        font = element.values.get("font")
        if "bold_font" in element.values or font is None or not isinstance(font.raw, ProjectFont):
            return None
        name = f"{font.raw.stem}-Bold"
        if name not in font_files(self.project, element.game, font.where):
            return None
        return resolve_font(self.project, element.game, name, font.where)


class FaceMemo:
    """Resolved vars and elements of one layout on one component side, by the item field values they read.

    Its owners (layout, game, component) are kept alive so the ids keying it stay theirs.
    """

    def __init__(self, owners: tuple[Layout, Game, Component]) -> None:
        self.owners = owners
        self.vars: dict[tuple[int, tuple[Any, ...]], Any] = {}
        self.elements: dict[tuple[int, tuple[Any, ...]], Element | None] = {}
        self.faces: dict[tuple[Any, ...], Face] = {}  # when every var and element's fields are known

    @staticmethod
    def field_values(deps: tuple[tuple[str, str], ...], context: Mapping[str, Any]) -> tuple[Any, ...]:
        """Each field a var or element reads, as a comparable value, read as Jinja reads it (`mapping[key]`),
        so a document's watched fields note the read (`render.modelreads`)."""
        values = []
        for mapping, key in deps:
            try:
                value = context[mapping][key]
            except KeyError:
                value = _MISSING
            values.append(_frozen(value))
        return tuple(values)


_PLAIN = frozenset({str, int, bool, type(None)})


def _frozen(value: Any) -> Any:
    """A hashable stand-in equal only for values that render the same (types and YAML locations kept)."""
    kind = type(value)
    if kind in _PLAIN or value is _MISSING:
        return (kind, value)
    if kind is float:
        return (kind, repr(value))  # -0.0 == 0.0, but they print differently
    if isinstance(value, Mapping):
        body: Any = tuple((_frozen(k), _frozen(v)) for k, v in value.items())
    elif isinstance(value, (list, tuple)):
        body = tuple(_frozen(v) for v in value)
    else:
        try:
            hash(value)
        except TypeError:
            return object()  # equal to nothing: resolved afresh
        return (kind, value)
    extra = getattr(value, "__dict__", None)  # a YAML mapping's or list's locations
    return (kind, body, _frozen(dict(extra)) if extra else None)


# Names a template could reach on an item's field mapping other than its fields (methods, locations).
_RESERVED = frozenset(name for cls in (dict, list, ChainMap, Mapping, YMap) for name in dir(cls)) | {
    "maps", "location", "key_locations", "item_locations"}
_PER_ITEM = {"card": "card", "item": "card", "front": "front"}
_UNKNOWABLE_NAMES = frozenset({"lipsum"})  # random: never resolved once for many items
_UNKNOWABLE_FILTERS = frozenset({"random", "shuffle"})


def template_references(tree: Any) -> References | None:
    """The item fields and other names a parsed template reads; None when the fields are not all plain
    `card.name` / `card['name']` look-ups (a loop over `card`, a computed key) or it draws at random."""
    from jinja2 import nodes

    everything = [tree, *tree.find_all(nodes.Node)]
    fields: set[tuple[str, str]] = set()
    looked_up: set[int] = set()
    for node in everything:
        if isinstance(node, nodes.Filter) and node.name in _UNKNOWABLE_FILTERS:
            return None
        if not isinstance(node, (nodes.Getattr, nodes.Getitem)):
            continue
        target = node.node
        if not (isinstance(target, nodes.Name) and target.name in _PER_ITEM):
            continue
        if isinstance(node, nodes.Getattr):
            key = node.attr
        elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            key = node.arg.value
        else:
            return None
        if key.startswith("_") or key in _RESERVED:
            return None
        fields.add((_PER_ITEM[target.name], key))
        looked_up.add(id(target))
    names = set()
    for node in everything:
        if isinstance(node, nodes.Name):
            if node.name in _PER_ITEM and (id(node) not in looked_up or node.ctx != "load"):
                return None
            if node.name in _UNKNOWABLE_NAMES:
                return None
            names.add(node.name)
    return References(frozenset(fields), frozenset(names - set(_PER_ITEM)))


Deps = tuple[tuple[str, str], ...]


def _dependencies(variables: list[tuple[str, _Value]], elements: list[_RawElement]
                  ) -> tuple[list[Deps | None], list[Deps | None]]:
    """The item fields each var and element depends on, through the vars it uses; None where unknown.

    A var sees the vars before it (a later one's name is not yet set), an element sees them all.
    Elements repeated over rows and cols, and images (whose reads a face records), always resolve afresh.
    """
    if any(name in _PER_ITEM or name in ("row", "col") for name, _ in variables):
        return [None] * len(variables), [None] * len(elements)
    var_deps: dict[str, set[tuple[str, str]] | None] = {}
    ordered: list[Deps | None] = []
    for name, value in variables:
        deps = _value_deps([value], var_deps)
        var_deps[name] = deps
        ordered.append(None if deps is None else tuple(sorted(deps)))
    element_deps: list[Deps | None] = []
    for element in elements:
        kind = element.values["type"].raw
        templated_font = any(ALLOWED_KEYS[kind].get(key) == "font" and value.template is not None
                             for key, value in element.values.items())
        if ("rows" in element.values or "cols" in element.values or "path" in ALLOWED_KEYS[kind].values()
                or templated_font):
            element_deps.append(None)
            continue
        deps = _value_deps(list(element.values.values()), var_deps)
        element_deps.append(None if deps is None else tuple(sorted(deps)))
    return ordered, element_deps


def _value_deps(values: list[_Value], var_deps: Mapping[str, set[tuple[str, str]] | None]
                ) -> set[tuple[str, str]] | None:
    deps: set[tuple[str, str]] = set()
    for value in values:
        if value.template is None:
            continue
        if value.refs is None:
            return None
        deps |= value.refs.fields
        for name in value.refs.names:
            if name in var_deps:
                used = var_deps[name]
                if used is None:
                    return None
                deps |= used
    return deps


def _waivers(doc: YMap) -> dict[str, tuple[str, Location]]:
    """A layout's `waive: {rule: "reason"}`: each rule one the preflight knows, each with a written reason."""
    raw = doc.get("waive")
    if raw is None:
        return {}
    if not isinstance(raw, YMap):
        raise DataError(f"layout 'waive' must be a mapping of rule: \"reason\" (rules: {', '.join(WAIVABLE)})",
                        doc.where("waive"))
    found = {}
    for rule, reason in raw.items():
        where = raw.where(rule)
        if rule not in WAIVABLE:
            raise DataError(f"layout 'waive' names unknown rule {rule!r}{did_you_mean(str(rule), WAIVABLE)} "
                            f"(rules: {', '.join(WAIVABLE)})", where)
        if not isinstance(reason, str) or len(reason.split()) < 3:
            raise DataError(f"layout 'waive' {rule}: needs a written reason of a few words, got {reason!r}", where)
        found[str(rule)] = (reason.strip(), where)
    return found


def back_layout(component: Component) -> str | None:
    """The layout of a component's back: its `back`, or its front layout for a double-sided
    component without one (the item's `back` fields make the difference); None if it has no back."""
    if component.back is not None:
        return component.back
    return component.front if component.double_sided else None


def face_context(game: Game, component: Component, item: Item, fields: Mapping[str, Any], side: str) -> dict[str, Any]:
    """What a layout's templates can see: the item's fields as `card`, plus the game and its theme.

    The fields are looked up, never copied: a document drawing a face from a watched game
    (see `render.modelreads`) then depends only on the fields the layout actually shows.
    """
    # The item's own id/count fields win. ChainMap only reads its first mapping here (the sandbox
    # forbids writes), so a read-only mapping is safe where its type asks for a mutable one.
    card = ChainMap(cast("MutableMapping[str, Any]", fields), {"id": item.id, "count": item.count})
    return {
        "card": card,
        "item": card,
        "front": item.fields,
        "side": side,
        "component": {"id": component.id, "name": component.name, "kind": component.kind,
                      "count": component.count},
        "game": {"id": game.id, "title": game.title, "subtitle": game.subtitle, "tagline": game.tagline},
        "theme": game.theme,
        "rules": game.rules,
        "size": {"w": component.size.width, "h": component.size.height},
    }


def _run(value: _Value, context: dict[str, Any], what: str, item: Item) -> Any:
    try:
        if hasattr(value.template, "render"):
            return value.template.render(context)
        return value.template(**context)
    except Exception as exc:  # jinja2 is imported here, not per call: a face runs dozens of expressions
        from jinja2 import TemplateError

        if isinstance(exc, TemplateError):
            from generator.render.base.sandbox import lacking_path

            error = DataError(f"{what} for {item.key}: {exc}", value.where)
            error.data_path = lacking_path(context, exc)  # type: ignore[attr-defined]  # a game.yaml cut short?
            raise error from None
        if isinstance(exc, (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError)):
            raise DataError(f"{what} for {item.key}: {type(exc).__name__}: {exc}", value.where) from None
        raise


def _holds(value: _Value, context: dict[str, Any], what: str, item: Item) -> bool:
    """A `when:` expression's truth; an undefined field is an error at its line, like any other."""
    result = _run(value, context, what, item)
    try:
        return bool(result)
    except Exception as exc:
        from jinja2 import TemplateError

        if isinstance(exc, TemplateError):
            raise DataError(f"{what} for {item.key}: {exc}", value.where) from None
        raise


def _whose(item: Item | None) -> str:
    """Which item a bad templated value came from, for the error line (made only when there is one)."""
    return f" (for {item.key})" if item else ""


def _coerce(value: Any, kind: str, key: str, element: str, where: Location, item: Item | None = None) -> Any:
    """Check one value against its kind; templated values arrive as strings and are converted."""
    if kind == "num":
        if isinstance(value, bool):
            raise DataError(f"element '{element}' {key} must be a number, got {value!r}", where)
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            raise DataError(f"element '{element}' {key} must be a number, got {value!r}{_whose(item)}", where) from None
        if not math.isfinite(number):  # never let inf or nan reach a PDF
            raise DataError(f"element '{element}' {key} must be a finite number, got {value!r}{_whose(item)}", where)
        if abs(number) > MAX_MM:
            raise DataError(f"element '{element}' {key} must be within -{MAX_MM:g}..{MAX_MM:g}, got "
                            f"{shown(value, 40)}{_whose(item)}", where)
        low = 0 if key in ("count", "columns") else -MAX_REPEAT
        if key in WHOLE and (number != int(number) or not low <= number <= MAX_REPEAT):
            raise DataError(f"element '{element}' {key} must be a whole number {low}..{MAX_REPEAT} (each is drawn), "
                            f"got {shown(value, 40)}{_whose(item)}", where)
        if key in ABOVE_ZERO and number <= 0:  # a size of -5 draws the text upside down, 0 draws nothing
            raise DataError(f"element '{element}' {key} must be above zero, got {value!r}{_whose(item)}", where)
        if key in NOT_NEGATIVE and number < 0:
            raise DataError(f"element '{element}' {key} must be zero or more, got {value!r}{_whose(item)}", where)
        return number
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "false"):
            return text == "true"
        raise DataError(f"element '{element}' {key} must be true or false, got {value!r}{_whose(item)}", where)
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise DataError(f"element '{element}' {key} must be a string, got {value!r}", where)
    value = composed(str(value))  # 'u' + combining accent drawn as 'ú', which the fonts have
    if kind == "colour":
        value = value.strip()
        if value != "none" and not HEX.match(value):
            raise DataError(f"element '{element}' {key} must be a colour like '#1f3b57' or 'none', "
                            f"got {value!r}{_whose(item)}", where)
    elif kind == "icon":  # resolved by the layout library against the game's icon set
        if not ICON_NAME.match(value):
            raise DataError(f"element '{element}' icon {value!r} is not an icon name (the name of an SVG file in "
                            f"templates/icons/, like 'anchor'){_whose(item)}", where)
    elif kind == "ink" and value not in INK_ROLES:
        raise DataError(f"element '{element}' ink must be one of {', '.join(INK_ROLES)}, got {value!r}", where)
    elif kind == "align" and value not in ALIGNS:
        raise DataError(f"element '{element}' align must be one of left, centre, right, got {value!r}", where)
    elif kind == "fit" and value not in FITS:
        raise DataError(f"element '{element}' fit must be one of {', '.join(FITS)}, got {value!r}", where)
    elif kind == "valign" and value not in VALIGNS:
        raise DataError(f"element '{element}' valign must be one of top, middle, bottom, got {value!r}", where)
    return value
