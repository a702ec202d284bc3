"""`pnp simulate GAME`: bots play the real rules many times; win rates, scores, lengths.

Thin: it checks the options, runs `generator.engine.simulate`, and prints the
summary as a text table, as JSON, or as a PDF report with charts.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click
from click.termui import progressbar

from generator.cli.context import Context, complete_bots, complete_games, pass_context, quiet_option, root_option
from generator.cli.table import format_table
from generator.errors import Interrupted, UsageError
from generator.load.overrides import Override, parse_overrides
from generator.project import atomic_writer, refuse_unless_plain
from generator.simulation import (
    Balance,
    Histogram,
    Moments,
    Summary,
    format_ci,
    format_interval,
    format_num,
    format_pct,
)

if TYPE_CHECKING:
    from generator.engine.base import Rules
    from generator.engine.registry import Engine
    from generator.model import Game


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")  # Dask's address schemes that name a host and port


def scheduler_address(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """`--scheduler`, checked before any game is played: SCHEME://HOST:PORT (or HOST:PORT, meaning tcp)."""
    if value is None:
        return None
    scheme, sep, rest = value.rpartition("://")
    host, colon, port = rest.rpartition(":")
    if scheme == "inproc" and rest:  # a cluster inside this process (tests, notebooks): no host or port
        return value
    if sep and scheme not in SCHEDULER_SCHEMES:
        problem = f"{scheme!r} is not a Dask scheme ({', '.join(SCHEDULER_SCHEMES)})"
    elif not colon or not port.isdigit() or not 0 < int(port) < 65536:
        problem = "it has no port"
    elif not host or (host.startswith("[") != host.endswith("]")) or any(c in host for c in "/?# "):
        problem = "it has no host"
    else:
        return value
    raise UsageError(f"--scheduler {value!r}: {problem}; give the Dask scheduler's address as tcp://HOST:PORT, "
                     "like tcp://10.0.0.5:8786")


scheduler_option = click.option(
    "--scheduler", default=None, metavar="ADDRESS", callback=scheduler_address,
    help="Play on a Dask cluster (e.g. tcp://10.0.0.5:8786) instead of local processes; same results.")


@click.command("simulate")
@click.argument("game_id", metavar="GAME", shell_complete=complete_games)
@click.option("-n", "--games", type=click.IntRange(1), default=1000, show_default=True, help="Games to play.")
@click.option("-p", "--players", type=int, default=None, help="Players per game (default: the fewest the game allows).")
@click.option("--bot", default=None, shell_complete=complete_bots,
              help="One bot for every seat: random (the default), heuristic, search (every game has these; search "
                   "is slow), a game's own bot (an unknown name lists them), or module:Class.")
@click.option("--bots", default=None, help="One bot per seat, comma-separated, e.g. heuristic,random,random.")
@click.option("--seed", type=int, default=1, show_default=True, help="Root seed; every game's seed derives from it.")
@click.option("-j", "--jobs", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes (0: one per core). Results do not depend on it.")
@click.option("--check", is_flag=True, help="Verify the engine's invariants and every bot move (slower).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a PDF report with charts here.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every game (deal, actions and any --set values) as JSON lines, replayable by `pnp check`.")
@click.option("--max-share", type=click.FloatRange(0, 1), default=0.4, show_default=True,
              help="Warn when one source earns more than this share of all points.")
@click.option("--max-edge", type=click.FloatRange(0, 1), default=0.05, show_default=True,
              help="Warn when a choice's takers win this much more often than a seat does on average.")
@click.option("--set", "settings", multiple=True, metavar="PATH=VALUE",
              help="Override a value of the game's data (repeatable), e.g. combinations.full-crew.points=5.")
@scheduler_option
@quiet_option
@root_option
@pass_context
def simulate_command(ctx: Context, game_id: str, games: int, players: int | None, bot: str | None,
                     bots: str | None, seed: int, jobs: int, check: bool, as_json: bool,
                     report_path: Path | None, log_path: Path | None, max_share: float, max_edge: float,
                     settings: tuple[str, ...], scheduler: str | None) -> None:
    """Play GAME many times with bots and report win rates (95% Wilson intervals), scores and lengths.

    Win rates are given by seat and by start position (1 = the player who opened the game).
    """
    from generator.engine.simulate import EngineSource, SimSpec, record_latest, simulate, summarize
    from generator.engine.simulate.runner import SimulationInterrupted

    for target in (report_path, log_path):  # refuse a pipe, device or link now, not after the whole run
        if target is not None:
            refuse_unless_plain(target)
    overrides = parse_overrides(settings)
    game, engine, rules = load_rules(ctx, game_id, overrides)
    players, specs = seats(rules, engine, game_id, players, bot, bots)
    jobs = jobs or os.cpu_count() or 1
    spec = SimSpec(EngineSource(str(ctx.project.root), game_id, engine.module, overrides), players, specs, seed, games,
                   check=check, log=log_path is not None)
    built = {spec.source: (rules, dict(engine.bots))}
    with _progress(ctx, games) as advance, _log_writer(log_path) as log:
        try:
            aggregate, stopped = simulate(spec, jobs, advance, log.write if log else None, scheduler, built), None
        except SimulationInterrupted as interrupt:
            if not interrupt.partial[0].games:
                raise KeyboardInterrupt from None  # nothing finished: nothing to keep (the log is not written)
            aggregate, stopped = interrupt.partial[0], interrupt
            if log is not None:
                log.keep(interrupt.chunks_logged)  # the games counted, and no line of a chunk that was not
    summary = summarize(aggregate, game=game_id, title=game.title, bots=specs, seed=seed, check=check,
                        max_share=max_share, max_edge=max_edge, overrides=tuple(map(str, overrides)))
    if report_path is not None:
        from generator.project import write_atomic
        from generator.render.reports.simulation import build_report

        write_atomic(report_path, build_report(summary))
        ctx.note(f"wrote {report_path}")
    played = aggregate.games
    if log_path is not None:
        ctx.note(f"wrote {played} {'game' if played == 1 else 'games'} to {log_path}")
    if not overrides and stopped is None:  # the gallery shows the game as printed, in a full run, not a what-if
        record_latest(ctx.project, summary)
    ctx.echo(json.dumps(summary.to_json(), indent=2) if as_json else format_summary(summary))
    if stopped is not None:
        kept = " and the log hold" if log_path is not None else " holds"
        raise Interrupted(f"interrupted after {played} of {games} games; the summary{kept} those {played}")


def seats(rules: Rules, engine: Engine, game_id: str, players: int | None, bot: str | None,
          bots: str | None) -> tuple[int, tuple[str, ...]]:
    """The number of players (the fewest allowed by default) and one bot spec per seat."""
    from generator.engine.simulate import seat_bots

    counts = list(rules.player_counts)
    players = counts[0] if players is None else players
    if players not in counts:
        raise UsageError(f"--players {players}: {game_id} is played by {', '.join(map(str, counts))} players")
    return players, seat_bots(players, bot, bots, engine.bots)


def load_rules(ctx: Context, game_id: str, overrides: tuple[Override, ...]) -> tuple[Game, Engine, Rules]:
    """The game (with `--set` overrides applied and checked), its engine and its rules."""
    from generator.engine.simulate.runner import build_rules
    from generator.load import load_game

    (game,) = ctx.games([game_id])
    if overrides:
        game = load_game(ctx.project, game_id, overrides)
    engine = ctx.registry.engine(game_id)
    return game, engine, build_rules(engine.rules, game, overrides)


@contextmanager
def _progress(ctx: Context, games: int) -> Iterator[Callable[[int], None] | None]:
    if not ctx.show_progress:
        yield None
        return
    with progressbar(length=games, label="simulating", file=sys.stderr) as bar:
        yield bar.update


class ChunkLog:
    """The log's open temporary, written a chunk of games at a time; `keep(n)` cuts it back to the
    first n chunks (after an interrupt, so that it holds exactly the games the summary counts)."""

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle
        self.ends: list[int] = []  # the file's length after each chunk

    def write(self, lines: list[str]) -> None:
        self.handle.write("".join(line + "\n" for line in lines))
        self.ends.append(self.handle.tell())

    def keep(self, chunks: int) -> None:
        self.handle.flush()
        self.handle.truncate(self.ends[chunks - 1] if chunks else 0)


@contextmanager
def _log_writer(path: Path | None) -> Iterator[ChunkLog | None]:
    """Stream log lines to a file that appears only when the block ends without error (logs outgrow memory)."""
    if path is None:
        yield None
        return
    with atomic_writer(path) as handle:
        yield ChunkLog(handle)


# --- text output ---------------------------------------------------------------


def _moments_row(label: str, m: Moments) -> list[str]:
    return [label, format_num(m.mean), format_num(m.sd), format_num(m.min), format_num(m.max)]


def _hist_line(hist: Histogram | None, max_bins: int = 12) -> str:
    """`low-high:count` pairs, merged into at most `max_bins` groups so a line stays readable."""
    if not hist or not hist.buckets:
        return ""
    width, buckets = hist.width, hist.buckets
    group = -(-len(buckets) // max_bins)
    parts = []
    for i in range(0, len(buckets), group):
        chunk = buckets[i:i + group]
        count = sum(c for _low, c in chunk)
        if not count:
            continue
        low, high = chunk[0][0], chunk[-1][0] + width - 1
        single = low == high or (width == 1 and len(chunk) == 1)
        label = format_num(low) if single else f"{format_num(low)}..{format_num(high)}"
        parts.append(f"{label}:{count}")
    return "  ".join(parts)


def format_summary(s: Summary) -> str:
    """The summary as terminal tables."""
    out = [f"{s.title}: {s.games} games, {s.players} player{'s' if s.players != 1 else ''}, "
           f"seed {s.seed}{', checked' if s.check else ''}"]
    if s.overrides:
        out.append(f"data changed by --set {', '.join(s.overrides)}")
    if s.solo is not None:
        out.append(f"solo win rate {format_pct(s.solo.rate.rate)} (95% CI {format_ci(s.solo.rate)}), bot {s.bots[0]}")
    out.append("")
    rows = [[str(e.seat), e.bot, str(e.rate.wins), format_pct(e.rate.rate), format_ci(e.rate), format_num(e.score.mean),
             format_num(e.score.sd), format_num(e.score.min), format_num(e.score.max)] for e in s.seats]
    out.append(format_table(["seat", "bot", "wins", "win rate", "95% CI", "score", "sd", "min", "max"], rows))
    if s.players > 1:
        out.append("")
        rows = [[str(p.position), str(p.rate.wins), format_pct(p.rate.rate), format_ci(p.rate)] for p in s.by_position]
        out.append(format_table(["start position", "wins", "win rate", "95% CI"], rows))
        if not s.opener_varies:
            out.append("  (the rules fix who opens: start position 1 is seat 1)")
    if len(s.by_bot) > 1:
        out.append("")
        rows = [[e.bot, str(e.seats), str(e.rate.wins), format_pct(e.rate.rate), format_ci(e.rate)] for e in s.by_bot]
        out.append(format_table(["bot", "seats", "wins", "win rate", "95% CI"], rows))
    if s.players > 1:
        out.append(f"\nshared victories: {s.shared_wins} {'game' if s.shared_wins == 1 else 'games'} "
                   "(a win counted for each winner); "
                   f"no winner: {s.no_winner}")
    out.append("")
    out.append(format_table(["per game", "mean", "sd", "min", "max"],
                            [_moments_row(key, f.moments) for key, f in s.length.items()]))
    for key, figure in s.length.items():
        if key == "actions" or key in s.progress:
            line = _hist_line(figure.hist)
            if line:
                out.append(f"  {key}: {line}")
    for entry in s.seats:
        out.append(f"  score seat {entry.seat}: {_hist_line(entry.score_hist)}")
    if s.solo is not None and s.solo.lost_at:
        out.append(f"\nlost games ({s.solo.lost}), by how far they got:")
        for key, hist in s.solo.lost_at.items():
            out.append(f"  {key}: {_hist_line(hist)}")
    for group, entries in s.groups.items():
        out.append("")
        out.append(format_table([f"{group} by source", "mean", "sd", "min", "max"],
                                [_moments_row(k, m) for k, m in entries.items()]))
    if s.cards:
        metrics = sorted({m for card in s.cards.values() for m in card})
        rows = [[card, *(format_num(values.get(m)) for m in metrics)] for card, values in s.cards.items()]
        out.append("")
        out.append(format_table(["card (mean per game)", *metrics], rows))
    if s.balance is not None:
        out.append("")
        out.append(format_balance(s.balance, mixed_bots=len(set(s.bots)) > 1))
    return "\n".join(out)


def format_balance(b: Balance, mixed_bots: bool = False) -> str:
    """Sources by share, choices by takers' edge, ties, then one warning line per limit passed. With seats
    played by different bots, a choice's takers are mostly the bot that likes it: the table says so."""
    out = [format_table(["source", "points/seat", "share", "95% CI"],
                        [[r.source, format_num(r.mean), format_pct(r.share),
                          format_interval(*r.ci95)] for r in b.sources]),
           "  (share of all points gained; penalties and payments show as negative shares)", ""]
    if b.choices:
        rows = [[r.choice, format_pct(r.taken.rate), format_pct(r.takers.rate), format_ci(r.takers),
                 format_pct(r.others.rate), f"{100 * r.edge:+.1f}"] for r in b.choices]
        out.append(format_table(["choice", "taken", "takers win", "95% CI", "others win", "edge (pts)"], rows))
        out.append(f"  (a seat wins {format_pct(b.fair)} on average; edge = takers' win rate minus that)")
        if mixed_bots:
            out.append("  (the seats play different bots: a choice's edge measures the bots that take it as much as "
                       "the choice; compare choices with every seat on one bot)")
    breaks = ", ".join(f"{name} {count}" for name, count in b.tie_breaks.items()) or "none"
    out.append(f"\nties on points: {b.ties.wins} {'game' if b.ties.wins == 1 else 'games'}, {format_pct(b.ties.rate)} "
               f"(95% CI {format_ci(b.ties)}); "
               f"settled by: {breaks}")
    out.extend(f"WARNING: {line}" for line in b.warnings)
    return "\n".join(out)
