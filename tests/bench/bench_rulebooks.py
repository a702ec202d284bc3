"""CPU of every rulebook (full pages and booklet, A4 and Letter) of every game, warm process; prints figures.

Run: .venv/bin/python tests/bench/bench_rulebooks.py [--repeat N]
Layout, drawing and PDF serialisation only (the "How to print" page's print plan is left out:
it lays out the score sheets). Fonts, icons and templates are warmed up first, so the figure
is what a rulebook costs a running build.

The session's form store (`renderer(project).forms`: font subsets, face drawings) is kept
between rulebooks, as in one process of a build; `--fresh-store` empties it before each one,
as a forked worker that drew no rulebook before meets it (the faces stay resolved).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from generator.engine.registry import REGISTRY
from generator.load import load_game
from generator.project import Project
from generator.render.documents.rulebook import rulebook_pdf
from generator.render.faces.renderer import renderer

PAPERS = ("a4", "letter")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[2]))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fresh-store", action="store_true", help="empty the session's form store before each")
    args = parser.parse_args()
    project = Project.at(args.root)
    games = [load_game(project, game_id) for game_id in REGISTRY.game_ids]
    for game in games:
        rulebook_pdf(game, project, "a4")  # warm-up
    each: dict[str, float] = {}
    for _ in range(args.repeat):
        for game in games:
            for paper in PAPERS:
                for booklet in (False, True):
                    if args.fresh_store:
                        renderer(project).forms.clear()
                    start = time.process_time()
                    rulebook_pdf(game, project, paper, booklet=booklet)
                    name = f"{game.id} {'booklet' if booklet else 'rules'} {paper}"
                    each[name] = min(each.get(name, float("inf")), time.process_time() - start)
    for name, cpu in each.items():
        print(f"{name:40s} {cpu * 1000:7.1f} ms CPU")
    print(f"{'all ' + str(len(each)) + ' rulebooks':40s} {sum(each.values()) * 1000:7.1f} ms CPU (best of {args.repeat} each)")


if __name__ == "__main__":
    main()
