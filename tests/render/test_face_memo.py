"""Resolving each layout element once per distinct value of the fields it reads gives the very faces
that resolving every item afresh gives (`render.layout.FaceMemo`)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.errors import DataError, Location
from generator.load import load_game
from generator.model import Item
from generator.render.base.modelreads import FieldReads, watched
from generator.render.faces.layout import LayoutLibrary, template_references

LAYOUT = """\
vars:
  ink: theme.colours.ink
  big: "card.tricks is number and card.tricks > 3"
  label: "(card.name ~ '!') if big else card.name"
  shout: label | upper
elements:
  - {name: background, type: rect, bleed: true, fill: "{{ ink }}"}
  - {name: title, type: text, x: 31.5, y: 12, text: "{{ shout }}", size: "{{ 14 if big else 12 }}"}
  - {name: tricks, type: text, x: 10, y: 20, text: "{{ card.tricks }}"}
  - {name: exact, type: text, x: 10, y: 30, text: "{{ card['tricks'] ~ ':' ~ (card.flag | default('-')) }}"}
  - {name: ident, type: text, x: 10, y: 40, text: "{{ card.id }}"}
  - {name: badge, type: icon, icon: anchor, size: 6, x: 50, y: 70, when: "card.flag"}
"""
UNKNOWABLE = """  - {name: keys, type: text, x: 10, y: 50, text: "{{ card | length }}"}
"""
LAYOUTS = [LAYOUT, LAYOUT + UNKNOWABLE]  # every field read known (whole faces memoized), and not

# Values that compare equal in Python but print differently (1, 1.0, True; 0.0, -0.0; [1], ["1"]...).
TRICKY = [1, 1.0, True, "1", 0.0, -0.0, False, None, "", [1, 2], ["1", 2], [1.0, 2], {"a": 1}, {"a": True}]
VALUES = st.sampled_from([*TRICKY, "Nassau", 4, 4.5])
FIELDS = st.fixed_dictionaries({"name": st.sampled_from(["Nassau", "Tortuga", "x"]), "tricks": VALUES},
                               optional={"flag": VALUES})


def game_with_items(project, items_fields: list[dict], layout: str = LAYOUT):
    (project.templates_dir / "layouts" / "counterattack" / "port.yaml").write_text(layout)
    game = load_game(project, "counterattack")
    component = game.component("port")
    items = tuple(Item(f"p{i}", "port", 1, fields, Location("test.yaml", i + 1))
                  for i, fields in enumerate(items_fields))
    component = dataclasses.replace(component, items=items)
    game = dataclasses.replace(game, components=tuple(component if c.id == "port" else c for c in game.components))
    return game, component


def resolved(library: LayoutLibrary, game, component, item) -> str:
    """The face as its repr (which tells -0.0 from 0.0 and 1 from 1.0), or the error's one line."""
    try:
        return repr(library.face(game, component, item, "front"))
    except DataError as exc:
        return f"error: {exc}"


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items_fields=st.lists(FIELDS, min_size=1, max_size=8), layout=st.sampled_from(LAYOUTS))
@example(items_fields=[{"name": "x", "tricks": value, "flag": value} for value in TRICKY], layout=LAYOUTS[0])
@example(items_fields=[{"name": "x", "tricks": value, "flag": value} for value in TRICKY], layout=LAYOUTS[1])
def test_memoized_faces_equal_faces_resolved_afresh(fresh_project, items_fields, layout) -> None:
    game, component = game_with_items(fresh_project, items_fields, layout)
    shared = LayoutLibrary(fresh_project)  # one memo for every item, as in a build
    for item in component.items:
        assert resolved(shared, game, component, item) == resolved(LayoutLibrary(fresh_project), game, component, item)


def test_repeated_items_resolve_their_elements_once(fresh_project) -> None:
    game, component = game_with_items(fresh_project, [{"name": "Nassau", "tricks": 4, "flag": False}] * 5)
    library = LayoutLibrary(fresh_project)
    faces = [library.face(game, component, item, "front") for item in component.items]
    assert faces[0] is not faces[1]  # `card.id` differs, so the faces do
    title = [next(e for e in face.elements if e.name == "title") for face in faces]
    assert all(t is title[0] for t in title)  # one resolved element, shared
    idents = {next(e for e in face.elements if e.name == "ident").get("text") for face in faces}
    assert idents == {f"p{i}" for i in range(5)}  # `card.id` differs per item, so it is resolved per item


def test_a_documents_watched_fields_note_every_item_read_on_a_memo_hit(fresh_project) -> None:
    game, _ = game_with_items(fresh_project, [{"name": "Nassau", "tricks": 4, "flag": False}] * 3)
    reads = FieldReads()
    view = watched(game, reads)
    library = LayoutLibrary(fresh_project)
    port = view.component("port")
    for item in port.items:
        library.face(view, port, item, "front")
    noted = {(item, key) for (_, item, _, key) in (json.loads(fact) for fact in reads.facts)}
    for i in range(3):
        assert {(f"p{i}", "name"), (f"p{i}", "tricks")} <= noted


def test_template_references_knows_plain_field_reads_only(fresh_project) -> None:
    library = LayoutLibrary(fresh_project)

    def refs(source: str):
        return template_references(library.env.parse(source))

    found = refs("{{ card.name | upper }} {{ item['rank'] }} {{ front.suit }} {{ theme.colours.ink }} {{ kind }}")
    assert found is not None
    assert found.fields == {("card", "name"), ("card", "rank"), ("front", "suit")}
    assert {"theme", "kind"} <= found.names
    for unknowable in ("{{ card | length }}", "{% for k in card %}{{ k }}{% endfor %}", "{{ card[key] }}",
                       "{{ card.items() }}", "{{ card.maps }}", "{{ card._x }}", "{{ [1, 2] | random }}",
                       "{{ lipsum(1) }}", "{% set card = 1 %}{{ card }}"):
        assert refs(unknowable) is None, unknowable


def test_items_that_read_the_same_resolve_to_one_face(fresh_project) -> None:
    no_id = LAYOUT.replace('  - {name: ident, type: text, x: 10, y: 40, text: "{{ card.id }}"}\n', "")
    game, component = game_with_items(fresh_project, [{"name": "Nassau", "tricks": 4, "flag": False}] * 3
                                      + [{"name": "Nassau", "tricks": 5, "flag": False}], no_id)
    library = LayoutLibrary(fresh_project)
    faces = [library.face(game, component, item, "front") for item in component.items]
    assert faces[0] is faces[1] is faces[2]
    assert faces[3] != faces[0]


def test_a_face_keeps_its_hash_but_sends_none_to_another_process() -> None:
    """Faces key form names and recordings: hashed once, equal faces hash alike, and a pickled face
    (sent to a worker, where strings hash differently) carries no cached hash."""
    import pickle

    from generator.render.faces.layout import Element, Face

    def made() -> Face:
        return Face(63.0, 88.0, "rect", 3.0, (Element("text", "title", (("text", "Kraken"), ("x", 4.0))),))

    face = made()
    assert hash(face) == hash(made()) and face == made()
    assert "_hash" in face.__dict__
    sent = pickle.loads(pickle.dumps(face))
    assert "_hash" not in sent.__dict__ and sent == face and hash(sent) == hash(face)
    moved = dataclasses.replace(face, width=64.0)
    assert moved != face and hash(moved) == hash(dataclasses.replace(made(), width=64.0))


def test_a_warm_process_reads_template_references_from_the_cache(fresh_project, monkeypatch) -> None:
    """What each layout template reads is parsed once per user cache: a fresh library (a fresh process)
    gets the same references without parsing, and so resolves the same faces."""
    from generator.render.faces import layout as layout_module

    game, component = game_with_items(fresh_project, [{"name": "Nassau", "tricks": 4, "flag": False}] * 2)
    cold = LayoutLibrary(fresh_project)
    cold_faces = [cold.face(game, component, item, "front") for item in component.items]
    cold_refs = [value.refs for _, value in cold.get(component.front).templates()]
    assert any(refs is not None and refs.fields for refs in cold_refs)

    def refuse(tree: object) -> None:
        raise AssertionError("parsed again instead of read from the cache")

    monkeypatch.setattr(layout_module, "template_references", refuse)
    warm = LayoutLibrary(fresh_project.with_gate(type(fresh_project.gate)(fresh_project.root)))
    assert [value.refs for _, value in warm.get(component.front).templates()] == cold_refs
    assert [warm.face(game, component, item, "front") for item in component.items] == cold_faces


def _same_yaml(left: object, right: object) -> bool:
    """Equal values of the same types, with the same locations everywhere (YMap / YList)."""
    from generator.load.yamlsrc import YList, YMap

    if type(left) is not type(right):
        return False
    if isinstance(left, YMap):
        assert isinstance(right, YMap)
        return (left.location == right.location and left.key_locations == right.key_locations
                and list(left) == list(right) and all(_same_yaml(left[k], right[k]) for k in left))
    if isinstance(left, YList):
        assert isinstance(right, YList)
        return (left.location == right.location and left.item_locations == right.item_locations
                and len(left) == len(right) and all(_same_yaml(a, b) for a, b in zip(left, right)))
    return left == right or (left != left and right != right)  # nan


def test_a_warm_process_rebuilds_every_shipped_layout_file_as_parsed(project, monkeypatch) -> None:
    """Layout files come from the per-user cache as the very tree `read_yaml` makes (values, types,
    every key's and entry's line), without parsing; and the file read is still recorded."""
    from generator.load.yamlsrc import read_yaml
    from generator.readgate import ReadGate
    from generator.render.faces import layout as layout_module

    files = sorted((project.templates_dir / "layouts").glob("*/*.yaml"))
    assert len(files) > 10
    cold = LayoutLibrary(project)
    for path in files:
        cold._read_layout(path, str(path))
    monkeypatch.setattr(layout_module, "read_yaml", lambda *args: (_ for _ in ()).throw(AssertionError("parsed")))
    warm_project = project.with_gate(ReadGate(project.root))
    warm = LayoutLibrary(warm_project)
    for path in files:
        with warm_project.gate.recording() as reads:
            rebuilt = warm._read_layout(path, str(path))
        assert _same_yaml(rebuilt, read_yaml(path, str(path), ReadGate(project.root))), path
        assert warm_project.gate.name(path) in reads.entries
