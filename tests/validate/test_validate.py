"""`pnp validate`: the real decks pass; a mutated copy is caught at the right file:line."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli import cli
from generator.engine.composition import generic_checks
from generator.engine.registry import REGISTRY
from generator.load import load_game
from generator.project import Project
from generator.validate import validate_game
from tests.helpers import edit


def line_of(project: Project, game_id: str, text: str) -> str:
    """`data/<game>/game.yaml:N`, N the line holding `text` (so an edit elsewhere in the file moves nothing here)."""
    lines = (project.data_dir / game_id / "game.yaml").read_text(encoding="utf-8").splitlines()
    (number,) = [n for n, line in enumerate(lines, 1) if text in line]
    return f"data/{game_id}/game.yaml:{number}"


def failures(project: Project, game_id: str) -> list[tuple[str, str]]:
    report = validate_game(load_game(project, game_id), project)
    return [(c.name, str(c.location)) for c in report.failures()]


@pytest.mark.slow
def test_every_real_game_validates(project: Project) -> None:
    for game_id in project.game_ids():
        report = validate_game(load_game(project, game_id), project)
        assert report.ok, [(c.name, c.expected, c.actual, str(c.location)) for c in report.failures()]
        assert len(report.checks) >= 5


def test_dropping_a_card_is_caught_at_the_contents_line(project_copy: Project) -> None:
    edit(project_copy.data_dir / "counterattack" / "cards.yaml", "rank: {range: [1, 11]}", "rank: {range: [1, 10]}")
    found = failures(project_copy, "counterattack")
    assert ("contents: crew cards (the main deck)", line_of(project_copy, "counterattack", "component: main}")) in found


def test_a_duplicated_card_is_caught(project_copy: Project) -> None:
    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    cards.write_text(cards.read_text() + "      - {id: anchors-7b, suit: anchors, rank: 7}\n")
    found = failures(project_copy, "counterattack")
    assert ("contents: crew cards (the main deck)", line_of(project_copy, "counterattack", "component: main}")) in found


def test_a_changed_declared_count_is_caught(project_copy: Project) -> None:
    edit(project_copy.data_dir / "counterattack" / "game.yaml", "{label: port cards, count: 6,",
         "{label: port cards, count: 7,")
    assert ("contents: port cards", line_of(project_copy, "counterattack", "{label: port cards")) in \
        failures(project_copy, "counterattack")


def test_a_count_typed_into_a_template_is_a_duplicated_fact(project_copy: Project) -> None:
    rulebooks = project_copy.templates_dir / "rulebooks"
    rulebooks.mkdir(parents=True, exist_ok=True)
    (rulebooks / "counterattack-extra.md.j2").write_text("# Contents\n\nThe box holds 44 crew cards.\n")
    report = validate_game(load_game(project_copy, "counterattack"), project_copy)
    (check,) = [c for c in report.failures() if c.name.startswith("facts stated once")]
    assert "templates/rulebooks/counterattack-extra.md.j2:3 '44 crew cards'" in check.actual


def test_a_count_read_from_data_is_fine(project_copy: Project) -> None:
    rulebooks = project_copy.templates_dir / "rulebooks"
    rulebooks.mkdir(parents=True, exist_ok=True)
    (rulebooks / "counterattack-extra.md.j2").write_text("The box holds {{ 44 }} crew cards.\n")
    assert not [c for c in validate_game(load_game(project_copy, "counterattack"), project_copy).failures()
                if c.name.startswith("facts stated once")]


@pytest.mark.slow
def test_cli_exit_codes_and_json(project_copy: Project) -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["--root", str(project_copy.root), "validate", "counterattack", "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)[0]["ok"] is True
    edit(project_copy.data_dir / "counterattack" / "game.yaml", "{label: port cards, count: 6,",
         "{label: port cards, count: 5,")
    bad = runner.invoke(cli, ["--root", str(project_copy.root), "validate", "counterattack"])
    assert bad.exit_code == 1
    where = line_of(project_copy, "counterattack", "{label: port cards")
    assert f"{where}: contents: port cards: expected 5, got 6" in bad.output


GAMES = Project.at(__file__.rsplit("/tests/", 1)[0])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_single_card_deletion_is_detected(data: st.DataObject) -> None:
    game_id = data.draw(st.sampled_from(GAMES.game_ids()))
    game = load_game(GAMES, game_id)
    component_index = data.draw(st.integers(0, len(game.components) - 1))
    component = game.components[component_index]
    item_index = data.draw(st.integers(0, len(component.items) - 1))
    item = component.items[item_index]
    if item.count > 1:
        items = list(component.items)
        items[item_index] = dataclasses.replace(item, count=item.count - 1)
    else:
        items = [i for i in component.items if i is not item]
    changed = dataclasses.replace(component, items=tuple(items))
    components = list(game.components)
    components[component_index] = changed
    mutated = dataclasses.replace(game, components=tuple(components))
    # the deck checks are what catch it (layouts and documents draw what is there): the generic ones and the
    # game's own, as `validate_game` runs them, without re-checking every face and template 40 times
    checks = generic_checks(mutated, GAMES.templates_dir, GAMES.display, GAMES.gate)
    checks += REGISTRY.engine(game_id).composition_checks(mutated)
    assert not all(check.ok for check in checks)


def test_an_unknown_ship_ability_is_caught_at_its_line(project_copy: Project) -> None:
    edit(project_copy.data_dir / "pirates-under-fire" / "tiles.yaml", "ability: broadside,", "ability: kraken,")
    found = failures(project_copy, "pirates-under-fire")
    assert any(location.startswith("data/pirates-under-fire/tiles.yaml:24") for _, location in found), found


def test_text_overflowing_its_box_is_caught_at_its_line(project_copy: Project) -> None:
    long = " ".join(["Set every adjacent rival ship on fire and then gloat about it loudly"] * 6)
    edit(project_copy.data_dir / "pirates-under-fire" / "tiles.yaml",
         "text: Set every adjacent rival ship on fire.,", f"text: {long},")
    report = validate_game(load_game(project_copy, "pirates-under-fire"), project_copy)
    overflow = [c for c in report.failures() if c.name.endswith("element 'ability' fits")]
    assert {str(c.location) for c in overflow} == {"data/pirates-under-fire/tiles.yaml:24"}  # the card to shorten
    assert "(box at templates/layouts/pirates-under-fire/ship.yaml:" in overflow[0].actual


def test_validate_exits_1_for_a_failing_deck_and_names_the_games(project_copy: Project,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import run_pnp

    edit(project_copy.data_dir / "counterattack" / "game.yaml", "{label: port cards, count: 6,",
         "{label: port cards, count: 7,")
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack", "--failures-only")
    assert code == 1
    assert "contents: port cards" in out
    assert err == "pnp: counterattack: 1 of 1 game(s) failed validation\n"


def test_a_rulebook_template_that_does_not_render_fails_validation(project_copy: Project) -> None:
    rulebook = project_copy.templates_dir / "rulebooks" / "counterattack.md.j2"
    rulebook.write_text(rulebook.read_text() + "\n{{ no_such_name }}\n")
    found = failures(project_copy, "counterattack")
    assert any(name == "rulebook template" and location.startswith("templates/rulebooks/counterattack.md.j2:")
               for name, location in found), found
