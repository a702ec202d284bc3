"""docs/layouts.md documents every key the loaders read, and is what its generator writes.

The loaders read through `generator.load.schema` (a key they take must be declared there), so a
field added to a layout element or to game.yaml needs its schema entry, and this test then
needs its line in the page: the page's entries are compared with the schema's keys.
"""

from __future__ import annotations

import re

import pytest

from generator import docs_layouts
from generator.errors import Location
from generator.load.reader import Section
from generator.load.schema import COMMON, DATA_BLOCKS, LAYOUT, LAYOUT_TYPES, Block
from generator.render.faces.layout import ALLOWED_KEYS, DEFAULTS, REQUIRED, TOP_KEYS

ENTRY = re.compile(r"^\| `([^`]+)` \|", re.M)
HEADING = re.compile(r"^### (.+)$", re.M)


def page_entries() -> dict[str, list[str]]:
    """Each section (### heading) of docs/layouts.md with the keys its table lists, in order."""
    text = docs_layouts.PAGE.read_text(encoding="utf-8")
    marks = list(HEADING.finditer(text))
    found: dict[str, list[str]] = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        found[mark.group(1)] = ENTRY.findall(text[mark.end():end])
    return found


def schema_entries() -> dict[str, list[str]]:
    blocks: list[tuple[str, Block]] = [(LAYOUT.name, LAYOUT), (COMMON.name, COMMON)]
    blocks += [(f"`type: {name}`", block) for name, block in LAYOUT_TYPES.items()]
    blocks += [(block.name, block) for block in DATA_BLOCKS]
    return {title: list(block.names) for title, block in blocks}


def test_the_page_lists_every_key_of_every_block_and_no_other() -> None:
    page = page_entries()
    for title, names in schema_entries().items():
        assert page.get(title) == names, f"docs/layouts.md section {title!r} is out of step with the schema"


def test_the_page_is_what_the_generator_writes() -> None:
    assert docs_layouts.PAGE.read_text(encoding="utf-8") == docs_layouts.markdown(), \
        "docs/layouts.md is stale: run python -m generator.docs_layouts"


@pytest.mark.parametrize("block", [LAYOUT, COMMON, *LAYOUT_TYPES.values(), *DATA_BLOCKS], ids=lambda b: b.name)
def test_every_key_says_what_it_means_with_an_example(block: Block) -> None:
    assert block.doc.strip()
    for key in block.keys:
        assert len(key.doc.strip()) > 5 and key.example.strip(), f"{block.name} '{key.name}' is undocumented"


def test_the_layout_compiler_reads_its_keys_from_the_schema() -> None:
    assert LAYOUT.names == TOP_KEYS
    for kind, block in LAYOUT_TYPES.items():
        assert set(ALLOWED_KEYS[kind]) == set(COMMON.names) | set(block.names)
        assert REQUIRED[kind] == tuple(key.name for key in block.keys if key.default is None)
    assert DEFAULTS["font"] == "Sans" and DEFAULTS["stroke_width"] == 0.5  # what an element leaves out


def test_a_key_the_loader_takes_without_declaring_it_is_refused() -> None:
    from generator.load.schema import GAME

    section = Section({"title": "x"}, "game", Location("data/g/game.yaml", 1), GAME)
    with pytest.raises(LookupError, match="does not declare"):
        section.take("box_art", str)
    with pytest.raises(LookupError, match="declares a string"):
        section.take("title", int)


def test_a_misspelt_game_key_lists_the_declared_keys(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from generator.errors import DataError
    from generator.load import load_game
    from generator.project import Project

    game = tmp_path / "data" / "g"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text("game:\n  id: g\n  title: G\n  players: {min: 1, max: 2}\n  play_time: 5\n"
                                    "  age: 6\n  tagilne: oops\ncomponents: []\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_game(Project.at(tmp_path), "g")
    assert caught.value.location.line == 7
    assert "did you mean 'tagline'" in caught.value.message and "subtitle" in caught.value.message
