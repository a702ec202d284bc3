"""Pirate Tricks (seed 003): bid for crew rows, score recruitment, take tricks for capture and treasure loon."""

from generator.engine.base import RandomBot
from generator.engine.games.pirate_tricks.bots import HeuristicBot
from generator.engine.games.pirate_tricks.checks import composition_checks
from generator.engine.games.pirate_tricks.rules import PirateTricksRules
from generator.engine.search import SearchBot

RULES = PirateTricksRules
# search guided by the heuristic bot: its choice as a prior, and it plays the play-outs
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=50)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH}

__all__ = ["BOTS", "RULES", "composition_checks"]
