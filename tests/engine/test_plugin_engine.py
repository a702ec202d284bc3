"""A game's engine as an installed plugin: Plunder Pile (tests/fifth_game) is a package of its own whose entry
point adds the game, and `pnp` simulates, builds, validates and checks it with nothing in generator/ edited.

The plugin is installed as far as Python's discovery goes (its code and a dist-info with its entry points
in a folder on PYTHONPATH, `fifth_game.install_plugin`): what `pip install tests/fifth_game` would leave in
site-packages, without a pip run in the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import fifth_game
from tests.helpers import REPO

pytestmark = pytest.mark.slow


def _pnp(root: Path, site: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(REPO)])}
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(root), *argv], env=env,
                          capture_output=True, text=True, check=False, cwd=root)


def test_an_installed_plugin_adds_its_game_to_every_command(tmp_path: Path) -> None:
    root = tmp_path / "project"
    fifth_game.make_project(root)
    site = fifth_game.install_plugin(tmp_path / "site")

    shown = _pnp(root, site, "show", "nim")
    assert shown.returncode == 0 and "rules engine: plunder_pile (from plunder-pile)" in shown.stdout

    log = tmp_path / "games.jsonl"
    played = _pnp(root, site, "-q", "simulate", "nim", "--games", "40", "--players", "2", "--bots",
                  "heuristic,greedy", "--seed", "3", "--json", "--log", str(log))
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["games"] == 40 and [seat["bot"] for seat in summary["seats"]] == ["heuristic", "greedy"]
    wins = [seat["wins"] for seat in summary["seats"]]
    assert wins[0] > wins[1]  # the plugin's own bot is the one that loses to the textbook strategy

    checked = _pnp(root, site, "check", "nim", str(log))
    assert checked.returncode == 0 and checked.stdout.startswith("legal: all 40 games"), checked.stderr

    validated = _pnp(root, site, "validate", "-v")  # every check listed
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "enough doubloons for the largest pile" in validated.stdout  # the engine's own deck check ran
    built = _pnp(root, site, "-q", "build", "nim", "--paper", "a4")
    assert built.returncode == 0, built.stderr
    pdfs = sorted(p.name for p in (root / "output" / "nim").glob("*.pdf"))
    assert pdfs == ["nim-doubloon-a4-single-sided.pdf", "nim-rules-a4.pdf"]

    without = _pnp(root, tmp_path / "empty-site", "simulate", "nim")  # the same project, plugin not installed
    assert without.returncode == 2 and without.stderr.startswith("pnp: nim has no rules engine")


def test_a_plugin_dropped_into_the_project_folder_is_never_run(tmp_path: Path) -> None:
    """`python -m generator` puts the working folder first on sys.path; the plugin search leaves it out, so a
    project folder holding a package and its dist-info stays data."""
    root = tmp_path / "project"
    fifth_game.make_project(root)
    fifth_game.install_plugin(root)
    (root / "plunder_pile" / "__init__.py").write_text("raise SystemExit('project code ran')\n", encoding="utf-8")
    done = _pnp(root, tmp_path / "empty-site", "simulate", "nim")
    assert done.returncode == 2 and done.stderr.startswith("pnp: nim has no rules engine"), done.stderr
