"""`pnp check GAME LOG`: replay a recorded game with every rule checked.

Prints the final scores when every action was legal (exit 0), or the first
illegal action as one line prefixed with its line in the log (exit 1). An
unreadable log is a DataError at file:line (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.context import Context, pass_context, quiet_option
from generator.errors import DataError, UsageError


@click.command("check")
@click.argument("game_id", metavar="GAME")
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False, path_type=Path))
@quiet_option
@pass_context
def check_command(ctx: Context, game_id: str, log_path: Path) -> None:
    """Replay the game(s) recorded in LOG and confirm every action was legal."""
    from generator.engine.replay import read_log, replay

    (game,) = ctx.games([game_id])
    records = read_log(log_path, str(log_path))
    rules = ctx.registry.engine(game_id).rules(game)
    for record in records:
        if record.game != game_id:
            raise DataError(f"this log records a game of {record.game!r}, not {game_id!r}", record.where)
    finished = 0
    for record in records:
        outcome = replay(rules, record, check=True)
        if not outcome.legal:
            ctx.echo(outcome.problem or "")
            raise click.exceptions.Exit(1)
        state = outcome.state
        assert state is not None
        label = f"game {record.index}" if record.index is not None else f"line {record.where.line}"
        if not state.is_terminal():
            ctx.echo(f"{label}: {outcome.actions} legal actions; the game is not over yet "
                     f"(seat {state.current_player() + 1} to act)")
            continue
        finished += 1
        if len(records) == 1:
            result = state.result()
            scores = ", ".join(f"seat {i + 1}: {_num(s)}" for i, s in enumerate(result.scores))
            winners = ", ".join(f"seat {w + 1}" for w in result.winners) or "nobody"
            ctx.echo(f"legal: {outcome.actions} actions; final scores {scores}; won by {winners}")
    if len(records) > 1:
        ctx.echo(f"legal: all {len(records)} games ({finished} finished) replay without an illegal action")
    if not records:
        raise UsageError(f"{log_path} holds no game")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
