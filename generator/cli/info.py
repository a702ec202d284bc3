"""`pnp list` and `pnp show GAME`: what is in the box, read from the data."""

from __future__ import annotations

import json

import click

from generator.cli.context import Context, complete_games, pass_context, root_option
from generator.cli.table import format_table
from generator.model import Game


def _players(game: Game) -> str:
    lo, hi = game.players_min, game.players_max
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _minutes(game: Game) -> str:
    lo, hi = game.play_time
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@root_option
@pass_context
def list_command(ctx: Context, as_json: bool) -> None:
    """The games, their components and counts."""
    games, broken = ctx.games_apart()  # a game whose data does not load is its own error line, after the rest
    if as_json:
        ctx.echo(json.dumps([_summary(g) for g in games], indent=2))
        ctx.fail_for(broken)
        return
    rows = []
    for game in games:
        components = ", ".join(f"{c.count} {c.plural if c.count != 1 else c.name}" for c in game.components)
        rows.append([game.id, game.title, _players(game), _minutes(game), components])
    if rows:
        ctx.echo(format_table(["game", "title", "players", "minutes", "components"], rows, wrap={4: 60}))
    ctx.fail_for(broken)


def _engine_line(ctx: Context, game_id: str) -> str:
    """Which engine plays the game and which package registered it, or that it has none (a data-only game)."""
    registry = ctx.registry
    if not registry.has_engine(game_id):
        return "none (it builds and validates; simulate, sweep, check and play need one: see docs/new-game.md)"
    origin = registry.origin(game_id)
    return registry.engines[game_id].partition(":")[0] + (f" (from {origin})" if origin else "")


def _summary(game: Game) -> dict[str, object]:
    return {
        "id": game.id,
        "title": game.title,
        "players": [game.players_min, game.players_max],
        "play_time": list(game.play_time),
        "age": game.age,
        "components": {c.id: {"kind": c.kind, "count": c.count, "items": len(c.items)} for c in game.components},
        "design_notes": list(game.design_notes),
    }


@click.command("show")
@click.argument("game_id", metavar="GAME", shell_complete=complete_games)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@root_option
@pass_context
def show_command(ctx: Context, game_id: str, as_json: bool) -> None:
    """One game in detail: components, contents, player counts, design notes and decisions."""
    (game,) = ctx.games([game_id])
    if as_json:
        ctx.echo(json.dumps(_summary(game), indent=2))
        return
    ctx.echo(f"{game.title}  ({game.id})")
    if game.tagline:
        ctx.echo(game.tagline)
    ctx.echo(f"{_players(game)} players, {_minutes(game)} minutes, age {game.age}+")
    ctx.echo(f"rules engine: {_engine_line(ctx, game.id)}")
    for credit in game.credits:
        ctx.echo(f"{credit.role}: {', '.join(credit.names)}")
    ctx.echo()
    rows = [
        [c.id, c.kind, c.size.label(), str(len(c.items)), str(c.count), "yes" if c.double_sided else "", c.front]
        for c in game.components
    ]
    ctx.echo(format_table(["component", "kind", "size", "designs", "copies", "2-sided", "layout"], rows))
    if game.contents:
        ctx.echo("\nContents (declared):")
        for entry in game.contents:
            ctx.echo(f"  {entry.count:>3} {entry.label}")
    if game.player_counts:
        ctx.echo("\nBy player count:")
        for players, variant in sorted(game.player_counts.items()):
            removed = sum(
                i.count for f in variant.remove for i in game.component(f.component).items if f.matches(i)
            )
            ctx.echo(f"  {players} players: {removed} cards removed" + (f" ({variant.note})" if variant.note else ""))
    if game.design_notes:
        ctx.echo("\nDesign notes:")
        for note in game.design_notes:
            ctx.echo(f"  {note}")
    if game.decisions:
        ctx.echo("\nDesign decisions (the rule texts are silent here):")
        for decision in game.decisions:
            ctx.echo(f"  {decision.location}: {decision.text}")
    _echo_waivers(ctx, game)


def _echo_waivers(ctx: Context, game: Game) -> None:
    """The accessibility rules a layout waives, each with its written reason (`waive:` in the layout)."""
    from generator.errors import DataError
    from generator.render.faces.access import waivers

    try:
        found = waivers(game, ctx.project)
    except DataError:
        return  # a layout that does not load: `pnp validate` reports it
    if found:
        ctx.echo("\nAccessibility rules waived by a layout (the preflight of `pnp validate` skips them):")
        for layout, rule, reason, where in found:
            ctx.echo(f"  {where}: {layout} waives {rule}: {reason}")
