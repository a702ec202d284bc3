"""The summary sorts an engine's figures by key shape alone and reports seats, start positions, bots and ties.

Most checks read the JSON form (what `--json` prints and the gallery stores), which is
built from the typed `generator.simulation.Summary` and reads back into it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.summary import record_latest, summarize
from generator.project import Project
from generator.simulation import Summary

Game = tuple[Sequence[float], Sequence[int], dict[str, Any]]


def _typed(players: int, games: Sequence[Game], bots: tuple[str, ...], openers: Sequence[int] = ()) -> Summary:
    agg = Aggregate(players)
    for i, (scores, winners, figures) in enumerate(games):
        agg.add_game(scores, winners, 10, figures, openers[i] if openers else 0)
    return summarize(agg, game="g", title="G", bots=bots, seed=1, check=False)


def _summary(players: int, games: Sequence[Game], bots: tuple[str, ...]) -> dict[str, Any]:
    data = _typed(players, games, bots).to_json()
    assert Summary.from_json(json.loads(json.dumps(data))).to_json() == data  # the JSON form reads back
    return data


def test_figures_are_grouped_by_key_shape() -> None:
    figures = {"vp_runs": 3, "vp_sets": 2, "hands_played": 4, "lost_at_hand": 0, "points.curses": -1,
               "card.gang-of-two.played": 2, "card.gang-of-two.won": 1, "actions": 99}
    s = _summary(2, [([5, 3], [0], figures)], ("a", "b"))
    assert set(s["groups"]) == {"vp", "points"}
    assert set(s["groups"]["vp"]) == {"runs", "sets"}
    assert s["groups"]["points"]["curses"]["mean"] == -1
    assert s["cards"] == {"gang-of-two": {"played": 2, "won": 1}}
    assert s["length"]["actions"]["mean"] == 10  # the runner's own count is never hidden
    assert s["length"]["actions (engine)"]["mean"] == 99
    assert s["progress"] == ["hands_played", "lost_at_hand"]
    assert "solo" not in s
    json.dumps(s)  # plain data only


def test_ties_count_for_every_winner_and_bots_pool_their_seats() -> None:
    games: list[Game] = [([3, 3, 1], [0, 1], {}), ([1, 4, 2], [1], {}), ([0, 1, 5], [2], {}),
                         ([2, 2, 2], [0, 1, 2], {})]
    s = _summary(3, games, ("heuristic", "random", "random"))
    assert [e["wins"] for e in s["seats"]] == [2, 3, 2]
    assert s["shared_wins"] == 2 and s["no_winner"] == 0
    by_bot = {e["bot"]: e for e in s["by_bot"]}
    assert by_bot["random"]["wins"] == 5 and by_bot["random"]["trials"] == 8
    assert by_bot["heuristic"]["rate"] == pytest.approx(0.5)
    assert s["seats"][1]["score"] == {"n": 4, "mean": 2.5, "sd": pytest.approx(1.2909944), "min": 1, "max": 4}


def test_solo_losses_are_broken_down_by_progress_figures() -> None:
    games: list[Game] = [([6], [0], {"hands_played": 6, "flips": 2}), ([2], [], {"hands_played": 3, "flips": 4}),
             ([1], [], {"hands_played": 2, "flips": 4}), ([2], [], {"hands_played": 3, "flips": 1})]
    s = _summary(1, games, ("planner",))
    solo = s["solo"]
    assert (solo["wins"], solo["lost"], solo["rate"]) == (1, 3, 0.25)
    assert solo["lost_at"] == {"hands_played": {"width": 1, "buckets": [[2, 1], [3, 2]]}}
    assert s["no_winner"] == 3


def test_wins_by_start_position_count_from_the_opener() -> None:
    # seat 1 wins every game; it opened the first two games and was second in the third
    games: list[Game] = [([1, 0], [1], {}), ([1, 0], [1], {}), ([1, 0], [1], {})]
    s = _typed(2, games, ("a", "b"), openers=[1, 1, 0])
    assert [e.rate.wins for e in s.seats] == [0, 3]
    assert [p.rate.wins for p in s.by_position] == [2, 1]
    assert s.opener_varies
    assert s.headline()["start position 1 wins"].startswith("66.7%")


def test_fixed_opener_makes_positions_equal_seats() -> None:
    games: list[Game] = [([1, 0], [0], {}), ([0, 1], [1], {}), ([1, 0], [0], {})]
    s = _typed(2, games, ("a", "b"))
    assert [p.rate for p in s.by_position] == [e.rate for e in s.seats]
    assert not s.opener_varies and "start position 1 wins" not in s.headline()


def test_the_latest_run_is_written_for_the_gallery(tmp_path: Any) -> None:
    s = _typed(2, [([1, 0], [0], {})], ("a", "b"))
    assert record_latest(Project.at(tmp_path), s)
    saved = json.loads((tmp_path / "output" / "g" / "simulation.json").read_text())
    assert saved["headline"]["seat 1 (a) wins"].startswith("100.0%")
    assert Summary.from_json(saved["summary"]) == s
    assert not record_latest(Project.at(tmp_path), s)  # unchanged content: the file is left alone
