"""Everything the All Hands on Deck engine reads from the YAML, gathered once per `Rules`.

Kinds are small integers: the crew kinds first (in `rules.crew_kinds` order),
then the captains. Cards are indices into the full 90-card deck in its stable
YAML order, so a deal is a list of small integers whatever the player count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.engine.playable import Needs, Playable, Span
from generator.errors import DataError
from generator.model import Game

PIRATE = "pirate"
SHAPES = ("pair", "set", "street", "full-crew", "captain-pair")
ACTIONS = ("snatch", "extra-stock", "curse", "mend", "open")
# a pair whose action is `none` is off the score sheet: in the published shape a pair scores only with its
# action, and switching a pair off (`--set combinations.ID.action=none`) replays games from before it
NO_ACTION = "none"

def _deals_fit(game: Game) -> tuple[str, str] | None:
    """Each player's cards come from the pirates in play at that player count."""
    deal = game.rule("deal", Mapping)
    for players in game.player_range:
        each, cards = deal.get(players), len(game.deck(PIRATE, players))
        if isinstance(each, int) and each * players > cards:
            return (f"such that {players} players x deal.{players} <= {cards}, the pirate cards in play",
                    f"{players} x {each} = {players * each}")
    return None


# The values this engine plays (`generator.engine.playable`): refused at their line before any game starts.
PLAYABLE: tuple[Playable, ...] = (
    Span("deal.*", 1, 100, "cards dealt to each player"),
    Span("stock_cards", 1, 10, "cards drawn into the stock each round"),
    Span("extra_stock_cards", 0, 10),
    Span("keep_per_round", 1, 1, "the engine adds one card to the crew a round"),
    Span("captain_penalty.*", -100, 100),
    Span("curse_points", -100, 100),
    Span("combinations.table.*.points", -100, 100),
    Span("combinations.table.*.size", 1, 12, "cards in a set, street or full crew"),
    Needs("deal", _deals_fit),
)


@dataclass(frozen=True)
class Combination:
    """One row of the score sheet's combination table."""

    index: int
    id: str
    label: str
    shape: str
    points: int
    kind: int | None = None  # pairs: the crew kind
    size: int = 0  # sets: equal cards; streets/full crews: different crew kinds
    action: str | None = None
    path: str = ""  # rules path, for error locations


@dataclass(frozen=True)
class AhodConfig:
    kinds: tuple[str, ...]
    labels: tuple[str, ...]
    crew: int  # kinds 0..crew-1 are crew, crew..len(kinds)-1 captains
    card_kind: tuple[int, ...]  # every card of the box, by YAML order
    deal: Mapping[int, int]
    stock_cards: int
    extra_stock_cards: int
    captain_penalty: tuple[int, ...]  # per kind; 0 for crew
    combinations: tuple[Combination, ...]  # the rows in play (switched-off pairs left out)
    curse_points: int

    @property
    def actions(self) -> tuple[str, ...]:
        """The in-game actions some combination in play gives, in `ACTIONS` order."""
        given = {c.action for c in self.combinations}
        return tuple(a for a in ACTIONS if a in given)

    @property
    def captains(self) -> range:
        return range(self.crew, len(self.kinds))

    def is_captain(self, kind: int) -> bool:
        return kind >= self.crew


def _kind_list(game: Game, path: str) -> list[str]:
    values = game.rule(path, tuple)
    if not values or not all(isinstance(v, str) for v in values):
        raise DataError(f"rules: '{path}' must be a list of pirate kinds", game.rule_location(path))
    return list(values)


def load_config(game: Game) -> AhodConfig:
    """Read and cross-check the rules: every kind named in `rules` must be a pirate card kind."""
    crew = _kind_list(game, "crew_kinds")
    captains = _kind_list(game, "captain_kinds")
    kinds = crew + captains
    index = {k: i for i, k in enumerate(kinds)}
    cards = game.deck(PIRATE)
    card_kind = []
    labels = {k: k for k in kinds}
    for item in cards:
        kind = item["kind"]
        if kind not in index:
            raise DataError(f"pirate '{item.id}' has kind {kind!r}, not in rules crew_kinds/captain_kinds",
                            item.location)
        if bool(item.get("captain")) != (kind in captains):
            raise DataError(
                f"pirate '{item.id}' must have captain: {str(kind in captains).lower()} (its kind is "
                f"{'a captain' if kind in captains else 'crew'} in rules)", item.location,
            )
        labels[kind] = item.get("name") or kind
        card_kind.append(index[kind])
    deal_raw = game.rule("deal", Mapping)
    deal = {}
    for players in game.player_range:
        if players not in deal_raw or not isinstance(deal_raw[players], int):
            raise DataError(f"rules: deal needs a card count for {players} players", game.rule_location("deal"))
        deal[players] = deal_raw[players]
    penalties = [0] * len(kinds)
    game.rule("captain_penalty", Mapping)
    for captain in captains:
        penalties[index[captain]] = game.rule(f"captain_penalty.{captain}", int)
    if game.rule("start_player.race", str) != "uniform":
        raise DataError("rules: start_player.race must be 'uniform' (each race for the start player card is won "
                        "by any player with equal chance; the engine plays it so)",
                        game.rule_location("start_player.race"))
    if game.rule("keep_per_round", int) != 1:
        raise DataError("rules: keep_per_round must be 1 (the rule sheet adds one card to the crew each round; "
                        "the engine plays it so)", game.rule_location("keep_per_round"))
    combos = []
    for i, raw in enumerate(game.rule("combinations.table", tuple)):
        combo = _combination(game, i, raw, index, len(crew))
        if combo.action != NO_ACTION:
            combos.append(combo)
    return AhodConfig(
        kinds=tuple(kinds),
        labels=tuple(labels[k] for k in kinds),
        crew=len(crew),
        card_kind=tuple(card_kind),
        deal=deal,
        stock_cards=game.rule("stock_cards", int),
        extra_stock_cards=game.rule("extra_stock_cards", int),
        captain_penalty=tuple(penalties),
        combinations=tuple(combos),
        curse_points=game.rule("curse_points", int),
    )


def _combination(game: Game, i: int, raw: Any, index: Mapping[str, int], crew: int) -> Combination:
    path = f"combinations.table.{i}"
    where = game.rule_location(path)
    if not isinstance(raw, Mapping):
        raise DataError("a combination must be a mapping with id, shape and points", where)
    shape = game.rule(f"{path}.shape", str)
    if shape not in SHAPES:
        raise DataError(f"combination shape {shape!r} is not one the engine knows ({', '.join(SHAPES)})", where)
    kind = None
    if shape == "pair":
        name = game.rule(f"{path}.kind", str)
        if name not in index or index[name] >= crew:
            raise DataError(f"pair kind {name!r} must be a crew kind", game.rule_location(f"{path}.kind"))
        kind = index[name]
    size = game.rule(f"{path}.size", int) if shape in ("set", "street", "full-crew") else 2
    if shape in ("street", "full-crew") and not 1 <= size <= crew:
        raise DataError(f"a {shape} needs 1..{crew} different crew kinds, got {size}", where)
    action = raw.get("action")
    if action is not None and action not in (*ACTIONS, NO_ACTION):
        raise DataError(f"action {action!r} is not one the engine knows ({', '.join(ACTIONS)}, or {NO_ACTION} "
                        "to leave a pair off the score sheet)", game.rule_location(f"{path}.action"))
    if action == NO_ACTION and shape != "pair":
        raise DataError(f"action {NO_ACTION!r} switches off a pair; a {shape} has no action to switch off "
                        "(leave 'action' out)", game.rule_location(f"{path}.action"))
    return Combination(
        index=i, id=game.rule(f"{path}.id", str), label=str(raw.get("label", "")), shape=shape,
        points=game.rule(f"{path}.points", int), kind=kind, size=size, action=action, path=path,
    )
