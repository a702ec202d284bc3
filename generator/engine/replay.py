"""Game logs: write a played game, read it back, replay it move by move with checks on.

A log is the deal (every chance outcome, drawn up front) plus the actions in
their readable form, so it replays without the random generator that made it.
Two forms are read:

* JSON lines, one game per line, as `pnp simulate --log` writes them:
  `{"game": ..., "index": 0, "players": 2, "bots": [...], "seed": ..., "deal": {...},
  "actions": ["play 14 red", ...], "result": {"scores": [...], "winners": [...]}}`, and `"set": ["PATH=VALUE", ...]`
  when the game was played with `pnp simulate --set` (a replay applies the same values to the data)
* a text form for games typed in by hand: `key: value` header lines (`game`,
  `players`, and `deal` as one line of JSON or `seed`; optionally `names: Bo, Ann, Cy`
  so that messages speak of the players by name), an optional `---`, then one
  action per line. Blank lines and lines starting with `#` are ignored.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.engine.base import IllegalAction, Result, Rules, State
from generator.errors import DataError, Location

HEADER_KEYS = ("game", "players", "names", "seed", "deal", "bots", "set", "index", "result")
SEAT = re.compile(r"\bseat (\d+)\b")
QUOTED = re.compile(r"('[^']*'|\"[^\"]*\")")  # action texts quoted in a message keep their own words
BOM = "\ufeff"
MAX_PLAYERS = 64  # far above any table; keeps a hostile 'players' from sizing anything
# A logged game is a few kilobytes (a deal and a few hundred actions); reading stops well before memory does
MAX_LINE_BYTES = 4 << 20
MAX_LOG_BYTES = 512 << 20


class LogError(DataError):
    """Something wrong inside a game log. `pnp check` judges the log, and a log that is
    not a readable, complete, legal game is a "no" verdict: exit code 1."""

    exit_code = 1


def _short(value: object, limit: int = 40) -> str:
    """A value for a message, cut so that a 5000-digit number cannot flood the terminal."""
    text = repr(value) if not isinstance(value, int) or isinstance(value, bool) else str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def for_people(message: str, names: Sequence[str] = ()) -> str:
    """An engine message for people. Engines name seats by index ('seat 0' is the first);
    here they are counted from 1, or named when names are given. Quoted action texts
    ('curse seat 2') are already as people count and stay as they are."""
    def seat(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if 0 <= index < len(names) else f"seat {index + 1}"

    parts = QUOTED.split(message)
    return "".join(part if i % 2 else SEAT.sub(seat, part) for i, part in enumerate(parts))


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
    where: Location = field(default_factory=lambda: Location(""))
    action_lines: tuple[int, ...] = ()  # the file line of each action
    one_line: bool = False  # a JSON-lines record: every action is on the record's line
    names: tuple[str, ...] = ()  # the players' names by seat, when the log gives them
    deal_line: int = 0  # the file line of the deal (or seed), for a deal that is not possible
    settings: tuple[str, ...] = ()  # the `--set PATH=VALUE` values the game was played under

    def seat(self, index: int) -> str:
        """A seat as people count it: its name when the log gives names, else 'seat 1' for index 0."""
        return self.names[index] if 0 <= index < len(self.names) else f"seat {index + 1}"

    def speak(self, message: str) -> str:
        """An engine message for people (see `for_people`), with the log's names."""
        return for_people(message, self.names)

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
        if self.settings:
            data["set"] = list(self.settings)
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
        lines = _read_lines(path, name)
    except FileNotFoundError:
        raise DataError("log file not found", Location(name)) from None
    except OSError as exc:
        raise DataError(f"cannot read the log ({exc.strerror or exc.__class__.__name__})", Location(name)) from None
    first = next((ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    if not first:
        raise LogError("the log is empty: expected JSON lines or a 'game:' header and actions", Location(name, 1))
    if first.startswith(("{", "[")):
        return _read_json_lines(lines, name)
    return [_read_text(lines, name)]


def _read_lines(path: Path, name: str) -> list[str]:
    """The log's lines, read a bounded line at a time: a line past MAX_LINE_BYTES (`/dev/zero`, a 1 GB line)
    or a log past MAX_LOG_BYTES is a LogError at its line, not a read of the whole of it into memory."""
    lines: list[str] = []
    total = 0
    with path.open("rb") as handle:
        number = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return lines
            number = len(lines) + 1
            total += len(raw)
            if len(raw) > MAX_LINE_BYTES:
                raise LogError(f"line {number} is longer than {MAX_LINE_BYTES >> 20} MB; a logged game is a few "
                               "kilobytes (is this a log?)", Location(name, number))
            if total > MAX_LOG_BYTES:
                raise LogError(f"the log is larger than {MAX_LOG_BYTES >> 20} MB; split it into several logs",
                               Location(name, number))
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise LogError("the log is not UTF-8 text; save it as UTF-8", Location(name, number)) from None
            if not lines and text.startswith(BOM):
                raise LogError("the log starts with a byte-order mark (BOM); save it as UTF-8 without BOM",
                               Location(name, 1))
            lines += text.splitlines() or [""]


def _read_json_lines(lines: Sequence[str], name: str) -> list[GameRecord]:
    records = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = Location(name, number)
        data = _json(line, where, "each line must be one game")
        if not isinstance(data, dict):
            raise LogError("each line must be a JSON object describing one game", where)
        records.append(_record(data, where, None))
    return records


def _json(text: str, where: Location, hint: str) -> Any:
    """JSON from a log line; a cut-off line, deep nesting or a giant number is a LogError there."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip())
        reason = "the line is cut off: the log may be truncated" if cut else f"{exc.msg} at column {exc.colno}"
        raise LogError(f"not valid JSON ({reason}); {hint}", where) from None
    except RecursionError:
        raise LogError(f"the JSON is nested too deeply to be a game record; {hint}", where) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise LogError(f"unreadable JSON ({_short(str(exc), 80)}); {hint}", where) from None


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
                    raise LogError(f"header '{key}' is given twice", Location(name, number))
                header[key] = (value.strip(), number)
                header_line = header_line or number
                continue
            in_header = False
        actions.append(line)
        action_lines.append(number)
    where = Location(name, header_line or 1)
    data: dict[str, Any] = {}
    for key, (value, number) in header.items():
        if key in ("deal", "result", "set"):
            data[key] = _json(value, Location(name, number), f"'{key}' must be JSON on one line")
        elif key in ("players", "seed", "index"):
            try:
                if len(value) > 40:
                    raise ValueError(value)
                data[key] = int(value)
            except ValueError:
                raise LogError(f"'{key}' must be a whole number, got {_short(value)}", Location(name, number)) from None
        elif key in ("bots", "names"):
            data[key] = [b.strip() for b in value.split(",") if b.strip()]
        else:
            data[key] = value
    data["actions"] = actions
    deal_line = header.get("deal", header.get("seed", ("", where.line)))[1]
    return _record(data, where, tuple(action_lines), deal_line)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) < 10**15
    return isinstance(value, float) and math.isfinite(value)


def _record(data: Mapping[str, Any], where: Location, action_lines: tuple[int, ...] | None,
            deal_line: int = 0) -> GameRecord:
    def need(key: str, kind: type | tuple[type, ...], what: str) -> Any:
        if key not in data:
            raise LogError(f"the game record has no '{key}' ({what})", where)
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise LogError(f"'{key}' must be {what}, got {_short(value)}", where)
        return value

    game = need("game", str, "the game id, e.g. counterattack")
    players = need("players", int, "the number of players")
    if not 1 <= players <= MAX_PLAYERS:
        raise LogError(f"'players' must be a number of players, got {_short(players)}", where)
    actions = need("actions", list, "the list of actions as text")
    if not all(isinstance(a, str) for a in actions):
        raise LogError("'actions' must be a list of strings such as \"play 14 red\"", where)
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise LogError(f"'deal' must be a JSON object, got {type(deal).__name__}", where)
    seed = data.get("seed")
    if seed is not None and not (_is_int(seed) and abs(seed) < 2**64):
        raise LogError(f"'seed' must be a whole number below 2**64, got {_short(seed)}", where)
    if deal is None and seed is None:
        raise LogError("the game record gives neither a 'deal' nor a 'seed' to deal the cards from", where)
    bots = data.get("bots") or []
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise LogError(f"'bots' must be a list of bot names, one per seat, got {_short(bots)}", where)
    settings = data.get("set") or []
    if not isinstance(settings, list) or not all(isinstance(s, str) and "=" in s for s in settings):
        raise LogError(f"'set' must be a list of \"PATH=VALUE\" strings, got {_short(settings)}", where)
    names = data.get("names") or []
    if names and (not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names)):
        raise LogError(f"'names' must name each of the {players} players, in seat order", where)
    result = data.get("result")
    if result is not None:
        scores, winners = (result.get("scores"), result.get("winners")) if isinstance(result, dict) else (None, None)
        if not (isinstance(scores, list) and all(_is_number(s) for s in scores)):
            raise LogError(f"'result' must hold 'scores', a list of numbers, got {_short(scores)}", where)
        if not (isinstance(winners, list) and all(_is_int(w) and 0 <= w < players for w in winners)):
            raise LogError(f"'result' must hold 'winners', a list of seat indexes 0..{players - 1}, "
                           f"got {_short(winners)}", where)
    index = data.get("index")
    if index is not None and not (_is_int(index) and 0 <= index < 2**63):
        raise LogError(f"'index' must be a whole number, got {_short(index)}", where)
    one_line = action_lines is None
    lines = action_lines if action_lines is not None else (where.line,) * len(actions)
    return GameRecord(
        game=game,
        players=players,
        actions=tuple(actions),
        deal=deal,
        seed=seed,
        bots=tuple(bots),
        index=index,
        result=result if isinstance(result, dict) else None,
        where=where,
        action_lines=lines,
        one_line=one_line,
        names=tuple(names),
        deal_line=deal_line or where.line,
        settings=tuple(settings),
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
    if record.players not in rules.player_counts:
        counts = ", ".join(str(p) for p in rules.player_counts)
        raise DataError(f"{record.game} is played by {counts} players, the log says {record.players}", record.where)
    deal = record.deal if record.deal is not None else rules.random_deal(record.players, random.Random(record.seed))
    try:
        state = rules.new_state(record.players, json.loads(json.dumps(deal)), check)
    except (IllegalAction, DataError) as exc:
        outcome.problem = f"line {record.deal_line}: the deal is not possible: {record.speak(exc.message)}"
        return outcome
    except (KeyError, IndexError, TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise DataError(f"the deal does not fit {record.game} ({exc.__class__.__name__}: {_short(str(exc), 80)})",
                        Location(record.where.file, record.deal_line)) from None
    outcome.state = state
    for number, (text, line) in enumerate(zip(record.actions, record.action_lines, strict=True), 1):
        prefix = f"line {line}: action {number} ({text!r})" if record.one_line else f"line {line}"
        if state.is_terminal():
            outcome.problem = f"{prefix}: the game is already over"
            return outcome
        try:
            action = state.string_to_action(text)  # engines parse; a hostile text is still only a string
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


def unfinished(outcome: Replay) -> str | None:
    """Where a legal replay stops short of the end of the game (a truncated log), or None."""
    if not outcome.legal or outcome.finished or outcome.state is None:
        return None
    record = outcome.record
    line = record.action_lines[-1] if record.action_lines else record.deal_line
    to_act = outcome.state.current_player()
    return (f"line {line}: unfinished game: the log ends here, after {outcome.actions} actions, but the game is "
            f"not over ({record.seat(to_act)} to act); the game was stopped early or the log is truncated")
