"""Plunder Pile, a fifth game added the way the how-to says (not shipped): a fixture project.

The folder holds what a game adds besides its engine: `data/nim/` (step 1),
`templates/layouts/nim/` (step 2) and `templates/rulebooks/nim.md.j2` (step 3).
Its engine is the documented example, `generator.engine.games.example` (step 4), and
`REGISTRY` is the shipped registry plus its one entry (step 5). Step 6, the
tests, needs no edit: every registry-parametrised test takes a registry, and
`tests/engine/test_fifth_game.py` runs them with this one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.engine.registry import REGISTRY as SHIPPED
from generator.project import Project

FOLDER = Path(__file__).resolve().parent
GAME_ID = "nim"
ENGINE = "generator.engine.games.example"
REGISTRY = SHIPPED.with_engine(GAME_ID, ENGINE)


def make_project(root: Path) -> Project:
    """A project folder at `root` whose only game is Plunder Pile."""
    for folder in ("data", "templates"):
        shutil.copytree(FOLDER / folder, root / folder, dirs_exist_ok=True)
    return Project.at(root)
