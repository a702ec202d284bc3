"""Reused side checks: a build's validation re-checks only the component sides whose inputs changed,
and its report always equals a validation from scratch (edits, moved lines, layout edits)."""

from __future__ import annotations

import pytest

from generator.load import load_game
from generator.project import Project
from generator.validate import SideChecks, validate_game
from tests.helpers import edit

CARDS = "data/counterattack/cards.yaml"


def compare(project: Project, known: SideChecks) -> SideChecks:
    """Validate with the kept checks and from scratch: the reports must be equal. Returns the next keeper."""
    game = load_game(project, "counterattack")
    kept = validate_game(game, project, known=known)
    assert kept.to_json() == validate_game(game, project).to_json()
    return SideChecks(known.current)


def recomputed(known: SideChecks) -> int:
    """How many sides were checked afresh (the others' entries were carried over as they were)."""
    return sum(1 for key, entry in known.current.items() if known.previous.get(key) is not entry)


@pytest.mark.slow
def test_kept_side_checks_equal_a_validation_from_scratch_through_edits(project_copy: Project) -> None:
    root = project_copy.root
    first = SideChecks()
    known = compare(project_copy, first)
    sides = len(first.current)
    assert sides >= 4 and recomputed(first) == sides

    edit(root / CARDS, "name: Nassau,", "name: Nassau Harbour of the Seven Winds and Some More,")  # too wide
    after_edit = known
    known = compare(project_copy, after_edit)
    assert recomputed(after_edit) == 2  # the port card's front and back; the others were reused
    assert not validate_game(load_game(project_copy, "counterattack"), project_copy, known=known).ok

    text = (root / CARDS).read_text()
    (root / CARDS).write_text("# a comment moves every card one line down\n" + text)
    moved = known
    known = compare(project_copy, moved)  # the failure now names the card's new line
    assert recomputed(moved) == sides

    layout = root / "templates/layouts/counterattack/port.yaml"
    layout.write_text(layout.read_text() + "\n")
    relaid = known
    known = compare(project_copy, relaid)
    assert 1 <= recomputed(relaid) < sides  # the sides drawn with that layout

    unchanged = known
    compare(project_copy, unchanged)
    assert recomputed(unchanged) == 0
