"""`pnp sweep GAME --vary PATH=v1,v2`: simulate every point of a grid of data values; a table and a plot.

Thin: it parses the grid, runs every point through `generator.engine.simulate`
(one pool, or one Dask cluster, for all points) and prints or writes the metrics.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
from pathlib import Path

import click

from generator.cli.context import Context, complete_bots, complete_games, pass_context, quiet_option, root_option
from generator.cli.simulate import _progress, load_rules, scheduler_option, seats
from generator.cli.table import format_table
from generator.errors import UsageError
from generator.load.overrides import Override, parse_overrides
from generator.project import refuse_unless_plain, write_atomic
from generator.simulation import MetricValue, Sweep, SweepPoint, format_num


@click.command("sweep")
@click.argument("game_id", metavar="GAME", shell_complete=complete_games)
@click.option("--vary", "varies", multiple=True, required=True, metavar="PATH=v1,v2,...",
              help="A data value to try at each of these values (repeatable: the grid is every combination).")
@click.option("--set", "settings", multiple=True, metavar="PATH=VALUE", help="Hold a value fixed at every point.")
@click.option("--metric", "metrics", multiple=True, metavar="NAME",
              help="What to read at each point (repeatable; default max-share, max-takers, seat:1): seat:N, "
                   "position:N, share:SOURCE, taken:CHOICE, takers:CHOICE, ties, max-share, max-takers, mean:FIGURE.")
@click.option("-n", "--games", type=click.IntRange(1), default=1000, show_default=True, help="Games per point.")
@click.option("-p", "--players", type=int, default=None, help="Players per game (default: the fewest the game allows).")
@click.option("--bot", default=None, shell_complete=complete_bots, help="One bot for every seat (default: random).")
@click.option("--bots", default=None, help="One bot per seat, comma-separated.")
@click.option("--seed", type=int, default=1, show_default=True, help="Root seed, the same at every point.")
@click.option("-j", "--jobs", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes (0: one per core). Results do not depend on it.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the table as CSV here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a PDF with one chart per metric (95% intervals as whiskers).")
@click.option("--json", "as_json", is_flag=True, help="Print the sweep as JSON.")
@scheduler_option
@quiet_option
@root_option
@pass_context
def sweep_command(ctx: Context, game_id: str, varies: tuple[str, ...], settings: tuple[str, ...],
                  metrics: tuple[str, ...], games: int, players: int | None, bot: str | None, bots: str | None,
                  seed: int, jobs: int, csv_path: Path | None, plot_path: Path | None, as_json: bool,
                  scheduler: str | None) -> None:
    """Simulate GAME at every combination of the --vary values and report the chosen metrics."""
    from generator.engine.simulate import EngineSource, SimSpec, summarize
    from generator.engine.simulate.runner import simulate_many
    from generator.engine.simulate.sweep import DEFAULT_METRICS, Vary, check_metric, grid, known_names, metric

    for target in (csv_path, plot_path):
        if target is not None:
            refuse_unless_plain(target)
    grid_of = [Vary.parse(spec) for spec in varies]
    names = tuple(check_metric(m) for m in metrics) or DEFAULT_METRICS
    fixed = parse_overrides(settings)
    given = [v.path for v in grid_of] + [o.path for o in fixed]
    twice = sorted({path for path in given if given.count(path) > 1})
    if twice:  # the last one would win, and the table would show values never played
        raise UsageError(f"{', '.join(twice)}: given more than once in --vary and --set; give each path once")
    game, engine, rules = load_rules(ctx, game_id, fixed)
    players, specs = seats(rules, engine, game_id, players, bot, bots)
    root = str(ctx.project.root)
    built = {EngineSource(root, game_id, engine.module, fixed): (rules, dict(engine.bots))}  # the run's, shared
    points = grid(grid_of)
    runs = [SimSpec(EngineSource(root, game_id, engine.module,
                                 fixed + tuple(Override(v.path, value) for v, value in zip(grid_of, point, strict=True))),
                    players, specs, seed, games) for point in points]
    for run in runs[1:]:  # every point's values checked (and its rules built once) before any game starts
        built.setdefault(run.source, run.source.build())
    # Two games at the first point before the grid: a metric this game cannot give (a seat it lacks, a figure or a
    # balance hook it has not) is refused now, not once every point has been played.
    (probe,) = simulate_many([dataclasses.replace(runs[0], games=min(2, games))], 1, None, None, scheduler,
                             built)
    probed = summarize(probe, game=game_id, title=game.title, bots=specs, seed=seed, check=False)
    for name in names:
        metric(probed, name)
    with _progress(ctx, games * len(runs)) as advance:
        aggregates = simulate_many(runs, jobs or os.cpu_count() or 1, advance, None, scheduler, built)
    rows = []
    for point, aggregate in zip(points, aggregates, strict=True):
        summary = summarize(aggregate, game=game_id, title=game.title, bots=specs, seed=seed, check=False)
        rows.append(SweepPoint(point, {name: metric(summary, name) for name in names}))
    sweep = Sweep(game_id, game.title, players, specs, games, seed, tuple(v.path for v in grid_of), names,
                  tuple(rows), tuple(map(str, fixed)))
    for name in names:  # a source or choice no point ever met: most likely misspelt (its cells read "-")
        if all(row.metrics[name].unmet for row in rows):
            ctx.echo(f"warning: --metric {name}: no run met {name.partition(':')[2]!r}; "
                     f"{known_names(summary, name.partition(':')[0])}", err=True)
    if csv_path is not None:
        write_atomic(csv_path, sweep_csv(sweep).encode("utf-8"))
        ctx.note(f"wrote {csv_path}")
    if plot_path is not None:
        from generator.render.reports.simulation import build_sweep_report

        write_atomic(plot_path, build_sweep_report(sweep))
        ctx.note(f"wrote {plot_path}")
    ctx.echo(json.dumps(sweep.to_json(), indent=2) if as_json else format_sweep(sweep))


def _cell(m: MetricValue) -> str:
    if m.value is None:
        return "-"
    text = format_num(m.value)
    if m.ci95 is not None:
        text += f" [{format_num(m.ci95[0])}, {format_num(m.ci95[1])}]"
    return f"{text} {m.about}".rstrip()


def format_sweep(s: Sweep) -> str:
    head = (f"{s.title}: sweep of {len(s.points)} points, {s.games} games each, {s.players} players, "
            f"bots {', '.join(s.bots)}, seed {s.seed}")
    if s.fixed:
        head += f", with --set {', '.join(s.fixed)}"
    rows = [[*p.values, *(_cell(p.metrics[name]) for name in s.metrics)] for p in s.points]
    return head + "\n\n" + format_table([*s.paths, *s.metrics], rows) + "\n  (value [95% interval])"


def sweep_csv(s: Sweep) -> str:
    """One row per point: the varied values, then each metric's value, interval and subject."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*s.paths, *(f"{name}{part}" for name in s.metrics for part in ("", "_low", "_high", "_about"))])
    for p in s.points:
        cells: list[object] = list(p.values)
        for name in s.metrics:
            m = p.metrics[name]
            low, high = m.ci95 if m.ci95 else (None, None)
            cells += [_num(m.value), _num(low), _num(high), m.about]
        writer.writerow(cells)
    return out.getvalue()


def _num(value: float | None) -> str:
    return "" if value is None else repr(float(value))
