"""Pirates Port: Counterattack (seeds 000/001): solo (or co-captain) trick-taking against a dummy pirate."""

from generator.engine.base import RandomBot
from generator.engine.counterattack.bots import HeuristicBot, PlannerBot
from generator.engine.counterattack.checks import composition_checks
from generator.engine.counterattack.rules import CounterattackRules
from generator.engine.search import SearchBot

RULES = CounterattackRules
# search guided by the heuristic bot: its choice as a prior, and it plays the play-outs
SEARCH = SearchBot.guided(prior=HeuristicBot, playout=HeuristicBot, iterations=50)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": SEARCH, "planner": PlannerBot}

__all__ = ["BOTS", "RULES", "composition_checks"]
