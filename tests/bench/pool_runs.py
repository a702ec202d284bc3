"""Pool several `pnp simulate --json` runs of one game into one balance table.

    .venv/bin/python tests/bench/pool_runs.py RUN.json [RUN.json ...]

Long search-bot checks are played in chunks (one `--seed` each), so they can run
in the background, be stopped and resumed, and be added to later; this adds up
their counts: games, wins by start position, and for every choice how often its
takers won, with a 95% Wilson interval. Chunks must come from the same data and
overrides (checked) and from different seeds (checked). Prints figures, asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from generator.engine.simulate.stats import wilson


def pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Summed counts of runs of one game with the same overrides and distinct seeds."""
    games = {run["game"] for run in runs}
    overrides = {json.dumps(run.get("overrides"), sort_keys=True) for run in runs}
    seeds = [run["seed"] for run in runs]
    if len(games) != 1 or len(overrides) != 1:
        raise SystemExit(f"pool_runs: the runs differ in game or overrides: {sorted(games)} {sorted(overrides)}")
    if len(set(seeds)) != len(seeds):
        raise SystemExit("pool_runs: two runs share a seed, so they played the same games")
    positions: dict[int, list[int]] = {}
    choices: dict[str, list[int]] = {}
    for run in runs:
        for row in run["by_position"]:
            got = positions.setdefault(row["position"], [0, 0])
            got[0] += row["wins"]
            got[1] += row["trials"]
        for row in run.get("balance", {}).get("choices", []):
            got = choices.setdefault(row["choice"], [0, 0, 0])
            got[0] += row["takers"]["wins"]
            got[1] += row["takers"]["trials"]
            got[2] += row["taken"]["trials"]
    return {"game": games.pop(), "games": sum(run["games"] for run in runs), "seeds": sorted(seeds),
            "shared_wins": sum(run["shared_wins"] for run in runs), "positions": positions, "choices": choices}


def report(pool: dict[str, Any]) -> str:
    seeds = pool["seeds"]
    lines = [f"{pool['game']}: {pool['games']} games in {len(seeds)} runs (seeds {seeds[0]}..{seeds[-1]}), "
             f"{pool['shared_wins']} shared wins"]
    for position, (wins, trials) in sorted(pool["positions"].items()):
        low, high = wilson(wins, trials)
        lines.append(f"  start position {position}: won {wins}/{trials} = {wins / trials:.1%} [{low:.1%}, {high:.1%}]")
    ranked = sorted(pool["choices"].items(), key=lambda kv: -kv[1][0] / max(kv[1][1], 1))
    for choice, (wins, trials, seats) in ranked:
        low, high = wilson(wins, trials)
        rate = wins / trials if trials else 0.0
        lines.append(f"  {choice:16s} takers won {wins:4d}/{trials:4d} = {rate:.1%} [{low:.1%}, {high:.1%}]"
                     f"  (taken in {trials / max(seats, 1):.0%} of seats)")
    return "\n".join(lines)


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="`pnp simulate --json` outputs")
    args = parser.parse_args()
    print(report(pooled([json.loads(path.read_text()) for path in args.runs])))
    sys.stdout.flush()


if __name__ == "__main__":
    run()
