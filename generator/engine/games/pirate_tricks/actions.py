"""The fixed action space of Pirate Tricks: small integers with readable names.

    play card c             c                       ("play 14 red")
    tie card c              tie + c                 ("tie card 12 green")
    ditch card c            ditch + c               ("ditch 7 blue")
    predict k tricks        predict + k             ("predict 4")
    give row to seat k      choose + k              ("give row to seat 2")
    bid k loon              bid + k, k <= max_bid   ("bid 3")

Plain attributes rather than properties: the offsets are read on every move.
"""

from __future__ import annotations

from generator.engine.base import NamedActions
from generator.engine.games.pirate_tricks.config import PirateTricksConfig

MAX_BID = 999   # far above any purse a game can build; bids are capped by the bidder's loon anyway


class ActionSpace(NamedActions):
    __slots__ = ("bid", "cards", "choose", "ditch", "max_bid", "max_players", "max_prediction", "predict", "tie")

    def __init__(self, config: PirateTricksConfig, max_players: int, max_bid: int = MAX_BID) -> None:
        cards = len(config.card_names)
        self.cards = cards
        self.max_players = max_players
        self.max_prediction = config.prediction_max
        self.max_bid = max_bid
        self.tie = cards
        self.ditch = 2 * cards
        self.predict = 3 * cards
        self.choose = self.predict + self.max_prediction + 1
        self.bid = self.choose + max_players
        self.size = self.bid + max_bid + 1
        names = [f"play {name}" for name in config.card_names]
        names += [f"tie card {name}" for name in config.card_names]
        names += [f"ditch {name}" for name in config.card_names]
        names += [f"predict {k}" for k in range(self.max_prediction + 1)]
        names += [f"give row to seat {k + 1}" for k in range(max_players)]  # seats as people count them
        names += [f"bid {k}" for k in range(max_bid + 1)]
        self.set_names(names, "'play 14 red', 'bid 3', 'tie card 12 green', 'ditch 7 blue', 'predict 4' "
                              "or 'give row to seat 2'")
