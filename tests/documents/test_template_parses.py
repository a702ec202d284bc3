"""A build parses each document template once per process (validation's parse serves the rulebook for
both papers, the score sheet for its files and every print plan), and each job still records exactly
the item fields and files it would have read parsing on its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.build.options import BuildOptions
from generator.build.session import BuildSession
from generator.project import Project
from generator.render.base.modelreads import FieldReads, watched
from generator.render.documents import document_specs, rulebook
from tests.render.conftest import REPO, make_project


@pytest.fixture()
def counterattack(tmp_path: Path) -> Project:
    project = make_project(tmp_path / "ca")
    shutil.copy(REPO / "templates" / "rulebooks" / "how-to-print.md.j2", project.root / "templates" / "rulebooks")
    return project


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("with_picture", [False, True])
def test_a_sheet_is_laid_out_once_for_its_print_plan_and_its_files_unless_it_draws_a_card(
        counterattack: Project, monkeypatch, with_picture: bool) -> None:  # type: ignore[no-untyped-def]
    """The rulebook's print plan lays out the campaign log for its page count; the log's own job, later in the
    same process, draws that layout. A sheet that pictures a card reads the card's fields as it draws, so it
    is laid out by each job itself. Either way each job records what it would have read on its own."""
    from generator.render.documents import sheets

    log = counterattack.root / "templates" / "sheets" / "counterattack" / "campaign-log.md.j2"
    if with_picture:
        log.write_text(log.read_text() + "\n![The first port](port/{{ component('port').items[0].id }})\n")
    laid: list[str] = []
    lay_out = sheets._lay_out

    def counted(game, project, template, paper, *args):  # type: ignore[no-untyped-def]
        laid.append(paper)
        return lay_out(game, project, template, paper, *args)

    monkeypatch.setattr(sheets, "_lay_out", counted)
    options = BuildOptions(jobs=1)
    with BuildSession(counterattack) as session:
        session.build((), options)
        game = session.load("counterattack")
    assert sorted(laid) == (["a4", "a4", "letter", "letter"] if with_picture else ["a4", "letter"])
    monkeypatch.setattr(sheets, "_lay_out", lay_out)

    recorded = json.loads((counterattack.output_dir / ".cache" / "manifest.json").read_text())["jobs"]
    alone = Project.at(counterattack.root)
    for paper in ("a4", "letter"):
        for spec in document_specs(game, alone, paper, options=options):
            reads = FieldReads()
            with alone.gate.recording() as files:
                spec.produce(watched(game, reads))
            assert recorded[spec.label]["facts"] == reads.snapshot(), spec.label
            assert recorded[spec.label]["inputs"] == files.as_dict(), spec.label
