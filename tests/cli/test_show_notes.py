"""`pnp show` shows a game's design notes (the data's `design_notes:`), in text and JSON."""

from __future__ import annotations

import json

import pytest

from generator.project import Project
from tests.helpers import run_pnp


def test_show_prints_the_design_notes(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_pnp(capsys, "--root", str(project.root), "show", "counterattack")
    assert code == 0
    assert "Design notes:\n  Each hand must exploit exactly one port, so a won game is six hands long." in out
    code, out, _err = run_pnp(capsys, "--root", str(project.root), "show", "counterattack", "--json")
    notes = json.loads(out)["design_notes"]
    assert notes == ["Each hand must exploit exactly one port, so a won game is six hands long."]
