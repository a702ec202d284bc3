"""Every card, tile and token a rulebook figure places lies inside the figure's frame (issue 32: a figure
cut off at its right edge, Pirate Tricks A4 p5 and Letter p6)."""

from __future__ import annotations

import pytest

from generator.load import load_game
from generator.project import Project
from generator.render.documents.markup import Scene
from generator.render.documents.rulebook import parse_template, rulebook_template
from generator.render.documents.scenes import STACK_STEP

GAMES = ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire")


def overflows(project: Project, game_id: str) -> list[str]:
    """Each face that reaches past its scene's frame: where, and by how many mm."""
    game = load_game(project, game_id)
    _, blocks = parse_template(rulebook_template(game, project), game, project)
    found = []
    scenes = [block for block in blocks if isinstance(block, Scene)]
    assert scenes, game_id
    for scene in scenes:
        for item in scene.items:
            if item.kind != "face":
                continue
            component = game.component(item.ref.split("/")[0])
            if component.kind == "board":
                continue  # a board is bigger than a page: a figure may show part of it (a rival's first rows)
            size = component.size
            w, h = (size.height, size.width) if item.turn in (90, 270) else (size.width, size.height)
            spread = (item.stack - 1) * STACK_STEP
            right, bottom = item.x + w + spread, item.y + h + spread
            if item.x < 0 or item.y < 0 or right > scene.width + 1e-6 or bottom > scene.height + 1e-6:
                found.append(f"line {item.line}: {item.ref} reaches x {right:g} of {scene.width:g}, "
                             f"y {bottom:g} of {scene.height:g}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_figure_holds_its_faces(project: Project, game_id: str) -> None:
    assert overflows(project, game_id) == []
