"""The designer loop: how long rebuilds take (targets: no-change build < 0.5 s for all games;
one-card edit < 1 s as a fresh `pnp build` process and < 0.3 s of work inside a running `pnp watch`).

Run: python tests/bench/bench_incremental.py
Works on a temporary copy of data/ and templates/; prints its figures.
"""

from __future__ import annotations

import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.build.options import BuildOptions  # noqa: E402
from generator.build.session import build  # noqa: E402
from generator.project import Project  # noqa: E402

CARDS = "data/counterattack/cards.yaml"
NAMES = ["Nassau", "Nassau Harbour", "Nassau Bay", "Nassau Point", "Nassau Reach"]


def pnp(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "--quiet", *args], cwd=root, check=True)
    return time.perf_counter() - start


def rename(root: Path, old: str, new: str) -> None:
    path = root / CARDS
    path.write_text(path.read_text().replace(f"name: {old},", f"name: {new},", 1))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for folder in ("data", "templates"):
            shutil.copytree(ROOT / folder, root / folder)
        cold = pnp(root, "build")
        print(f"cold pnp build, all games (PDFs, previews, gallery): {cold:.2f} s")
        idle = [pnp(root, "build") for _ in range(5)]
        print(f"no-change pnp build, fresh process: median {statistics.median(idle):.3f} s (target < 0.5 s)")
        edits = []
        for old, new in itertools.pairwise(NAMES):
            rename(root, old, new)
            edits.append(pnp(root, "build"))
        print(f"one-card edit, fresh pnp build process: median {statistics.median(edits):.3f} s (target < 1 s)")

        project = Project.at(root)
        options = BuildOptions(exports=("sheets", "preview"), jobs=os.cpu_count() or 1)  # as `pnp watch` runs it
        build(project, [], options)  # warm the process, as `pnp watch` is after its first build
        warm = []
        for old, new in zip(reversed(NAMES), list(reversed(NAMES))[1:]):
            rename(root, old, new)
            start = time.perf_counter()
            build(project, [], options)
            warm.append(time.perf_counter() - start)
        print(f"one-card edit inside a running watch: median {statistics.median(warm):.3f} s (target < 0.3 s)")


if __name__ == "__main__":
    main()
