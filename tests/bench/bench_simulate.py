"""Simulator throughput through the real runner: games per second per core, and the --jobs 2 speed-up.

Run: .venv/bin/python tests/bench/bench_simulate.py [--games N] [--only GAME] [--bot NAME]
Prints figures only (no pass/fail): speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.engine.registry import REGISTRY  # noqa: E402
from generator.engine.simulate import EngineSource, SimSpec, simulate  # noqa: E402
from generator.engine.simulate.runner import engine_for  # noqa: E402
from generator.project import Project  # noqa: E402


def rate(spec: SimSpec, jobs: int) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second of this process and its workers).

    The second figure does not suffer when other programs share the cores, so
    it tells whether the runner itself wastes work when it fans out.
    """
    before = os.times()
    start = time.perf_counter()
    aggregate = simulate(spec, jobs)
    seconds = time.perf_counter() - start
    after = os.times()
    cpu = sum(after[i] - before[i] for i in range(4))  # user, system, children user, children system
    assert aggregate.games == spec.games
    return spec.games / seconds, spec.games / max(cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000, help="games per measured run (default 10000)")
    parser.add_argument("--only", action="append", help="game id(s) to measure (default: every engine)")
    parser.add_argument("--bot", default="random", help="bot for every seat (default random)")
    parser.add_argument("--players", type=int, default=None, help="players (default: the game's fewest)")
    parser.add_argument("--no-jobs", action="store_true", help="skip the --jobs 2 run")
    args = parser.parse_args()
    project = Project.at(ROOT)
    games = args.only or project.game_ids()
    print(f"{'game':<20} {'bot':<10} {'players':>7} {'games':>7} {'1 job g/s':>10} {'2 jobs g/s':>11} "
          f"{'speed-up':>8} {'g/cpu-s 1 job':>14} {'g/cpu-s 2 jobs':>15}   (cores: {os.cpu_count()}, "
          f"load {os.getloadavg()[0]:.1f})")
    for game_id in games:
        source = EngineSource(str(project.root), game_id, REGISTRY.module_of(game_id))
        rules, _bots = engine_for(source)
        players = args.players or next(iter(rules.player_counts))
        spec = SimSpec(source, players, (args.bot,) * players, seed=2024, games=args.games)
        simulate(SimSpec(source, players, spec.bots, seed=1, games=min(200, args.games)), 1)  # warm-up
        one, cpu_one = rate(spec, 1)
        if args.no_jobs:
            print(f"{game_id:<20} {args.bot:<10} {players:>7} {args.games:>7} {one:>10.0f} {'':>11} {'':>8} "
                  f"{cpu_one:>14.0f}", flush=True)
            continue
        two, cpu_two = rate(spec, 2)
        print(f"{game_id:<20} {args.bot:<10} {players:>7} {args.games:>7} {one:>10.0f} {two:>11.0f} "
              f"{two / one:>7.2f}x {cpu_one:>14.0f} {cpu_two:>15.0f}", flush=True)


if __name__ == "__main__":
    main()
