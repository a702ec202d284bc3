"""`pnp watch` keeps one build session, and with it what drawing has learned (font subsets and their
compressed files, face forms, compiled templates and layouts, paragraph line breaks), from build to build. After edits,
replacements and removals of data, layouts and templates, saved two at a time, its outputs must equal
a clean build's byte for byte, whatever process drew them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.build.options import BuildOptions
from generator.build.session import BuildSession, build
from generator.project import Project
from tests.render.conftest import REPO, make_project

WATCHED = BuildOptions(exports=("sheets", "preview"), jobs=2)  # as `pnp watch` runs on two cores


def outputs(project: Project) -> dict[str, bytes]:
    out = project.output_dir
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".cache" not in p.parts}


def clean_build(source: Path, root: Path) -> dict[str, bytes]:
    """A fresh process's view: a new session over a copy of the sources, everything drawn from scratch."""
    for folder in ("data", "templates"):
        shutil.copytree(source / folder, root / folder)
    project = Project.at(root)
    build(project, (), BuildOptions(exports=WATCHED.exports, jobs=1), force=True)
    return outputs(project)


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path.name}: {old!r}"
    path.write_text(text.replace(old, new, 1))


@pytest.mark.slow
def test_a_watch_session_after_two_rounds_of_edits_equals_a_clean_build(tmp_path: Path) -> None:
    root = tmp_path / "watched"
    project = make_project(root)
    shutil.copy(REPO / "templates" / "rulebooks" / "how-to-print.md.j2", root / "templates" / "rulebooks")
    cards = root / "data" / "counterattack" / "cards.yaml"
    log = root / "templates" / "sheets" / "counterattack" / "campaign-log.md.j2"
    with BuildSession(project, watching=True) as session:  # as `pnp watch` (workers hand back their lines)
        session.build((), WATCHED, force=True)  # the first build of a watch: everything drawn, all kept warm
        before = outputs(project)

        # round 1: a card renamed (its sheets, preview and the rulebook show it), the campaign log reworded
        replace(cards, "name: Nassau,", "name: Nassau Harbour,")
        replace(log, "Each hand: the trump", "Every hand: the trump")
        first = session.build((), WATCHED, force=True)
        assert {"counterattack rules a4", "counterattack campaign-log letter"} <= set(first.summary.ran)
        assert outputs(project) == clean_build(root, tmp_path / "clean-1")

        # round 2: the port layout replaced (a smaller title), a card's id changed (its old files go), the
        # campaign log's template removed (its PDFs go, and the rulebook's how-to-print page changes)
        replace(root / "templates" / "layouts" / "counterattack" / "port.yaml", "size: 15,", "size: 14,")
        replace(cards, "{id: tortuga,", "{id: tortuga-bay,")
        log.unlink()
        # the ink colour changed: every paragraph's style with it, so no line kept from round 1 is drawn again
        replace(root / "data" / "counterattack" / "game.yaml", 'ink: "#1b1b1b"', 'ink: "#2b2b2b"')
        second = session.build((), WATCHED, force=True)
        assert second.summary.ran
        after = outputs(project)
        assert after == clean_build(root, tmp_path / "clean-2")
    assert not any("campaign-log" in name for name in after)
    assert any("campaign-log" in name for name in before) and after != before
