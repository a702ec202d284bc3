"""A build parses each document template once per process (validation's parse serves the rulebook for
both papers, the score sheet for its files and every print plan), and each job still records exactly
the item fields and files it would have read parsing on its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.pipeline import BuildSession
from generator.project import Project
from generator.render.build import BuildOptions
from generator.render.documents import document_specs, rulebook
from generator.render.modelreads import FieldReads, watched
from tests.render.conftest import REPO, make_project


@pytest.fixture()
def counterattack(tmp_path: Path) -> Project:
    project = make_project(tmp_path / "ca")
    shutil.copy(REPO / "templates" / "rulebooks" / "how-to-print.md.j2", project.root / "templates" / "rulebooks")
    return project


def test_a_build_parses_each_template_once_and_records_what_each_job_read(counterattack: Project,
                                                                         monkeypatch) -> None:  # type: ignore[no-untyped-def]
    parsed: list[str] = []
    parse = rulebook._parse

    def counted(path: Path, *args, **kw):  # type: ignore[no-untyped-def]
        parsed.append(path.name)
        return parse(path, *args, **kw)

    monkeypatch.setattr(rulebook, "_parse", counted)
    options = BuildOptions(jobs=1)
    with BuildSession(counterattack) as session:
        session.build((), options)
        game = session.load("counterattack")
    assert parsed.count("counterattack.md.j2") == 1  # validation's, for both papers' rulebooks
    assert parsed.count("campaign-log.md.j2") == 1  # ... for both papers' logs and print plans
    assert parsed.count("how-to-print.md.j2") == 2  # one per paper: it shows that paper's plan
    monkeypatch.setattr(rulebook, "_parse", parse)

    recorded = json.loads((counterattack.output_dir / ".cache" / "manifest.json").read_text())["jobs"]
    alone = Project.at(counterattack.root)  # a session of its own: nothing shared, every template parsed here
    for paper in ("a4", "letter"):
        for spec in document_specs(game, alone, paper, options=options):
            reads = FieldReads()
            with alone.gate.recording() as files:
                spec.produce(watched(game, reads))  # outside a build: parsed directly through the job's copy
            record = recorded[spec.label]
            assert record["facts"] == reads.snapshot(), spec.label
            assert record["inputs"] == files.as_dict(), spec.label
