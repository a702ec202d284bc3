"""Pirate Tricks (seed 003): bid for crew rows, score recruitment, take tricks for capture and treasure loon."""

from generator.engine.base import RandomBot
from generator.engine.games.pirate_tricks.bots import HeuristicBot, TrickSearchBot
from generator.engine.games.pirate_tricks.checks import composition_checks
from generator.engine.games.pirate_tricks.rules import PirateTricksRules

RULES = PirateTricksRules
# perfect-information Monte Carlo in the tricks, the heuristic elsewhere (bots.TrickSearchBot)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": TrickSearchBot}

__all__ = ["BOTS", "RULES", "composition_checks"]
