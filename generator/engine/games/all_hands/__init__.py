"""All Hands on Deck (seed 004): hire one pirate a round and lay out crews that score."""

from generator.engine.base import RandomBot
from generator.engine.games.all_hands.bots import HeuristicBot
from generator.engine.games.all_hands.checks import composition_checks
from generator.engine.games.all_hands.rules import AllHandsRules
from generator.engine.search import SearchBot

RULES = AllHandsRules
# search guided by the heuristic bot: sequential halving over its 4 best moves, which it plays out
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=128, candidates=4)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH}

__all__ = ["BOTS", "RULES", "composition_checks"]
