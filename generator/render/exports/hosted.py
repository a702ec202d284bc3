"""Work for components `pnp build` makes no job of its own for, done by the game's first printable component's job.

The build plans export jobs for cards, tiles and tokens only (boards and
sheets are documents), and a component job's key covers its own component.
A board a print service takes, or the whole-game Tabletop Simulator table,
therefore rides on the job of the game's first printable component (the
host), which first reads every file of `data/<game>/` through the read gate:
its recorded inputs then cover every component, and an edit anywhere in the
game redoes it. When the build plans such work as jobs of its own, this
module goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.model import Component, Game

if TYPE_CHECKING:
    from generator.project import Project

def is_host(game: Game, component: Component) -> bool:
    """Whether this is the game's first printable component, whose export jobs carry the game-wide work."""
    host = next((c for c in game.components if c.printable), None)
    return host is not None and host.id == component.id


def depend_on_game_data(project: Project, game: Game) -> None:
    """Read every file of the game's data folder through the read gate, so the host's job is redone when any
    component changes, not only its own."""
    gate = project.gate
    for path in gate.listdir(project.data_dir / game.id, "*", game.location):
        if gate.exists(path, game.location):  # a regular file (a folder such as fonts/ is not data)
            gate.read_bytes(path, game.location)
