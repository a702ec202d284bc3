"""`pnp validate [GAME ...]`: does every deck still fit its game's rules?"""

from __future__ import annotations

import json

import click

from generator.cli.context import Context, complete_games, pass_context, quiet_option, root_option
from generator.cli.table import format_table
from generator.errors import Refused
from generator.validate import GameReport, validate_games


def format_report(report: GameReport, verbose: bool) -> str:
    checks = report.checks if verbose else [c for c in report.checks if not c.ok or c.warning]
    status = "ok" if report.ok else f"{len(report.failures())} of {len(report.checks)} checks failed"
    if report.warnings():
        status += f", {len(report.warnings())} warning(s)"
    head = f"{report.game_id}: {len(report.checks)} checks, {status}"
    if not checks:
        return head
    rows = []
    for check in checks:
        name = check.name if check.players is None else f"{check.name} ({check.players}p)"
        rows.append([name, check.expected, check.actual, "FAIL" if not check.ok else "WARN" if check.warning else "ok"])
    lines = [head, format_table(["check", "expected", "actual", "status"], rows, wrap={0: 56, 1: 24, 2: 40})]
    for check in report.failures():
        if check.location or check.source:
            lines.append(f"  {check.failure_line()}")
    for check in report.warnings():
        if check.location:
            lines.append(f"  {check.location}: warning: {check.name}: expected {check.expected}, got {check.actual}")
    return "\n".join(lines)


@click.command("validate")
@click.argument("game_ids", nargs=-1, metavar="[GAME]...", shell_complete=complete_games)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@click.option("-v", "--verbose", is_flag=True, help="List every check of every game, passed or failed.")
@click.option("--failures-only", is_flag=True, hidden=True)  # what the default now does; kept for old scripts
@quiet_option
@root_option
@pass_context
def validate_command(ctx: Context, game_ids: tuple[str, ...], as_json: bool, verbose: bool,
                     failures_only: bool) -> None:
    """Check every deck against its game's rules: counts, deals, effects, layouts, text fit.

    Prints one line per game ("34 checks, ok"), and the checks that fail (or
    warn) with the YAML file and line to fix; -v lists every check. Exits 0
    when every check passes and 1 when any fails. A game without a rules
    engine is checked from its data alone; one whose engine does not load
    fails a check. A game whose data cannot be read is one line of its own
    after the others' reports: exit 2.
    """
    games, broken = ctx.games_apart(game_ids)
    reports = validate_games(games, ctx.project, ctx.registry)
    if as_json:
        ctx.echo(json.dumps([r.to_json() for r in reports], indent=2))
    else:
        detailed = verbose and not (failures_only or ctx.quiet)
        ctx.echo(("\n\n" if detailed or not all(r.ok for r in reports) else "\n").join(
            format_report(r, detailed) for r in reports))
    failed = [r.game_id for r in reports if not r.ok]
    verdict = f"{', '.join(failed)}: {len(failed)} of {len(reports)} game(s) failed validation" if failed else ""
    if broken and verdict:
        ctx.echo(f"pnp: {verdict}", err=True)  # then the unreadable games' lines, and their exit code (2)
    ctx.fail_for(broken)
    if verdict:
        raise Refused(verdict)
