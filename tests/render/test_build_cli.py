"""`pnp build` end to end on a throw-away project: files, options, errors, determinism."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli import cli


@pytest.fixture(autouse=True)
def cards_only(monkeypatch):
    """Keep these tests about card sheets: documents (another module's work) contribute no jobs."""
    monkeypatch.setattr("generator.build.plan.document_jobs", lambda game, project, options: [])


def run(project, *args):
    return CliRunner().invoke(cli, ["--root", str(project.root), "-q", "build", *args], catch_exceptions=False)


@pytest.mark.slow
def test_build_writes_one_pdf_per_component_and_paper(fresh_project) -> None:
    result = run(fresh_project, "--force")
    assert result.exit_code == 0, result.output
    out = fresh_project.output_dir / "counterattack"
    names = sorted(p.name for p in out.glob("*.pdf"))
    assert names == sorted(f"counterattack-{c}-{p}-duplex-long.pdf" for c in ("port", "exposed-port", "main")
                           for p in ("a4", "letter"))
    letter = PdfReader(out / "counterattack-main-letter-duplex-long.pdf")
    assert abs(float(letter.pages[0].mediabox.width) - 612) < 0.1


def test_rebuild_is_byte_identical_and_leaves_files_alone(fresh_project) -> None:
    run(fresh_project, "--force", "--only", "port", "--paper", "a4")
    path = fresh_project.output_dir / "counterattack" / "counterattack-port-a4-duplex-long.pdf"
    first, mtime = path.read_bytes(), path.stat().st_mtime_ns
    run(fresh_project, "--force", "--only", "port", "--paper", "a4")
    assert path.read_bytes() == first and path.stat().st_mtime_ns == mtime


def test_options_change_the_sheets(fresh_project) -> None:
    run(fresh_project, "--force", "--only", "port", "--paper", "a4", "--duplex", "none", "--no-crop-marks")
    pdf = PdfReader(fresh_project.output_dir / "counterattack" / "counterattack-port-a4-single-sided.pdf")
    assert len(pdf.pages) == 1  # equal backs, no duplex: fronts only


@pytest.mark.slow
def test_png_and_tts_exports(fresh_project) -> None:
    result = run(fresh_project, "--force", "--only", "exposed-port", "--paper", "a4", "--png", "--tts", "--jobs", "2")
    assert result.exit_code == 0, result.output
    out = fresh_project.output_dir / "counterattack"
    assert len(list((out / "png").glob("*.png"))) == 5
    assert (out / "tts" / "exposed-port-sheet-1.png").is_file()


@pytest.mark.parametrize("args, words", [
    (["--only", "nope"], "no such component"),
    (["--back-offset", "1"], "two numbers"),
    (["--bleed", "-1"], "--bleed"),
    (["--jobs", "-1"], "--jobs"),
    (["nosuchgame"], "unknown game"),
])
def test_bad_options_are_one_line_errors(fresh_project, args, words, capsys) -> None:
    from generator.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["--root", str(fresh_project.root), "build", "--force", *args])
    assert exited.value.code != 0
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_broken_layout_stops_the_build_with_file_and_line(fresh_project, capsys) -> None:
    from generator.cli import main

    layout = fresh_project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text("elements:\n  - {name: t, type: text, text: '{{ card.nope }}'}\n")
    with pytest.raises(SystemExit):
        main(["--root", str(fresh_project.root), "build", "--force", "--only", "port"])
    err = capsys.readouterr().err
    assert "templates/layouts/counterattack/port.yaml:2" in err
    assert not (fresh_project.output_dir / "counterattack" / "counterattack-port-a4-duplex-long.pdf").exists()


@pytest.mark.slow
@pytest.mark.parametrize("force", [False, True])
def test_a_layout_that_cannot_load_is_bad_data_not_an_invalid_deck(fresh_project, capsys, force) -> None:
    """Exit 2 with the file:line first, with or without --force (then the port job meets it): no hint to force
    what cannot be drawn."""
    from generator.cli import main

    cards = fresh_project.data_dir / "counterattack" / "cards.yaml"
    cards.write_text(cards.read_text().replace("front: counterattack/port\n", "front: counterattack/prot\n", 1))
    with pytest.raises(SystemExit) as exited:
        main(["--root", str(fresh_project.root), "build", *(["--force"] if force else [])])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pnp: data/counterattack/cards.yaml:") and "counterattack/prot" in err
    assert "--force" not in err and "fails validation" not in err and len(err.splitlines()) == 1
    folder = fresh_project.output_dir / "counterattack"
    if force:  # the other components' jobs ran and wrote whole files; nothing half-written is left
        assert not list(folder.rglob("*.tmp")) and not list(folder.glob("counterattack-port-*"))
    else:  # refused before anything was written
        assert not folder.exists()


def test_build_refuses_an_invalid_deck_without_force(fresh_project, capsys) -> None:
    from generator.cli import main

    layout = fresh_project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text(layout.read_text().replace("max_width: 46", "max_width: 4"))
    with pytest.raises(SystemExit) as exited:
        main(["--root", str(fresh_project.root), "build", "--only", "port"])
    assert exited.value.code == 1  # refused, as `pnp validate` refuses it
    err = capsys.readouterr().err
    assert "fails validation" in err and "--force" in err
    assert not (fresh_project.output_dir / "counterattack").exists()


def test_valid_deck_builds_without_force(fresh_project) -> None:
    result = run(fresh_project, "--only", "exposed-port", "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert (fresh_project.output_dir / "counterattack" / "counterattack-exposed-port-letter-duplex-long.pdf").is_file()


@pytest.mark.slow
def test_document_jobs_join_the_build(fresh_project, monkeypatch) -> None:
    from generator.build.jobs import Job
    from generator.render.base.outputs import FileKind, OutputFile

    def fake_jobs(game, project, options):
        folder = project.output_dir / game.id
        return [Job(game.id, f"{game.id} rules {p}", folder,
                    lambda p=p: [OutputFile(f"{game.id}-rules-{p}.txt", FileKind.RULES, b"rules")])
                for p in options.papers]

    monkeypatch.setattr("generator.build.plan.document_jobs", fake_jobs)
    result = run(fresh_project, "--force", "--paper", "a4")
    assert result.exit_code == 0, result.output
    assert (fresh_project.output_dir / "counterattack" / "counterattack-rules-a4.txt").read_bytes() == b"rules"


@pytest.mark.slow
@pytest.mark.parametrize(("duplex", "ending"), [("short", "duplex-short"), ("none", "single-sided")])
def test_sheet_file_names_say_how_to_print_them(fresh_project, duplex, ending) -> None:
    result = run(fresh_project, "--force", "--paper", "a4", "--duplex", duplex, "--only", "main")
    assert result.exit_code == 0, result.output
    names = [p.name for p in (fresh_project.output_dir / "counterattack").glob("*.pdf")]
    assert names == [f"counterattack-main-a4-{ending}.pdf"]  # main's backs are all alike: fronts only with none


def test_the_summary_line_names_papers_in_the_registry_order_whichever_came_first() -> None:
    from generator.build.jobs import Summary

    line = Summary(sheets={"letter": 38, "a4": 37}).line()  # a reused game's jobs may list Letter first
    assert line.endswith("component sheets to print: 37 on a4, 38 on letter")
