"""The fixed action space of Pirates Under Fire: small integers with readable names.

    place 7 at red B2         main action: a ship from hand onto an accessible space
    buy fireship at blue C4   optional action, before or after the main one
    target blue C3            choose where an effect strikes (fire, repair)
    sea effect first          when the two effects' order matters
    ship effect first
    end turn                  skip the optional purchase after the main action
"""

from __future__ import annotations

from generator.engine.base import IllegalAction
from generator.engine.under_fire.board import Geometry
from generator.engine.under_fire.config import UnderFireConfig


class ActionSpace:
    def __init__(self, config: UnderFireConfig, geometry: Geometry) -> None:
        spaces = geometry.spaces
        self.spaces = spaces
        self.place = 0
        self.buy = config.max_number * spaces
        self.target = self.buy + len(config.merc_names) * spaces
        self.sea_first = self.target + spaces
        self.ship_first = self.sea_first + 1
        self.end = self.ship_first + 1
        self.size = self.end + 1
        names = [f"place {n} at {geometry.names[s]}" for n in range(1, config.max_number + 1) for s in range(spaces)]
        names += [f"buy {m} at {geometry.names[s]}" for m in config.merc_names for s in range(spaces)]
        names += [f"target {geometry.names[s]}" for s in range(spaces)]
        names += ["sea effect first", "ship effect first", "end turn"]
        assert len(names) == self.size
        self.names = tuple(names)
        self.ids = {name.lower(): i for i, name in enumerate(names)}

    def to_string(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise IllegalAction(f"action {action} is outside the action space 0..{self.size - 1}")
        return self.names[action]

    def parse(self, text: str) -> int:
        key = " ".join(text.strip().lower().split())
        if key not in self.ids:
            raise IllegalAction(
                f"unreadable action {text!r}: expected e.g. 'place 7 at red B2', 'buy fireship at blue C4', "
                "'target blue C3', 'sea effect first', 'ship effect first' or 'end turn'"
            )
        return self.ids[key]
