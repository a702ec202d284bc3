"""Plunder Pile, a fifth game added the way docs/new-game.md says (not shipped): a fixture project and a plugin.

The folder holds what a designer writes: the project part, `data/nim/` and `templates/` (layouts and
the rulebook), which is data and never run; and the engine part, `plunder_pile/` with its own
`pyproject.toml`, an installable package whose entry point (`nim = "plunder_pile:RULES"` in the group
`pirate_press.engines`) adds the game's rules engine without a line of `generator/` edited.

`install_plugin(site)` installs that package the way pip would, as far as discovery goes: the code and
a `plunder_pile-0.1.0.dist-info/` (METADATA and the entry points read from pyproject.toml) in a folder
that goes on `sys.path` (a subprocess's PYTHONPATH), where `importlib.metadata` finds it. In-process
tests use `REGISTRY`, the installed registry plus the same engine by hand.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from generator.engine.registry import REGISTRY as SHIPPED
from generator.project import Project

FOLDER = Path(__file__).resolve().parent
GAME_ID = "nim"
ENGINE = "generator.engine.games.example"
REGISTRY = SHIPPED.with_engine(GAME_ID, ENGINE)
PACKAGE = "plunder_pile"


def make_project(root: Path) -> Project:
    """A project folder at `root` whose only game is Plunder Pile."""
    for folder in ("data", "templates"):
        shutil.copytree(FOLDER / folder, root / folder, dirs_exist_ok=True)
    return Project.at(root)


def install_plugin(site: Path) -> Path:
    """Plunder Pile's engine package and its distribution metadata in `site` (made if missing); returns
    `site`, the folder to put on sys.path. The entry points are those of tests/fifth_game/pyproject.toml."""
    meta = tomllib.loads((FOLDER / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    site.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FOLDER / PACKAGE, site / PACKAGE, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    write_distribution(site, meta["name"], meta["version"], meta["entry-points"])
    return site


def write_distribution(site: Path, name: str, version: str, entry_points: dict[str, dict[str, str]]) -> Path:
    """A `<name>-<version>.dist-info` in `site` declaring `entry_points` (group -> name -> value): what
    `importlib.metadata` reads of an installed distribution to find its plugins."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, points in entry_points.items():
        lines += [f"[{group}]", *(f"{key} = {value}" for key, value in points.items()), ""]
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return info


__all__ = ["GAME_ID", "REGISTRY", "install_plugin", "make_project", "write_distribution"]
