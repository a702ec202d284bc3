"""Balance reports: points by source and their shares, takers versus non-takers, ties, warning lines."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.games.all_hands import stats as all_hands_stats
from generator.engine.games.pirate_tricks import stats as pirate_tricks_stats
from generator.engine.games.under_fire import stats as under_fire_stats
from generator.engine.registry import REGISTRY
from generator.engine.simulate.balance import SHARED, BalanceTally, GameBalance, load_hook
from generator.engine.simulate.summary import balance_summary, share_interval
from generator.load import load_game
from generator.project import Project
from tests.helpers import run_pnp

GAME_A = GameBalance([{"pair": 1, "set": 3, "penalty": -1}, {"pair": 1}], [{"pair", "set"}, {"pair"}])
GAME_B = GameBalance([{"set": 6}, {"pair": 2}], [{"set"}, {"pair"}], tie=SHARED)


def test_worked_example_shares_takers_and_ties() -> None:
    tally = BalanceTally(2)
    tally.add_game(GAME_A, winners=(0,))  # points gained 1+3+1 = 5
    tally.add_game(GAME_B, winners=(0, 1))  # gained 6+2 = 8; a shared victory counts for both
    summary = balance_summary(tally, max_share=0.5, max_edge=0.05)
    shares = {row.source: row.share for row in summary.sources}
    assert shares == {"set": pytest.approx(9 / 13), "pair": pytest.approx(4 / 13), "penalty": pytest.approx(-1 / 13)}
    means = {row.source: row.mean for row in summary.sources}
    assert means["set"] == 9 / 4  # points per seat per game: 4 seat-games
    choices = {row.choice: row for row in summary.choices}
    assert (choices["pair"].taken.wins, choices["pair"].taken.trials) == (3, 4)
    assert (choices["pair"].takers.wins, choices["pair"].takers.trials) == (2, 3)  # seat 1 game A lost
    assert (choices["pair"].others.wins, choices["pair"].others.trials) == (1, 1)
    assert summary.fair == 3 / 4
    assert choices["set"].takers.rate == 1.0 and choices["set"].edge == pytest.approx(0.25)
    assert (summary.ties.wins, summary.ties.trials) == (1, 2) and summary.tie_breaks == {SHARED: 1}
    assert any(w.startswith("source set earns 69.2%") for w in summary.warnings)
    # one taker who won is no evidence: its interval reaches below a seat's mean, so no warning
    assert not any(w.startswith("choice") for w in summary.warnings)
    for _ in range(30):  # thirty more games that `set`'s takers win: now the edge is clear
        tally.add_game(GameBalance([{"set": 3}, {"pair": 1}], [{"set"}, {"pair"}]), winners=(0,))
    summary = balance_summary(tally, max_share=0.5, max_edge=0.05)
    assert any(w.startswith("choice set: takers win 100.0%") for w in summary.warnings)
    assert not any("choice pair" in w for w in summary.warnings)


def test_share_interval_is_the_ratio_and_narrows_with_games() -> None:
    small, large = BalanceTally(2), BalanceTally(2)
    for index in range(400):
        game = GameBalance([{"a": index % 3, "b": 2}, {"b": 1}], [set(), set()])
        (small if index < 40 else large).add_game(game, (0,))
        if index < 40:
            large.add_game(game, (0,))
    for tally in (small, large):
        sums = tally.sources["a"]
        share, low, high = share_interval(tally, sums.x, sums.xx, sums.xt)
        assert share == pytest.approx(sums.x / tally.gained)
        assert low < share < high
    width = [share_interval(t, t.sources["a"].x, t.sources["a"].xx, t.sources["a"].xt) for t in (small, large)]
    assert width[1][2] - width[1][1] < width[0][2] - width[0][1]


games = st.lists(st.tuples(
    st.lists(st.dictionaries(st.sampled_from(["x", "y", "z"]), st.integers(-3, 9), max_size=3), min_size=2,
             max_size=2),
    st.lists(st.frozensets(st.sampled_from(["m", "n"])), min_size=2, max_size=2),
    st.sampled_from([(0,), (1,), (0, 1)])), max_size=12)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 12))
def test_chunks_merge_to_the_same_counts(played: list, cut: int) -> None:
    whole, first, second = BalanceTally(2), BalanceTally(2), BalanceTally(2)
    for index, (points, taken, winners) in enumerate(played):
        game = GameBalance(points, taken, SHARED if len(winners) > 1 else None)
        whole.add_game(game, winners)
        (first if index < cut else second).add_game(game, winners)
    first.merge(second)
    assert first.to_state() == whole.to_state()


@pytest.mark.parametrize(("game_id", "hook", "players"), [
    ("all-hands-on-deck", all_hands_stats.balance, 4),
    ("pirates-under-fire", under_fire_stats.balance, 2),
    ("pirate-tricks", pirate_tricks_stats.balance, 3),
])
def test_sources_add_up_to_each_seats_score(project: Project, game_id: str, hook, players: int) -> None:
    """Every point a seat scored comes from a named source (Pirate Tricks: beyond the common starting loon)."""
    engine = REGISTRY.engine(game_id)
    rules = engine.rules(load_game(project, game_id))
    assert load_hook(engine.module) is hook
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.new_state(players, rules.random_deal(players, rng))
        bots = [engine.bots["heuristic"](rules, seat, rng) for seat in range(players)]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
        result = state.result()
        balance = hook(state)
        start = state.t.start_loon if game_id == "pirate-tricks" else 0
        assert [start + sum(points.values()) for points in balance.points] == list(result.scores)
        assert (balance.tie is None) == (result.scores.count(max(result.scores)) == 1)


def test_cli_reports_balance_in_json_and_warns_in_text(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import copy_sources
    root = str(copy_sources(tmp_path).root)
    code, out, _err = run_pnp(capsys, "-q", "--root", root, "simulate", "pirates-under-fire", "-n", "60",
                              "--json", "--max-edge", "0.5")
    assert code == 0
    balance = json.loads(out)["balance"]
    assert {row["choice"] for row in balance["choices"]} <= {"smuggler", "fireship", "salvager", "ram", "galleon",
                                                            "man-o-war", "treasure-ship"}
    assert sum(row["share"] for row in balance["sources"] if row["share"] > 0) == pytest.approx(1.0)
    assert balance["max_edge"] == 0.5 and not any(w.startswith("choice") for w in balance["warnings"])
    code, out, _err = run_pnp(capsys, "-q", "--root", root, "simulate", "pirates-under-fire", "-n", "30",
                              "--max-share", "0.1")
    assert code == 0
    assert "WARNING: source " in out and "takers win" in out and "ties on points:" in out
    # every interval reads 'a to b', in the tables and the warnings: '-89.2%--83.8%' was hard to read
    assert "%-" not in out and re.search(r"\n\S+ +-?\d+\.\d+ +-?\d+\.\d% +-?\d+\.\d% to -?\d+\.\d%\n", out), out
    assert re.search(r"WARNING: source \S+ earns \d+\.\d% of all points \(95% CI \d+\.\d% to \d+\.\d%\)", out), out
    assert "the seats play different bots" not in out  # one bot at every seat: a choice's edge is the choice's
    code, out, _err = run_pnp(capsys, "-q", "--root", root, "simulate", "pirates-under-fire", "-n", "20",
                              "--bots", "heuristic,random")
    assert code == 0 and "(the seats play different bots: a choice's edge measures the bots that take it" in out


def test_the_by_source_table_lists_sources_in_the_balance_tables_order(tmp_path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Both tables show the same sources (the one with spread, the other with shares): largest first in both,
    not alphabetical in one and by share in the other."""
    from tests.helpers import copy_sources
    root = str(copy_sources(tmp_path).root)
    code, out, _err = run_pnp(capsys, "-q", "--root", root, "simulate", "pirate-tricks", "-n", "40", "--seed", "3")
    assert code == 0
    by_source = out.split("loon by source")[1].split("\n\n")[0].splitlines()[2:]
    balance = out.split("\nsource ")[1].split("\n  (share")[0].splitlines()[2:]
    names = [line.split()[0] for line in by_source]
    means = [float(line.split()[1]) for line in by_source]
    assert means == sorted(means, reverse=True) and names[-1] == "bids"  # the bids' penalties come last
    assert names == [line.split()[0] for line in balance]


def test_the_gallery_headline_carries_the_warnings(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import copy_sources
    project = copy_sources(tmp_path)
    code, _out, _err = run_pnp(capsys, "-q", "--root", str(project.root), "simulate", "all-hands-on-deck", "-n", "20",
                               "--max-share", "0.05")
    saved = json.loads((project.output_dir / "all-hands-on-deck" / "simulation.json").read_text())
    assert code == 0 and saved["headline"]["balance warning 1"].startswith("source ")
    assert saved["headline"]["balance warning 1"] == saved["summary"]["balance"]["warnings"][0]
