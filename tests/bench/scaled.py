"""A temporary copy of the project whose counterattack deck is scaled up, for the scaling figures.

Every item of every card, tile and token component of one game is repeated
`times` times under new ids (`<id>-x<k>`), its printed name numbered
(`Cook 7`), so a 100x deck has 100x the distinct faces to validate, lay out and
draw (equal faces would be drawn once: the build draws each distinct face once). The declared contents then no longer match (validation
reports that, which costs the same time as passing): builds use --force.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
GAME = "counterattack"


class _PlainDumper(yaml.SafeDumper):
    """Writes repeated values out in full: the loader refuses files with many '*' aliases."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def copy_project(into: Path) -> Path:
    """data/ and templates/ copied into `into` (output/ starts empty); returns `into`."""
    for folder in ("data", "templates"):
        shutil.copytree(ROOT / folder, into / folder, dirs_exist_ok=True)
    return into


def scale_deck(root: Path, times: int, game_id: str = GAME) -> int:
    """Repeat every card, tile and token item (or item generator) of one game `times` times in the copy at `root`.

    Returns the number of cards in the scaled deck, as the model counts them.
    """
    from generator.load import load_game
    from generator.project import Project

    for path in sorted((root / "data" / game_id).glob("*.yaml")):
        document = yaml.safe_load(path.read_text())
        if not isinstance(document, dict) or "components" not in document:
            continue
        for component in document["components"]:
            if component.get("kind") not in ("card", "tile", "token"):
                continue  # score sheets and boards stay as shipped (a sheet's copies are capped)
            items = component.get("items", [])
            component["items"] = [_copy(item, k) for k in range(times) for item in items]
        path.write_text(yaml.dump(document, Dumper=_PlainDumper, sort_keys=False))
    game = load_game(Project.at(root), game_id)
    return sum(component.count for component in game.components)


def _copy(item: dict[str, object], k: int) -> dict[str, object]:
    """Copy `k` of an item: its own id, and its own printed name so that its face differs too."""
    if not k:
        return item
    copy = {**item, "id": f"{item['id']}-x{k}"}
    if isinstance(item.get("name"), str):
        copy["name"] = f"{item['name']} {k}"
    return copy
