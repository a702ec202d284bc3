"""The Play page of `pnp serve` over HTTP: the engine judges, and no response shows what the seat may not see."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.cli.playweb import PREFIX, PlayTables
from generator.cli.server import BuildState, PreviewServer
from generator.engine.registry import REGISTRY
from generator.project import Project
from tests.helpers import copy_sources


class Client:
    """Requests to the preview server; every body it received is kept, for the hidden-information checks."""

    def __init__(self, server: PreviewServer, play: PlayTables) -> None:
        self.port = server.httpd.server_address[1]
        self.play = play
        self.bodies: list[bytes] = []

    def request(self, method: str, path: str, data: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        body = raw if raw is not None else (None if data is None else json.dumps(data).encode())
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        self.bodies.append(payload)
        kind = response.getheader("Content-Type") or ""
        return response.status, json.loads(payload) if kind.startswith("application/json") else payload.decode()

    def post(self, game: str, what: str, data: Any) -> tuple[int, Any]:
        return self.request("POST", f"{PREFIX}{game}/{what}", data)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return copy_sources(tmp_path)


@pytest.fixture
def client(project: Project) -> Iterator[Client]:
    play = PlayTables(project.root, REGISTRY)
    with PreviewServer(project.output_dir, "127.0.0.1", 0, BuildState(), b"placeholder", play=play) as server:
        yield Client(server, play)


def shown_faces(body: bytes) -> list[dict[str, Any]]:
    """Every face in a response, in its views and frames."""
    data = json.loads(body)
    views = [data.get("view")] + [f["view"] for f in data.get("frames", [])]
    return [face for view in views if view for zone in view["zones"] for face in zone["faces"]]


@pytest.mark.slow
def test_a_browser_game_of_counterattack_never_shows_a_hidden_card(client: Client, project: Project) -> None:
    from generator.load import load_game

    game = load_game(project, "counterattack")
    main = [i.id for i in game.deck("main")]
    exposed = [i.id for i in game.deck("exposed-port")]
    status, state = client.post("counterattack", "new", {"players": 2, "seat": 1, "seed": 21})
    assert status == 200
    token = state["token"]
    session = client.play.tables[token]
    checked = 0
    while True:
        hidden = set()
        true = session.state
        for c in (c for s, hand in enumerate(true.hands) if s != 0 for c in hand):
            hidden.add(("main", main[c]))
        for c in true.pirate[true.trick + 1:]:
            hidden.add(("main", main[c]))
        for e in true.exposed[true.exposed_pos + 1:]:
            hidden.add(("exposed-port", exposed[e]))
        body = client.bodies[-1]
        shown = {(f["component"], f["item"]) for f in shown_faces(body)}
        assert not shown & hidden, shown & hidden
        text = body.decode()
        assert '"deal"' not in text and '"seed"' not in text and '"passes"' not in text
        checked += 1
        if state["over"]:
            break
        status, state = client.post("counterattack", "move", {"token": token, "action": 1})
        assert status == 200, state
    assert checked > 10
    assert state["saved"].startswith("output/counterattack/play/") and state["result"]["scores"]


@pytest.mark.slow
def test_a_browser_round_of_pirate_tricks_never_shows_a_hidden_card_or_bid(client: Client, project: Project) -> None:
    from generator.load import load_game

    crew = [i.id for i in load_game(project, "pirate-tricks").deck("crew")]
    status, state = client.post("pirate-tricks", "new", {"players": 3, "seat": 2, "seed": 5})
    assert status == 200
    token = state["token"]
    session = client.play.tables[token]
    me = 1
    seen: set[int] = set()
    while True:
        true = session.state
        up = true.t.row_up
        seen |= {c for row in true.rows for c in row[:up]}  # face-up row cards: seen by all
        seen |= {c for shown in true.observation(me)["shown"] for c in shown}  # laid out for recruitment
        seen |= {c for _row, cards in true.last_ties for c in cards if c >= 0}  # tie cards, turned up
        seen |= {c for captured in true.captured for c in captured} | set(true.trick_cards)
        hidden = {c for s, hand in enumerate(true.hands) if s != me for c in hand} - seen
        hidden |= {c for r, row in enumerate(true.rows) if true.row_owner[r] != me for c in row[up:]} - seen
        hidden |= {c for s, ditched in enumerate(true.ditched) if s != me for c in ditched} - seen
        body = client.bodies[-1]
        shown = {f["item"] for f in shown_faces(body) if f["component"] == "crew"}
        assert not shown & {crew[c] for c in hidden}
        data = json.loads(body)
        for event in data["events"]:
            if event["seat"] != me:
                assert not event["text"].startswith(("bid ", "tie card ", "ditch ")), event
        if state["over"] or true.round > 0:
            break
        status, state = client.post("pirate-tricks", "move", {"token": token, "action": 1})
        assert status == 200, state
    assert true.round > 0 or state["over"]


@pytest.mark.slow
def test_the_page_setup_and_a_game_over_http(client: Client) -> None:
    status, page = client.request("GET", f"{PREFIX}counterattack")
    assert status == 200 and 'data-game="counterattack"' in page
    status, index = client.request("GET", PREFIX)
    assert status == 200 and f'href="{PREFIX}pirate-tricks"' in index
    status, setup = client.request("GET", f"{PREFIX}counterattack/setup")
    assert status == 200
    assert setup["players"] == [1, 2] and "heuristic" in setup["bots"]
    assert setup["layout"]["zones"]["hand"] == {"x": 2, "y": 68, "w": 96, "h": 30}
    status, state = client.post("counterattack", "new", {"seed": 3})
    assert status == 200 and state["legal"] and state["to_act"] == 0
    token = state["token"]
    first = state["legal"][0]["text"]
    status, after = client.post("counterattack", "move", {"token": token, "action": first})
    assert status == 200
    assert {k: after["events"][0][k] for k in ("seat", "who", "text")} == {"seat": 0, "who": "you", "text": first}
    assert after["events"][0]["notes"][0].startswith(("the crew wins the trick", "the pirate wins the trick"))
    assert all(frame["event"]["seat"] == 1 for frame in after["frames"])  # the bot's moves, one frame each
    status, hint = client.post("counterattack", "hint", {"token": token})
    assert status == 200 and hint["hint"]["action"] in {m["text"] for m in after["legal"]}
    status, undone = client.post("counterattack", "undo", {"token": token})
    assert status == 200 and undone["events"] == [] and undone["legal"] == state["legal"]
    status, quit_ = client.post("counterattack", "quit", {"token": token})
    assert status == 200 and quit_["saved"].startswith("output/counterattack/play/seed-3")
    status, gone = client.post("counterattack", "move", {"token": token, "action": 1})
    assert status == 404 and "start a new one" in gone["error"]


@pytest.mark.slow
@pytest.mark.parametrize(("what", "data", "status", "message"), [
    ("new", {"players": 9}, 400, "--players 9: counterattack is played by 1, 2 players"),
    ("new", {"seat": "one"}, 400, "'seat' must be a whole number"),
    ("move", {"token": "nope", "action": 1}, 404, "no such game here"),
    ("dance", {"token": "nope"}, 404, "no such game here"),
])
def test_bad_requests_are_one_line_errors(client: Client, what: str, data: Any, status: int, message: str) -> None:
    got, answer = client.post("counterattack", what, data)
    assert got == status and message in answer["error"]


@pytest.mark.slow
def test_illegal_moves_and_bad_bodies_are_refused_by_the_engine(client: Client) -> None:
    _status, state = client.post("counterattack", "new", {"seed": 3})
    token = state["token"]
    status, answer = client.post("counterattack", "move", {"token": token, "action": "play 99 anchors"})
    assert status == 400 and "unreadable action 'play 99 anchors'" in answer["error"]
    status, answer = client.post("counterattack", "move", {"token": token, "action": 99})
    assert status == 400 and "there is no move 99" in answer["error"]
    status, answer = client.request("POST", f"{PREFIX}counterattack/move", raw=b"{not json")
    assert status == 400 and "JSON object" in answer["error"]
    status, answer = client.post("atlantis", "new", {})
    assert status == 400 and "no game 'atlantis'" in answer["error"]
    status, _ = client.request("POST", "/index.html", {})
    assert status == 404


@pytest.mark.slow
def test_a_bad_table_layout_is_one_line_at_its_line(client: Client, project: Project) -> None:
    path = project.templates_dir / "play" / "counterattack.yaml"
    path.write_text("zones:\n  hand: {x: 2, y: 68, w: 960, h: 30}\n", encoding="utf-8")
    status, answer = client.request("GET", f"{PREFIX}counterattack/setup")
    assert status == 400
    assert answer["error"] == ("templates/play/counterattack.yaml:2: zone 'hand': w must be a number from 0 "
                               "to 100, got 960")


@pytest.mark.slow
def test_games_in_progress_are_saved_when_the_server_stops(client: Client, project: Project,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import run_pnp

    _status, state = client.post("counterattack", "new", {"seed": 17})
    client.post("counterattack", "move", {"token": state["token"], "action": 1})
    client.post("counterattack", "new", {"seed": 18})  # not a move made: nothing worth keeping
    assert client.play.save_all() == ["output/counterattack/play/seed-17.jsonl"]
    assert client.play.tables == {}
    code, out, _err = run_pnp(capsys, "--root", str(project.root), "check", "counterattack",
                              str(project.output_dir / "counterattack" / "play" / "seed-17.jsonl"))
    assert code == 1 and "unfinished game" in out


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), [("counterattack", 1), ("pirate-tricks", 4),
                                                  ("all-hands-on-deck", 3), ("pirates-under-fire", 2)])
def test_any_game_plays_to_its_end_in_the_browser_and_check_accepts_the_log(
        client: Client, project: Project, game_id: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import run_pnp

    status, state = client.post(game_id, "new", {"players": players, "seat": players, "seed": 6, "bots": "random"})
    assert status == 200, state
    while not state["over"]:
        assert state["legal"] and state["to_act"] == players - 1
        status, state = client.post(game_id, "move", {"token": state["token"], "action": state["legal"][-1]["text"]})
        assert status == 200, state
    assert state["legal"] == [] and len(state["result"]["scores"]) == players
    code, out, err = run_pnp(capsys, "--root", str(project.root), "check", game_id, str(project.root / state["saved"]))
    assert code == 0 and out.startswith("legal: "), out + err
