"""The search bot (generator/engine/search.py) and the determinizations it plans with, for every game.

The central promise: the bot sees only what its seat sees. A test takes real
positions, redraws every card the seat cannot see (another state the seat
cannot tell apart from the real one) and checks that the bot, with the same
seed, makes exactly the same choice: its input is the observation and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest

from generator.engine.base import RandomBot, Rules, State
from generator.engine.search import SearchBot, payoffs
from generator.errors import UsageError
from generator.load import load_game
from tests import fifth_game
from tests.engine.test_engine_contract import CASES, PROJECT, build_rules
from tests.engine.walk import random_walk


class QuickSearch(SearchBot):
    """A small budget keeps the suite fast; the tree logic is the same at any budget."""

    iterations = 16


@pytest.fixture(scope="module")
def rules_of() -> dict[str, Rules[Any]]:
    return build_rules(fifth_game.REGISTRY, PROJECT)


def positions(rules: Rules[Any], players: int, games: int, every: int) -> Iterator[State]:
    """Positions met along random games: every `every`-th decision of `games` seeded games."""
    for seed in range(games):
        state = rules.new_game(players, seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state
            random_walk(state, rng, 1)
            step += 1


def differ_later(state: State, sample: State, players: int, steps: int = 30) -> bool:
    """Whether some seat sees a difference between the two games now or along the same random moves."""
    a, b = state.copy(), sample.copy()
    rng = random.Random(0)
    for _ in range(steps):
        if any(dict(a.observation(s)) != dict(b.observation(s)) for s in range(players)):
            return True
        if a.is_terminal() or b.is_terminal() or len(a.legal_actions()) != len(b.legal_actions()):
            return a.is_terminal() != b.is_terminal() or a.legal_actions() != b.legal_actions()
        pick = rng.randrange(len(a.legal_actions()))
        a.apply_action(a.legal_actions()[pick])
        b.apply_action(b.legal_actions()[pick])
    return False


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_sample_is_a_sound_game_the_seat_cannot_tell_from_the_real_one(rules_of: dict, game_id: str,
                                                                         players: int) -> None:
    """Every seat's sample passes the engine's own invariants, shows that seat exactly what it sees,
    offers the seat to move the same legal moves, and plays on to a result. Somewhere the redraw changes what some
    seat sees, now or a few moves on: the sample really redraws something."""
    rules = rules_of[game_id]
    redrawn = 0
    for state in positions(rules, players, games=3, every=7):
        for seat in range(players):
            sample = state.determinize(seat, random.Random(seat))
            sample.check_invariants()
            assert dict(sample.observation(seat)) == dict(state.observation(seat))
            assert sample.current_player() == state.current_player()
            if seat == state.current_player():
                assert sample.legal_actions() == state.legal_actions()
            redrawn += differ_later(state, sample, players)
    assert redrawn > 0, f"{game_id}: no sample ever redrew a card anyone sees, now or later"
    sample = rules.new_game(players, 1).determinize(0, random.Random(2))
    assert random_walk(sample, random.Random(3)).is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_search_bot_never_reads_hidden_state(rules_of: dict, game_id: str, players: int) -> None:
    """Redraw all a seat cannot see, and the search bot's choice with the same seed stays exactly the same:
    the plain search, and the game's own `search` bot (guided by its heuristic bot)."""
    rules = rules_of[game_id]
    shipped = fifth_game.REGISTRY.engine(game_id).bots["search"]
    # small budgets: iterations (halving), samples (Pirate Tricks' PIMC), rounds of worlds (Counterattack)
    guided = type("QuickGuided", (shipped,), {"iterations": 4, "samples": 2, "rounds": (2, 4)})
    compared = 0
    for state in islice(positions(rules, players, games=2, every=13), 6):
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        twin = state.determinize(seat, random.Random(99))  # the same table, different hidden cards
        for seed, bot in ((0, QuickSearch), (1, QuickSearch), (0, guided)):
            real = bot(rules, seat, random.Random(seed)).choose(state.observation(seat), legal)
            other = bot(rules, seat, random.Random(seed)).choose(twin.observation(seat), legal)
            assert real == other, f"{game_id}: the choice changed when only hidden cards changed"
            assert real in legal
        compared += 1
    assert compared > 0


def test_the_search_bot_is_deterministic_and_its_choices_vary_with_the_seed(rules_of: dict) -> None:
    rules = rules_of["pirate-tricks"]
    state = rules.new_game(3, 5)
    random_walk(state, random.Random(0), 40)
    seat, legal = state.current_player(), state.legal_actions()
    choices = [QuickSearch(rules, seat, random.Random(s)).choose(state.observation(seat), legal) for s in range(8)]
    again = [QuickSearch(rules, seat, random.Random(s)).choose(state.observation(seat), legal) for s in range(8)]
    assert choices == again
    assert all(c in legal for c in choices)


def test_search_beats_random_at_nim(tmp_path: Any) -> None:
    """The textbook worked example: from 7 doubloons, taking 3 leaves 4 and wins; the search sees it,
    and over a few games it beats the random bot from either seat."""
    root = fifth_game.make_project(tmp_path)
    rules = fifth_game.REGISTRY.engine("nim").rules(load_game(root, "nim"))
    state = rules.new_state(2, {"heap": 7})
    seat = state.current_player()
    assert SearchBot(rules, seat, random.Random(1)).choose(state.observation(seat), state.legal_actions()) == 3
    wins = 0
    for game in range(10):
        state = rules.new_game(2, game)
        bots = [SearchBot(rules, 0, random.Random(game)), RandomBot(rules, 1, random.Random(game))]
        if game % 2:
            bots = [RandomBot(rules, 0, random.Random(game)), SearchBot(rules, 1, random.Random(game))]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
        wins += isinstance(bots[state.result().winners[0]], SearchBot)
    assert wins >= 8


def test_a_game_without_information_sets_gets_one_clear_error(rules_of: dict) -> None:
    rules = rules_of["counterattack"]
    bot = SearchBot(rules, 0, random.Random(0))
    with pytest.raises(UsageError, match="information set"):
        bot.choose({"hand": [1, 2]}, [1, 2])


def test_payoffs_reward_victory_first_and_score_second() -> None:
    from generator.engine.base import Result

    alone = payoffs(Result((10.0, 4.0, 7.0), (0,)), 3)
    assert alone[0] > 0.9 and alone[1] < alone[2] < 0.5       # the winner; then a close second beats a rout
    shared = payoffs(Result((5.0, 5.0), (0, 1)), 2)
    assert shared[0] == shared[1] and 0.5 < shared[0] < 1.0
    close, rout = payoffs(Result((10.0, 9.0), (0,)), 2), payoffs(Result((10.0, 2.0), (0,)), 2)
    assert rout[1] < close[1] < 0.5 < close[0] < rout[0]
    lost_together = payoffs(Result((2.0, 2.0), ()), 2), payoffs(Result((1.0, 1.0), ()), 2)
    assert lost_together[0][0] > lost_together[1][0]  # a cooperative loss still counts the ports taken


def test_the_guided_search_weighs_the_priors_candidates_by_halving_and_finds_the_winning_take(tmp_path: Any) -> None:
    """Sequential halving over all three takes from 7 doubloons, a random bot as prior: taking 3 wins."""
    root = fifth_game.make_project(tmp_path)
    rules = fifth_game.REGISTRY.engine("nim").rules(load_game(root, "nim"))
    state = rules.new_state(2, {"heap": 7})
    seat, legal = state.current_player(), state.legal_actions()
    halving = SearchBot.guided(prior=RandomBot, iterations=120, candidates=3)
    assert [halving(rules, seat, random.Random(s)).choose(state.observation(seat), legal) for s in range(4)] == [3] * 4


@pytest.mark.parametrize("game_id", ["pirates-under-fire", "all-hands-on-deck"])
def test_a_heuristic_ranks_legal_moves_only_and_among_them_its_own_choice(rules_of: dict, game_id: str) -> None:
    """`ranked` (the search bot's candidates) offers only legal moves, each once, among them the move the
    heuristic itself would play with the same seed."""
    rules = rules_of[game_id]
    heuristic = fifth_game.REGISTRY.engine(game_id).bots["heuristic"]
    for state in islice(positions(rules, 2, games=2, every=5), 30):
        seat, legal = state.current_player(), state.legal_actions()
        order = heuristic(rules, seat, random.Random(7)).ranked(state.observation(seat), legal)
        assert order and len(set(order)) == len(order) and set(order) <= set(legal)
        choice = heuristic(rules, seat, random.Random(7)).choose(state.observation(seat), legal)
        assert choice in order


def test_margins_rank_seats_by_their_lead_and_stay_in_the_unit_interval() -> None:
    from generator.engine.search import margins

    ahead, level, behind = margins([12.0, 9.0, 9.0])[0], margins([9.0, 9.0])[0], margins([6.0, 9.0, 9.0])[0]
    assert 0.0 < behind < level == 0.5 < ahead < 1.0
    assert margins([3.0])[0] > margins([1.0])[0]   # alone, more is better


def test_a_cut_play_out_stops_at_its_horizon_and_asks_the_game_to_judge(rules_of: dict) -> None:
    """With a horizon the halving search plays that many moves past the candidate and scores the position
    with `evaluate`; without an evaluation a horizon is refused."""
    rules = rules_of["pirates-under-fire"]
    heuristic = fifth_game.REGISTRY.engine("pirates-under-fire").bots["heuristic"]
    judged: list[int] = []

    def evaluate(state: State) -> list[float]:
        judged.append(len(state.history))
        return [float(len(state.history) % 3), 1.0]

    bot_class = SearchBot.guided(prior=heuristic, playout=heuristic, iterations=8, candidates=2, horizon=3,
                                 evaluate=evaluate)
    state = rules.new_game(2, 4)
    seat, legal = state.current_player(), state.legal_actions()
    choice = bot_class(rules, seat, random.Random(0)).choose(state.observation(seat), legal)
    assert choice in legal and judged
    assert all(moves == len(state.history) + 4 for moves in judged)  # the candidate, then three more moves
    with pytest.raises(ValueError, match="evaluation"):
        SearchBot.guided(prior=heuristic, iterations=8, candidates=2, horizon=3)
