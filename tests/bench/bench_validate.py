"""How long `pnp validate` takes for all games (target: well under a second).

Run: python tests/bench/bench_validate.py [--repeat N]
Prints the cold figure (first load, imports included) and the warm median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    start = time.perf_counter()
    from generator.load import load_games
    from generator.project import Project
    from generator.validate import validate_games

    project = Project.at(ROOT)
    reports = validate_games(load_games(project), project)
    cold = time.perf_counter() - start
    checks = sum(len(r.checks) for r in reports)

    warm = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        validate_games(load_games(project), project)
        warm.append(time.perf_counter() - start)
    print(f"validate {len(reports)} games, {checks} checks: cold {cold * 1000:.0f} ms (imports included), "
          f"warm median {statistics.median(warm) * 1000:.0f} ms over {args.repeat} runs")


if __name__ == "__main__":
    main()
