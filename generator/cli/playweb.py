"""The Play page of `pnp serve`: a person against the bots in the browser, the engine on the server the judge.

Routes, under `/__pnp/play/`:

    GET  /__pnp/play/                the games, a link each
    GET  /__pnp/play/GAME            the page (generator/render/site/play.html.j2)
    GET  /__pnp/play/GAME/setup      title, player counts, bots, and the table layout (templates/play/GAME.yaml)
    POST /__pnp/play/GAME/new        {"players", "seat", "bots", "seed"} -> a new game's token and first state
    POST /__pnp/play/GAME/move       {"token", "action"}: a number from the list or an action's text
    POST /__pnp/play/GAME/undo|hint|quit   {"token"}

Every answer about a game is made from what the person's seat may see: views of `observation(seat)`,
the moves as that seat saw them (another seat's secret move told as the game allows), the legal moves
when it is the person's turn. The deal and the seed never leave the server; the log is written under
output/GAME/play/ when the game ends or the person quits.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.errors import DataError, Location, PnpError

if TYPE_CHECKING:
    from generator.cli.context import Context
    from generator.engine.play import PlaySession
    from generator.engine.registry import Registry

PREFIX = "/__pnp/play/"
MAX_TABLES = 32  # games kept in memory; the oldest goes when a 33rd starts
MAX_BODY = 64 * 1024
ZONE_KEYS = {"x", "y", "w", "h", "small", "stack", "label"}


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, content type, body."""

    status: int
    content_type: str
    body: bytes

    @classmethod
    def json(cls, data: Any, status: int = HTTPStatus.OK) -> Answer:
        return cls(status, "application/json", json.dumps(data, ensure_ascii=False).encode("utf-8"))

    @classmethod
    def error(cls, message: str, status: int = HTTPStatus.BAD_REQUEST) -> Answer:
        return cls.json({"error": message}, status)


class PlayTables:
    """The games in progress (by a random token each), and the routes that play them. Thread-safe: the
    preview server answers each request in its own thread."""

    def __init__(self, root: Path, registry: Registry) -> None:
        from generator.cli.context import Context

        self.context: Context = Context.create(str(root), True, registry)  # a project handle of its own
        self.tables: OrderedDict[str, PlaySession] = OrderedDict()
        self.lock = threading.Lock()

    # --- routing -----------------------------------------------------------------------------

    def get(self, path: str) -> Answer | None:
        """The answer to a GET under PREFIX, or None for a path that is not ours."""
        if not path.startswith(PREFIX):
            return None
        rest = path[len(PREFIX):].strip("/")
        try:
            with self.lock:
                if not rest:
                    return self._index()
                game_id, _, what = rest.partition("/")
                self._known(game_id)
                if what == "":
                    return self._page(game_id)
                if what == "setup":
                    return Answer.json(self._setup(game_id))
        except PnpError as exc:
            return Answer.error(str(exc))
        return Answer.error("no such page", HTTPStatus.NOT_FOUND)

    def post(self, path: str, body: bytes) -> Answer | None:
        """The answer to a POST under PREFIX, or None for a path that is not ours."""
        if not path.startswith(PREFIX):
            return None
        game_id, _, what = path[len(PREFIX):].strip("/").partition("/")
        if len(body) > MAX_BODY:
            return Answer.error("request too large", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        try:
            data = json.loads(body.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError, RecursionError):
            return Answer.error("the request must be a JSON object")
        if not isinstance(data, dict):
            return Answer.error("the request must be a JSON object")
        try:
            with self.lock:
                self._known(game_id)
                if what == "new":
                    return Answer.json(self._new(game_id, data))
                session = self._session(game_id, data.get("token"))
                if session is None:
                    return Answer.error("no such game here (the server may have restarted): start a new one",
                                        HTTPStatus.NOT_FOUND)
                if what == "move":
                    action = data.get("action")
                    if not isinstance(action, (str, int)) or isinstance(action, bool):
                        return Answer.error("'action' must be a move's number or its text")
                    session.play(str(action))
                    return Answer.json(self._state(session, data["token"], self._bots(session)))
                if what == "undo":
                    undone = session.undo()
                    state = self._state(session, data["token"], [])
                    state["note"] = "undone: back to your previous move" if undone else "nothing to undo yet"
                    return Answer.json(state)
                if what == "hint":
                    hint = session.hint()
                    return Answer.json({"hint": {"action": hint.action, "why": hint.why}})
                if what == "quit":
                    state = self._state(session, data["token"], [])
                    state["saved"] = self._save(session)
                    del self.tables[data["token"]]
                    return Answer.json(state)
        except PnpError as exc:
            return Answer.error(exc.message if hasattr(exc, "message") else str(exc))
        return Answer.error("no such action", HTTPStatus.NOT_FOUND)

    def save_all(self) -> list[str]:
        """Write the log of every game still in progress (the server is stopping); where each went."""
        with self.lock:
            saved = [self._save(session) for session in self.tables.values() if session.actions]
            self.tables.clear()
        return saved

    # --- pages -------------------------------------------------------------------------------

    def _known(self, game_id: str) -> None:
        ids = self.context.project.game_ids()
        if game_id not in ids or game_id not in self.context.registry.engines:
            raise DataError(f"no game {game_id!r} to play here (games: {', '.join(ids)})", Location("pnp serve"))

    def _index(self) -> Answer:
        from html import escape

        links = "".join(f'<li><a href="{PREFIX}{escape(g)}">{escape(g)}</a></li>'
                        for g in self.context.project.game_ids() if g in self.context.registry.engines)
        page = (f"<!doctype html><meta charset=utf-8><title>Play</title><h1>Play against the bots</h1>"
                f"<ul>{links}</ul><p><a href=/>the gallery</a>")
        return Answer(HTTPStatus.OK, "text/html; charset=utf-8", page.encode("utf-8"))

    def _page(self, game_id: str) -> Answer:
        from importlib import resources

        import jinja2

        text = resources.files("generator.render.site").joinpath("play.html.j2").read_text("utf-8")
        page = jinja2.Environment(autoescape=True).from_string(text).render(game=game_id, prefix=PREFIX)
        return Answer(HTTPStatus.OK, "text/html; charset=utf-8", page.encode("utf-8"))

    def _setup(self, game_id: str) -> dict[str, Any]:
        (game,) = self.context.games([game_id])
        engine = self.context.registry.engine(game_id)
        return {"game": game_id, "title": game.title, "players": list(game.player_range),
                "bots": [b for b in engine.bots if b != "search"] + (["search"] if "search" in engine.bots else []),
                "layout": load_layout(self.context, game_id)}

    # --- games -------------------------------------------------------------------------------

    def _new(self, game_id: str, data: dict[str, Any]) -> dict[str, Any]:
        from generator.cli.play import new_session

        players, seat, seed = data.get("players"), data.get("seat", 1), data.get("seed")
        bots = data.get("bots", "heuristic")
        for name, value in (("players", players), ("seat", seat), ("seed", seed)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or abs(value) >= 2**63):
                raise DataError(f"'{name}' must be a whole number", Location("request"))
        if not isinstance(bots, str):
            raise DataError("'bots' must be bot names, comma-separated", Location("request"))
        session = new_session(self.context, game_id, players, seat, bots, seed)
        token = secrets.token_urlsafe(16)
        self.tables[token] = session
        while len(self.tables) > MAX_TABLES:
            self.tables.popitem(last=False)
        return self._state(session, token, self._bots(session))

    def _session(self, game_id: str, token: Any) -> PlaySession | None:
        session = self.tables.get(token) if isinstance(token, str) else None
        return session if session is not None and session.game_id == game_id else None

    @staticmethod
    def _bots(session: PlaySession) -> list[dict[str, Any]]:
        """The bots' moves until the person's turn or the end, each with the table as the person saw it after."""
        frames = []
        while (event := session.bot_move()) is not None:
            frames.append({"event": _event(session, event), "view": session.view().to_json()})
        return frames

    def _state(self, session: PlaySession, token: str, frames: list[dict[str, Any]]) -> dict[str, Any]:
        """What the person's seat may see now, and the bots' moves since their last one (`frames`)."""
        result = session.result()
        state: dict[str, Any] = {
            "token": token,
            "seat": session.seat,
            "players": session.players,
            "names": [session.name(s) for s in range(session.players)],
            "view": session.view().to_json(),
            "events": [_event(session, e) for e in session.events()],
            "frames": frames,
            "legal": [{"n": n, "text": text} for n, (_a, text) in enumerate(session.legal(), 1)],
            "to_act": session.to_act,
            "over": session.over,
            "result": None if result is None else {"scores": list(result.scores), "winners": list(result.winners)},
        }
        if session.over:
            state["saved"] = self._save(session)
        return state

    def _save(self, session: PlaySession) -> str:
        """Write the game's log under output/GAME/play/ and say where (the file name holds the seed)."""
        from generator.cli.play import default_log
        from generator.project import write_atomic

        path = default_log(self.context, session.game_id, session.seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, (session.record().to_json() + "\n").encode("utf-8"))
        return self.context.project.display(path)


def _event(session: PlaySession, event: Any) -> dict[str, Any]:
    return {"seat": event.seat, "who": session.name(event.seat), "text": event.text, "notes": list(event.notes)}


def load_layout(ctx: Context, game_id: str) -> dict[str, Any]:
    """The table layout of a game (templates/play/GAME.yaml): where each zone of the view lies, in percent
    of the table; {} when the game has none (every zone is then listed in turn). Bad data: a DataError at
    its line."""
    from generator.load.yamlsrc import read_yaml

    project = ctx.project
    name = f"templates/play/{game_id}.yaml"
    path = project.templates_dir / "play" / f"{game_id}.yaml"
    if not project.gate.exists(path):
        return {}
    raw = read_yaml(path, name, project.gate)
    if not isinstance(raw, dict):
        raise DataError("a table layout is a mapping with 'zones' (and optionally 'table', 'card')", Location(name, 1))
    where = getattr(raw, "where", lambda key: Location(name, 1))
    unknown = set(raw) - {"table", "card", "zones"}
    if unknown:
        key = sorted(unknown, key=str)[0]
        raise DataError(f"unknown key {key!r}; a table layout has table, card and zones", where(key))
    table = raw.get("table") or {}
    card = raw.get("card") or {}
    zones = raw.get("zones") or {}
    if not isinstance(table, dict) or not isinstance(card, dict) or not isinstance(zones, dict):
        raise DataError("'table', 'card' and 'zones' must be mappings", Location(name, 1))
    out_zones: dict[str, dict[str, Any]] = {}
    for zone_id, spec in zones.items():
        spot = getattr(zones, "where", lambda key: Location(name, 1))(zone_id)
        if not isinstance(spec, dict) or not {"x", "y", "w", "h"} <= set(spec) or set(spec) - ZONE_KEYS:
            raise DataError(f"zone {zone_id!r} needs x, y, w, h (percent of the table) and may have "
                            "small, stack, label", spot)
        for key in ("x", "y", "w", "h"):
            value = spec[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
                raise DataError(f"zone {zone_id!r}: {key} must be a number from 0 to 100, got {value!r}", spot)
        out_zones[str(zone_id)] = {k: (str(v) if k == "label" else v) for k, v in spec.items()}
    aspect = table.get("aspect", 1.6)
    width = card.get("width", 9)
    for label, value, low, high in (("table.aspect", aspect, 0.2, 5), ("card.width", width, 1, 50)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise DataError(f"{label} must be a number from {low} to {high}, got {value!r}", Location(name, 1))
    felt = table.get("felt", "#1e5a3c")
    if not isinstance(felt, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", felt):
        raise DataError(f"table.felt must be a colour like '#1e5a3c', got {felt!r}", Location(name, 1))
    return {"aspect": aspect, "card": width, "felt": felt, "zones": out_zones}
