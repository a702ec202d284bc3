"""Re-check the retuned All Hands on Deck and Under Fire values with any bot (the search bot once merged).

    .venv/bin/python tests/bench/recheck_balance.py [--bot search] [--games N] [--jobs J]

Runs `pnp simulate` on the shipped data for All Hands on Deck at 2, 4 and 6
players and for Pirates Under Fire, and prints each run's balance table and
warning lines: the targets are no combination above 40% of points (the
default --max-share) and no mercenary whose buyers win more than 55%
(--max-edge 0.05 over a seat's 50%). Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import sys

from generator.cli import main

RUNS = [("all-hands-on-deck", 2), ("all-hands-on-deck", 4), ("all-hands-on-deck", 6), ("pirates-under-fire", 2)]


def run() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bot", default="search", help="bot for every seat (default: search)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=0)
    args = parser.parse_args()
    for game, players in RUNS:
        print(f"\n=== {game}, {players} players, bot {args.bot} ===", flush=True)
        code = main(["-q", "simulate", game, "-p", str(players), "--bot", args.bot, "-n", str(args.games),
                     "-j", str(args.jobs), "--max-share", "0.4", "--max-edge", "0.05"], None)
        if code:
            sys.exit(code)


if __name__ == "__main__":
    run()
