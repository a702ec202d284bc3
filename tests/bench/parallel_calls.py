"""What `--jobs 2` does twice, counted rather than timed: Python calls of every process of one build.

Run: python tests/bench/parallel_calls.py [--scale 100] [--top 15]

Builds the scaled deck (`build all-hands-on-deck --force --paper a4`) with --jobs 1 and with --jobs 2, each
process under cProfile (the building process from `main`, a forked worker in `_serve`), and prints the calls
each build made in all its processes, and the functions called more often with two jobs than with one: the
work done in both processes. Call counts do not depend on the machine's load, so this answers on a busy
machine, where CPU seconds of two processes side by side do not (see parallel_floor.py).
"""

from __future__ import annotations

import argparse
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# one build with every process profiled: argv = out prefix, then `pnp` arguments
PROFILED = """
import cProfile, os, sys
import generator.build.forked as forked
out = sys.argv[1]
serve = forked._serve
def profiled_serve(*args, **kwargs):
    profile = cProfile.Profile()
    try:
        return profile.runcall(serve, *args, **kwargs)
    finally:
        profile.dump_stats(f"{out}-worker-{os.getpid()}.prof")
forked._serve = profiled_serve
from generator.cli import main
profile = cProfile.Profile()
try:
    profile.runcall(main, sys.argv[2:])
except SystemExit:
    pass
profile.dump_stats(f"{out}-main.prof")
"""


def calls(prefix: Path) -> dict[str, int]:
    """Calls per function, summed over the build's processes (`prefix`-*.prof)."""
    total: dict[str, int] = {}
    for path in sorted(prefix.parent.glob(prefix.name + "-*.prof")):
        for (filename, line, name), (_, count, *_rest) in pstats.Stats(str(path)).stats.items():  # type: ignore[attr-defined]
            where = filename.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
            key = f"{where}:{line}({name})"
            total[key] = total.get(key, 0) + count
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=100)
    parser.add_argument("--top", type=int, default=15, help="functions to list (default 15)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    from scaled import copy_project, scale_deck

    with tempfile.TemporaryDirectory() as tmp:
        root = copy_project(Path(tmp) / "project")
        scale_deck(root, args.scale, "all-hands-on-deck")
        counted = {}
        for jobs in (1, 2):
            prefix = Path(tmp) / f"jobs{jobs}"
            shutil.rmtree(root / "output", ignore_errors=True)  # a cold build each time (the cache would skip all)
            subprocess.run([sys.executable, "-c", PROFILED, str(prefix), "--root", str(root), "-q", "build",
                            "all-hands-on-deck", "--force", "--paper", "a4", "--jobs", str(jobs)],
                           check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
            counted[jobs] = calls(prefix)
        one, two = sum(counted[1].values()), sum(counted[2].values())
        print(f"calls, all processes: --jobs 1 {one:,}, --jobs 2 {two:,} ({(two - one) / one:+.1%})")
        grown = sorted(((counted[2].get(k, 0) - counted[1].get(k, 0), k) for k in counted[2]), reverse=True)
        print("called more often with --jobs 2 (extra calls, function, calls with 1 and 2 jobs):")
        for extra, key in grown[:args.top]:
            print(f"  {extra:+9,d}  {key}  {counted[1].get(key, 0):,} -> {counted[2][key]:,}")


if __name__ == "__main__":
    main()
