"""Everything the Pirates Under Fire engine reads from the YAML, gathered once per `Rules`.

The two seas are laid edge to edge into one grid of `2 * rows` x `columns`
spaces: seat 0's home row is grid row 0, seat 1's home row is the last grid
row, and the two last rows meet in the middle. The boards face each other, so
seat 1's column A lies opposite seat 0's column E. A space is named from its
owner's side: "red B2" is column B, row 2 counted from the red player's edge.

Effects are written `kind` or `kind:n`, joined with `+` ("gold:2+vp:1").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.playable import Needs, Playable, Span
from generator.errors import DataError, Location
from generator.model import Game

SHIP, MERCENARY, BOARD = "ship", "mercenary", "sea-board"


def _fleets_last(game: Game) -> tuple[str, str] | None:
    """Each captain draws one tile after every turn: a fleet lasts its tiles less the hand, plus the last turn."""
    hand, turns = game.rule("hand_size", int), game.rule("turns", int)
    tiles: dict[str, int] = {}
    for item in game.deck(SHIP):
        tiles[str(item["fleet"])] = tiles.get(str(item["fleet"]), 0) + 1
    for fleet, count in sorted(tiles.items()):
        if count < hand:
            return f"at most the {count} tiles of the {fleet} fleet", str(hand)
        if turns != count - hand + 1:
            return (f"the turns the {fleet} fleet lasts: {count} tiles - hand_size {hand} + 1 = {count - hand + 1}",
                    str(turns))
    return None


def _gold(game: Game) -> tuple[str, str] | None:
    """`starting_gold` written as a plain number (rather than `value:`) is a count of gold too."""
    start = game.rule("starting_gold")
    if isinstance(start, Mapping) or (isinstance(start, int) and not isinstance(start, bool) and 0 <= start <= 100):
        return None
    return "0..100", repr(start)[:40]


# The values this engine plays (`generator.engine.playable`): refused at their line before any game starts.
PLAYABLE: tuple[Playable, ...] = (
    Span("hand_size", 1, 20, "tiles in hand at the start"),
    Span("turns", 1, 100),
    Span("starting_gold.value", 0, 100),
    Span("starting_gold.second_player", 0, 100),
    Span("scoring.sets.*", 0, 1000),
    Span("scoring.runs.*", 0, 1000),
    Span("scoring.ship_on_rival_sea", 0, 100),
    Needs("starting_gold", _gold),
    Needs("turns", _fleets_last),
)

# Effect kinds the engine knows. `reads`: depends on which ships burn; `writes`: changes it.
KINDS = ("none", "gold", "vp", "steal", "trade", "bounty", "ignite", "broadside", "repair", "salvage", "ram")
READS_FIRE = frozenset({"trade", "bounty", "ignite", "broadside"})
WRITES_FIRE = frozenset({"ignite", "broadside", "repair", "salvage"})

Effect = tuple[tuple[str, int], ...]


def parse_effect(text: str, where: Location) -> Effect:
    """'gold:2+vp:1' -> (('gold', 2), ('vp', 1)); unknown kinds are a DataError at `where`."""
    parts = []
    for piece in str(text).split("+"):
        kind, _, amount = piece.strip().partition(":")
        if kind not in KINDS:
            raise DataError(f"effect {piece.strip()!r} is not one the engine knows ({', '.join(KINDS)})", where)
        if amount and not amount.isdigit():
            raise DataError(f"effect {piece.strip()!r}: the amount after ':' must be a whole number", where)
        if kind != "none":
            parts.append((kind, int(amount) if amount else 1))
    return tuple(parts)


def order_matters(first: Effect, second: Effect) -> bool:
    """True when applying the two effects in the other order can change the outcome."""
    a = {k for k, _ in first}
    b = {k for k, _ in second}
    return bool((a & WRITES_FIRE and b & READS_FIRE) or (b & WRITES_FIRE and a & READS_FIRE))


@dataclass(frozen=True)
class UnderFireConfig:
    fleets: tuple[str, ...]  # seat order
    rows: int  # per sea
    columns: int
    sea: tuple[tuple[Effect, ...], ...]  # per seat: effect per (row, column) from its owner's view
    sea_keys: tuple[tuple[str, ...], ...]
    ship_fleet: tuple[int, ...]  # per tile: seat
    ship_number: tuple[int, ...]
    ship_ability: tuple[Effect, ...]
    min_number: int  # the printed range of ship numbers (the `number` field's min and max)
    max_number: int
    merc_names: tuple[str, ...]
    merc_cost: tuple[int, ...]
    merc_effect: tuple[Effect, ...]
    merc_vp: tuple[int, ...]
    hand_size: int
    turns: int
    starting_gold: int
    second_player_gold: int  # more gold for the captain who plays second, against the first move's edge
    sets: Mapping[int, int]
    runs: Mapping[int, int]
    rival_sea_vp: int


def _second_player_gold(game: Game, start: object) -> int:
    """`starting_gold.second_player`: extra gold for whoever plays second (0 when absent)."""
    if not isinstance(start, Mapping) or "second_player" not in start:
        return 0
    extra = game.rule("starting_gold.second_player", int)
    if extra < 0:
        raise DataError(f"rules: starting_gold.second_player must be 0 or more, got {extra}",
                        game.rule_location("starting_gold.second_player"))
    return int(extra)


def _table(game: Game, path: str) -> dict[int, int]:
    raw = game.rule(path, Mapping)
    table = {}
    for length, vp in raw.items():
        if not isinstance(length, int) or not isinstance(vp, int) or length < 2:
            raise DataError(f"rules: '{path}' maps a line length (>= 2) to VP, got {length!r}: {vp!r}",
                            game.rule_location(path))
        table[length] = vp
    return table


def load_config(game: Game) -> UnderFireConfig:
    ships = game.component(SHIP)
    fleet_spec = ships.field_spec("fleet")
    fleets = tuple(fleet_spec.values or ()) if fleet_spec else ()
    if len(fleets) != 2:
        raise DataError("ship tiles need a 'fleet' enum with exactly two fleets", ships.location)
    boards = {item["fleet"]: item for item in game.component(BOARD).items}
    sea, keys = [], []
    for fleet in fleets:
        if fleet not in boards:
            raise DataError(f"no sea board for fleet {fleet!r}", game.component(BOARD).location)
        board = boards[fleet]
        rows = [str(r).split() for r in board["rows"]]
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise DataError(f"sea board {board.id}: every row must have the same number of spaces", board.location)
        keys.append(tuple(k for row in rows for k in row))
        sea.append(tuple(parse_effect(k, board.location) for row in rows for k in row))
        shape = (len(rows), len(rows[0]))
        if fleet == fleets[0]:
            first_shape = shape
        elif shape != first_shape:
            raise DataError(f"sea board {board.id} is {shape[0]}x{shape[1]}, the other is "
                            f"{first_shape[0]}x{first_shape[1]}: both seas must match", board.location)
    fleet_of, number, ability = [], [], []
    for item in game.deck(SHIP):
        fleet_of.append(fleets.index(item["fleet"]))
        number.append(item["number"])
        ability.append(parse_effect(item["ability"], item.location))
    spec = ships.field_spec("number")
    lowest = int(spec.min) if spec and spec.min is not None else min(number)
    highest = int(spec.max) if spec and spec.max is not None else max(number)
    mercs = game.deck(MERCENARY)
    if game.rule("tie_break", str) != "gold":
        raise DataError("rules: tie_break must be 'gold' (the rule text breaks ties by the most gold)",
                        game.rule_location("tie_break"))
    start = game.rule("starting_gold", (int, Mapping))
    return UnderFireConfig(
        fleets=fleets,
        rows=first_shape[0],
        columns=first_shape[1],
        sea=tuple(sea),
        sea_keys=tuple(keys),
        ship_fleet=tuple(fleet_of),
        ship_number=tuple(number),
        ship_ability=tuple(ability),
        min_number=lowest,
        max_number=highest,
        merc_names=tuple(m.id for m in mercs),
        merc_cost=tuple(m["cost"] for m in mercs),
        merc_effect=tuple(parse_effect(m["effect"], m.location) for m in mercs),
        merc_vp=tuple(m.get("vp") or 0 for m in mercs),
        hand_size=game.rule("hand_size", int),
        turns=game.rule("turns", int),
        starting_gold=game.rule("starting_gold.value", int) if isinstance(start, Mapping) else start,
        second_player_gold=_second_player_gold(game, start),
        sets=_table(game, "scoring.sets"),
        runs=_table(game, "scoring.runs"),
        rival_sea_vp=game.rule("scoring.ship_on_rival_sea", int),
    )
