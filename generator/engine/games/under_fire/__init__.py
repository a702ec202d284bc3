"""Pirates Under Fire (seed 002): a two-player duel of ship tiles on facing seas."""

from generator.engine.base import RandomBot
from generator.engine.games.under_fire.bots import HeuristicBot
from generator.engine.games.under_fire.checks import composition_checks
from generator.engine.games.under_fire.rules import UnderFireRules
from generator.engine.search import SearchBot

RULES = UnderFireRules
# search guided by the heuristic bot: sequential halving over its 4 best moves, which it plays out
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=48, candidates=4)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH}

__all__ = ["BOTS", "RULES", "composition_checks"]
