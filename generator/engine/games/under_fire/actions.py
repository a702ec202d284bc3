"""The fixed action space of Pirates Under Fire: small integers with readable names.

    place 7 at red B2         main action: a ship from hand onto an accessible space
    buy fireship at blue C4   optional action, before or after the main one
    target blue C3            choose where an effect strikes (fire, repair)
    sea effect first          when the two effects' order matters
    ship effect first
    end turn                  skip the optional purchase after the main action
"""

from __future__ import annotations

from generator.engine.base import NamedActions
from generator.engine.games.under_fire.board import Geometry
from generator.engine.games.under_fire.config import UnderFireConfig


class ActionSpace(NamedActions):
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
        self.set_names(names, "'place 7 at red B2', 'buy fireship at blue C4', 'target blue C3', "
                              "'sea effect first', 'ship effect first' or 'end turn'")
