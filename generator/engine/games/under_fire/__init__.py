"""Pirates Under Fire (seed 002): a two-player duel of ship tiles on facing seas."""

from generator.engine.base import RandomBot
from generator.engine.games.under_fire.bots import SEARCH, HeuristicBot
from generator.engine.games.under_fire.checks import composition_checks
from generator.engine.games.under_fire.rules import UnderFireRules

RULES = UnderFireRules
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH}

__all__ = ["BOTS", "RULES", "composition_checks"]
