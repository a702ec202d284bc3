"""Time every document of every game (rulebook, booklet, sheets, boards) and print the figures.

Run: .venv/bin/python tests/bench/bench_documents.py [--root DIR]
Writes into a temporary output folder, never into the project's output/.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from generator.load import load_game
from generator.project import Project
from generator.render.documents import write_documents


def scratch_project(root: Path, scratch: Path) -> Project:
    """The project, with output redirected to a scratch folder."""
    cls = type("ScratchProject", (Project,), {"output_dir": property(lambda self: scratch)})
    return cls(root)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[2]))
    args = parser.parse_args()
    base = Project.at(args.root)
    with tempfile.TemporaryDirectory() as scratch:
        project = scratch_project(base.root, Path(scratch))
        total = 0.0
        for game_id in base.game_ids():
            game = load_game(project, game_id)
            for paper in ("a4", "letter"):
                for booklet in (False, True):
                    start = time.perf_counter()
                    paths = write_documents(game, project, paper, booklet)
                    spent = time.perf_counter() - start
                    total += spent
                    size = sum(p.stat().st_size for p in paths)
                    kind = "booklet" if booklet else "pages"
                    print(f"{game_id:20} {paper:6} {kind:8} {len(paths):2} files {size / 1024:8.0f} KiB {spent:6.2f} s")
        print(f"{'total':20} {total:45.2f} s")


if __name__ == "__main__":
    main()
