"""The runner on the example engine (Nim): determinism for any --jobs, seeds, bots, check mode."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from generator.engine.base import Bot, IllegalAction
from generator.engine.games import example
from generator.engine.games.example.bots import HeuristicBot
from generator.engine.simulate import EngineSource, SimSpec, play_game, resolve_bot, seat_bots, simulate, summarize
from generator.engine.simulate.runner import chunks, engine_for, run_chunk
from generator.engine.simulate.seeds import game_seed
from generator.errors import UsageError
from tests import fifth_game

TOY = fifth_game.ENGINE


@pytest.fixture
def source(root: Path) -> EngineSource:
    return EngineSource(str(root), "nim", TOY)


def _summary(spec: SimSpec, jobs: int) -> dict[str, Any]:
    aggregate = simulate(spec, jobs)
    summary = summarize(aggregate, game="nim", title="Nim", bots=spec.bots, seed=spec.seed, check=spec.check)
    return summary.to_json()


@pytest.mark.slow
def test_same_seed_same_summary_for_any_jobs(source: EngineSource) -> None:
    spec = SimSpec(source, 3, ("heuristic", "random", "random"), seed=7, games=2500)
    one = _summary(spec, 1)
    two = _summary(spec, 2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert one["games"] == 2500
    assert sum(e["wins"] for e in one["seats"]) == 2500  # Nim has exactly one winner


def test_another_seed_gives_other_games(source: EngineSource) -> None:
    a = _summary(SimSpec(source, 2, ("random", "random"), seed=1, games=300), 1)
    b = _summary(SimSpec(source, 2, ("random", "random"), seed=2, games=300), 1)
    assert a["seats"] != b["seats"] or a["length"] != b["length"]


def test_game_seeds_depend_on_root_and_index_only() -> None:
    assert game_seed(5, 123) == game_seed(5, 123)
    assert len({game_seed(5, i) for i in range(2000)}) == 2000
    assert game_seed(5, 0) != game_seed(6, 0)
    assert 0 <= game_seed(5, 0) < 2**63


def test_chunk_layout_is_fixed_and_covers_every_game() -> None:
    assert chunks(20000)[:2] == [(0, 1000), (1000, 2000)] and len(chunks(20000)) == 20
    assert chunks(2500) == [(i, min(i + 157, 2500)) for i in range(0, 2500, 157)]  # 16 chunks: both cores busy
    assert chunks(600)[1] == (38, 76) and chunks(1) == [(0, 1)]


def test_a_game_is_the_same_whatever_chunk_plays_it(source: EngineSource) -> None:
    spec = SimSpec(source, 2, ("heuristic", "random"), seed=3, games=10, log=True)
    whole = run_chunk(spec, 0, 10).log_lines
    part = run_chunk(spec, 6, 8).log_lines
    assert whole[6:8] == part


def test_heuristic_beats_random_at_nim(source: EngineSource) -> None:
    summary = _summary(SimSpec(source, 2, ("heuristic", "random"), seed=11, games=400), 1)
    assert summary["seats"][0]["rate"] > 0.9


def test_solo_summary_has_win_rate_and_lost_games(source: EngineSource) -> None:
    summary = _summary(SimSpec(source, 1, ("random",), seed=4, games=500), 1)
    solo = summary["solo"]
    assert solo["trials"] == 500 and solo["lost"] == 500 - solo["wins"]
    assert sum(c for _low, c in solo["lost_at"]["turns"]["buckets"]) == solo["lost"]
    assert summary["groups"]["points"]["last_stone"]["mean"] == pytest.approx(solo["rate"])
    assert set(summary["cards"]) == {"take-1", "take-2", "take-3"}


def test_bot_specs() -> None:
    builtin = example.BOTS
    assert seat_bots(3, "heuristic", None, builtin) == ("heuristic",) * 3
    assert seat_bots(2, None, "heuristic, random", builtin) == ("heuristic", "random")
    assert seat_bots(2, None, None, builtin) == ("random", "random")
    assert resolve_bot(f"{TOY}.bots:HeuristicBot", builtin) is HeuristicBot


@pytest.mark.parametrize(
    ("bot", "bots", "message"),
    [
        ("nosuch", None, "unknown bot 'nosuch'"),
        ("no_such_module_xyz:Bot", None, "cannot import module 'no_such_module_xyz'"),
        (f"{TOY}:Missing", None, "has no 'Missing'"),
        (f"{TOY}:NimRules", None, "is not a subclass of generator.engine.base.Bot"),
        ("random", "random,random", "either --bot"),
        (None, "random", "names 1 bots for 2 seats"),
    ],
)
def test_bad_bot_specs_are_one_line_usage_errors(bot: str | None, bots: str | None, message: str) -> None:
    with pytest.raises(UsageError) as err:
        seat_bots(2, bot, bots, example.BOTS)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


class CheatingBot(Bot):
    """Takes too many stones: check mode must catch it."""

    name = "cheat"

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        return 5


def test_check_mode_catches_a_bot_playing_an_illegal_action(source: EngineSource) -> None:
    rules, _ = engine_for(source)
    with pytest.raises(IllegalAction) as err:
        play_game(rules, 2, [CheatingBot, CheatingBot], seed=1, check=True, labels=("cheat", "cheat"))
    assert "bot cheat in seat 1 chose action 5, which is not legal" in str(err.value)


def test_random_bots_never_play_illegal_actions_under_check(source: EngineSource) -> None:
    summary = _summary(SimSpec(source, 3, ("random",) * 3, seed=9, games=300, check=True), 1)
    assert summary["games"] == 300 and summary["check"] is True


def test_play_game_uses_the_seeded_deal(source: EngineSource) -> None:
    rules, builtin = engine_for(source)
    state, actions = play_game(rules, 2, [builtin["heuristic"]] * 2, seed=42, check=True)
    deal = rules.random_deal(2, random.Random(42))
    assert sum(state.history) == deal["heap"]
    assert actions == len(state.history)


def test_a_second_run_in_one_process_reads_the_data_as_it_is_now(root: Path, source: EngineSource) -> None:
    """The runner used to keep every run's rules in a module-wide table: a library user (or `pnp watch`
    style tool) that edited the data and simulated again in the same process got the old rules back."""
    spec = SimSpec(source, 2, ("random", "random"), seed=3, games=200)
    before = simulate(spec, 1)
    game = root / "data" / "nim" / "game.yaml"
    game.write_text(game.read_text().replace("heap_min: 9 ", "heap_min: 20"))
    after = simulate(spec, 1)
    fresh = run_chunk(spec, 0, 200)  # rules built from the data on disk now
    assert after.length.moments.mean == fresh.aggregate.length.moments.mean != before.length.moments.mean
