"""One game built with --jobs 2 (its card sheets and documents in forked workers) is the bytes of --jobs 1."""

from __future__ import annotations

from pathlib import Path

from generator.pipeline import build
from generator.render.build import BuildOptions
from generator.render.exporters import PREVIEW, SHEETS
from tests.helpers import copy_sources


def outputs(root: Path) -> dict[str, bytes]:
    out = root / "output"
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.parts and p.name != "index.html"}


def test_one_game_in_parallel_is_the_bytes_of_one_process(tmp_path: Path) -> None:
    made = {}
    for jobs in (1, 2):
        project = copy_sources(tmp_path / f"jobs{jobs}")
        options = BuildOptions(papers=("a4",), exports=(SHEETS, PREVIEW), jobs=jobs)
        result = build(project, ["counterattack"], options)
        assert {"counterattack port a4", "counterattack rules a4"} <= set(result.summary.ran)
        made[jobs] = outputs(project.root)
    assert made[1] == made[2]
    assert any(name.endswith("-port-a4-duplex-long.pdf") for name in made[1]) and len(made[1]) > 10
