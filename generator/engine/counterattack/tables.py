"""The printed Counterattack cards turned into small-integer tables the engine plays with.

Built once per `Rules` from the YAML `Game`, so the engine plays with exactly
the cards that get printed: card `i` of the main deck is `game.deck("main")[i]`.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.errors import DataError
from generator.model import Game


@dataclass(frozen=True)
class Tables:
    """Suit and rank of every main card, the exposed ports' suits, the ports' numbers, and the rule numbers."""

    suit_names: tuple[str, ...]
    card_suit: tuple[int, ...]       # main card -> suit index
    card_rank: tuple[int, ...]       # main card -> rank
    card_names: tuple[str, ...]      # main card -> "7 anchors"
    exposed_suit: tuple[int, ...]    # exposed port card -> suit index
    exposed_names: tuple[str, ...]
    port_tricks: tuple[int, ...]     # port card -> its big number
    port_names: tuple[str, ...]
    hand_size: int
    hands_per_pass: int
    set_aside: int
    tricks_per_hand: int
    ports_to_win: int
    cards_each_2p: int
    alternate_first: bool            # co-captains: does the first player of a hand alternate?
    flips_before_no_trump: int

    @property
    def passes(self) -> int:
        """Deck passes a won game needs: one port per hand, `hands_per_pass` hands per shuffle."""
        return -(-self.ports_to_win // self.hands_per_pass)


def build_tables(game: Game) -> Tables:
    main = game.deck("main")
    suit_spec = game.component("main").field_spec("suit")
    if suit_spec is None or not suit_spec.values:
        raise DataError("component 'main' needs an enum field 'suit'", game.component("main").location)
    suit_names = tuple(str(v) for v in suit_spec.values)
    exposed = game.deck("exposed-port")
    for item in exposed:
        if item["suit"] not in suit_names:
            raise DataError(
                f"exposed port {item.id!r} has suit {item['suit']!r}, which no main card has "
                f"(main suits: {', '.join(suit_names)})",
                item.location,
            )
    ports = game.deck("port")
    return Tables(
        suit_names=suit_names,
        card_suit=tuple(suit_names.index(i["suit"]) for i in main),
        card_rank=tuple(int(i["rank"]) for i in main),
        card_names=tuple(f"{i['rank']} {i['suit']}" for i in main),
        exposed_suit=tuple(suit_names.index(i["suit"]) for i in exposed),
        exposed_names=tuple(str(i.get("name") or i.id) for i in exposed),
        port_tricks=tuple(int(i["tricks"]) for i in ports),
        port_names=tuple(str(i.get("name") or i.id) for i in ports),
        hand_size=game.rule("hand_size", int),
        hands_per_pass=game.rule("hands_per_pass", int),
        set_aside=game.rule("set_aside_after_aft", int),
        tricks_per_hand=game.rule("tricks_per_hand", int),
        ports_to_win=game.rule("ports_to_win", int),
        cards_each_2p=game.rule("two_player.cards_each", int),
        alternate_first=game.rule("two_player.turn_order.alternate_first", bool),
        flips_before_no_trump=game.rule("exposed_stack.flips_before_no_trump", int),
    )
