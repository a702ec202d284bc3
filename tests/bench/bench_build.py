"""How long `pnp build` takes: all four games' sheet PDFs in one cold process (target: under 2 s).

Run: python tests/bench/bench_build.py [--repeat N]
     python tests/bench/bench_build.py --timeline JOBS [--scale N | --edit]   (where each process spent one build,
                                                                       idle cores; --edit: a one-card edit's fresh process)
Builds into a temporary copy of the project (so output/ is untouched) with a
fresh Python process each time, and prints the cold wall times and their median,
with and without validation, plus the PNG export of one game with 1 and 2 jobs.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PNP = [sys.executable, "-m", "generator"]


def timed(args: list[str], root: Path) -> float:
    """Wall time of one cold `pnp` process; its CPU time is added to CPU_TIMES (robust to machine load)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*PNP, "--root", str(root), "-q", *args], check=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_TIMES.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


CPU_TIMES: list[float] = []
EDITED = "data/counterattack/cards.yaml"  # the one-card edit of `--timeline N --edit` (as bench_floor's): a port's name

# One cold process, CPU seconds per stage: where the time of a full build goes.
SPLIT = """
import sys, time
t = time.process_time()
from pathlib import Path
from generator.project import Project
from generator.load import load_games
from generator.build.options import BuildOptions
from generator.build.plan import card_jobs, document_jobs
from generator.build.run import run
from generator.render.exports.raster import Workers
project = Project.at(sys.argv[1]); options = BuildOptions()
games = load_games(project)
marks = [("imports + load", time.process_time())]
try:
    from generator.validate import validate_game
    for game in games:
        validate_game(game, project)
except ImportError:
    pass
marks.append(("validation", time.process_time()))
with Workers(1) as workers:
    run([j for g in games for j in card_jobs(g, project, options, workers)], project)
    marks.append(("card/tile/token sheets", time.process_time()))
    run([j for g in games for j in document_jobs(g, project, options)], project)
    marks.append(("documents", time.process_time()))
last = t
for label, at in marks:
    print(f"  cold split, {label:32s} {at - last:.2f} s CPU")
    last = at
print(f"  cold split, {'total':32s} {last - t:.2f} s CPU")
"""


# One cold `pnp build` in a fresh process with every job's start and end logged (wall and CPU, per process,
# forked workers included): how long each process was busy, so idle cores show without a quiet machine.
TIMELINE = """
import functools, os, sys, time
launched = time.monotonic()  # the interpreter is up; what follows (imports) is part of the build's serial start
import generator.build.session as pipeline
import generator.build.forked as forked
import generator.build.jobs as jobs
import generator.build.run as run
import generator.render.exports.raster as raster
log = sys.argv[1]
def traced(run, name):
    @functools.wraps(run)  # the same qualified name: a traced worker function still pickles
    def wrapper(*args, **kwargs):
        wall, cpu = time.monotonic(), time.process_time()
        try:
            return run(*args, **kwargs)
        finally:
            with open(log, "a") as out:
                out.write(f"{os.getpid()}\t{wall}\t{time.monotonic()}\t{time.process_time() - cpu}\t{name(args)}\\n")
    return wrapper
# our own functions, wrapped where they are called (this script's process only): run.py and forked.py each call execute
run.execute = traced(jobs.execute, lambda args: args[0].label)
forked.execute = run.execute
pipeline.BuildSession._validate = traced(pipeline.BuildSession._validate, lambda args: f"validate {args[1]}")
raster._draw_and_render = traced(raster._draw_and_render, lambda args: f"  rasterize {len(args[0])} faces")
import generator.build.cache as cache
# the main process's own steps, which no other core can share
pipeline.BuildSession.load = traced(pipeline.BuildSession.load, lambda args: f"(load {args[1]})")
pipeline.BuildSession._plan_early = traced(pipeline.BuildSession._plan_early, lambda args: f"(plan {args[1].id})")
pipeline.BuildSession._record_game = traced(pipeline.BuildSession._record_game, lambda args: f"(record {args[1].id})")
pipeline.BuildSession._gallery = traced(pipeline.BuildSession._gallery, lambda args: "(gallery)")
cache.BuildCache.save = traced(cache.BuildCache.save, lambda args: "(save the manifest)")
jobs.write_files = run.write_files = traced(jobs.write_files, lambda args: f"(write {args[0].label})")
run._store_faces = traced(run._store_faces, lambda args: f"(cache {len(args[0].faces) + len(args[0].face_sums)} faces)")
forked.ForkedJobs._collect = traced(forked.ForkedJobs._collect, lambda args: "(receive)")
_serve = forked._serve
def serve_and_report(*args, **kwargs):  # a forked worker's whole CPU, and the main process's CPU when it forked
    try:
        return _serve(*args, **kwargs)
    finally:
        times = os.times()
        with open(log, "a") as out:
            out.write(f"{os.getpid()}\t{time.monotonic()}\t{time.monotonic()}\t{times.user + times.system}\tTHE WORKER\\n")
forked._serve = serve_and_report
_init = forked.ForkedJobs.__init__
def init_and_report(self, *args, **kwargs):
    times = os.times()
    with open(log, "a") as out:
        out.write(f"{os.getpid()}\t{time.monotonic()}\t{time.monotonic()}\t{times.user + times.system}\tFORK\\n")
    return _init(self, *args, **kwargs)
forked.ForkedJobs.__init__ = init_and_report
from generator.cli import main
start = time.monotonic()
with open(log, "a") as out:
    out.write(f"{os.getpid()}\t{launched}\t{start}\t{time.process_time()}\t(imports before the command)\\n")
def the_build():  # an exit handler: `main()` ends the process itself, as the `pnp` script does
    if os.getpid() != main_pid:
        return  # a forked worker's exit
    times = os.times()
    with open(log, "a") as out:
        out.write(f"{os.getpid()}\t{start}\t{time.monotonic()}\t{times.user + times.system}\tTHE BUILD\\n")
import atexit
main_pid = os.getpid()
atexit.register(the_build)
sys.argv = ["pnp", *sys.argv[2:]]
main()  # without arguments: the process's entry, with its garbage-collector setting and its quick exit
"""


def timeline(root: Path, args: list[str], cores: int) -> None:
    """Print each process's jobs in one build (`pnp` arguments `args`), its CPU, and the core time left idle."""
    log = root / "timeline.log"
    log.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-c", TIMELINE, str(log), "--root", str(root), "-q", *args], check=True, cwd=ROOT)
    rows = [line.split("\t") for line in log.read_text().splitlines()]
    build_row = next(row for row in rows if row[4] == "THE BUILD")
    launched = next((float(row[1]) for row in rows if row[4] == "(imports before the command)"), float(build_row[1]))
    t0, span = launched, float(build_row[2]) - launched  # from the interpreter's start: imports are serial too
    main_pid, main_cpu = build_row[0], float(build_row[3])
    cpu_of: dict[str, float] = {main_pid: main_cpu}  # other processes: their rows, which never nest
    workers = {row[0]: float(row[3]) for row in rows if row[4] == "THE WORKER"}
    forked_at = min((float(row[3]) for row in rows if row[4] == "FORK"), default=0.0)
    for pid, start, end, cpu, label in sorted(rows, key=lambda row: float(row[1])):
        if label in ("THE BUILD", "THE WORKER", "FORK"):
            continue
        if pid != main_pid and pid not in workers:  # a raster pool's process: its rows, which never nest
            cpu_of[pid] = cpu_of.get(pid, 0.0) + float(cpu)
        print(f"  {pid:>7} {float(start) - t0:7.2f} - {float(end) - t0:7.2f} s  {float(cpu):6.3f} s CPU  {label}")
    cpu_of.update(workers)  # a forked worker's own total, where it reported one
    idle = cores * span - sum(cpu_of.values())
    if workers:
        spread = (sum(cpu_of.values()) + forked_at * (cores - 1)) / cores
        longest = max(main_cpu, forked_at + max(workers.values()), spread)
        print(f"  main process {main_cpu:.2f} s CPU ({forked_at:.2f} s before forking), forked workers "
              + ", ".join(f"{seconds:.2f}" for seconds in workers.values())
              + f" s, all processes {sum(cpu_of.values()):.2f} s CPU: on {cores} quiet cores the build takes about "
              f"{longest:.2f} s (the longest of: the main process; its time before forking plus a worker's; all the "
              "CPU spread over the cores, idle ones while it forks)")
    print(f"  span {span:.2f} s wall; CPU per process (main first): "
          + ", ".join(f"{pid} {seconds:.2f} s" for pid, seconds in cpu_of.items())
          + f"; {cores} cores x span - CPU = {idle:.2f} core-seconds idle (a quiet machine's figure: on a busy "
          "one, other programs hold the cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeline", type=int, metavar="JOBS", default=0,
                        help="instead: one cold build with --jobs JOBS, every job's start/end per process")
    parser.add_argument("--scale", type=int, default=1, help="with --timeline: all-hands-on-deck's deck times N, a4")
    parser.add_argument("--edit", action="store_true",
                        help="with --timeline: a one-card edit in a fresh process (bench_floor's), not a cold build")
    args = parser.parse_args()
    if args.timeline:
        from scaled import copy_project, scale_deck

        with tempfile.TemporaryDirectory() as tmp:
            root = copy_project(Path(tmp))
            if args.edit:
                subprocess.run([*PNP, "--root", str(root), "-q", "build", "--jobs", str(args.timeline)], check=True,
                               cwd=ROOT)
                edited = root / EDITED
                edited.write_text(edited.read_text().replace("name: Nassau,", "name: Nassau Harbour,", 1))
                timeline(root, ["build", "--jobs", str(args.timeline)], args.timeline)
                return
            build = ["build", "--force", "--jobs", str(args.timeline)]
            if args.scale > 1:
                scale_deck(root, args.scale, "all-hands-on-deck")
                build += ["all-hands-on-deck", "--paper", "a4"]
            timeline(root, build, args.timeline)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for folder in ("data", "templates"):
            shutil.copytree(ROOT / folder, root / folder)
        for label, extra in (("build, all games, both papers", ["--force"]),
                             ("build, all games, a4 only", ["--force", "--paper", "a4"])):
            times = []
            CPU_TIMES.clear()
            for _ in range(args.repeat):
                shutil.rmtree(root / "output", ignore_errors=True)
                times.append(timed(["build", *extra], root))
            print(f"{label:40s} cold median {statistics.median(times):.2f} s wall, "
                  f"{statistics.median(CPU_TIMES):.2f} s CPU  (wall runs: " + ", ".join(f"{t:.2f}" for t in times) + ")")
        pdfs = len(list((root / "output").rglob("*.pdf")))
        print(f"{'':40s} {pdfs} PDFs written")
        shutil.rmtree(root / "output", ignore_errors=True)
        split = subprocess.run([sys.executable, "-c", SPLIT, str(root)], check=True, cwd=ROOT,
                               capture_output=True, text=True).stdout
        print(split.rstrip())
        faces = None
        for jobs in (1, 2):
            shutil.rmtree(root / "output", ignore_errors=True)
            base = timed(["build", "counterattack", "--force", "--paper", "a4"], root)
            shutil.rmtree(root / "output", ignore_errors=True)
            with_png = timed(["build", "counterattack", "--force", "--paper", "a4", "--png", "--jobs", str(jobs)], root)
            faces = len(list((root / "output" / "counterattack" / "png").glob("*.png")))
            distinct = 54 + 3  # every card once, plus the three components' backs (rendered once each)
            per_face = (with_png - base) / distinct * 1000
            print(f"png export, counterattack, --jobs {jobs}:    {with_png - base:.2f} s for {distinct} distinct faces "
                  f"({faces} files) = {per_face:.1f} ms/face wall, {per_face * jobs:.1f} ms/face per core")


if __name__ == "__main__":
    main()
