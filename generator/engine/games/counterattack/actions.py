"""The fixed action space of Counterattack: small integers with readable names.

    play 7 anchors        card 7 of anchors from your hand (action = the main card's number)
    flip exposed port     turn up the next exposed port card (action = the number of main cards)
"""

from __future__ import annotations

from generator.engine.base import NamedActions
from generator.engine.games.counterattack.config import CounterattackConfig


class ActionSpace(NamedActions):
    def __init__(self, config: CounterattackConfig) -> None:
        self.play = 0  # the state's hot path relies on a card's action being its number
        self.flip = len(config.card_names)
        names = [f"play {name}" for name in config.card_names] + ["flip exposed port"]
        aliases = {name: card for card, name in enumerate(config.card_names)}  # "7 anchors" alone
        aliases.update({"flip": self.flip, "flip port": self.flip})
        self.set_names(names, f"'play {config.card_names[0]}' or 'flip exposed port'", aliases)
