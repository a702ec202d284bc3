"""The loader: the real data loads, and every kind of bad input is one clear line at file:line."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from pathlib import Path

import pytest

from generator.errors import DataError
from generator.load import load_game, load_games, yamlsrc
from generator.load.yamlsrc import MAX_FILE_BYTES
from generator.project import Project

GAME_YAML = """\
game:
  id: toy
  title: Toy Game
  players: {min: 2, max: 4}
  play_time: 20
  age: 8
contents:
  - {label: crew cards, count: 6, component: crew}
player_counts:
  2: {remove: [{component: crew, where: {rank: {max: 1}}}]}
rules:
  hand_size: 3
"""

CARDS_YAML = """\
components:
  - id: crew
    kind: card
    name: crew card
    size: poker
    front: toy/crew
    back: toy/back
    fields:
      suit: {type: enum, values: [red, blue]}
      rank: {type: int, min: 1, max: 3}
    items:
      - generate: {suit: [red, blue], rank: {range: [1, 3]}}
        id: "{suit}-{rank}"
"""


def make_project(tmp_path: Path, cards: str = CARDS_YAML, game: str = GAME_YAML) -> Project:
    folder = tmp_path / "data" / "toy"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(textwrap.dedent(game), encoding="utf-8")
    (folder / "cards.yaml").write_text(textwrap.dedent(cards), encoding="utf-8")
    return Project.at(tmp_path)


def error_of(project: Project) -> str:
    with pytest.raises(DataError) as info:
        load_game(project, "toy")
    return str(info.value)


# --- the happy path -------------------------------------------------------


def test_real_games_load_with_their_declared_counts() -> None:
    games = {g.id: g for g in load_games(Project.at(Path(__file__).parents[2]))}
    ca = games["counterattack"]
    assert sum(c.count for c in ca.components) == 54
    assert [ca.component(c).count for c in ("port", "exposed-port", "main")] == [6, 4, 44]
    assert len({i.key for c in ca.components for i in c.items}) == 54
    ports = sorted(i["tricks"] for i in ca.component("port").items)
    assert len(set(ports)) == 6 and all(0 <= p <= 10 for p in ports)
    assert ca.rule("hand_size", int) == 10
    assert ca.decisions, "designed values are listed"


def test_generate_expands_a_cartesian_product_with_ids(tmp_path: Path) -> None:
    game = load_game(make_project(tmp_path), "toy")
    crew = game.component("crew")
    assert [i.id for i in crew.items] == ["red-1", "red-2", "red-3", "blue-1", "blue-2", "blue-3"]
    assert crew.items[4].fields == {"suit": "blue", "rank": 2}
    assert crew.items[4].location.file == "data/toy/cards.yaml"
    assert crew.items[4].location.line == 12


def test_player_count_removals_and_declared_contents(tmp_path: Path) -> None:
    game = load_game(make_project(tmp_path), "toy")
    assert [i.id for i in game.items_for("crew", 2)] == ["red-2", "red-3", "blue-2", "blue-3"]
    assert len(game.deck("crew", 3)) == 6
    assert game.contents[0].actual(game) == 6


def test_count_and_single_items(tmp_path: Path) -> None:
    cards = CARDS_YAML + '      - {id: stowaway, suit: red, rank: 2, count: 3}\n'
    game = load_game(make_project(tmp_path, cards), "toy")
    assert game.component("crew").count == 9
    assert game.component("crew").item("stowaway").count == 3


def test_items_are_found_by_id(tmp_path: Path) -> None:
    """Every item by its id, a missing id a KeyError; a copy made with other items answers for its own."""
    crew = load_game(make_project(tmp_path), "toy").component("crew")
    assert all(crew.item(item.id) is item for item in crew.items)
    with pytest.raises(KeyError, match="crew has no item 'red-9'"):
        crew.item("red-9")
    fewer = dataclasses.replace(crew, items=crew.items[1:])
    assert fewer.item(crew.items[1].id) is crew.items[1]
    with pytest.raises(KeyError):
        fewer.item(crew.items[0].id)


def test_rule_lookup_reports_missing_rules_at_their_line(tmp_path: Path) -> None:
    game = load_game(make_project(tmp_path), "toy")
    with pytest.raises(DataError) as info:
        game.rule("deal.per_player", int)
    assert str(info.value) == "data/toy/game.yaml:11: rules: missing 'deal' (the engine needs it)"
    with pytest.raises(DataError) as info:
        game.rule("hand_size", str)
    assert str(info.value) == "data/toy/game.yaml:12: rules: 'hand_size' must be str, got 3"


def test_a_misspelt_rule_is_reported_at_its_own_line_with_the_name_the_engine_reads(tmp_path: Path) -> None:
    game = load_game(make_project(tmp_path), "toy")
    with pytest.raises(DataError) as info:
        game.rule("hand_sise", int)
    assert str(info.value) == ("data/toy/game.yaml:12: rules: missing 'hand_sise' (the engine needs it; "
                               "is 'hand_size' a misspelling of it?)")
    with pytest.raises(DataError) as info:  # alike, but not a keystroke or two away: no guess, the rules: line
        game.rule("size", int)
    assert "misspelling" not in str(info.value) and "missing 'size'" in str(info.value)


# --- bad input: one line, file:line, what is wrong and what would be right --


def test_bad_type(tmp_path: Path) -> None:
    cards = CARDS_YAML + "      - {id: odd, suit: red, rank: twelve}\n"
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:14: crew card 'odd' 'rank' must be an integer 1..3, got 'twelve'"
    )


def test_value_out_of_range(tmp_path: Path) -> None:
    cards = CARDS_YAML + "      - {id: odd, suit: red, rank: 4}\n"
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:14: crew card 'odd' 'rank' must be an integer 1..3, got 4"
    )


def test_a_theme_mark_corner_that_names_no_corner_is_refused_at_its_line(tmp_path: Path) -> None:
    game = GAME_YAML + "theme:\n  colours: {ink: '#000000'}\n  mark_corner: middle\n"
    assert error_of(make_project(tmp_path, game=game)) == (
        "data/toy/game.yaml:15: theme.mark_corner 'middle' is not a corner: "
        "use one of top left, top right, bottom left, bottom right"
    )
    fine = load_game(make_project(tmp_path / "fine", game=game.replace("middle", "top right")), "toy")
    assert fine.theme["mark_corner"] == "top right"


def test_enum_value_not_allowed(tmp_path: Path) -> None:
    cards = CARDS_YAML + "      - {id: odd, suit: green, rank: 1}\n"
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:14: crew card 'odd' 'suit' must be one of 'red', 'blue', got 'green'"
    )


def test_unknown_key_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("    back: toy/back\n", "    back: toy/back\n    descripton: typo\n")
    message = error_of(make_project(tmp_path, cards))
    assert message.startswith("data/toy/cards.yaml:8: unknown key 'descripton' in component; did you mean 'description'?")


def test_unknown_item_field(tmp_path: Path) -> None:
    cards = CARDS_YAML + "      - {id: odd, suit: red, rank: 1, colour: red}\n"
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:14: unknown field 'colour' on crew card 'odd' (declared fields: rank, suit)"
    )


def test_missing_field(tmp_path: Path) -> None:
    cards = CARDS_YAML + "      - {id: odd, suit: red}\n"
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:14: crew card 'odd' is missing field 'rank' (an integer 1..3)"
    )


def test_missing_required_key(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("    size: poker\n", "")
    assert error_of(make_project(tmp_path, cards)) == "data/toy/cards.yaml:2: component is missing 'size' (a string or a mapping)"


def test_duplicate_item_ids(tmp_path: Path) -> None:
    cards = CARDS_YAML + "      - {id: red-2, suit: red, rank: 2}\n"
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:14: duplicate crew card id 'red-2' (first defined on line 12)"
    )


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("    kind: card\n", "    kind: card\n    kind: tile\n")
    assert error_of(make_project(tmp_path, cards)) == "data/toy/cards.yaml:4: duplicate key 'kind' (first given on line 3)"


def test_bad_counts(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace('id: "{suit}-{rank}"', 'id: "{suit}-{rank}"\n        count: -1')
    assert error_of(make_project(tmp_path, cards)) == "data/toy/cards.yaml:14: crew card entry 'count' must be an integer 0..1000, got -1"


def test_not_yaml(tmp_path: Path) -> None:
    cards = CARDS_YAML + "  - id: [unclosed\n"
    message = error_of(make_project(tmp_path, cards))
    assert message.startswith("data/toy/cards.yaml:15: not valid YAML:")


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    message = error_of(make_project(tmp_path, "\n".join(lines) + "\n"))
    assert message.startswith("data/toy/cards.yaml:12: too many alias references (more than 100)")


def test_huge_file_is_refused(tmp_path: Path) -> None:
    cards = CARDS_YAML + "#" + "x" * MAX_FILE_BYTES + "\n"
    assert error_of(make_project(tmp_path, cards)).startswith("data/toy/cards.yaml:1: file too large")


def test_a_big_decks_file_is_read(tmp_path: Path) -> None:
    """A 100,000-card deck takes about 2.7 MB of YAML: files of a few megabytes load (the old cap was 1 MiB)."""
    cards = CARDS_YAML + ("# padding as long as a big deck's file\n" * 80_000)
    assert 3_000_000 < len(cards) < MAX_FILE_BYTES
    game = load_game(make_project(tmp_path, cards), "toy")
    assert game.component("crew").count == load_game(make_project(tmp_path / "small"), "toy").component("crew").count


def test_too_many_nodes_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlsrc, "MAX_NODES", 48)  # game.yaml holds 45 nodes, cards.yaml 51
    message = error_of(make_project(tmp_path))
    assert re.fullmatch(r"data/toy/cards\.yaml:\d+: document too large \(more than 48 YAML nodes\)", message)


def test_non_utf8_file(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (tmp_path / "data" / "toy" / "cards.yaml").write_bytes(b"components:\n  - id: caf\xe9\n")
    assert error_of(project) == "data/toy/cards.yaml:2: not UTF-8 text (save the file as UTF-8)"


def test_layout_path_escape_is_refused(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("front: toy/crew", "front: ../../etc/passwd")
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:6: component 'crew' front layout '../../etc/passwd' must be a name like "
        "'game/layout' (no '..', no file suffix)"
    )


def test_project_inside_refuses_escapes(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    from generator.errors import Location

    where = Location("templates/layouts/toy/crew.yaml", 4)
    assert project.inside(project.templates_dir, "icons/x.svg", where) == project.templates_dir / "icons" / "x.svg"
    for bad in ("../data/toy/game.yaml", "/etc/passwd", "~/x"):
        with pytest.raises(DataError) as info:
            project.inside(project.templates_dir, bad, where)
        assert str(info.value).startswith("templates/layouts/toy/crew.yaml:4: path ")


def test_unknown_top_level_section(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("components:", "componets:")
    assert error_of(make_project(tmp_path, cards)).startswith(
        "data/toy/cards.yaml:1: unknown key 'componets' in data/toy/cards.yaml; did you mean 'components'?"
    )


def test_game_id_must_match_folder(tmp_path: Path) -> None:
    game = GAME_YAML.replace("id: toy", "id: other")
    assert error_of(make_project(tmp_path, game=game)) == (
        "data/toy/game.yaml:2: game id 'other' must match its folder name 'toy'"
    )


def test_player_count_removal_of_unknown_component(tmp_path: Path) -> None:
    game = GAME_YAML.replace("component: crew, where", "component: crow, where")
    assert error_of(make_project(tmp_path, game=game)) == (
        "data/toy/game.yaml:10: player_counts 2 removal names unknown component 'crow' (components: crew)"
    )


def test_player_count_outside_the_games_range(tmp_path: Path) -> None:
    game = GAME_YAML.replace("  2: {remove", "  7: {remove")
    assert error_of(make_project(tmp_path, game=game)) == (
        "data/toy/game.yaml:10: player_counts key 7 must be a player count 2..4"
    )


def test_bad_generate_range(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("range: [1, 3]", "range: [3, 1]")
    assert error_of(make_project(tmp_path, cards)) == (
        "data/toy/cards.yaml:12: generate 'rank' range must be [first, last] integers with first <= last, got [3, 1]"
    )


def test_unknown_named_size(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("size: poker", "size: pokr")
    assert error_of(make_project(tmp_path, cards)).startswith(
        "data/toy/cards.yaml:5: component 'crew' size 'pokr' is not a named size"
    )


def test_missing_game_yaml(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    with pytest.raises(DataError) as info:
        load_game(project, "nope")
    assert "no game 'nope': data/nope/game.yaml not found (games: toy)" in str(info.value)


def test_a_game_folder_with_yaml_but_no_game_yaml_is_an_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    project = make_project(tmp_path)
    lost = tmp_path / "data" / "lost"
    lost.mkdir()
    (lost / "cards.yaml").write_text(CARDS_YAML)
    (tmp_path / "data" / "art").mkdir()  # a folder without YAML is not a game and not an error
    with pytest.raises(DataError) as info:
        project.game_ids()
    assert str(info.value).startswith("data/lost/game.yaml: data/lost/ holds YAML files but no game.yaml")
    from tests.helpers import run_pnp

    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "list")
    assert code == 2 and out == "" and err.count("\n") == 1 and "no game.yaml" in err


@pytest.mark.parametrize("content", ["", "# only a comment\n", "---\n"])
def test_an_empty_yaml_file_is_reported_at_that_file(tmp_path: Path, content: str) -> None:
    project = make_project(tmp_path)
    (tmp_path / "data" / "toy" / "cards.yaml").write_text(content)
    assert error_of(project).startswith("data/toy/cards.yaml:1: empty file")


def test_a_merge_key_then_an_override_is_legal_yaml(tmp_path: Path) -> None:
    cards = CARDS_YAML.replace("""    items:
      - generate: {suit: [red, blue], rank: {range: [1, 3]}}
        id: "{suit}-{rank}"
""", """    items:
      - &red {id: red-1, suit: red, rank: 1}
      - {<<: *red, id: red-2, rank: 2}
      - <<: *red
        id: red-3
        rank: 3
      - {<<: *red, id: blue-1, suit: blue}
      - {<<: *red, id: blue-2, suit: blue, rank: 2}
      - {<<: *red, id: blue-3, suit: blue, rank: 3}
""")
    crew = load_game(make_project(tmp_path, cards), "toy").component("crew")
    assert [(i.id, i.fields["suit"], i.fields["rank"]) for i in crew.items] == [
        ("red-1", "red", 1), ("red-2", "red", 2), ("red-3", "red", 3),
        ("blue-1", "blue", 1), ("blue-2", "blue", 2), ("blue-3", "blue", 3)]
    twice = cards.replace("id: red-3\n", "id: red-3\n        id: red-4\n")
    assert error_of(make_project(tmp_path / "again", twice)).startswith(
        "data/toy/cards.yaml:16: duplicate key 'id' (first given on line 15)")
