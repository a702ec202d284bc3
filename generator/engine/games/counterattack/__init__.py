"""Pirates Port: Counterattack (seeds 000/001): solo (or co-captain) trick-taking against a dummy pirate."""

from generator.engine.base import RandomBot
from generator.engine.games.counterattack.bots import HalvingPlannerBot, HeuristicBot, PlannerBot
from generator.engine.games.counterattack.checks import composition_checks
from generator.engine.games.counterattack.rules import CounterattackRules

RULES = CounterattackRules
# search: the planner's rollouts spent by sequential halving over the legal moves (bots.HalvingPlannerBot)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "search": HalvingPlannerBot, "planner": PlannerBot}

__all__ = ["BOTS", "RULES", "composition_checks"]
