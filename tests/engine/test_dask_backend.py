"""`--scheduler`: simulation and sweep tasks on a Dask cluster give exactly the local figures."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from generator.engine.simulate.runner import SimSpec, tasks
from tests.helpers import copy_sources, run_pnp

# found, not imported: importing Dask takes most of a second, paid by every worker that collects this file
if importlib.util.find_spec("distributed") is None:
    pytest.skip("Dask is an optional extra: pip install '.[dask]'", allow_module_level=True)


@pytest.fixture(scope="module")
def cluster():  # one small in-process cluster for the module: threads, no worker processes to start
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sources(tmp_path_factory.mktemp("dask")).root


def test_tasks_hold_at_least_a_thousand_games_and_keep_the_chunks() -> None:
    from generator.engine.simulate.dask_backend import DASK_TASK_GAMES
    from generator.engine.simulate.runner import EngineSource, chunks

    spec = SimSpec(EngineSource(".", "g", "m"), 2, ("random", "random"), 1, 4500)
    grouped = tasks(spec, DASK_TASK_GAMES)
    assert [chunk for _spec, layout in grouped for chunk in layout] == chunks(4500)
    sizes = [sum(b - a for a, b in layout) for _spec, layout in grouped]
    assert all(size >= 1000 for size in sizes[:-1]) and sum(sizes) == 4500


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ("simulate", "pirates-under-fire", "-n", "400", "--seed", "3"),
    ("sweep", "all-hands-on-deck", "-n", "250", "--vary", "combinations.full-crew.points=6,10",
     "--metric", "max-share", "--metric", "seat:1", "--metric", "takers:street"),
    # the README's example sweep plays the search bot: it too gives the local figures on a cluster (here
    # the cheapest game's search bot; All Hands' runs the same halving code, at four times the cost)
    ("sweep", "pirates-under-fire", "-n", "1", "--bot", "search", "--vary", "items.fireship.cost=3,4",
     "--metric", "seat:1"),
])
def test_dask_results_equal_the_local_run(root: Path, cluster, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, command) -> None:
    from generator.engine.simulate import dask_backend, runner

    # smaller tasks than the real 1,000 games, so a quick run still spreads over several tasks and workers
    monkeypatch.setattr(dask_backend, "DASK_TASK_GAMES", 100)
    assert len(runner.tasks(runner.SimSpec(runner.EngineSource("", "", ""), 2, (), 1, 400), 100)) == 4
    base = ("-q", "--root", str(root), *command, "--json")
    code, local, err = run_pnp(capsys, *base, "--jobs", "2")
    assert code == 0, err
    code, remote, err = run_pnp(capsys, *base, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    assert json.loads(remote) == json.loads(local) and remote == local


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(root: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.engine.simulate import dask_backend

    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", "1s")
    code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "simulate", "pirates-under-fire", "-n", "10",
                              "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and err.startswith("pnp: --scheduler tcp://127.0.0.1:9: cannot reach") and err.count("\n") == 1
