"""`pnp sweep`: a grid of data values, the metrics at each point, identical for any --jobs and backend."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from generator.engine.simulate.sweep import Vary, grid
from generator.errors import UsageError
from tests.helpers import copy_sources, run_pnp

GAME = "all-hands-on-deck"
SWEEP = ("sweep", GAME, "-n", "120", "--vary", "combinations.full-crew.points=4,10",
         "--vary", "combinations.street.points=6,9", "--metric", "max-share", "--metric", "share:street",
         "--metric", "takers:street", "--metric", "seat:2", "--metric", "mean:rounds", "--seed", "5")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sources(tmp_path_factory.mktemp("sweep")).root


def test_grid_is_every_combination_first_vary_slowest() -> None:
    varies = [Vary.parse("a.b=1,2"), Vary.parse("c=[1, 2],x")]
    assert varies[1].values == ("[1, 2]", "x")
    assert grid(varies) == [("1", "[1, 2]"), ("1", "x"), ("2", "[1, 2]"), ("2", "x")]
    for bad in ("a.b", "a.b=", "=1,2", "a..b=1", "a=1,,2"):
        with pytest.raises(UsageError, match=r"--vary|--set"):
            Vary.parse(bad)


@pytest.mark.slow
def test_sweep_is_identical_for_any_jobs_and_matches_simulate(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for jobs in ("1", "2"):
        code, out, err = run_pnp(capsys, "-q", "--root", str(root), *SWEEP, "--jobs", jobs, "--json",
                                 "--csv", str(root / f"s{jobs}.csv"), "--plot", str(root / f"s{jobs}.pdf"))
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]
    assert (root / "s1.csv").read_bytes() == (root / "s2.csv").read_bytes()
    assert (root / "s1.pdf").read_bytes() == (root / "s2.pdf").read_bytes()
    sweep = json.loads(outputs[0])
    points = sweep["points"]
    assert [(p["set"]["combinations.full-crew.points"], p["set"]["combinations.street.points"]) for p in points] == [
        ("4", "6"), ("4", "9"), ("10", "6"), ("10", "9")]
    # a point is exactly `pnp simulate --set` at that point, with the same seed
    code, out, _err = run_pnp(capsys, "-q", "--root", str(root), "simulate", GAME, "-n", "120", "--seed", "5",
                              "--json", "--set", "combinations.full-crew.points=10",
                              "--set", "combinations.street.points=9")
    single = json.loads(out)
    last = points[-1]["metrics"]
    assert last["seat:2"]["value"] == single["seats"][1]["rate"]
    street = next(r for r in single["balance"]["sources"] if r["source"] == "street")
    assert last["share:street"]["value"] == street["share"]
    assert last["mean:rounds"]["value"] == single["length"]["rounds"]["mean"]
    top = max(single["balance"]["sources"], key=lambda r: r["share"])
    assert (last["max-share"]["value"], last["max-share"]["about"]) == (top["share"], top["source"])
    rows = list(csv.DictReader(io.StringIO((root / "s1.csv").read_text())))
    assert len(rows) == 4 and float(rows[-1]["seat:2"]) == single["seats"][1]["rate"]


def test_a_list_value_for_an_integer_is_refused_naming_the_path(root: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "sweep", GAME, "-n", "5",
                              "--vary", "combinations.street.points=6,[7],9")
    assert code == 2
    assert err.strip() == "pnp: --set combinations.street.points=[7]: expected a whole number (the data has 7), got '[7]'"


@pytest.mark.parametrize(("args", "message"), [
    (("--metric", "share"), "--metric 'share': unknown metric"),
    (("--metric", "seat:x"), "--metric seat:x: seat takes a number from 1"),
    (("--metric", "seat:9"), "--metric seat:9: the game has 2 seats"),
    (("--metric", "mean:nothing"), "--metric mean:nothing: no figure 'nothing'"),
])
def test_bad_metrics_are_one_line_errors(root: Path, capsys: pytest.CaptureFixture[str], args, message) -> None:
    code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "sweep", GAME, "-n", "5",
                              "--vary", "combinations.street.points=6", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_metric_the_game_cannot_give_is_refused_before_the_grid_is_played(
        root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games at the first point find it out: the grid's thousands of games are never started."""
    import generator.engine.simulate.runner as runner

    played: list[int] = []
    real = runner.simulate_many

    def counting(runs, *args, **kwargs):
        played.append(sum(run.games for run in runs))
        return real(runs, *args, **kwargs)

    monkeypatch.setattr(runner, "simulate_many", counting)
    code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "sweep", GAME, "-n", "2000",
                              "--vary", "combinations.street.points=6,7,8", "--metric", "mean:nothing")
    assert code == 2 and "--metric mean:nothing: no figure 'nothing'" in err
    assert played == [2]


def test_a_path_given_twice_is_refused(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last value would win, and the table would show values that were never played."""
    for extra in (("--vary", "combinations.street.points=5"), ("--set", "combinations.street.points=5")):
        code, _out, err = run_pnp(capsys, "-q", "--root", str(root), "sweep", GAME, "-n", "5",
                                  "--vary", "combinations.street.points=6,7", *extra)
        assert code == 2
        assert err.strip() == ("pnp: combinations.street.points: given more than once in --vary and --set; "
                               "give each path once")


def test_a_source_or_choice_no_run_met_reads_dash_with_a_warning(root: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt name ('Street' for 'street') used to read as a share of 0.00, as if measured."""
    code, out, err = run_pnp(capsys, "-q", "--root", str(root), "sweep", GAME, "-n", "20", "--json",
                             "--vary", "combinations.street.points=6,8", "--metric", "share:Street",
                             "--metric", "share:street")
    assert code == 0
    rows = json.loads(out)["points"]
    assert all(row["metrics"]["share:Street"]["value"] is None for row in rows)
    assert all(row["metrics"]["share:street"]["value"] is not None for row in rows)
    assert "warning: --metric share:Street: no run met 'Street'; sources met: " in err and "street" in err


def test_max_takers_ranks_choices_by_the_low_end_of_their_interval() -> None:
    """One taker who won (100%, interval 21%-100%) must not beat 400 takers winning 70% (65%-74%)."""
    from types import SimpleNamespace

    from generator.engine.simulate.sweep import metric
    from generator.simulation import Rate

    def row(choice: str, rate: Rate) -> SimpleNamespace:
        return SimpleNamespace(choice=choice, takers=rate)

    lucky, strong = Rate(1, 1, 1.0, (0.21, 1.0)), Rate(280, 400, 0.70, (0.65, 0.74))
    summary = SimpleNamespace(balance=SimpleNamespace(choices=[row("rare", lucky), row("common", strong)]))
    best = metric(summary, "max-takers")  # type: ignore[arg-type]
    assert (best.about, best.value) == ("common", 0.70)
