"""Everything the Pirate Tricks engine reads from the YAML (cards and rule numbers), gathered once per `Rules`.

Crew card `i` is `game.deck("crew")[i]` (all 60, before player-count removals);
`in_play[players]` lists the cards left in at each player count. Colours are
indexed in the data's tie-break order (`rules.colour_order`: red, green, blue),
so colour 0 beats 1 beats 2 on equal numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from generator.engine.games.pirate_tricks.scoring import recruitment_spec
from generator.engine.playable import Needs, Playable, Span
from generator.errors import DataError, Location
from generator.model import Game, Item

CREW = "crew"


def _all_dealt(game: Game) -> tuple[str, str, Location] | None:
    """At every player count each player gets a hand and a row, and every crew card in play is dealt."""
    each = sum(game.rule(p, int) for p in ("hand_size", "row.face_up", "row.face_down"))
    for players in game.player_range:
        cards = len(game.deck(CREW, players))
        if each * players != cards:
            variant = game.player_counts.get(players)
            where = variant.location if variant is not None and variant.remove else game.rule_location("hand_size")
            return (f"such that {players} x (hand_size + row.face_up + row.face_down) = {cards}, the crew cards "
                    f"in play with {players} players", f"{players} x {each} = {each * players}", where)
    return None


def _tricks(game: Game) -> tuple[str, str] | None:
    """A hand and a row, less the ditch, is one card for each trick."""
    hand, up, down, ditch = (game.rule(p, int) for p in ("hand_size", "row.face_up", "row.face_down", "ditch"))
    tricks = game.rule("tricks", int)
    if tricks == hand + up + down - ditch:
        return None
    return (f"hand_size + row.face_up + row.face_down - ditch ({hand} + {up} + {down} - {ditch})", str(tricks))


def _track(game: Game) -> tuple[str, str] | None:
    low, high = game.rule("prediction_track.min", int), game.rule("prediction_track.max", int)
    return None if low <= high else (f"at most prediction_track.max ({high})", str(low))


def _score_decks_last(game: Game) -> tuple[str, str] | None:
    """Each score deck deals its cards every round of the longest game the rules allow."""
    rounds = max([game.rule("rounds", int), *(int(r) for r in game.rule("round_options", (list, tuple)))])
    for name, each in game.rule("score_cards_per_round", Mapping).items():
        cards = len(game.deck(str(name))) if game.has_component(str(name)) else 0
        if int(each) * rounds > cards:
            return (f"such that {rounds} rounds x score_cards_per_round.{name} <= {cards}, the {name} cards",
                    f"{rounds} x {each} = {rounds * int(each)}")
    return None


# The values this engine plays (`generator.engine.playable`): refused at their line before any game starts.
PLAYABLE: tuple[Playable, ...] = (
    Span("hand_size", 1, 30, "crew cards dealt to each hand"),
    Span("row.face_up", 0, 20),
    Span("row.face_down", 0, 20),
    Span("rows_per_player", 1, 1, "the engine deals one row per player"),
    Span("max_bids_per_row", 1, 10),
    Span("zero_tie_loon", 0, 100),
    Span("start_loon.coins.*.value", 1, 100),
    Span("start_loon.coins.*.count", 0, 100),
    Span("start_loon.total", 0, 10000),
    Span("top_up", 0, 100),
    Span("rounds", 1, 10),
    Span("round_options.*", 1, 10),
    Span("tricks", 1, 50),
    Span("ditch", 0, 20),
    Span("score_cards_per_round.*", 0, 10),
    Span("prediction_track.min", 0, 50),
    Span("prediction_track.max", 0, 50),
    Needs("hand_size", _all_dealt),
    Needs("tricks", _tricks),
    Needs("prediction_track.min", _track),
    Needs("score_cards_per_round", _score_decks_last),
)


@dataclass(frozen=True)
class PirateTricksConfig:
    colours: tuple[str, ...]            # tie-break order, strongest first
    trump: int                          # colour index of the trump suit
    card_colour: tuple[int, ...]
    card_rank: tuple[int, ...]
    max_rank: int                       # the highest crew number printed (the bots scale their play to it)
    card_names: tuple[str, ...]         # "14 red"
    card_key: tuple[int, ...]           # higher wins a tie: number first, then colour order
    in_play: Mapping[int, tuple[int, ...]]
    recruitment: tuple[Item, ...]
    capture: tuple[Item, ...]
    treasure: tuple[Item, ...]
    recruitment_specs: tuple[tuple[str, int, int, int, int], ...]
    recruitment_payouts: tuple[int, ...]
    hand_size: int
    row_up: int
    row_down: int
    max_bids_per_row: int
    zero_tie_loon: int
    start_loon: int
    top_up: int
    rounds: int
    round_options: tuple[int, ...]
    tricks: int
    ditch: int
    per_round: Mapping[str, int]
    prediction_min: int
    prediction_max: int
    rows_per_player: int
    tie_winner_pays: bool
    net_settlement: bool

    @property
    def row_size(self) -> int:
        return self.row_up + self.row_down


def load_config(game: Game) -> PirateTricksConfig:
    colours = tuple(str(c) for c in game.rule("colour_order", (list, tuple)))
    trump_name = game.rule("trump", str)
    if trump_name not in colours:
        raise DataError(f"rules: trump {trump_name!r} must be one of colour_order {list(colours)}",
                        game.rule_location("trump"))
    crew = game.deck(CREW)
    for item in crew:
        if item["suit"] not in colours:
            raise DataError(f"crew card {item.id!r} has colour {item['suit']!r}, missing from rules.colour_order",
                            item.location)
    index = {item.id: i for i, item in enumerate(crew)}
    colour = tuple(colours.index(i["suit"]) for i in crew)
    rank = tuple(int(i["rank"]) for i in crew)
    in_play = {p: tuple(index[i.id] for i in game.deck(CREW, p)) for p in game.player_range}
    start = game.rule("start_loon.coins", (list, tuple))
    start_total = sum(int(c["value"]) * int(c["count"]) for c in start)
    per_round: dict[str, Any] = dict(game.rule("score_cards_per_round", Mapping))
    recruitment = tuple(game.deck("recruitment"))
    config = PirateTricksConfig(
        colours=colours,
        trump=colours.index(trump_name),
        card_colour=colour,
        card_rank=rank,
        max_rank=max(rank),
        card_names=tuple(f"{r} {colours[c]}" for r, c in zip(rank, colour, strict=True)),
        card_key=tuple(r * len(colours) + (len(colours) - 1 - c) for r, c in zip(rank, colour, strict=True)),
        in_play=in_play,
        recruitment=recruitment,
        recruitment_specs=(),
        recruitment_payouts=tuple(int(i["payout"]) for i in recruitment),
        capture=tuple(game.deck("capture")),
        treasure=tuple(game.deck("treasure")),
        hand_size=game.rule("hand_size", int),
        row_up=game.rule("row.face_up", int),
        row_down=game.rule("row.face_down", int),
        max_bids_per_row=game.rule("max_bids_per_row", int),
        zero_tie_loon=game.rule("zero_tie_loon", int),
        start_loon=start_total,
        top_up=game.rule("top_up", int),
        rounds=game.rule("rounds", int),
        round_options=tuple(int(r) for r in game.rule("round_options", (list, tuple))),
        tricks=game.rule("tricks", int),
        ditch=game.rule("ditch", int),
        per_round={k: int(v) for k, v in per_round.items()},
        prediction_min=game.rule("prediction_track.min", int),
        prediction_max=game.rule("prediction_track.max", int),
        rows_per_player=game.rule("rows_per_player", int),
        tie_winner_pays=game.rule("second_pass.tie_winner_pays", bool),
        net_settlement=game.rule("settlement.net", bool),
    )
    return replace(config, recruitment_specs=tuple(recruitment_spec(config, i) for i in recruitment))
