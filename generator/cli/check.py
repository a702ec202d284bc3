"""`pnp check GAME LOG`: replay a recorded game with every rule checked.

Prints the final scores when every action was legal and every game reached its
end (exit 0). Otherwise one line prefixed with its line in the log, exit 1: the
first illegal action, a deal that is not possible, a log cut short, or a line
that is not a game record (bad JSON, a BOM, wrong types). A log that cannot be
opened, or that records another game, is exit 2. Seats are counted from 1, or
named when the log has a `names:` line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from generator.cli.context import Context, complete_games, pass_context, quiet_option, root_option
from generator.errors import DataError, UsageError


@click.command("check")
@click.argument("game_id", metavar="GAME", shell_complete=complete_games)
@click.argument("log_path", metavar="LOG", type=click.Path(dir_okay=False, path_type=Path))
@quiet_option
@root_option
@pass_context
def check_command(ctx: Context, game_id: str, log_path: Path) -> None:
    """Replay the game(s) recorded in LOG and confirm every action was legal and every game complete.

    LOG is what `pnp simulate --log` writes (JSON lines, a game a line) or a game written down by hand: a few
    header lines (game:, players:, names:), then one action a line (README, "Checking a disputed game").

    Exit 0 with the final scores when every game is legal and complete; 1 with the log line of the first
    illegal action, impossible deal, unfinished game, or line that is not a game record (bad JSON, a BOM,
    wrong types); 2 when LOG cannot be opened, records another game or a player count the game lacks, or
    holds a deal of the wrong shape.
    """
    from generator.cli.simulate import load_rules
    from generator.engine.replay import LogError, read_log, replay, unfinished
    from generator.load.overrides import parse_overrides

    ctx.games([game_id])  # an unknown game fails here, before the log is read
    ctx.registry.engine(game_id)  # and so does a game without a rules engine, or with a broken one
    records = read_log(log_path, str(log_path))
    if not records:
        raise UsageError(f"{log_path} holds no game")
    for record in records:
        if record.game != game_id:
            raise DataError(f"this log records a game of {record.game!r}, not {game_id!r}", record.where)
    rules_for: dict[tuple[str, ...], Any] = {}  # by the `--set` values a game was played with (simulate --log)
    for record in records:  # every game's values checked before any game is replayed
        if record.settings not in rules_for:
            try:
                rules_for[record.settings] = load_rules(ctx, game_id, parse_overrides(record.settings))[2]
            except (DataError, UsageError) as exc:  # the log's "set" asks for values the engine cannot play
                raise LogError(f'its "set" cannot be played: {exc}', record.where) from None
    for record in records:
        outcome = replay(rules_for[record.settings], record, check=True)
        problem = outcome.problem or unfinished(outcome)
        if problem is not None:
            ctx.echo(problem)
            raise click.exceptions.Exit(1)
        state = outcome.state
        assert state is not None
        if len(records) == 1:
            result = state.result()
            scores = ", ".join(f"{record.seat(i)}: {_num(s)}" for i, s in enumerate(result.scores))
            winners = ", ".join(record.seat(w) for w in result.winners) or "nobody"
            ctx.echo(f"legal: {outcome.actions} actions; final scores {scores}; won by {winners}")
    if len(records) > 1:
        ctx.echo(f"legal: all {len(records)} games replay to their end without an illegal action")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
