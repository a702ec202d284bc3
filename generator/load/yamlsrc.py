"""Safe YAML reading that remembers the line of every key and list entry.

Built on PyYAML's SafeLoader (no arbitrary objects), with guards for hostile
input: a size cap on the file, a cap on alias references, a cap on the nodes
the document holds once every alias is expanded (the "billion laughs" bomb
expands a few aliases into millions of nodes when walked), a nesting depth and
a length of number. Duplicate keys are errors, since YAML would silently keep
the last one. The same reader parses a `--set` value (`load/overrides.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.reader import ReaderError
from yaml.resolver import Resolver

from generator.errors import DataError, Location
from generator.readgate import ReadGate

# Room for a 100,000-card deck in one file (about 2.7 MB and 310,000 nodes) some three times over, while a
# hostile file still cannot hold the process for minutes or take gigabytes (a parsed node takes some 600 bytes).
MAX_FILE_BYTES = 8 << 20
MAX_ALIASES = 100
MAX_NODES = 1_000_000  # composed, and again once every alias is expanded
MAX_DEPTH = 64  # lists and mappings inside each other; the real data nests 8 deep
MAX_NUMBER_CHARS = 100  # a number's characters (Python refuses to read an int of 4,300 digits)
NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


class YMap(dict):
    """A mapping from YAML that knows where it and each of its keys stand."""

    location: Location
    key_locations: dict[Any, Location]

    def where(self, key: Any) -> Location:
        return self.key_locations.get(key, self.location)


class YList(list):
    """A sequence from YAML that knows where it and each entry stand."""

    location: Location
    item_locations: list[Location]

    def where(self, index: int) -> Location:
        if 0 <= index < len(self.item_locations):
            return self.item_locations[index]
        return self.location


def _mark(loader: Any, node: yaml.Node) -> Location:
    return Location(loader.display_name, node.start_mark.line + 1)


def expanded_size(node: yaml.Node, sizes: dict[int, int]) -> int:
    """The nodes `node` stands for once every alias in it is expanded (each shared node counted once per use)."""
    known = sizes.get(id(node))
    if known is not None:
        return known
    sizes[id(node)] = MAX_NODES + 1  # a node inside itself (a recursive alias) expands without end
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(expanded_size(child, sizes) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(expanded_size(key, sizes) + expanded_size(value, sizes) for key, value in node.value)
    sizes[id(node)] = size = min(size, MAX_NODES + 1)
    return size


def _culprit(node: yaml.Node, sizes: dict[int, int]) -> yaml.Node:
    """The innermost node that alone expands past the cap: the line an error about it points at."""
    while True:
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        big = [child for child in children if sizes.get(id(child), 0) > MAX_NODES and child is not node]
        if not big:
            return node
        node = big[0]


class _Guards:
    """Composition with caps on aliases, nodes, depth and numbers; mixed into a parser (C or pure Python)."""

    display_name: str
    alias_count: int
    node_count: int
    depth: int = 0

    def get_single_data(self) -> Any:
        node = self.get_single_node()  # type: ignore[attr-defined]
        if node is None:
            return None
        sizes: dict[int, int] = {}
        if expanded_size(node, sizes) > MAX_NODES:
            raise DataError(f"the aliases ('*' references) expand to more than {MAX_NODES} YAML nodes; "
                            "write the values out or use fewer nested references", _mark(self, _culprit(node, sizes)))
        return self.construct_document(node)  # type: ignore[attr-defined]

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                event = self.peek_event()  # type: ignore[attr-defined]
                raise DataError(f"nested too deeply (more than {MAX_DEPTH} lists or mappings inside each other)",
                                Location(self.display_name, event.start_mark.line + 1))
            node = self._compose_counted(parent, index)
        finally:
            self.depth -= 1
        if isinstance(node, yaml.ScalarNode) and len(node.value) > MAX_NUMBER_CHARS and node.tag in NUMBER_TAGS:
            raise DataError(f"a number of {len(node.value)} characters (at most {MAX_NUMBER_CHARS}); "
                            "write a smaller number, or quote it to make it text", _mark(self, node))
        return node

    def _compose_counted(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                event = self.peek_event()  # type: ignore[attr-defined]
                raise DataError(
                    f"too many alias references (more than {MAX_ALIASES}); "
                    "write the values out or use fewer '*' references",
                    Location(self.display_name, event.start_mark.line + 1),
                )
        self.node_count += 1
        if self.node_count > MAX_NODES:
            event = self.peek_event()  # type: ignore[attr-defined]
            raise DataError(
                f"document too large (more than {MAX_NODES} YAML nodes)",
                Location(self.display_name, event.start_mark.line + 1),
            )
        return Composer.compose_node(self, parent, index)  # type: ignore[arg-type]


class _PyLineLoader(_Guards, yaml.SafeLoader):
    """Pure-Python scanner: used where PyYAML was built without libyaml."""

    def __init__(self, stream: str, display_name: str) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self.display_name, self.alias_count, self.node_count = display_name, 0, 0


if getattr(yaml, "__with_libyaml__", False):
    from yaml._yaml import CParser

    class _CLineLoader(_Guards, CParser, SafeConstructor, Resolver):
        """libyaml scans and parses (about 7x faster); composition stays in Python for the guards."""

        get_single_node = Composer.get_single_node
        compose_document = Composer.compose_document
        compose_scalar_node = Composer.compose_scalar_node
        compose_sequence_node = Composer.compose_sequence_node
        compose_mapping_node = Composer.compose_mapping_node

        def __init__(self, stream: str, display_name: str) -> None:
            CParser.__init__(self, stream)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self.anchors: dict[str, Any] = {}
            self.display_name, self.alias_count, self.node_count = display_name, 0, 0

    _LineLoader: Any = _CLineLoader
else:
    _LineLoader = _PyLineLoader


def _construct_map(loader: Any, node: yaml.MappingNode) -> Any:
    # Merge keys (`<<: *base`) put the merged pairs first; the mapping's own keys follow and
    # override them, as YAML says. Only a key written twice in the mapping itself is a duplicate.
    own = sum(1 for key_node, _value in node.value if key_node.tag != "tag:yaml.org,2002:merge")
    loader.flatten_mapping(node)
    merged = len(node.value) - own
    result = YMap()
    result.location = _mark(loader, node)
    result.key_locations = {}
    yield result
    written: set[Any] = set()
    for index, (key_node, value_node) in enumerate(node.value):
        key = loader.construct_object(key_node, deep=True)
        where = _mark(loader, key_node)
        try:
            hash(key)
        except TypeError:
            raise DataError("a mapping key must be a plain value, not a list or mapping", where) from None
        if index >= merged:
            if key in written:
                first = result.key_locations[key]
                raise DataError(f"duplicate key {key!r} (first given on line {first.line})", where)
            written.add(key)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_locations[key] = where


def _construct_seq(loader: Any, node: yaml.SequenceNode) -> Any:
    result = YList()
    result.location = _mark(loader, node)
    result.item_locations = [_mark(loader, child) for child in node.value]
    yield result
    result.extend(loader.construct_object(child, deep=True) for child in node.value)


for _loader in {_PyLineLoader, _LineLoader}:
    _loader.add_constructor("tag:yaml.org,2002:map", _construct_map)
    _loader.add_constructor("tag:yaml.org,2002:seq", _construct_seq)


def describe_char(character: Any) -> str:
    """'U+0000' (and its name when it has one) for an error line about one character."""
    import unicodedata

    code = character if isinstance(character, int) else ord(character) if isinstance(character, str) else 0
    name = unicodedata.name(chr(code), "")
    return f"U+{code:04X}" + (f" ({name})" if name else "")


def parse_yaml(text: str, display_name: str) -> Any:
    """Parse one YAML document; every problem becomes a DataError at file:line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise DataError(f"file too large (over {MAX_FILE_BYTES // 1024} KiB)", Location(display_name, 1))
    loader = _LineLoader(text, display_name)
    try:
        return loader.get_single_data()
    except DataError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "unreadable"
        raise DataError(f"not valid YAML: {problem}", Location(display_name, line)) from None
    except ReaderError as exc:  # a character YAML refuses (a NUL, a control character): at its own line
        line = text.count("\n", 0, exc.position) + 1
        raise DataError(f"not valid YAML: the character {describe_char(exc.character)} is not allowed in YAML text; "
                        "delete it", Location(display_name, line)) from None
    except yaml.YAMLError as exc:
        raise DataError(f"not valid YAML: {exc}", Location(display_name, 1)) from None
    except RecursionError:
        raise DataError("not valid YAML: nested too deeply", Location(display_name, 1)) from None
    finally:
        if hasattr(loader, "dispose"):
            loader.dispose()


def read_yaml(path: Path, display_name: str, gate: ReadGate) -> Any:
    """Read (through the project's read gate) and parse a YAML file, refusing oversized or non-UTF-8
    files, files outside the project and anything that is not a regular file, with a clear line."""
    return parse_yaml_bytes(gate.read_bytes(path, Location(display_name), limit=MAX_FILE_BYTES), display_name)


def parse_yaml_bytes(data: bytes, display_name: str) -> Any:
    """`parse_yaml` of a file's bytes, which must be UTF-8 (else an error at the line where they stop being)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError("not UTF-8 text (save the file as UTF-8)", Location(display_name, line)) from None
    return parse_yaml(text, display_name)
