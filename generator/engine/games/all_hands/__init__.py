"""All Hands on Deck (seed 004): hire one pirate a round and lay out crews that score."""

from generator.engine.base import RandomBot
from generator.engine.games.all_hands.bots import SEARCH, HeuristicBot
from generator.engine.games.all_hands.checks import composition_checks
from generator.engine.games.all_hands.rules import AllHandsRules

RULES = AllHandsRules
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH}

__all__ = ["BOTS", "RULES", "composition_checks"]
