"""The strength ladder: search beats heuristic beats random, per game, with 95% Wilson intervals.

    .venv/bin/python tests/bench/bench_ladder.py [--games N] [--iterations K] [--candidates C] [--game ID ...]

`--first-game S` starts at seed S, so a run can be extended (seeds 20-39 after
0-19 count the same as one run of 40); `--candidates 0` tries the tree search
where the engine ships sequential halving.

Competitive games: one seat plays bot A, every other seat bot B; A's seat turns
round the table from game to game (game i puts A in seat i mod players), and the
figure is how often A is among the winners, beside the fair share 1/players.
Counterattack is played alone, so each bot's victory rate is shown instead, and its
mean score (ports exploited), as victories are rare; each pairing's score difference
is taken on the same deals (the same seeds), with a 95% interval.
Every game is seeded (the game index), so a run prints the same table on any
machine; the search bot's budget is in iterations, not time. Prints figures,
asserts nothing (run by hand).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

from generator.engine.base import Bot, Result, Rules
from generator.engine.registry import REGISTRY
from generator.engine.search import SearchBot
from generator.engine.simulate.stats import wilson
from generator.load import load_game
from generator.project import Project

LADDER = (("search", "heuristic"), ("heuristic", "random"), ("search", "random"))


def play(rules: Rules[Any], classes: list[type[Bot]], seed: int) -> Result:
    """One seeded game's result."""
    state = rules.new_game(len(classes), seed)
    rng = random.Random(seed)
    bots = [cls(rules, seat, rng) for seat, cls in enumerate(classes)]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    return state.result()


def interval(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{wins / games:6.1%}  [{low:5.1%}, {high:5.1%}]"


def paired(a: list[float], b: list[float]) -> str:
    """Mean difference of two bots' scores on the same deals (the same seeds), with a 95% normal interval:
    a solo game's victories are too rare to tell bots apart, its score is not."""
    diffs = [x - y for x, y in zip(a, b, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return f"{mean:+.2f}  [{mean - half:+.2f}, {mean + half:+.2f}] a game, on the same {n} deals"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per pairing with the search bot")
    parser.add_argument("--cheap-games", type=int, default=200, help="games per pairing without it")
    parser.add_argument("--iterations", type=int, help="search budget per decision (default: the engine's)")
    parser.add_argument("--candidates", type=int,
                        help="weigh only the heuristic's best K moves by sequential halving (0: the tree; "
                             "default: the engine's)")
    parser.add_argument("--first-game", type=int, default=0, help="seed of the first game (to extend a run)")
    parser.add_argument("--game", action="append", help="only these games (default: all four)")
    parser.add_argument("--pairing", action="append", help="only these pairings, e.g. search-heuristic")
    parser.add_argument("--guide", choices=("engine", "none", "prior", "playout", "both"), default="engine",
                        help="lend the search the heuristic bot: as the engine's 'search' bot does (default), "
                             "not at all, as prior, for play-outs, or both")
    args = parser.parse_args()
    project = Project.at(".")
    print(f"{args.games} games per pairing with the search bot ({args.guide} guidance), {args.cheap_games} without; "
          "win rate [95% Wilson interval]")
    for game_id in args.game or project.game_ids():
        engine = REGISTRY.engine(game_id)
        rules = engine.rules(load_game(project, game_id))
        heuristic, search = engine.bots["heuristic"], engine.bots["search"]
        prior, playout = {"engine": (getattr(search, "prior", None), getattr(search, "playout", None)),
                          "none": (None, None), "prior": (heuristic, None), "playout": (None, heuristic),
                          "both": (heuristic, heuristic)}[args.guide]
        candidates = getattr(search, "candidates", 0) if args.candidates is None else args.candidates
        if args.iterations is None and args.candidates is None and args.guide == "engine":
            budget = search  # the engine's own search bot as shipped (PIMC in Pirate Tricks, cut play-outs...)
        else:
            budget = SearchBot.guided(prior, playout, args.iterations or getattr(search, "iterations", 200), candidates)
        bots: dict[str, type[Bot]] = {**engine.bots, "search": budget}
        players = min(rules.player_counts)
        began = time.process_time()
        if players == 1:
            scores: dict[str, list[float]] = {}
            for name in ("search", "heuristic", "random"):
                games = args.games if name == "search" else args.cheap_games
                results = [play(rules, [bots[name]], seed) for seed in range(args.first_game, args.first_game + games)]
                wins = sum(bool(result.winners) for result in results)
                scores[name] = [result.scores[0] for result in results]
                score = sum(scores[name]) / games
                print(f"{game_id:20} {name:>9} alone{'':14} victory {interval(wins, games)}  mean score {score:.2f}")
            for a, b in LADDER:
                print(f"{game_id:20} {a:>9} - {b:<10}       score {paired(scores[a], scores[b])}")
        else:
            for a, b in [(a, b) for a, b in LADDER if not args.pairing or f"{a}-{b}" in args.pairing]:
                wins = 0
                games = args.games if "search" in (a, b) else args.cheap_games
                for seed in range(args.first_game, args.first_game + games):
                    seat = seed % players
                    classes = [bots[a] if s == seat else bots[b] for s in range(players)]
                    wins += seat in play(rules, classes, seed).winners
                print(f"{game_id:20} {a:>9} vs {players - 1} {b:<10} {players}p  wins {interval(wins, games)}"
                      f"  (fair {1 / players:.0%})")
        print(f"{'':20} ({time.process_time() - began:.0f} s of CPU)")


if __name__ == "__main__":
    main()
