"""The fixed Pirate Tricks action space: every action is one small integer.

    play card c             c                       ("play 14 red")
    tie card c              tie + c                 ("tie card 12 green")
    ditch card c            ditch + c               ("ditch 7 blue")
    predict k tricks        predict + k             ("predict 4")
    give row to seat k      choose + k              ("give row to seat 2")
    bid k loon              bid + k, k <= max_bid   ("bid 3")

Plain attributes rather than properties: they are read on every move.
"""

from __future__ import annotations

MAX_BID = 999   # far above any purse a game can build; bids are capped by the bidder's loon anyway


class Space:
    __slots__ = ("bid", "cards", "choose", "ditch", "max_bid", "max_players", "max_prediction", "predict", "size", "tie")

    def __init__(self, cards: int, max_players: int, max_prediction: int, max_bid: int = MAX_BID) -> None:
        self.cards = cards
        self.max_players = max_players
        self.max_prediction = max_prediction
        self.max_bid = max_bid
        self.tie = cards
        self.ditch = 2 * cards
        self.predict = 3 * cards
        self.choose = self.predict + max_prediction + 1
        self.bid = self.choose + max_players
        self.size = self.bid + max_bid + 1
