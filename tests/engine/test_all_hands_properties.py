"""All Hands on Deck invariants over random legal games (hypothesis), plus its composition checks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.base import IllegalAction
from generator.engine.games.all_hands import BOTS, RULES, composition_checks
from generator.load import load_game
from generator.project import Project
from tests.engine.walk import random_walk
from tests.helpers import edit

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "all-hands-on-deck")
R = RULES(GAME)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=6)


def random_game(p: int, seed: int, check: bool = True):
    state = R.new_game(p, seed, check=check)
    return random_walk(state, random.Random(seed))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(p=players, seed=seeds)
def test_random_legal_games_keep_every_invariant(p: int, seed: int) -> None:
    state = random_game(p, seed)  # check mode: invariants verified after every action
    result = state.result()
    assert state.legal_actions() == []
    assert sum(len(pile) for pile in state.piles) < p  # the end condition held
    assert result.scores == tuple(float(x) for x in state.scores())
    assert all(result.scores[w] == max(result.scores) for w in result.winners)
    hired = sum(len(c) + len(laid) for c, laid in zip(state.crew, state.laid_cards, strict=True))
    assert hired == p * state.round  # one card per player per round, snatches only move them
    stats = state.stats()
    total = sum(stats[f"points_{part}"] for part in ("combinations", "action_pairs", "captains", "curses"))
    assert abs(total * p - sum(result.scores)) < 1e-9


@settings(max_examples=120, deadline=None)
@given(p=players, seed=seeds, steps=st.integers(0, 150), pick=st.integers(0, 10**6))
def test_an_illegal_action_is_refused_and_changes_nothing(p: int, seed: int, steps: int, pick: int) -> None:
    state = R.new_game(p, seed, check=True)
    random_walk(state, random.Random(seed), steps)
    illegal = sorted(set(range(R.space.size)) - set(state.legal_actions()))
    action = illegal[pick % len(illegal)]
    before = state.copy()
    try:
        state.apply_action(action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"{state.action_to_string(action)!r} was accepted")
    assert state.history == before.history and state.piles == before.piles and state.crew == before.crew
    assert state.phase == before.phase and state.turn == before.turn


@settings(max_examples=60, deadline=None)
@given(p=players, seed=seeds, steps=st.integers(0, 100))
def test_copy_is_independent(p: int, seed: int, steps: int) -> None:
    state = R.new_game(p, seed)
    random_walk(state, random.Random(seed), steps)
    clone = state.copy()
    snapshot = (state.history[:], [x[:] for x in state.piles], [x[:] for x in state.crew], state.phase)
    rng2 = random.Random(seed + 1)
    while not clone.is_terminal():
        legal = clone.legal_actions()
        clone.apply_action(legal[rng2.randrange(len(legal))])
    assert (state.history, state.piles, state.crew, state.phase) == snapshot


@settings(max_examples=40, deadline=None)
@given(p=players, seed=seeds)
def test_same_deal_and_actions_give_the_same_result(p: int, seed: int) -> None:
    first = random_game(p, seed, check=False)
    deal = R.random_deal(p, random.Random(seed))
    replay = R.new_state(p, deal)
    for action in first.history:
        replay.apply_action(action)
    assert replay.result() == first.result() and dict(replay.stats()) == dict(first.stats())


@pytest.mark.slow
def test_heuristic_bot_beats_random_bots() -> None:
    wins = 0.0
    games = 60
    for seed in range(games):
        state = R.new_game(2, seed)
        bots = [BOTS["heuristic"](R, 0, random.Random(seed)), BOTS["random"](R, 1, random.Random(seed))]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
        winners = state.result().winners
        wins += (0 in winners) / len(winners)
    assert wins / games > 0.75


def test_observation_hides_rival_crews_and_unseen_cards() -> None:
    state = R.new_game(4, 3)
    obs = state.observation(1)
    assert obs["crew_sizes"] == [0, 0, 0, 0] and obs["stock"] == []
    assert all(card is None for pile in obs["piles"] for card in pile)
    assert "box" not in obs


def test_composition_checks_pass_on_the_real_data() -> None:
    checks = composition_checks(GAME)
    assert checks and all(c.ok for c in checks), [c for c in checks if not c.ok]
    names = " ".join(c.name for c in checks)
    for players in range(2, 7):
        assert f"{players} players: deck covers the deal" in names
    assert "combination street formable" in names and "captain frame" in names


def test_a_deal_too_big_for_the_deck_fails_at_its_yaml_line(project_copy: Project) -> None:
    edit(project_copy.data_dir / "all-hands-on-deck" / "game.yaml", "deal: {2: 20, 3: 17,", "deal: {2: 20, 3: 27,")
    checks = composition_checks(load_game(project_copy, "all-hands-on-deck"))
    failed = [c for c in checks if not c.ok]  # the engine refuses it before any deal (engine.playable)
    assert [c.actual for c in failed] == ["rules: 'deal' must be such that 3 players x deal.3 <= 60, the pirate cards "
                                          "in play, got 3 x 27 = 81"]
    assert failed[0].location and failed[0].location.file.endswith("game.yaml") and failed[0].location.line > 0


def test_an_unformable_combination_fails_at_its_yaml_line(project_copy: Project) -> None:
    edit(project_copy.data_dir / "all-hands-on-deck" / "game.yaml",
         "{id: five-of-a-kind, label: Gang of Five, shape: set, size: 5,",
         "{id: five-of-a-kind, label: Gang of Five, shape: set, size: 10,")
    checks = composition_checks(load_game(project_copy, "all-hands-on-deck"))
    failed = [c for c in checks if not c.ok]
    assert [c.name for c in failed] == ["combination five-of-a-kind formable with 2 players"]
    assert failed[0].location is not None and failed[0].location.line > 0


def test_two_pairs_of_one_crew_kind_are_reported_at_the_second(project_copy: Project) -> None:
    edit(project_copy.data_dir / "all-hands-on-deck" / "game.yaml", "kind: navigator\n", "kind: carpenter\n")
    failed = [c for c in composition_checks(load_game(project_copy, "all-hands-on-deck")) if not c.ok]
    assert [c.name for c in failed] == ["pair set-the-course: its own crew kind"]
    assert "ships-repairs is a pair of carpenter" in failed[0].actual
    assert failed[0].location is not None and failed[0].location.line > 0


def test_a_captain_without_its_frame_is_reported(project_copy: Project) -> None:
    edit(project_copy.data_dir / "all-hands-on-deck" / "cards.yaml",
         "{id: redsash-5, kind: redsash, name: Captain Redsash, captain: true,",
         "{id: redsash-5, kind: redsash, name: Captain Redsash, captain: false,")
    checks = composition_checks(load_game(project_copy, "all-hands-on-deck"))
    assert not checks[0].ok and "captain: true" in checks[0].actual
    assert checks[0].location is not None and checks[0].location.file.endswith("cards.yaml")


def test_a_wrong_score_sheet_maximum_is_reported(project_copy: Project) -> None:
    edit(project_copy.data_dir / "all-hands-on-deck" / "game.yaml", "cook: [9, 11, 13]", "cook: [9, 12, 13]")
    failed = [c for c in composition_checks(load_game(project_copy, "all-hands-on-deck")) if not c.ok]
    assert [c.name for c in failed] == ["score sheet: maximum cook cards"]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(min_value=0, max_value=8), min_size=len(R.config.kinds),
                       max_size=len(R.config.kinds)))
def test_formable_lists_exactly_the_options_a_crew_holds_the_cards_for(counts: list[int]) -> None:
    """`formable` works on per-kind bitmasks; it must agree with reading each option's needs."""
    want = tuple(o.index for o in R.options if all(counts[k] >= n for k, n in enumerate(o.need)))
    assert R.formable(counts) == want
    assert R.formable(counts) == want  # the memoised answer too
