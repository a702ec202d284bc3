"""`pnp watch`: picks up an edit, reports a bad edit with file:line, and recovers when it is fixed."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from types import SimpleNamespace
from typing import ClassVar

import pytest

from generator.build.options import BuildOptions
from generator.build.session import build
from generator.cli.watch import watch_loop
from generator.project import Project
from tests.helpers import edit


@pytest.mark.slow
def test_watch_loop_rebuilds_reports_errors_and_recovers(project_copy: Project) -> None:
    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    options = BuildOptions(papers=("a4",), exports=("sheets", "preview"))
    lines: list[str] = []

    def changes():  # what watchfiles would yield, with the edits made between batches
        edit(cards, "name: Tortuga,", "name: Tortuga Reef,")
        yield {(2, str(cards))}
        edit(cards, "tricks: 3}", "tricks: three}")
        yield {(2, str(cards)), (1, str(cards.parent / ".cards.yaml.swp"))}
        edit(cards, "tricks: three}", "tricks: 3}")
        yield {(2, str(cards))}

    watch_loop(project_copy, lambda: build(project_copy, ["counterattack"], options), changes(), lines.append)
    start, watching, changed, broken, fixed = lines
    assert start.startswith("start: ") and "jobs rebuilt" in start
    assert watching.startswith("watching data/ and templates/")
    assert changed.startswith("data/counterattack/cards.yaml: ") and "counterattack-port-a4-duplex-long.pdf" in changed
    assert broken == (
        "data/counterattack/cards.yaml: error: data/counterattack/cards.yaml:19: "
        "port card 'tortuga' 'tricks' must be an integer 0..10, got 'three'"
    )
    assert fixed.startswith("data/counterattack/cards.yaml: 0 jobs rebuilt")  # same as the last good build


def _reader(stream, lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line.rstrip("\n"))


def _next_line(lines: queue.Queue[str], timeout: float = 60) -> str:
    return lines.get(timeout=timeout)


@pytest.mark.slow
def test_a_folder_moved_away_and_back_is_noticed(project_copy: Project, tmp_path) -> None:
    """A folder rename is one event, for the folder: its layouts going is an error, their return a recovery."""
    import shutil

    layouts = project_copy.templates_dir / "layouts" / "counterattack"
    aside = tmp_path / "aside"
    options = BuildOptions(papers=("a4",), exports=("sheets",))
    lines: list[str] = []

    def changes():
        shutil.move(layouts, aside)
        yield {(3, str(layouts))}  # deleted: the folder itself, no suffix, gone
        yield {(1, str(project_copy.data_dir / "counterattack" / "4913"))}  # vim's probe: not a change
        shutil.move(aside, layouts)
        yield {(1, str(layouts))}

    watch_loop(project_copy, lambda: build(project_copy, ["counterattack"], options), changes(), lines.append)
    _start, _watching, gone, back = lines
    assert gone.startswith("templates/layouts/counterattack: error: ") and "not found" in gone
    assert back.startswith("templates/layouts/counterattack: ") and "error" not in back


def test_a_first_build_that_fails_says_start(project_copy: Project) -> None:
    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "tricks: 3}", "tricks: three}")
    lines: list[str] = []
    options = BuildOptions(papers=("a4",), exports=("sheets",))
    watch_loop(project_copy, lambda: build(project_copy, ["counterattack"], options), iter(()), lines.append)
    assert lines[0].startswith("start: error: data/counterattack/cards.yaml:19: ")


@pytest.mark.slow
def test_real_pnp_watch_picks_up_an_edit(project_copy: Project) -> None:
    env = {**os.environ, "CI": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "watch", "counterattack", "--paper", "a4"],
        cwd=project_copy.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_reader, args=(process.stdout, lines), daemon=True).start()
    try:
        assert _next_line(lines).startswith("start: ")
        assert _next_line(lines).startswith("watching ")
        time.sleep(0.5)
        edit(project_copy.data_dir / "counterattack" / "cards.yaml", "name: Skull Rock,", "name: Skull Rock Isle,")
        line = _next_line(lines)
        assert line.startswith("data/counterattack/cards.yaml: ") and "counterattack-port-a4-duplex-long.pdf" in line
        edit(project_copy.data_dir / "counterattack" / "cards.yaml", "tricks: 6}", "tricks: 66}")
        assert "cards.yaml:22: port card 'skull-rock' 'tricks' must be an integer 0..10, got 66" in _next_line(lines)
        assert process.poll() is None, "watch keeps running after an error"
        time.sleep(0.5)
        process.terminate()  # SIGTERM, as a service manager stops it: exit 0 and nothing more to say
        assert process.wait(timeout=10) == 0
        time.sleep(0.2)
        assert lines.empty(), f"unexpected output on stopping: {lines.get()}"
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.mark.slow
def test_watch_hit_by_100_saves_in_a_second_ends_matching_the_last_save(tmp_path) -> None:
    """Saves land before, during and between rebuilds; the last one always ends up in output/."""
    import shutil

    from watchfiles import watch

    from tests.render.test_incremental_property import OPTIONS, BuildSession, make_tiny, outputs
    from tests.render.test_incremental_property import build as tiny_build

    project = make_tiny(tmp_path / "watched")
    cards = project.data_dir / "tiny" / "cards.yaml"
    lines: queue.Queue[str] = queue.Queue()
    stop = threading.Event()

    def run() -> None:
        with BuildSession(project, raster_jobs=1) as session:
            changes = watch(project.data_dir, project.templates_dir, debounce=200, step=50, stop_event=stop)
            watch_loop(project, lambda: session.build(["tiny"], OPTIONS, force=True), changes, lines.put)

    watcher = threading.Thread(target=run, daemon=True)
    watcher.start()
    assert _next_line(lines).startswith("start: ")
    assert _next_line(lines).startswith("watching ")
    text = cards.read_text()
    for save in range(100):
        cards.write_text(text.replace("name: Beta,", f"name: Beta {save},"))
        time.sleep(0.01)
    seen = []
    while True:  # until the watcher has been quiet for three seconds
        try:
            seen.append(lines.get(timeout=3))
        except queue.Empty:
            break
    stop.set()
    watcher.join(timeout=30)
    assert seen, "the watcher rebuilt after the saves"  # (a half-written save may show an error line on the way)
    clean = Project.at(tmp_path / "clean")
    for folder in ("data", "templates"):
        shutil.copytree(project.root / folder, clean.root / folder)
    tiny_build(clean, ["tiny"], OPTIONS, force=True)
    assert outputs(project) == outputs(clean)
    assert "Beta 99" in (project.data_dir / "tiny" / "cards.yaml").read_text()


class _RecordingSession:
    """Stands in for `BuildSession`: records the options of every build instead of building."""

    seen: ClassVar[list[BuildOptions]] = []

    def __init__(self, project, **kw) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass

    def game_ids(self, games):
        return list(games)

    def build(self, game_ids, options, **kw):
        from types import SimpleNamespace

        from generator.build.jobs import Summary

        self.seen.append(options)
        return SimpleNamespace(summary=Summary(), changed_during_build=[], gallery_written=False,
                               all_warnings=list)


def test_pnp_watch_keeps_every_build_option_it_was_started_with(project_copy: Project, monkeypatch) -> None:
    import dataclasses

    from click.testing import CliRunner

    import generator.build.session as pipeline
    import generator.cli.watch as watch_module
    from generator.cli import cli

    monkeypatch.setattr(pipeline, "BuildSession", _RecordingSession)
    _RecordingSession.seen = []

    def three_rebuilds(project, build, changes, echo, clock=None) -> None:  # what watch_loop does on start and two saves
        for _ in range(3):
            build()

    monkeypatch.setattr(watch_module, "watch_loop", three_rebuilds)
    args = ["--paper", "letter", "--bleed", "2", "--duplex", "short", "--no-crop-marks", "--cut-lines",
            "--back-offset", "0.5,-1", "--png", "--booklet", "--no-gallery"]
    root = ["--root", str(project_copy.root), "-q"]
    result = CliRunner().invoke(cli, [*root, "watch", "counterattack", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    watched = _RecordingSession.seen
    assert len(watched) == 3 and watched[0] == watched[1] == watched[2]
    result = CliRunner().invoke(cli, [*root, "build", "counterattack", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    built = _RecordingSession.seen[-1]
    assert dataclasses.replace(watched[0], jobs=built.jobs) == built  # the same options as `pnp build` gets
    assert (built.papers, built.bleed, built.duplex, built.crop_marks, built.cut_lines, built.back_offset,
            built.booklet) == (("letter",), 2.0, "short", False, True, (0.5, -1.0), True)
    assert built.exports == ("sheets", "png")


def test_pnp_watch_refuses_a_bad_option_in_one_line(project_copy: Project, capsys) -> None:
    from tests.helpers import run_pnp

    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "watch", "--bleed", "40")
    assert code != 0
    assert err.strip().splitlines()[-1].endswith("--bleed 40 must be between 0 and 10 mm")
    assert "Traceback" not in err + out


@pytest.mark.slow
def test_a_rebuild_line_says_when_the_cards_were_done_before_the_documents(project_copy: Project) -> None:
    """A renamed port card redraws its sheets and the documents that show the name; with --jobs 2 the
    sheets are written first, and the line gives both times."""
    import re

    from generator.build.session import BuildSession
    from generator.cli.watch import CardClock, rebuild_line

    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    options = BuildOptions(papers=("a4",), exports=("sheets", "preview"), jobs=2)
    clock = CardClock()
    with BuildSession(project_copy) as session:
        def run_build():
            return session.build(["counterattack"], options, progress=clock.progress)

        rebuild_line(project_copy, run_build, [], clock)
        edit(cards, "name: Tortuga,", "name: Tortuga Reef,")
        line, again = rebuild_line(project_copy, run_build, [cards], clock)
        assert not again
        assert "counterattack-port-a4-duplex-long.pdf" in line
        found = re.search(r" in (\d+\.\d\d) s \(cards in (\d+\.\d\d) s\)$", line)
        assert found, line
        assert float(found[2]) <= float(found[1])
        unchanged, _ = rebuild_line(project_copy, run_build, [cards], clock)
        assert unchanged.startswith("data/counterattack/cards.yaml: 0 jobs rebuilt") and "cards in" not in unchanged


@pytest.mark.slow
def test_watch_rebuilds_the_good_games_while_another_is_broken(tmp_path, capsys, monkeypatch) -> None:
    """A game left broken (its YAML does not parse) is reported on every rebuild, and an edit to another game is
    still built: one broken game never holds the others back."""
    import watchfiles

    from generator.cli.watch import watch_and_build
    from generator.engine.registry import Registry
    from tests.helpers import run_pnp

    run_pnp(capsys, "init", str(tmp_path))
    for game_id in ("good", "bad"):
        run_pnp(capsys, "--root", str(tmp_path), "-q", "new", game_id)
    (tmp_path / "data" / "bad" / "game.yaml").write_text("game:\n  id: bad\n  title: [unclosed\n", encoding="utf-8")
    cards = tmp_path / "data" / "good" / "cards.yaml"
    sheet = tmp_path / "output" / "good" / "good-card-a4-duplex-long.pdf"
    seen: list[bytes] = []

    def batches(*folders, **settings):  # what watchfiles would yield, with an edit to the good game between
        seen.append(sheet.read_bytes())
        edit(cards, "name: Spyglass,", "name: Brass Spyglass,")
        yield {(2, str(cards))}

    monkeypatch.setattr(watchfiles, "watch", batches)
    lines: list[str] = []
    options = BuildOptions(papers=("a4",), exports=("sheets",))
    watch_and_build(Project.at(tmp_path), Registry({}), (), options, lines.append)
    start, _watching, edited = lines
    broken = "error: data/bad/game.yaml:4: not valid YAML: did not find expected ',' or ']'"
    assert start == f"start: {broken}" and edited == f"data/good/cards.yaml: {broken}"
    assert sheet.read_bytes() != seen[0]  # the good game's sheet was drawn again with the new name


def test_editors_temporary_files_are_not_changes(project_copy: Project) -> None:
    """Saving in vim, emacs or a JetBrains IDE creates, renames and removes temporaries beside the file; the
    save itself comes as an event for the real file. None of the temporaries is listed as a change."""
    folder = project_copy.data_dir / "counterattack"
    temporaries = [".cards.yaml.swp", ".cards.yaml.swx", "cards.yaml~", "notes~", "4913", "#cards.yaml#", "#notes#",
                   ".#cards.yaml", "cards.yaml___jb_tmp___", "cards.yaml___jb_old___", "notes___jb_tmp___",
                   "cards.yaml.kate-swp"]
    lines: list[str] = []
    calls: list[int] = []

    def build() -> object:
        calls.append(1)
        return SimpleNamespace(summary=SimpleNamespace(written=[], ran=[]), changed_during_build=())

    batches = [{(action, str(folder / name)) for name in temporaries} for action in (1, 2, 3)]
    watch_loop(project_copy, build, batches, lines.append)
    assert len(calls) == 1 and len(lines) == 2  # the first build and "watching ...": no rebuild for any batch
    moved = [{(3, str(project_copy.templates_dir / "layouts" / "gone"))}]  # a folder moved away still counts
    watch_loop(project_copy, build, moved, lines.append)
    assert lines[-1].startswith("templates/layouts/gone: ")


@pytest.mark.slow
def test_watch_force_rebuilds_a_deck_that_fails_validation(project_copy: Project) -> None:
    from generator.cli.watch import watch_and_build
    from generator.engine.registry import REGISTRY

    layout = project_copy.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text(layout.read_text().replace("max_width: 46", "max_width: 4"))  # the port name no longer fits
    options = BuildOptions(papers=("a4",), exports=("sheets",))
    refused: list[str] = []
    watch_and_build(project_copy, REGISTRY, ("counterattack",), options, refused.append, changes=())
    assert "fails validation" in refused[0] and "--force" in refused[0]
    forced: list[str] = []
    watch_and_build(project_copy, REGISTRY, ("counterattack",), options, forced.append, force=True, changes=())
    assert forced[0].startswith("start: ") and "counterattack-port-a4-duplex-long.pdf" in forced[0]
