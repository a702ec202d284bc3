"""What two processes can gain on this machine for the work of a big deck's build: the floor of the
`--jobs 2` figure.

Run: python tests/bench/parallel_floor.py [--scale 100] [--repeat 3] [--faces 1536]

Two pure pieces of that work, each done by one process and then split over two forked processes (same total,
same machine, same minute), and the speed-up the split gives:

* drawing and rasterizing preview faces (the bulk of the 100x deck's build): the deck's faces are resolved
  first, then drawn into PDFs and rasterized to PNG bytes in chunks of 48, exactly as `raster` does;
* writing one small file per face atomically (a temporary and a rename, as every preview is written).

A build's `--jobs 2` speed-up cannot beat what these give: two vCPUs that share a physical core, or a busy
host, give less than 2x for CPU-bound work, and a file system creates files one at a time. Compare the build's
figure (`bench_floor.py --only scaled`) with these, measured in the same minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scaled import copy_project, scale_deck

GAME = "all-hands-on-deck"
CHUNK = 48  # faces per PDF, as `raster` draws them


def deck_faces(root: Path, count: int) -> list[Any]:
    """The first `count` distinct front faces of the scaled game's card components, resolved."""
    from generator.load import load_game
    from generator.project import Project
    from generator.render.faces.renderer import renderer

    project = Project.at(root)
    game = load_game(project, GAME)
    faces = renderer(project)
    found = [faces.face(game, component, item, "front")
             for component in game.components if component.printable for item in component.items]
    return found[:count]


def split_wall(work: Callable[[int, int], None], processes: int) -> float:
    """Wall seconds for `processes` forked processes to each run `work(index, processes)` (1: this process)."""
    start = time.perf_counter()
    if processes == 1:
        work(0, 1)
        return time.perf_counter() - start
    children = []
    for index in range(processes):
        pid = os.fork()
        if pid == 0:  # the child: its share, then leave at once (no cleanup of the parent's state)
            code = 0
            try:
                work(index, processes)
            except BaseException:
                code = 1
            os._exit(code)
        children.append(pid)
    failed = [pid for pid in children if os.waitpid(pid, 0)[1] != 0]
    if failed:
        raise RuntimeError(f"{len(failed)} of the forked processes failed")
    return time.perf_counter() - start


def rasterize_share(faces: Sequence[Any]) -> Callable[[int, int], None]:
    from generator.render.exports.raster import _draw_and_render

    chunks = [faces[i:i + CHUNK] for i in range(0, len(faces), CHUNK)]

    def work(index: int, processes: int) -> None:
        for chunk in chunks[index::processes]:
            _draw_and_render(chunk, 0.0, 96)

    return work


def files_share(folder: Path, count: int, data: bytes) -> Callable[[int, int], None]:
    from generator.project import write_atomic

    def work(index: int, processes: int) -> None:
        for number in range(index, count, processes):
            write_atomic(folder / f"face-{number}.png", data)

    return work


def speed_up(label: str, make: Callable[[], Callable[[int, int], None]], repeat: int,
             before: Callable[[], None] = lambda: None) -> float:
    """Best wall of one process and of two (alternated, so both see the same load); prints and returns the ratio."""
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(repeat):
        for processes in (1, 2):
            before()
            best[processes] = min(best[processes], split_wall(make(), processes))
    ratio = best[1] / best[2]
    print(f"{label:52s} 1 process {best[1]:.2f} s, 2 processes {best[2]:.2f} s: {ratio:.2f}x", flush=True)
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=100, help="deck multiple (default 100, as the figure)")
    parser.add_argument("--faces", type=int, default=1536, help="faces rasterized and files written (default 1536)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = copy_project(Path(tmp) / "project")
        scale_deck(root, args.scale, GAME)
        faces = deck_faces(root, args.faces)
        speed_up(f"draw + rasterize {len(faces)} preview faces", lambda: rasterize_share(faces), args.repeat)
        from generator.render.exports.raster import _draw_and_render

        sample = _draw_and_render(faces[:1], 0.0, 96)[0]  # a real preview's bytes and size
        folder = Path(tmp) / "files"

        def empty() -> None:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()

        speed_up(f"write {len(faces)} preview-sized files atomically", lambda: files_share(folder, len(faces), sample),
                 args.repeat, before=empty)


if __name__ == "__main__":
    main()
