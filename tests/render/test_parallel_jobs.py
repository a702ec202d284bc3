"""--jobs 2: which jobs the forked workers take and in what order, how a refused game or a worker's error
stops them, and a big preview job split into parts (whole games built with --jobs 2 and 1 are compared in
test_incremental.py)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import pytest

from generator.build.options import BuildOptions
from generator.build.session import build
from generator.errors import DataError, Refused
from generator.render.base.outputs import FileKind, OutputFile
from generator.render.exports.registry import PREVIEW, SHEETS
from tests.helpers import copy_sources


def outputs(root: Path) -> dict[str, bytes]:
    out = root / "output"
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.parts and p.name != "index.html"}


def test_workers_take_the_longest_jobs_first(tmp_path: Path) -> None:
    from generator.build.forked import longest_first
    from generator.build.plan import plan
    from generator.load import load_game
    from generator.render.exports.raster import Workers

    project = copy_sources(tmp_path)
    with Workers(1) as workers:
        jobs = plan([load_game(project, "pirate-tricks")], project, BuildOptions(), workers)
    order = longest_first(jobs)
    assert sorted(order) == list(range(len(jobs)))
    costs = [jobs[i].cost for i in order]
    assert costs == sorted(costs, reverse=True) and costs[-1] > 0
    first = [jobs[i].label for i in order[:2]]
    assert first == ["pirate-tricks rules a4", "pirate-tricks rules letter"]  # the rulebooks are the long jobs
    sheets = [j for j in jobs if j.exporter == SHEETS and j.paper == "a4" and j.subject != "mixed"]
    biggest = max(sheets, key=lambda j: j.cost)
    assert all(order.index(jobs.index(biggest)) < order.index(jobs.index(j)) for j in sheets if j is not biggest)


def _made(name: str) -> list[OutputFile]:
    return [OutputFile(name, FileKind.SHEET, name.encode())]


def _fails() -> list[OutputFile]:
    raise DataError("cards.yaml:3: 'cost' must be a number, got 'lots'")


def test_results_come_back_in_job_order_and_a_worker_error_is_raised_as_is(tmp_path: Path) -> None:
    from generator.build.jobs import Job
    from generator.build.run import run

    project = copy_sources(tmp_path)
    folder = project.output_dir / "demo"

    def jobs(*failing: int) -> list[Job]:
        return [Job("demo", f"job {i}", folder, _fails if i in failing else partial(_made, f"f{i}.pdf"),
                    pure=i % 3 != 0, cost=float(i)) for i in range(8)]

    outcomes = run(jobs(), project, parallel=2)
    assert [o.label for o in outcomes] == [f"job {i}" for i in range(8)]
    assert [(folder / f"f{i}.pdf").read_bytes() for i in range(8)] == [f"f{i}.pdf".encode() for i in range(8)]
    with pytest.raises(DataError, match="'cost' must be a number"):
        run(jobs(5), project, parallel=2)


def test_a_job_never_writes_outside_the_output_folder(tmp_path: Path) -> None:
    """Plain names are checked once per job folder; names with folders (`..`, a linked folder) one by one."""
    from generator.build.jobs import Job
    from generator.build.run import run
    from generator.errors import UsageError

    project = copy_sources(tmp_path)
    folder = project.output_dir / "demo"
    outside = tmp_path / "outside"
    outside.mkdir()
    folder.mkdir(parents=True)
    (folder / "linked").symlink_to(outside)
    for name in ("../../escape.pdf", "linked/escape.pdf"):
        with pytest.raises(UsageError, match="tried to write outside output/"):
            run([Job("demo", "escape", folder, partial(_made, name))], project)
    run([Job("demo", "fine", folder, partial(_made, "fine.pdf"))], project)
    assert (folder / "fine.pdf").read_bytes() == b"fine.pdf"
    assert not list(outside.iterdir()) and not (tmp_path / "escape.pdf").exists()


def test_a_refused_game_writes_nothing_though_its_jobs_started_before_validation(tmp_path: Path) -> None:
    project = copy_sources(tmp_path)
    layout = project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text(layout.read_text().replace("max_width: 46", "max_width: 4"))  # the port name no longer fits
    with pytest.raises(Refused, match="counterattack fails validation"):
        build(project, ["counterattack"], BuildOptions(papers=("a4",), exports=(SHEETS, PREVIEW), jobs=2))
    assert not [p for p in project.output_dir.rglob("*") if p.is_file() and ".cache" not in p.parts
                and p.name != ".gitkeep"]


@pytest.mark.slow
def test_a_refused_game_stops_every_game_of_the_build_before_anything_is_written(tmp_path: Path) -> None:
    """With --jobs 2 the pure jobs of all games start at once, before any game validates: a game refused
    after another passed leaves the output folder as empty as the first refusal does."""
    project = copy_sources(tmp_path)
    layout = project.templates_dir / "layouts" / "counterattack" / "port.yaml"
    layout.write_text(layout.read_text().replace("max_width: 46", "max_width: 4"))  # the port name no longer fits
    with pytest.raises(Refused, match="counterattack fails validation"):
        build(project, ["pirate-tricks", "counterattack"], BuildOptions(papers=("a4",), exports=(SHEETS,), jobs=2))
    assert not [p for p in project.output_dir.rglob("*") if p.is_file() and ".cache" not in p.parts
                and p.name != ".gitkeep"]


def _made_by_whom(name: str, wait_for: Path, make: Path) -> list[OutputFile]:
    """A job that says which process ran it, after signalling `make` and waiting (up to 30 s) for
    `wait_for`: two such jobs waiting for each other finish only when two processes run them."""
    import os
    import time

    make.touch()
    deadline = time.monotonic() + 30
    while not wait_for.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    return [OutputFile(name, FileKind.SHEET, f"{os.getpid()} {wait_for.exists()}".encode())]


def test_this_process_takes_jobs_while_the_worker_is_busy(tmp_path: Path) -> None:
    """With --jobs 2 one worker is forked and this process is the second: the two jobs wait for each
    other, so they finish only when both processes run one."""
    import os

    from generator.build.jobs import Job
    from generator.build.run import run

    project = copy_sources(tmp_path)
    folder = project.output_dir / "demo"
    long, short = tmp_path / "long started", tmp_path / "short started"
    jobs = [Job("demo", "long", folder, partial(_made_by_whom, "long.pdf", short, long), pure=True, cost=9.0),
            Job("demo", "short", folder, partial(_made_by_whom, "short.pdf", long, short), pure=True, cost=1.0)]
    outcomes = run(jobs, project, parallel=2)
    assert [o.label for o in outcomes] == ["long", "short"]
    ran = {name: (folder / name).read_text().split() for name in ("long.pdf", "short.pdf")}
    assert ran["long.pdf"][1] == ran["short.pdf"][1] == "True"  # neither gave up waiting
    pids = {ran["long.pdf"][0], ran["short.pdf"][0]}
    assert len(pids) == 2 and str(os.getpid()) in pids



def _made_seeing(name: str, make: Path, wait_for: Path, seen: Path) -> list[OutputFile]:
    """A job that signals `make`, notes whether `seen` had started when it began, and waits (up to 30 s)
    for `wait_for`."""
    import time

    make.touch()
    started = seen.exists()
    deadline = time.monotonic() + 30
    while not wait_for.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    return [OutputFile(name, FileKind.SHEET, f"{started} {wait_for.exists()}".encode())]


def test_once_only_documents_are_left_this_process_takes_the_longest(tmp_path: Path) -> None:
    """A watch edit's rulebooks for two papers are drawn side by side: the second goes to whichever
    process is free next (the longest left), not after the short campaign log behind it. The first
    rulebook waits until the second has started, so one process is busy with it meanwhile; the log
    notes whether the second rulebook had started when it began."""
    from generator.build.jobs import Job
    from generator.build.options import DOCUMENTS
    from generator.build.run import run

    project = copy_sources(tmp_path)
    folder = project.output_dir / "demo"
    marks = {name: tmp_path / f"{name} started" for name in ("rules a4", "rules letter", "log a4")}
    never = tmp_path / "nothing to wait for"
    never.touch()
    waits = {"rules a4": marks["rules letter"], "rules letter": never, "log a4": never}
    jobs = [Job("demo", name, folder, partial(_made_seeing, f"{name}.pdf", marks[name], waits[name],
                                              marks["rules letter"]),
                pure=True, exporter=DOCUMENTS, cost=cost)
            for name, cost in (("rules a4", 300.0), ("rules letter", 299.0), ("log a4", 100.0))]
    run(jobs, project, parallel=2)
    ran = {name: (folder / f"{name}.pdf").read_text().split() for name in waits}
    assert all(waited == "True" for _, waited in ran.values())
    assert ran["log a4"][0] == "True"  # the second rulebook was taken before the short log


@pytest.mark.slow
def test_a_big_component_s_previews_split_into_parts_are_the_bytes_and_order_of_one_job(tmp_path: Path) -> None:
    """With --jobs > 1 a component of more than `PREVIEW_PART_ITEMS` items has its previews drawn in parts
    by any worker, each part's files written as it comes (by the worker, the game having validated): the
    files, their order in the manifest (the gallery's order) and the face cache (links to the previews where
    parts were drawn, files where one job drew them) read back as those of --jobs 1, and a second build
    reuses everything."""
    from generator.build.cache import BuildCache, stamp
    from generator.render.exports.raster import PREVIEW_PART_ITEMS
    from tests.bench.scaled import scale_deck

    made, orders, faces = {}, {}, {}
    for jobs in (1, 2):  # parts in forked workers against one job
        project = copy_sources(tmp_path / f"jobs{jobs}")
        cards = scale_deck(project.root, 4, "all-hands-on-deck")
        options = BuildOptions(papers=("a4",), exports=(SHEETS, PREVIEW), jobs=jobs)
        result = build(project, ["all-hands-on-deck"], options, force=True)
        label = "all-hands-on-deck pirate preview"
        assert label in result.summary.ran
        made[jobs] = outputs(project.root)
        cache = BuildCache.open(project)
        orders[jobs] = [record.name for record in cache.jobs[label].records()]
        faces[jobs] = {key: cache.face(key) for key in cache.faces}  # links to previews, or files of their own
        assert faces[jobs] and all(faces[jobs].values())  # every face kept, intact
        for entry in cache.jobs.values():  # stamped as written (by whichever process wrote it) = read back now
            folder = project.output_dir / entry.folder
            assert all(kept == stamp(folder / record.name, (folder / record.name).read_bytes())
                       for record, kept in entry.files)
        again = build(project, ["all-hands-on-deck"], options, force=True)
        assert not again.summary.ran and not again.summary.written
    assert len(orders[1]) > PREVIEW_PART_ITEMS and cards > PREVIEW_PART_ITEMS
    assert orders[1][-1] == "pirate-back.png"  # the shared back after every item, whatever part drew it
    assert made[1] == made[2] and orders[1] == orders[2] and faces[1] == faces[2]
    from generator.build.plan import plan
    from generator.load import load_game
    from generator.project import Project
    from generator.render.exports.raster import Workers

    project = Project.at(tmp_path / "jobs2")
    with Workers(1) as workers:
        planned = plan([load_game(project, "all-hands-on-deck")], project,
                       BuildOptions(papers=("a4",), exports=(SHEETS, PREVIEW), jobs=2), workers)
    pirate = next(job for job in planned if job.label == "all-hands-on-deck pirate preview")
    assert [part.label for part in pirate.parts] == [f"{pirate.label} [1/2]", f"{pirate.label} [2/2]"]


@pytest.mark.slow
def test_faces_lost_from_the_cache_folder_are_kept_again_by_a_parallel_build(tmp_path: Path) -> None:
    """A face whose cache file is gone (its manifest entry still there) is drawn again and kept again, whether
    a forked worker or this process drew it, so the next build finds it."""
    from generator.build.cache import BuildCache
    from tests.helpers import edit

    project = copy_sources(tmp_path)
    options = BuildOptions(papers=("a4",), exports=(SHEETS, PREVIEW), jobs=2)
    build(project, ["counterattack"], options)
    faces = project.output_dir / ".cache" / "faces"
    for kept in faces.iterdir():
        kept.unlink()
    edit(project.data_dir / "counterattack" / "cards.yaml", "name: Nassau,", "name: Nassau Harbour,")
    build(project, ["counterattack"], options)
    cache = BuildCache.open(project)
    port = [key for key in cache.faces if (faces / f"{key}.png").is_file()]
    assert len(port) >= len(cache.jobs["counterattack port preview"].files)  # the port's faces, kept again
    assert all(cache.face(key) is not None for key in port)


def test_processes_sharing_the_job_counter_never_take_the_same_job() -> None:
    """`ForkedJobs`'s counter (an anonymous shared mapping and a pipe-token lock): three forked processes
    and this one take positions until none is left; each position is taken exactly once."""
    import os

    from generator.build.forked import END, FRONT, Shared

    total = 3000
    shared = Shared(0, total, 0)
    reader, writer = os.pipe()

    def take_all() -> list[int]:
        taken = []
        while True:
            with shared.locked():
                position = shared[FRONT]
                if position >= shared[END]:
                    return taken
                shared[FRONT] = position + 1
            taken.append(position)

    children = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # a worker: report what it took, then end without running the test session's exit code
            os.close(reader)
            os.write(writer, (" ".join(map(str, take_all())) + "\n").encode())
            os._exit(0)
        children.append(pid)
    os.close(writer)
    mine = take_all()
    with os.fdopen(reader) as lines:
        theirs = [int(n) for line in lines for n in line.split()]
    for pid in children:
        assert os.waitpid(pid, 0)[1] == 0
    shared.close()
    assert sorted(mine + theirs) == list(range(total))


def test_a_forked_worker_hands_back_what_it_learned_with_each_result(tmp_path: Path) -> None:
    """`HandBack` (a watching session's paragraph lines): `give` runs in the worker after each of its jobs,
    `keep` here with what came back; a job run here hands nothing back. The two jobs wait for each other,
    so each process runs one."""
    import os

    from generator.build.jobs import HandBack, Job
    from generator.build.run import run, start

    project = copy_sources(tmp_path)
    folder = project.output_dir / "demo"
    long, short = tmp_path / "long started", tmp_path / "short started"
    jobs = [Job("demo", "long", folder, partial(_made_by_whom, "long.pdf", short, long), pure=True, cost=9.0),
            Job("demo", "short", folder, partial(_made_by_whom, "short.pdf", long, short), pure=True, cost=1.0)]
    kept: list[int] = []
    started = start(jobs, project, parallel=2, hand_back=HandBack(os.getpid, kept.append))
    run(jobs, project, parallel=2, started=started)
    worker = int((folder / "long.pdf").read_text().split()[0])  # workers take the longest first
    assert worker != os.getpid() and kept == [worker]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_asks_the_kernel_to_kill_it_with_its_parent() -> None:
    """`watch_parent` (every forked worker's first step) sets the parent-death signal to SIGKILL, found
    without running `ldconfig`, so a `kill -9` of `pnp` takes its workers along at once."""
    import ctypes
    import os
    import signal

    from generator.workers import watch_parent

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: ask as a worker does, then report what the kernel holds
        try:
            watch_parent(os.getppid())
            held = ctypes.c_int(0)
            ctypes.CDLL(None, use_errno=True).prctl(2, ctypes.byref(held), 0, 0, 0)  # PR_GET_PDEATHSIG
            os.write(write, str(held.value).encode())
        finally:
            os._exit(0)
    os.close(write)
    got = os.read(read, 16)
    os.close(read)
    os.waitpid(pid, 0)
    assert int(got) == signal.SIGKILL


def test_workers_that_ran_out_of_jobs_end_by_themselves_and_are_reaped(tmp_path: Path) -> None:
    """`run` does not wait for workers once every result is in (they have nothing left to take); they end
    on their own and multiprocessing reaps them, so none is left running or as a zombie."""
    import multiprocessing
    import time

    from generator.build.jobs import Job
    from generator.build.run import run

    project = copy_sources(tmp_path)
    folder = project.output_dir / "demo"
    long, short = tmp_path / "long started", tmp_path / "short started"
    jobs = [Job("demo", "long", folder, partial(_made_by_whom, "long.pdf", short, long), pure=True, cost=9.0),
            Job("demo", "short", folder, partial(_made_by_whom, "short.pdf", long, short), pure=True, cost=1.0)]
    run(jobs, project, parallel=2)
    assert (folder / "long.pdf").read_text().endswith("True") and (folder / "short.pdf").exists()
    deadline = time.monotonic() + 30
    while multiprocessing.active_children() and time.monotonic() < deadline:  # (reaps those that ended)
        time.sleep(0.01)
    assert multiprocessing.active_children() == []
