"""Pirates Port: Counterattack (seeds 000/001): solo (or co-captain) trick-taking against a dummy pirate."""

from generator.engine.base import RandomBot
from generator.engine.games.counterattack.bots import HeuristicBot, PlannerBot
from generator.engine.games.counterattack.checks import composition_checks
from generator.engine.games.counterattack.rules import CounterattackRules
from generator.engine.search import SearchBot

RULES = CounterattackRules
# search guided by the heuristic bot: sequential halving over its 4 best moves, which it plays out
# (the tree search scored no better than the heuristic on the same 200 deals; halving, +0.72 ports a game)
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=50, candidates=4)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH, "planner": PlannerBot}

__all__ = ["BOTS", "RULES", "composition_checks"]
