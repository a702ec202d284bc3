"""The fixed action space of All Hands on Deck: small integers with readable names.

    draw from pile 2          a stock card, unseen, from seat 2's drawing pile
    draw two from pile 0      the Crow's Nest extra stock cards, at once
    keep cook                 hire a cook from your stock; the rest go back on your pile
    lay out street without navigator
    done                      stop laying out this round
    snatch from seat 1        Boarding Party: the top card of seat 1's crew pile
    curse seat 1              Broadside: seat 1 takes a curse card
    skip                      forfeit an in-game action

Ship's Repairs (mend) and Set the Course (open) ask nothing: laying out the
pair is the whole move, so they add no action here.
"""

from __future__ import annotations

from generator.engine.base import NamedActions
from generator.engine.games.all_hands.combos import Option
from generator.engine.games.all_hands.config import AhodConfig


class ActionSpace(NamedActions):
    """Offsets of each action family and the two-way name table."""

    def __init__(self, config: AhodConfig, options: tuple[Option, ...], max_players: int) -> None:
        self.max_players = max_players
        self.draw = 0  # the state's hot path relies on draw actions being the pile numbers
        self.extra = max_players
        self.keep = 2 * max_players
        self.layout = self.keep + len(config.kinds)
        self.done = self.layout + len(options)
        self.snatch = self.done + 1
        self.curse = self.snatch + max_players
        self.skip = self.curse + max_players
        self.size = self.skip + 1
        names = [f"draw from pile {p}" for p in range(max_players)]
        names += [f"draw two from pile {p}" for p in range(max_players)]
        names += [f"keep {k}" for k in config.kinds]
        names += [f"lay out {o.text}" for o in options]
        names.append("done")
        names += [f"snatch from seat {p + 1}" for p in range(max_players)]  # seats as people count them
        names += [f"curse seat {p + 1}" for p in range(max_players)]
        names.append("skip")
        self.set_names(names, "'draw from pile 0', 'keep cook', 'lay out street without cook', 'done', "
                              "'snatch from seat 1', 'curse seat 1' or 'skip'")
