"""Everything the Counterattack engine reads from the YAML, gathered once per `Rules`.

Cards are small integers: main card `i` is `game.deck("main")[i]`, exposed
port `e` is `game.deck("exposed-port")[e]`, port `p` is `game.deck("port")[p]`.
So the engine plays with exactly the cards that get printed.

The exposed port stack, read literally from the rule text: at setup its top
card is turned face up and its suit is trump. Each flip turns up the next card,
whose suit becomes trump. Turning up the last card empties the stack: from
then on there is no trump and no flip, for the rest of the game. With four
exposed port cards a game sees at most three flips, and at most three trump
suits (the first, then two more).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine.playable import Needs, Playable, Span
from generator.errors import DataError
from generator.model import Game

MAIN, EXPOSED, PORT = "main", "exposed-port", "port"
NO_TRUMP = -1


def _deck_fits(game: Game) -> tuple[str, str] | None:
    """Every hand of a pass deals you and the pirate a full hand; the cards left are the ones set aside."""
    size, hands, aside = (game.rule(p, int) for p in ("hand_size", "hands_per_pass", "set_aside_after_aft"))
    cards = len(game.deck(MAIN))
    if 2 * size * hands + aside == cards:
        return None
    return (f"such that 2 x hand_size x hands_per_pass + set_aside_after_aft = {cards}, the main deck's cards",
            f"2 x {size} x {hands} + {aside} = {2 * size * hands + aside}")


def _same(path: str, other: str, times: int = 1) -> Needs:
    """`path` times `times` equals `other`'s value."""
    def rule(game: Game) -> tuple[str, str] | None:
        value, wanted = game.rule(path, int), game.rule(other, int)
        if value * times == wanted:
            return None
        shown = f"{other} ({wanted})" if times == 1 else f"{other} / {times} ({wanted} / {times})"
        return shown + ("" if wanted % times == 0 else ", which is not whole"), str(value)
    return Needs(path, rule)


# The values this engine plays (`generator.engine.playable`): refused at their line before any game starts.
PLAYABLE: tuple[Playable, ...] = (
    Span("hand_size", 1, 50, "cards dealt to you and to the pirate"),
    Span("hands_per_pass", 1, 10, "hands dealt from one shuffle"),
    Span("set_aside_after_aft", 0, 200),
    Span("tricks_per_hand", 1, 50),
    Span("ports_to_win", 1, 50, "one port a hand; a longer game is not one a player sits through"),
    Span("two_player.cards_each", 1, 25),
    Span("exposed_stack.flips", 0, 20),
    Needs("hand_size", _deck_fits),
    _same("tricks_per_hand", "hand_size"),  # every card of a hand is played, one a trick
    _same("two_player.cards_each", "hand_size", 2),  # the co-captains split the hand evenly
)


@dataclass(frozen=True)
class CounterattackConfig:
    """Suit and rank of every main card, the exposed ports' suits, the ports' numbers, and the rule numbers."""

    suit_names: tuple[str, ...]
    card_suit: tuple[int, ...]       # main card -> suit index
    card_rank: tuple[int, ...]       # main card -> rank
    card_names: tuple[str, ...]      # main card -> "7 anchors"
    exposed_suit: tuple[int, ...]    # exposed port card -> suit index
    port_tricks: tuple[int, ...]     # port card -> its big number
    port_names: tuple[str, ...]
    hand_size: int
    hands_per_pass: int
    set_aside: int
    tricks_per_hand: int
    ports_to_win: int
    cards_each_2p: int
    alternate_first: bool            # co-captains: does the first player of a hand alternate?
    flips: int                       # flips a whole game allows (the last one empties the stack)

    @property
    def passes(self) -> int:
        """Deck passes a won game needs: one port per hand, `hands_per_pass` hands per shuffle."""
        return -(-self.ports_to_win // self.hands_per_pass)

    def trump_at(self, exposed: list[int], pos: int) -> int:
        """The trump suit while card `exposed[pos]` is the last one turned up; NO_TRUMP once the stack is empty."""
        return self.exposed_suit[exposed[pos]] if pos < len(exposed) - 1 else NO_TRUMP

    @staticmethod
    def can_flip(exposed: list[int], pos: int) -> bool:
        """Is a card left face down in the exposed port stack?"""
        return pos < len(exposed) - 1

    def cut(self, deck: list[int], hand_in_pass: int) -> tuple[list[int], list[int], list[int]]:
        """One hand from a pass's shuffled deck: (your cards, the pirate's pile, cards set aside unseen).

        Cards are dealt from the front; the set-aside cards are what is left after the pass's last hand.
        """
        size = self.hand_size
        start = hand_in_pass * 2 * size
        mine = deck[start:start + size]
        pirate = deck[start + size:start + 2 * size]
        rest = deck[start + 2 * size:] if hand_in_pass == self.hands_per_pass - 1 else []
        return mine, pirate, rest


def load_config(game: Game) -> CounterattackConfig:
    main = game.deck(MAIN)
    suit_spec = game.component(MAIN).field_spec("suit")
    if suit_spec is None or not suit_spec.values:
        raise DataError("component 'main' needs an enum field 'suit'", game.component(MAIN).location)
    suit_names = tuple(str(v) for v in suit_spec.values)
    exposed = game.deck(EXPOSED)
    for item in exposed:
        if item["suit"] not in suit_names:
            raise DataError(
                f"exposed port {item.id!r} has suit {item['suit']!r}, which no main card has "
                f"(main suits: {', '.join(suit_names)})",
                item.location,
            )
    ports = game.deck(PORT)
    return CounterattackConfig(
        suit_names=suit_names,
        card_suit=tuple(suit_names.index(i["suit"]) for i in main),
        card_rank=tuple(int(i["rank"]) for i in main),
        card_names=tuple(f"{i['rank']} {i['suit']}" for i in main),
        exposed_suit=tuple(suit_names.index(i["suit"]) for i in exposed),
        port_tricks=tuple(int(i["tricks"]) for i in ports),
        port_names=tuple(str(i.get("name") or i.id) for i in ports),
        hand_size=game.rule("hand_size", int),
        hands_per_pass=game.rule("hands_per_pass", int),
        set_aside=game.rule("set_aside_after_aft", int),
        tricks_per_hand=game.rule("tricks_per_hand", int),
        ports_to_win=game.rule("ports_to_win", int),
        cards_each_2p=game.rule("two_player.cards_each", int),
        alternate_first=game.rule("two_player.turn_order.alternate_first", bool),
        flips=game.rule("exposed_stack.flips", int),
    )
