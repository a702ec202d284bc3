"""Incremental builds: a one-card edit redraws that face and the files that contain it, nothing else."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from generator.build.options import BuildOptions
from generator.build.session import build
from generator.project import Project
from tests.helpers import copy_sources, edit

OPTIONS = dict(papers=("a4",), exports=("sheets", "png", "preview"))


def snapshot(project: Project) -> dict[str, tuple[bytes, int]]:
    out = project.output_dir
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}




@pytest.fixture(scope="module")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One built project shared by the tests here: each test gets its own copy of the whole tree."""
    root = tmp_path_factory.mktemp("built")
    first = build(copy_sources(root), ["counterattack"], BuildOptions(**OPTIONS))
    assert first.summary.ran and not first.summary.skipped
    return root


@pytest.fixture
def built(built_once: Path, tmp_path: Path) -> tuple[Project, dict[str, tuple[bytes, int]]]:
    shutil.copytree(built_once, tmp_path / "p")  # copy2 keeps modification times: the manifest still holds
    project = Project.at(tmp_path / "p")
    return project, snapshot(project)


@pytest.mark.slow
def test_no_change_build_runs_nothing_and_loads_nothing(built: tuple[Project, dict]) -> None:
    project, before = built
    again = build(project, ["counterattack"], BuildOptions(**OPTIONS))
    assert again.summary.ran == []
    assert again.loaded == [] and again.validated == []
    assert again.faces_drawn == 0
    assert snapshot(project) == before


@pytest.mark.slow
def test_one_card_edit_redraws_that_face_and_its_files_only(built: tuple[Project, dict]) -> None:
    project, before = built
    edit(project.data_dir / "counterattack" / "cards.yaml", "name: Nassau,", "name: Nassau Harbour,")
    result = build(project, ["counterattack"], BuildOptions(**OPTIONS))

    card_jobs = sorted(label for label in result.summary.ran if label.split()[1] in ("port", "exposed-port", "main"))
    assert card_jobs == ["counterattack port a4", "counterattack port png", "counterattack port preview"]
    documents = [label for label in result.summary.ran if label not in card_jobs]
    assert documents and all(label.endswith(" a4") for label in documents)  # the game's rulebook and sheets
    assert result.faces_drawn == 2  # the Nassau face: once at 300 dpi, once as a preview

    after = snapshot(project)
    assert set(after) == set(before)
    changed = {name for name in after if after[name][0] != before[name][0]}
    touched = {name for name in after if after[name][1] != before[name][1]}
    assert changed == touched, "files whose bytes did not change keep their modification time"
    cards_changed = {name for name in changed if "rules" not in name and "campaign" not in name}
    assert cards_changed == {
        "counterattack/counterattack-port-a4-duplex-long.pdf",
        "counterattack/png/port-nassau-1.png",
        "counterattack/png/counterattack-port-faces.pdf",
        "counterattack/preview/port-nassau.png",
        "index.html",  # the gallery links the new face under a new URL (?v=its hash), so no browser shows the old one
    }


def test_a_corrupted_face_cache_entry_is_redrawn(built: tuple[Project, dict]) -> None:
    project, before = built
    faces = sorted((project.output_dir / ".cache" / "faces").glob("*.png"))
    for entry in faces:
        entry.write_bytes(b"not a png")
    png = project.output_dir / "counterattack" / "png" / "port-tortuga-1.png"
    png.unlink()
    result = build(project, ["counterattack"], BuildOptions(**OPTIONS))
    assert result.summary.ran == ["counterattack port png"]
    assert result.faces_drawn == 7  # every port face and the shared back: their entries failed their checksum
    assert png.read_bytes() == before["counterattack/png/port-tortuga-1.png"][0]


@pytest.mark.slow
def test_an_unreadable_manifest_is_dropped_and_everything_rebuilt(built: tuple[Project, dict]) -> None:
    project, before = built
    (project.output_dir / ".cache" / "manifest.json").write_text("{ half a manifest")
    result = build(project, ["counterattack"], BuildOptions(**OPTIONS))
    assert "the build cache was unreadable and has been rebuilt" in result.warnings
    assert not result.summary.skipped
    assert {k: v[0] for k, v in snapshot(project).items()} == {k: v[0] for k, v in before.items()}
    json.loads((project.output_dir / ".cache" / "manifest.json").read_text())


def test_an_output_edited_by_hand_is_rebuilt(built: tuple[Project, dict]) -> None:
    project, before = built
    target = project.output_dir / "counterattack" / "counterattack-main-a4-duplex-long.pdf"
    target.write_bytes(target.read_bytes()[:-10] + b"0123456789")
    result = build(project, ["counterattack"], BuildOptions(**OPTIONS))
    assert result.summary.ran == ["counterattack main a4"]
    assert target.read_bytes() == before["counterattack/counterattack-main-a4-duplex-long.pdf"][0]


@pytest.mark.slow
def test_clean_ignores_the_cache(built: tuple[Project, dict]) -> None:
    """`--clean` draws everything again, and two clean builds (the shared one, this one in a copy of it under
    another folder) are the same bytes."""
    project, before = built
    result = build(project, ["counterattack"], BuildOptions(**OPTIONS), clean=True)
    assert not result.summary.skipped and result.faces_drawn > 0
    assert {k: v[0] for k, v in snapshot(project).items()} == {k: v[0] for k, v in before.items()}


def test_a_renamed_card_leaves_no_stale_file(built: tuple[Project, dict]) -> None:
    project, _ = built
    edit(project.data_dir / "counterattack" / "cards.yaml", "{id: nassau,", "{id: nassau-bay,")
    build(project, ["counterattack"], BuildOptions(**OPTIONS))
    png = project.output_dir / "counterattack" / "png"
    assert (png / "port-nassau-bay-1.png").is_file()
    assert not (png / "port-nassau-1.png").exists()


@pytest.mark.slow
def test_a_build_without_png_links_no_png_an_earlier_build_left(built: tuple[Project, dict]) -> None:
    """The 300 dpi faces of an earlier `--png` build stay on disk, but after an edit they show the old card:
    the gallery must not open them, and the summary counts only what this build's options make."""
    project, _ = built
    edit(project.data_dir / "counterattack" / "cards.yaml", "name: Nassau,", "name: Nassau Harbour,")
    options = BuildOptions(papers=("a4",), exports=("sheets", "preview"))
    first = build(project, ["counterattack"], options)
    again = build(project, ["counterattack"], options)
    html = (project.output_dir / "index.html").read_text()
    assert (project.output_dir / "counterattack" / "png" / "port-nassau-1.png").is_file()  # left alone, not linked
    assert "/png/" not in html and 'data-large=""' in html
    assert again.summary.ran == []
    assert len(again.summary.skipped) == len(first.summary.ran) + len(first.summary.skipped)
    assert sorted(again.summary.written + again.summary.unchanged) == sorted(first.summary.written + first.summary.unchanged)


@pytest.mark.slow
def test_a_no_gallery_build_keeps_the_previews_that_still_match_and_drops_the_edited_ones(
        built: tuple[Project, dict]) -> None:
    """`--no-gallery` draws no previews; the gallery a later build writes still shows the faces an earlier
    build drew while they match the data, and not the faces of a component edited meanwhile."""
    project, _ = built
    no_gallery = BuildOptions(papers=("a4",), exports=("sheets", "png"))
    edit(project.data_dir / "counterattack" / "cards.yaml", "name: Nassau,", "name: Nassau Harbour,")
    build(project, ["counterattack"], no_gallery)
    build(project, ["counterattack"], no_gallery)  # a no-op: the recorded gallery entry is reused as it is
    gallery = json.loads((project.output_dir / ".cache" / "manifest.json").read_text())
    shown = json.dumps(gallery["games"]["counterattack"]["build"]["gallery"])
    assert "preview/main-" in shown and "preview/exposed-port-" in shown  # unchanged components: still shown
    assert "preview/port-" not in shown  # the edited component's previews show the old name: not shown


def test_gallery_lists_games_components_previews_and_files(built: tuple[Project, dict]) -> None:
    project, _ = built
    html = (project.output_dir / "index.html").read_text()
    assert "Pirates Port: Counterattack" in html
    digest = hashlib.sha256((project.output_dir / "counterattack/preview/port-nassau.png").read_bytes()).hexdigest()
    assert f'src="counterattack/preview/port-nassau.png?v={digest[:12]}"' in html  # a new face is a new URL
    assert 'href="counterattack/counterattack-port-a4-duplex-long.pdf"' in html
    assert "valid" in html
    for src in __import__("re").findall(r'(?:src|href)="([^"#?]+)', html):
        assert (project.output_dir / src).is_file(), src


def test_bad_edit_keeps_the_previous_outputs(built: tuple[Project, dict]) -> None:
    from generator.errors import DataError

    project, before = built
    edit(project.data_dir / "counterattack" / "cards.yaml", "tricks: 4}", "tricks: 44}")
    with pytest.raises(DataError):
        build(project, ["counterattack"], BuildOptions(**OPTIONS))
    assert snapshot(project) == before
    leftovers = [p for p in project.output_dir.rglob("*.tmp")]
    assert leftovers == []


@pytest.mark.slow
def test_games_built_in_parallel_processes_match_a_serial_build(project_copy: Project, tmp_path: Path) -> None:
    """--jobs 2 farms the jobs of every game (sheets, previews, documents) to forked workers: the same files
    as one process, and the workers' cache records are merged, so the next build has nothing to do."""
    import shutil

    serial = Project.at(tmp_path / "serial")
    for folder in ("data", "templates"):
        shutil.copytree(project_copy.root / folder, serial.root / folder)
    options = dict(papers=("a4",))
    parallel_result = build(project_copy, ["counterattack", "pirates-under-fire"], BuildOptions(jobs=2, **options))
    build(serial, ["counterattack", "pirates-under-fire"], BuildOptions(jobs=1, **options))
    made = {k: v[0] for k, v in snapshot(project_copy).items()}
    assert made == {k: v[0] for k, v in snapshot(serial).items()}
    assert {"counterattack port a4", "counterattack rules a4"} <= set(parallel_result.summary.ran)
    assert any(name.endswith("-port-a4-duplex-long.pdf") for name in made) and len(made) > 10
    assert sorted(parallel_result.loaded) == ["counterattack", "pirates-under-fire"]
    again = build(project_copy, ["counterattack", "pirates-under-fire"], BuildOptions(jobs=2, **options))
    assert again.summary.ran == [] and again.loaded == []  # the workers' cache records were merged


@pytest.mark.slow
def test_documents_built_in_forked_workers_match_a_serial_build(project_copy: Project, tmp_path: Path) -> None:
    import shutil

    serial = Project.at(tmp_path / "serial")
    for folder in ("data", "templates"):
        shutil.copytree(project_copy.root / folder, serial.root / folder)
    forked = build(project_copy, ["pirate-tricks"], BuildOptions(jobs=2, papers=("a4", "letter")))
    build(serial, ["pirate-tricks"], BuildOptions(jobs=1, papers=("a4", "letter")))
    assert {k: v[0] for k, v in snapshot(project_copy).items()} == {k: v[0] for k, v in snapshot(serial).items()}
    assert any(label.endswith("rules a4") for label in forked.summary.ran)
