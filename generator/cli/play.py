"""`pnp play GAME`: sit at the table against the bots in the terminal, and keep the game as a log.

Thin: `generator.engine.play.PlaySession` plays the game (any engine), this module reads the person's
answers and prints what their seat sees. The log is written (atomically) when the game ends, on `quit`,
at the end of the input and on Ctrl-C, and `pnp check` replays it: an unfinished game is refused as
unfinished, and nothing else.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from generator.cli.context import Context, pass_context, quiet_option
from generator.errors import PnpError, UsageError

if TYPE_CHECKING:
    from generator.engine.play import Event, PlaySession

HELP = """\
  a number        play that move from the list
  an action       play it by its text, e.g. 'play 7 anchors' (as `pnp check` reads a log)
  undo            back to your previous decision (the same deal; the bots answer as before)
  hint            what the search bot would play, and why
  table           show the table again
  help            this list
  quit            stop; the game so far is saved to the log"""


@click.command("play")
@click.argument("game_id", metavar="GAME")
@click.option("-p", "--players", type=int, default=None, help="Players at the table (default: the fewest the "
              "game allows, at least 2 where it can).")
@click.option("--seat", type=click.IntRange(1), default=1, show_default=True, help="Your seat, counted from 1.")
@click.option("--bots", default="heuristic", show_default=True,
              help="The bots in the other seats: one name for all, or one per other seat, comma-separated "
                   "(random, heuristic, search, a game's own bot, or module:Class, as `pnp simulate` takes them).")
@click.option("--seed", type=int, default=None, help="Deal from this seed (default: a new one, said at the end).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game here (default output/GAME/play/seed-S.jsonl); `pnp check` replays it.")
@quiet_option
@pass_context
def play_command(ctx: Context, game_id: str, players: int | None, seat: int, bots: str, seed: int | None,
                 log_path: Path | None) -> None:
    """Play GAME against the bots in the terminal: your seat's view, the legal moves numbered, undo and hints.

    Type a move's number or its text; 'undo', 'hint', 'help', 'quit'. The game is saved as a log that
    `pnp check` replays, also when you stop early (quit, end of input, Ctrl-C). In the browser: the Play
    page of `pnp serve` (docs/play.md).
    """
    from generator.project import refuse_unless_plain

    session = new_session(ctx, game_id, players, seat, bots, seed)
    path = log_path or default_log(ctx, game_id, session.seed)
    refuse_unless_plain(path)
    echo = ctx.echo
    others = ", ".join(session.name(s) for s in range(session.players) if s != session.seat)
    echo(f"{ctx.games([game_id])[0].title}: {session.players} players; you are seat {session.seat + 1} against "
         f"{others}. Type a number or a move, 'help' for more.")  # the seed would tell the deal: said at the end
    try:
        code = _loop(session, echo, sys.stdin)
    except KeyboardInterrupt:
        echo("")
        echo(_save(session, path, ctx, "interrupted"))
        raise click.exceptions.Exit(130) from None
    reason = {"over": "", "quit": "stopped", "eof": "input ended"}[code]
    echo(_save(session, path, ctx, reason))


def new_session(ctx: Context, game_id: str, players: int | None, seat: int, bots: str,
                seed: int | None) -> PlaySession:
    """A session of GAME with the person in `seat` (from 1) and `bots` in the other seats; one UsageError
    line for a player count the game lacks, a seat beyond the table or an unknown bot."""
    from generator.cli.simulate import load_rules
    from generator.engine.play import PlaySession
    from generator.engine.simulate.bots import resolve_bot
    from generator.engine.view import hooks_for

    _game, engine, rules = load_rules(ctx, game_id, ())
    counts = list(rules.player_counts)
    if players is None:
        players = next((n for n in counts if n >= 2), counts[0])
    if players not in counts:
        raise UsageError(f"--players {players}: {game_id} is played by {', '.join(map(str, counts))} players")
    if not 1 <= seat <= players:
        raise UsageError(f"--seat {seat}: a table of {players} has seats 1 to {players}")
    names = [b.strip() for b in bots.split(",")]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1 or not all(names):
        raise UsageError(f"--bots names {len(names)} bots for {players - 1} other seats: give one name, "
                         "or one per other seat, comma-separated")
    classes = [resolve_bot(name, engine.bots) for name in names]
    classes.insert(seat - 1, None)  # type: ignore[arg-type]  # the person's seat has no bot
    names.insert(seat - 1, "person")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**6)
    return PlaySession(rules, game_id, players, seat - 1, classes, names, seed, hooks_for(engine.module),
                       engine.bots.get("search"))


def default_log(ctx: Context, game_id: str, seed: int) -> Path:
    return ctx.project.output_dir / game_id / "play" / f"seed-{seed}.jsonl"


def _loop(session: PlaySession, echo: Callable[[str], None], stdin: IO[str]) -> str:
    """Play until the game ends ('over'), the person quits ('quit') or the input ends ('eof')."""
    shown = 0
    while True:
        while session.bot_move() is not None:
            pass
        events = session.events()
        for event in events[shown:]:
            echo(_told(session, event))
        shown = len(events)
        if session.over:
            _show_end(session, echo)
            return "over"
        _show_table(session, echo)
        while True:
            answer = _ask(stdin, echo)
            if answer is None:
                echo("")
                return "eof"
            word = answer.strip().lower()
            if not word:
                continue
            if word in ("quit", "q", "exit"):
                return "quit"
            if word in ("help", "?"):
                echo(HELP)
                continue
            if word in ("table", "t"):
                _show_table(session, echo)
                continue
            if word == "hint":
                try:
                    hint = session.hint()
                except PnpError as exc:
                    echo(f"no hint: {exc.message}")
                    continue
                echo(f"hint: {hint.action}: {hint.why}")
                continue
            if word == "undo":
                if session.undo():
                    shown = len(session.events())
                    echo(f"undone: back to your move {sum(1 for a in session.actors if a == session.seat) + 1}")
                    _show_table(session, echo)
                else:
                    echo("nothing to undo: you have not moved yet")
                continue
            try:
                session.play(answer)
            except PnpError as exc:
                echo(f"{exc.message}; type a number from 1 to {len(session.legal())}, or 'help'")
                continue
            break


def _ask(stdin: IO[str], echo: Callable[..., None]) -> str | None:
    echo("your move> ", nl=False)
    line = stdin.readline()
    if not line:
        return None
    if not stdin.isatty():
        echo(line.rstrip("\n"))  # piped answers show in the transcript, as if typed
    return line


def _told(session: PlaySession, event: Event) -> str:
    notes = "".join(f"\n      {note}" for note in event.notes)
    return f"  {session.name(event.seat)}: {event.text}{notes}"


def _show_table(session: PlaySession, echo: Callable[[str], None]) -> None:
    view = session.view()
    echo("")
    if view.status:
        echo(f"[{view.status}]")
    for zone in view.zones:
        echo(f"  {zone.line()}")
    if view.scores is not None:
        echo("  scores: " + ", ".join(f"{session.name(s)} {_num(v)}" for s, v in enumerate(view.scores)))
    echo(f"your move (seat {session.seat + 1}):")
    for number, (_action, text) in enumerate(session.legal(), 1):
        echo(f"  {number:>3}. {text}")


def _show_end(session: PlaySession, echo: Callable[[str], None]) -> None:
    result = session.result()
    assert result is not None
    view = session.view()
    echo("")
    for zone in view.zones:
        echo(f"  {zone.line()}")
    echo("game over. scores: " + ", ".join(f"{session.name(s)} {_num(v)}" for s, v in enumerate(result.scores)))
    winners = [session.name(w) for w in result.winners]
    echo(f"won by {', '.join(winners)}" if winners else "nobody won")


def _save(session: PlaySession, path: Path, ctx: Context, reason: str) -> str:
    """Write the log and say so in one line."""
    from generator.project import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (session.record().to_json() + "\n").encode("utf-8"))
    shown = ctx.project.display(path)
    moves, seed = len(session.actions), session.seed
    if not reason:
        return (f"saved the game (seed {seed}, {moves} moves) to {shown}; "
                f"`pnp check {session.game_id} {shown}` replays it")
    return (f"{reason}: saved the unfinished game (seed {seed}, {moves} moves) to {shown}; "
            f"`pnp check` replays it and calls it unfinished")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
