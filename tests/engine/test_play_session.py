"""PlaySession over every engine: views name printed faces, undo returns to the very same table, and the
record replays to the same game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from generator.engine.base import RandomBot
from generator.engine.play import PlaySession
from generator.engine.registry import REGISTRY, Registry
from generator.engine.replay import replay, unfinished
from generator.engine.simulate.runner import build_rules
from generator.engine.view import hooks_for
from generator.load import load_game
from generator.project import Project
from tests import fifth_game
from tests.helpers import REPO

GAMES = [("counterattack", 2), ("counterattack", 1), ("pirate-tricks", 3), ("pirate-tricks", 4),
         ("all-hands-on-deck", 2), ("all-hands-on-deck", 3), ("pirates-under-fire", 2), ("nim", 3)]
CACHE: dict[str, Any] = {}


def setup(game_id: str, tmp: Path) -> tuple[Any, Any, Any]:
    """(rules, engine, game) of a game, loaded once per test run."""
    if game_id not in CACHE:
        registry: Registry = REGISTRY
        project = Project.at(REPO)
        if game_id == "nim":
            fifth_game.make_project(tmp)
            registry, project = fifth_game.REGISTRY, Project.at(tmp)
        game = load_game(project, game_id)
        engine = registry.engine(game_id)
        CACHE[game_id] = (build_rules(engine.rules, game), engine, game)
    return CACHE[game_id]


def session(game_id: str, players: int, seat: int, seed: int, tmp: Path) -> tuple[PlaySession, Any]:
    rules, engine, game = setup(game_id, tmp)
    bots: list[Any] = [RandomBot] * players
    bots[seat] = None
    names = ["random"] * players
    return PlaySession(rules, game_id, players, seat, bots, names, seed, hooks_for(engine.module),
                       engine.bots.get("search")), game


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # a whole game per example: too slow to shrink
@given(case=st.sampled_from(GAMES), seed=st.integers(0, 10**6), choices=st.randoms(use_true_random=False))
def test_views_name_printed_faces_and_undo_returns_to_the_same_table(
        case: tuple[str, int], seed: int, choices: random.Random, tmp_path: Path) -> None:
    game_id, players = case
    seat = seed % players
    play, game = session(game_id, players, seat, seed, tmp_path / game_id)
    items = {c.id: {i.id for i in c.items} for c in game.components}
    moves = 0
    while True:
        while play.bot_move() is not None:
            pass
        view = play.view()
        for zone in view.zones:
            for face in zone.faces:
                assert face.component == "" or face.component in items, face
                assert face.item is None or face.item in items[face.component], face
        if play.over:
            break
        legal = play.legal()
        assert legal and play.my_turn
        table = (json.dumps(view.to_json()), play.legal(), len(play.actions))
        number = choices.randrange(len(legal)) + 1
        play.play(str(number))
        moves += 1
        if moves % 3 == 0:
            assert play.undo()
            assert (json.dumps(play.view().to_json()), play.legal(), len(play.actions)) == table
            play.play(str(number))
    record = play.record()
    rules = setup(game_id, tmp_path)[0]
    outcome = replay(rules, record)
    assert outcome.legal and outcome.finished and unfinished(outcome) is None


def test_every_clickable_face_is_a_legal_move_on_the_person_s_turn(tmp_path: Path) -> None:
    """Counterattack's hand and the exposed stack: each face that says it can be played is in the move list."""
    play, _game = session("counterattack", 2, 0, 9, tmp_path)
    while play.bot_move() is not None:
        pass
    texts = {text for _a, text in play.legal()}
    clickable = {f.action for z in play.view().zones for f in z.faces if f.action}
    assert clickable and clickable <= texts
    assert clickable == texts  # every card in hand, and the flip


def test_another_seat_s_secret_moves_are_told_without_their_details(tmp_path: Path) -> None:
    play, _game = session("pirate-tricks", 3, 0, 2, tmp_path)
    while not play.over and len(play.actions) < 30:
        if play.bot_move() is None:
            play.play("1")
    told = [e.text for e in play.events() if e.seat != 0]
    assert "bids" in told
    assert not any(t.startswith(("bid ", "tie card ", "ditch ")) for t in told)
    mine = [e.text for e in play.events() if e.seat == 0]
    assert any(t.startswith("bid ") for t in mine)  # the person sees their own moves in full


@pytest.mark.slow
def test_a_hint_names_a_legal_move_and_says_why(tmp_path: Path) -> None:
    play, _game = session("pirates-under-fire", 2, 0, 5, tmp_path)
    while play.bot_move() is not None:
        pass
    hint = play.hint()
    assert hint.action in {text for _a, text in play.legal()}
    assert hint.why.startswith("in ") and "play-outs from deals consistent with what you see" in hint.why


@pytest.mark.parametrize(("game_id", "players"), [("counterattack", 2), ("pirate-tricks", 3),
                                                  ("all-hands-on-deck", 2), ("pirates-under-fire", 2)])
def test_every_zone_a_table_layout_places_is_one_its_game_shows(game_id: str, players: int, tmp_path: Path) -> None:
    """A misspelt zone id in templates/play/GAME.yaml would leave its zone listed under the table."""
    from generator.cli.context import Context
    from generator.cli.playweb import load_layout

    layout = load_layout(Context.create(str(REPO), True), game_id)
    play, _game = session(game_id, players, 0, 3, tmp_path)
    shown: set[str] = set()
    while True:
        while play.bot_move() is not None:
            shown |= {z.id for z in play.view().zones}
        shown |= {z.id for z in play.view().zones}
        if play.over:
            break
        play.play("1")
    assert layout["zones"] and set(layout["zones"]) <= shown, set(layout["zones"]) - shown


def test_what_came_of_each_move_is_told_from_the_seat_s_own_view(tmp_path: Path) -> None:
    """Counterattack: every trick is told as won or lost, with the pirate's card; a flip names the new trump."""
    play, _game = session("counterattack", 2, 0, 5, tmp_path)
    while not play.over:
        if play.bot_move() is None:
            play.play("1")
    notes = [note for event in play.events() for note in event.notes]
    tricks = [n for n in notes if "wins the trick" in n]
    hands = [n for n in notes if n.startswith("hand over: ")]
    assert len(tricks) + len(hands) == sum(1 for e in play.events() if not e.text.startswith("flip"))
    assert all(n.endswith(("compasses", "anchors", "cutlasses", "skulls")) for n in tricks)
