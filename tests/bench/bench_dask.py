"""Dask backend speed-up from 1 to 2 workers: prints figures, asserts nothing (run by hand).

    .venv/bin/python tests/bench/bench_dask.py [--games N] [--game ID] [--bot NAME]

Starts a LocalCluster of worker processes (one thread each) with 1 and then 2
workers, runs the same simulation on each and on local processes, and prints
wall-clock seconds, games per second and the speed-up. It also checks that the
three runs give identical summaries (they must). Needs the extra: pip install '.[dask]'.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from distributed import Client, LocalCluster

from generator.engine.registry import REGISTRY
from generator.engine.simulate import EngineSource, SimSpec, simulate, summarize

ROOT = Path(__file__).resolve().parents[2]


def run(spec: SimSpec, scheduler: object = None, jobs: int = 1) -> tuple[float, str]:
    start = time.perf_counter()
    aggregate = simulate(spec, jobs=jobs, scheduler=scheduler)
    seconds = time.perf_counter() - start
    summary = summarize(aggregate, game=spec.source.game_id, title="", bots=spec.bots, seed=spec.seed, check=False)
    return seconds, json.dumps(summary.to_json(), sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--game", default="pirates-under-fire")
    parser.add_argument("--bot", default="random")
    args = parser.parse_args()
    engine = REGISTRY.engine(args.game)
    spec = SimSpec(EngineSource(str(ROOT), args.game, engine.module), 2, (args.bot, args.bot), 1, args.games)
    results = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.run(lambda: None)  # workers are up before the clock starts
            results[workers] = run(spec, client)
    local = run(spec, jobs=2)
    base = results[1][0]
    print(f"{args.game}, {args.games} games, bots {args.bot}: tasks of >= 1,000 games")
    for workers, (seconds, _summary) in results.items():
        print(f"  dask {workers} worker(s): {seconds:6.1f} s  {args.games / seconds:8.0f} games/s  "
              f"speed-up {base / seconds:.2f}x")
    print(f"  local --jobs 2:     {local[0]:6.1f} s  {args.games / local[0]:8.0f} games/s")
    print("  identical summaries:", results[1][1] == results[2][1] == local[1])


if __name__ == "__main__":
    main()
