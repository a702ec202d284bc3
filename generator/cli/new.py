"""`pnp init DIR` and `pnp new GAME`: a designer's own project, and a game in it that builds at once.

Thin: the starter files and the copying live in `generator.starter`.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.context import Context, pass_context, quiet_option
from generator.errors import UsageError


@click.command("init")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@quiet_option
@pass_context
def init_command(ctx: Context, folder: Path) -> None:
    """Make a new project in DIR: data/, templates/, fonts/, art/ and a README, to add games to with pnp new.

    DIR must be new or empty. The project is yours: it holds data and templates only, never Python, and
    `pnp` builds it wherever it lies (run pnp in it, or pass --root DIR).
    """
    from generator.starter import init_project

    made = init_project(folder)
    ctx.note(f"made a project in {folder}: {', '.join(_tops(made.files))}, fonts/, art/")
    ctx.echo(f"next: cd {folder} && pnp new my-game")


@click.command("new")
@click.argument("game_id", metavar="GAME")
@click.option("--from", "source", default=None, metavar="GAME",
              help="Copy this game (of the project, or a shipped one) instead of the starter.")
@click.option("--csv", "as_csv", is_flag=True, help="Keep the starter's cards in a CSV sheet (data/GAME/cards.csv).")
@click.option("--title", default=None, help="The game's title (default: from its id, 'my-game' -> 'My Game').")
@quiet_option
@pass_context
def new_command(ctx: Context, game_id: str, source: str | None, as_csv: bool, title: str | None) -> None:
    """Add a game to the project: game.yaml, a deck of cards, its layouts and a rulebook, ready to build.

    GAME is the game's id and folder name (lower case, words joined by '-'). The starter builds and
    validates as it is: edit data/GAME/ and templates/, then pnp validate GAME and pnp build GAME.
    With --from OTHER the new game is a copy of OTHER under the new id. A game needs no rules engine;
    one is a plugin (docs/new-game.md).
    """
    from generator.starter import copy_game, new_game

    if source is not None and as_csv:
        raise UsageError("--csv shapes the starter's cards; --from copies a game as it is: give one of them")
    made = (copy_game(ctx.project, game_id, source, title) if source is not None
            else new_game(ctx.project, game_id, title, as_csv))
    for relative in made.files:
        ctx.note(f"wrote {ctx.project.display(made.root / relative)}")
    ctx.echo(f"made {game_id}{f' (a copy of {source})' if source else ''}: "
             f"pnp validate {game_id}, then pnp build {game_id}")


def _tops(files: tuple[str, ...]) -> list[str]:
    """The top-level entries among `files`, folders with a slash: data/, templates/, README.md."""
    tops = {relative.split("/")[0] + ("/" if "/" in relative else "") for relative in files}
    return sorted(tops | {"data/"}, key=lambda name: (not name.endswith("/"), name))
