"""Game logs: write a played game, read it back, replay it move by move with checks on.

A log is the deal (every chance outcome, drawn up front) plus the actions in
their readable form, so it replays without the random generator that made it.
Two forms are read:

* JSON lines, one game per line, as `pnp simulate --log` writes them:
  `{"game": ..., "index": 0, "players": 2, "bots": [...], "seed": ..., "deal": {...},
  "actions": ["play 14 red", ...], "result": {"scores": [...], "winners": [...]}}`
* a text form for games typed in by hand: `key: value` header lines (`game`,
  `players`, and `deal` as one line of JSON or `seed`; optionally `names: Bo, Ann, Cy`
  so that messages speak of the players by name), an optional `---`, then one
  action per line. Blank lines and lines starting with `#` are ignored.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine.base import IllegalAction, Result, Rules, State
from generator.errors import DataError, Location

HEADER_KEYS = ("game", "players", "names", "seed", "deal", "bots", "index", "result")
SEAT = re.compile(r"\bseat (\d+)\b")


@dataclass(frozen=True)
class GameRecord:
    """One recorded game, with the file lines it came from (for messages)."""

    game: str
    players: int
    actions: tuple[str, ...]
    deal: Mapping[str, Any] | None = None
    seed: int | None = None
    bots: tuple[str, ...] = ()
    index: int | None = None
    result: Mapping[str, Any] | None = None
    where: Location = Location("")
    action_lines: tuple[int, ...] = ()  # the file line of each action
    one_line: bool = False  # a JSON-lines record: every action is on the record's line
    names: tuple[str, ...] = ()  # the players' names by seat, when the log gives them

    def speak(self, message: str) -> str:
        """An engine message with 'seat 2' replaced by the player's name, when the log names them."""
        if not self.names:
            return message
        return SEAT.sub(lambda m: self.names[int(m.group(1))] if int(m.group(1)) < len(self.names) else m.group(0),
                        message)

    def to_json(self) -> str:
        """The record as one JSON line (keys in a fixed order, no spaces: deterministic)."""
        data: dict[str, Any] = {"game": self.game}
        if self.index is not None:
            data["index"] = self.index
        data["players"] = self.players
        if self.names:
            data["names"] = list(self.names)
        if self.bots:
            data["bots"] = list(self.bots)
        if self.seed is not None:
            data["seed"] = self.seed
        if self.deal is not None:
            data["deal"] = self.deal
        data["actions"] = list(self.actions)
        if self.result is not None:
            data["result"] = self.result
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def result_dict(result: Result) -> dict[str, Any]:
    """The part of a `Result` a log keeps: scores and winners."""
    return {"scores": [_num(s) for s in result.scores], "winners": list(result.winners)}


def _num(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


# --- reading -----------------------------------------------------------------


def read_log(path: Path, name: str | None = None) -> list[GameRecord]:
    """Every game in a log file; an unreadable file or line is a DataError at file:line."""
    name = name or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError("log file not found", Location(name)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read the log ({exc.__class__.__name__}: {exc})", Location(name)) from None
    lines = text.splitlines()
    first = next((ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    if not first:
        raise DataError("the log is empty: expected JSON lines or a 'game:' header and actions", Location(name, 1))
    if first.startswith(("{", "[")):
        return _read_json_lines(lines, name)
    return [_read_text(lines, name)]


def _read_json_lines(lines: Sequence[str], name: str) -> list[GameRecord]:
    records = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = Location(name, number)
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"not valid JSON ({exc.msg} at column {exc.colno}); each line must be one game", where) from None
        if not isinstance(data, dict):
            raise DataError("each line must be a JSON object describing one game", where)
        records.append(_record(data, where, None))
    return records


def _read_text(lines: Sequence[str], name: str) -> GameRecord:
    header: dict[str, Any] = {}
    actions: list[str] = []
    action_lines: list[int] = []
    in_header = True
    header_line = 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if in_header:
            if line == "---":
                in_header = False
                continue
            key, sep, value = line.partition(":")
            key = key.strip().lower()
            if sep and key in HEADER_KEYS:
                if key in header:
                    raise DataError(f"header '{key}' is given twice", Location(name, number))
                header[key] = (value.strip(), number)
                header_line = header_line or number
                continue
            in_header = False
        actions.append(line)
        action_lines.append(number)
    where = Location(name, header_line or 1)
    data: dict[str, Any] = {}
    for key, (value, number) in header.items():
        if key in ("deal", "result"):
            try:
                data[key] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise DataError(f"'{key}' must be JSON on one line ({exc.msg})", Location(name, number)) from None
        elif key in ("players", "seed", "index"):
            try:
                data[key] = int(value)
            except ValueError:
                raise DataError(f"'{key}' must be a whole number, got {value!r}", Location(name, number)) from None
        elif key in ("bots", "names"):
            data[key] = [b.strip() for b in value.split(",") if b.strip()]
        else:
            data[key] = value
    data["actions"] = actions
    return _record(data, where, tuple(action_lines))


def _record(data: Mapping[str, Any], where: Location, action_lines: tuple[int, ...] | None) -> GameRecord:
    def need(key: str, kind: type | tuple[type, ...], what: str) -> Any:
        if key not in data:
            raise DataError(f"the game record has no '{key}' ({what})", where)
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise DataError(f"'{key}' must be {what}, got {value!r}", where)
        return value

    game = need("game", str, "the game id, e.g. counterattack")
    players = need("players", int, "the number of players")
    actions = need("actions", list, "the list of actions as text")
    if not all(isinstance(a, str) for a in actions):
        raise DataError("'actions' must be a list of strings such as \"play 14 red\"", where)
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise DataError(f"'deal' must be a JSON object, got {type(deal).__name__}", where)
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise DataError(f"'seed' must be a whole number, got {seed!r}", where)
    if deal is None and seed is None:
        raise DataError("the game record gives neither a 'deal' nor a 'seed' to deal the cards from", where)
    bots = data.get("bots") or []
    names = data.get("names") or []
    if names and (not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names)):
        raise DataError(f"'names' must name each of the {players} players, in seat order", where)
    result = data.get("result")
    index = data.get("index")
    one_line = action_lines is None
    lines = action_lines if action_lines is not None else (where.line,) * len(actions)
    return GameRecord(
        game=game,
        players=players,
        actions=tuple(actions),
        deal=deal,
        seed=seed,
        bots=tuple(str(b) for b in bots),
        index=index if isinstance(index, int) else None,
        result=result if isinstance(result, dict) else None,
        where=where,
        action_lines=lines,
        one_line=one_line,
        names=tuple(names),
    )


# --- replaying ---------------------------------------------------------------


@dataclass
class Replay:
    """How a replay ended: the final state, or the first problem found."""

    record: GameRecord
    state: State | None = None
    actions: int = 0
    problem: str | None = None  # "line 23: ..." for an illegal action or a wrong result

    @property
    def legal(self) -> bool:
        return self.problem is None

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.is_terminal()


def replay(rules: Rules, record: GameRecord, check: bool = True) -> Replay:
    """Play the recorded actions from the recorded deal; stop at the first illegal one."""
    outcome = Replay(record)
    deal = record.deal if record.deal is not None else rules.random_deal(record.players, random.Random(record.seed))
    if record.players not in rules.player_counts:
        counts = ", ".join(str(p) for p in rules.player_counts)
        raise DataError(f"{record.game} is played by {counts} players, the log says {record.players}", record.where)
    try:
        state = rules.new_state(record.players, json.loads(json.dumps(deal)), check)
    except IllegalAction as exc:
        outcome.problem = f"line {record.where.line}: the deal is not possible: {exc.message}"
        return outcome
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise DataError(f"the deal does not fit {record.game} ({exc.__class__.__name__}: {exc})", record.where) from None
    outcome.state = state
    for number, (text, line) in enumerate(zip(record.actions, record.action_lines), 1):
        prefix = f"line {line}: action {number} ({text!r})" if record.one_line else f"line {line}"
        if state.is_terminal():
            outcome.problem = f"{prefix}: the game is already over"
            return outcome
        try:
            action = state.string_to_action(text)
            if action not in state.legal_actions():
                # the engine names the rule: applying it under check raises IllegalAction
                state.apply_action(action)
                raise IllegalAction(f"{text!r} is not a legal action now")
            state.apply_action(action)
        except IllegalAction as exc:
            outcome.problem = f"{prefix}: {record.speak(exc.message)}"
            return outcome
        outcome.actions = number
    if state.is_terminal() and record.result is not None:
        got = result_dict(state.result())
        want = {"scores": [_num(s) for s in record.result.get("scores", [])],
                "winners": list(record.result.get("winners", []))}
        if got != want:
            outcome.problem = (f"line {record.where.line}: the log records scores {want['scores']} and winners "
                               f"{want['winners']}, but the replay gives {got['scores']} and {got['winners']}")
    return outcome
