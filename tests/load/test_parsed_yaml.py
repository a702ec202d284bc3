"""A session parses a game's YAML file again only when its bytes changed (`pnp watch`: a one-card edit parses
the edited file alone); a load with `--set` overrides, which change the parsed YAML, parses its own."""

from __future__ import annotations

from pathlib import Path

from generator.load import game_loader, load_game
from generator.load.overrides import Override
from generator.project import Project
from tests.render.conftest import make_project


def test_unchanged_files_are_parsed_once_and_overrides_stay_their_own(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    project = make_project(tmp_path / "ca")
    parsed: list[str] = []
    parse = game_loader.parse_yaml_bytes

    def counted(data: bytes, name: str):  # type: ignore[no-untyped-def]
        parsed.append(name)
        return parse(data, name)

    monkeypatch.setattr(game_loader, "parse_yaml_bytes", counted)
    game = load_game(project, "counterattack")
    cards = project.root / "data" / "counterattack" / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Nassau,", "name: Nassau Harbour,", 1))
    edited = load_game(project, "counterattack")
    assert parsed == ["data/counterattack/game.yaml", "data/counterattack/cards.yaml", "data/counterattack/cards.yaml"]
    assert edited.component("port").items[2].fields["name"] == "Nassau Harbour"
    assert edited.rules == game.rules  # game.yaml as parsed the first time

    overridden = load_game(project, "counterattack", (Override("rules.hand_size", "9"),))
    assert overridden.rules["hand_size"] == 9
    again = load_game(project, "counterattack")
    assert again.rules["hand_size"] == 10  # the override changed its own parse, not the kept one
    fresh = load_game(Project.at(project.root), "counterattack")  # a new session parses everything itself
    assert again == fresh
