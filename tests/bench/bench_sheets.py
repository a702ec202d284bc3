"""Score sheets and print plans: CPU seconds of each step, every sheet of every game on both papers.

    .venv/bin/python tests/bench/bench_sheets.py [--repeat N]

Prints, per sheet template (both papers together, best of N warm runs, `time.process_time`):
layout (`lay_out_sheet`), the printed PDF or its two-up file, and the fillable PDF, as
`pnp build`'s sheet jobs make them; then the print plans (the rulebooks' how-to-print page)
for every game and paper. Asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from generator.build.options import BuildOptions
from generator.load import load_game
from generator.project import Project
from generator.render.documents.print_plan import print_plan
from generator.render.documents.rulebook import parse_template
from generator.render.documents.sheets import draw_sheet, has_fields, lay_out_sheet, sheet_name, sheet_templates
from generator.render.documents.two_up import two_up_sheet

PAPERS = ("a4", "letter")


def best(repeat: int, step: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        step()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[2]))
    args = parser.parse_args()
    project = Project.at(args.root)
    games = [load_game(project, game_id) for game_id in project.game_ids()]
    options = BuildOptions(papers=PAPERS)
    totals = [0.0, 0.0, 0.0]
    print(f"{'sheet':36s} {'layout':>8s} {'printed':>8s} {'fillable':>8s}  (s CPU, both papers)")
    for game in games:
        for template in sheet_templates(game, project):
            row = [0.0, 0.0, 0.0]
            for paper in PAPERS:
                parsed = parse_template(template, game, project)
                layout = lay_out_sheet(game, project, template, paper, parsed)
                row[0] += best(args.repeat, lambda: lay_out_sheet(game, project, template, paper, parsed))  # noqa: B023
                row[1] += best(args.repeat, lambda: two_up_sheet(game, project, template, paper, layout)  # noqa: B023
                               or draw_sheet(layout, fillable=False))  # noqa: B023
                if has_fields(parsed[1]):
                    row[2] += best(args.repeat, lambda: draw_sheet(layout, fillable=True))  # noqa: B023
            totals = [t + r for t, r in zip(totals, row, strict=True)]
            print(f"{game.id + ' ' + sheet_name(template):36s} " + " ".join(f"{v:8.3f}" for v in row))
    print(f"{'all sheet jobs':36s} " + " ".join(f"{v:8.3f}" for v in totals) + f"   = {sum(totals):.3f} s CPU")
    plans = best(args.repeat, lambda: [print_plan(g, project, options, p) for g in games for p in PAPERS])
    print(f"print plans, {len(games)} games x {len(PAPERS)} papers: {plans:.3f} s CPU")


if __name__ == "__main__":
    main()
