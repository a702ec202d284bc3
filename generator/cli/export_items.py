"""`pnp export-items GAME COMPONENT --csv`: today's items as a sheet to start a spreadsheet from.

The sheet reads back to the same items (`items: {from: FILE}` in the component),
so a designer can move a deck from YAML to a spreadsheet without retyping it.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.context import Context, complete_games, pass_context, root_option
from generator.errors import UsageError
from generator.load.sheets import write_csv
from generator.project import write_atomic


@click.command("export-items")
@click.argument("game_id", metavar="GAME", shell_complete=complete_games)
@click.argument("component_id", metavar="COMPONENT")
@click.option("--csv", "as_csv", is_flag=True, default=True, help="Write CSV (the one format so far; the default).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the sheet to this file (else to standard output).")
@root_option
@pass_context
def export_items_command(ctx: Context, game_id: str, component_id: str, as_csv: bool, out: Path | None) -> None:
    """Write a component's items as CSV: one row per item, one column per field."""
    (game,) = ctx.games([game_id])
    if not game.has_component(component_id):
        known = ", ".join(c.id for c in game.components)
        raise UsageError(f"{game_id} has no component {component_id!r} (components: {known})")
    text = write_csv(game.component(component_id))
    if out is None:
        ctx.echo(text, nl=False)
        return
    write_atomic(out, text.encode("utf-8"))
    folder = ctx.project.data_dir.resolve() / game_id
    inside = out.resolve().is_relative_to(folder)  # `items: {from: ...}` names a sheet under the game's folder
    source = out.resolve().relative_to(folder).as_posix() if inside else out.name
    ctx.note(f"wrote {out} ({text.count(chr(10)) - 1} items); "
             + ("" if inside else f"move it into data/{game_id}/, then ")
             + f"point the component at it with 'items: {{from: {source}}}' in data/{game_id}/")
