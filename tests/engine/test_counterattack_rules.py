"""Counterattack rules, one scenario per rule of seeds 000/001, on hand-built deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.engine.base import IllegalAction
from generator.engine.games.counterattack import RULES
from generator.engine.games.counterattack.state import PIRATE_DOWN, SET_ASIDE
from generator.load import load_game
from generator.project import Project

ROOT = Path(__file__).resolve().parents[2]
GAME = load_game(Project.at(ROOT), "counterattack")
R = RULES(GAME)
T = R.config
N = len(T.card_suit)
FLIP = N


def card(name: str) -> int:
    return T.card_names.index(name)


def suit_cards(suit: str) -> list[int]:
    return [c for c in range(N) if T.suit_names[T.card_suit[c]] == suit]


def exposed_order(*suits: str) -> list[int]:
    return [next(i for i, s in enumerate(T.exposed_suit) if T.suit_names[s] == suit) for suit in suits]


def make_pass(*piles: list[int]) -> list[int]:
    """A deck order that deals the given piles first (you, pirate, you, pirate...), the rest after."""
    dealt = [c for pile in piles for c in pile]
    assert len(set(dealt)) == len(dealt)
    return dealt + [c for c in range(N) if c not in dealt]


def state_with(mine: list[int], pirate: list[int], exposed: list[int] | None = None, players: int = 1,
               more: list[list[int]] | None = None):
    passes = [make_pass(mine, pirate, *(more or []))] + [list(range(N))] * (T.passes - 1)
    deal = {"exposed": exposed or exposed_order("anchors", "cutlasses", "compasses", "skulls"), "passes": passes}
    return R.new_state(players, deal, check=True)


FILLER_MINE = [card(f"{r} compasses") for r in range(1, 10)]
FILLER_PIRATE = [card(f"{r} skulls") for r in range(2, 11)]


def first_trick(mine: str, pirate: str, exposed: list[int] | None = None, flips: int = 0) -> bool:
    """Play `mine` against the pirate's face-up `pirate` card; True if the trick was won."""
    hand = [card(mine), *[c for c in FILLER_MINE if c != card(mine) and c != card(pirate)][:9]]
    pile = [card(pirate), *[c for c in FILLER_PIRATE if c not in (card(mine), card(pirate))][:9]]
    state = state_with(hand, pile, exposed)
    for _ in range(flips):
        state.apply_action(FLIP)
    state.apply_action(card(mine))
    assert state.won + state.lost == 1
    return state.won == 1


class TestTrickResolution:
    def test_trump_against_non_trump_wins_even_when_lower(self) -> None:
        assert first_trick("1 anchors", "11 cutlasses")

    def test_higher_trump_wins_lower_trump_loses(self) -> None:
        assert first_trick("9 anchors", "8 anchors")
        assert not first_trick("7 anchors", "8 anchors")

    def test_pirate_trump_beats_any_non_trump(self) -> None:
        assert not first_trick("11 cutlasses", "1 anchors")

    def test_no_trump_played_following_suit_higher_wins(self) -> None:
        assert first_trick("9 cutlasses", "8 cutlasses")
        assert not first_trick("7 cutlasses", "8 cutlasses")

    def test_no_trump_played_other_suit_loses_even_when_higher(self) -> None:
        assert not first_trick("11 cutlasses", "2 skulls")

    def test_flip_changes_trump_before_playing(self) -> None:
        # After one flip cutlasses are trump: 1 cutlasses now beats 11 anchors.
        assert not first_trick("1 cutlasses", "11 anchors")
        assert first_trick("1 cutlasses", "11 anchors", flips=1)

    def test_without_trump_only_following_suit_higher_wins(self) -> None:
        # three flips turn up the last of the four exposed ports: the stack is empty, no trump
        assert first_trick("10 anchors", "9 anchors", flips=3)
        assert not first_trick("10 anchors", "9 cutlasses", flips=3)
        assert not first_trick("1 skulls", "9 cutlasses", flips=3)  # skulls, the last card turned, is no trump


class TestExposedPortStack:
    """The rule text, literally: turning up the last exposed port empties the stack; then no trump, no flip."""

    def test_top_card_is_trump_and_flips_walk_the_stack_until_the_last_card_ends_trump(self) -> None:
        order = exposed_order("skulls", "anchors", "compasses", "cutlasses")
        state = state_with([*FILLER_MINE, card("1 anchors")], [*FILLER_PIRATE, card("1 skulls")], order)
        seen = [T.suit_names[state.trump]]
        for _ in range(2):
            state.apply_action(FLIP)
            seen.append(T.suit_names[state.trump])
        assert seen == ["skulls", "anchors", "compasses"]  # three suits were trump, the first and two more
        state.apply_action(FLIP)  # turns up cutlasses, the last card: the stack is empty
        assert state.trump == -1 and FLIP not in state.legal_actions()
        assert state.observation(0)["exposed_seen"] == order and not state.observation(0)["can_flip"]

    def test_empty_stack_cannot_be_flipped_and_is_never_reset(self) -> None:
        hand = suit_cards("anchors")[:2] + suit_cards("cutlasses")[:8]
        pirate = suit_cards("cutlasses")[8:] + suit_cards("compasses")[:7]
        state = state_with(hand, pirate)
        for _ in range(T.flips):
            assert FLIP in state.legal_actions()
            state.apply_action(FLIP)
        assert state.flips == len(T.exposed_suit) - 1 == 3
        assert FLIP not in state.legal_actions()
        with pytest.raises(IllegalAction, match="stack is empty"):
            state.apply_action(FLIP)
        while state.hands_played == 0:
            state.apply_action(state.legal_actions()[0])
        # Whatever happened to the hand, the stack stays empty.
        assert state.trump == -1 and state.exposed_pos == len(T.exposed_suit) - 1
        if not state.is_terminal():
            assert FLIP not in state.legal_actions()


def hand_pair(wins: int, anchors: list[int], others: list[int]) -> tuple[list[int], list[int]]:
    """You hold `wins` anchors (trump) and low cards; the pirate holds no anchor: you win exactly `wins`."""
    mine = [anchors.pop(0) for _ in range(wins)]
    mine += [others.pop(0) for _ in range(10 - wins)]
    pirate = [others.pop(0) for _ in range(10)]
    return mine, pirate


class TestPortsAndHands:
    def test_exact_trick_count_exploits_the_port_and_deals_the_aft_hand_unshuffled(self) -> None:
        anchors, others = suit_cards("anchors"), [c for c in range(N) if c not in suit_cards("anchors")]
        mine, pirate = hand_pair(2, anchors, others)
        state = state_with(mine, pirate)
        deck = state.passes[0]
        while state.hands_played == 0:
            state.apply_action(state.legal_actions()[0])   # never flips: flip is the last legal action
        assert state.hand_tricks == [2]
        assert not state.ports_open[T.port_tricks.index(2)]
        assert state.hands[0] == sorted(deck[20:30])
        assert state.pirate == deck[30:40]
        assert [state.owner[c] for c in deck[40:]] == [SET_ASIDE] * 4
        assert state.owner[deck[31]] == PIRATE_DOWN

    def test_no_matching_port_loses_the_game(self) -> None:
        anchors, others = suit_cards("anchors"), [c for c in range(N) if c not in suit_cards("anchors")]
        mine, pirate = hand_pair(10, anchors, others)   # ten tricks: no port shows 10
        state = state_with(mine, pirate)
        for c in list(state.hands[0]):
            state.apply_action(c)
        assert state.is_terminal() and state.result().winners == ()
        assert state.stats()["lost_at_hand"] == 1.0

    def test_a_port_is_exploited_only_once(self) -> None:
        anchors, others = suit_cards("anchors"), [c for c in range(N) if c not in suit_cards("anchors")]
        first = hand_pair(4, anchors, others)
        second = hand_pair(4, anchors, others)
        state = state_with(*first, more=list(second))
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert state.hand_tricks == [4, 4] and state.exploited[1] == -1 and state.result().winners == ()

    def test_six_ports_win_with_a_reshuffle_after_each_aft_hand(self) -> None:
        passes = []
        for a, b in ((7, 2), (6, 3), (5, 4)):
            anchors, others = suit_cards("anchors"), [c for c in range(N) if c not in suit_cards("anchors")]
            fore, aft = hand_pair(a, anchors, others), hand_pair(b, anchors, others)
            passes.append(make_pass(*fore, *aft))
        state = R.new_state(1, {"exposed": [0, 1, 2, 3], "passes": passes}, check=True)
        while not state.is_terminal():
            if state.hands_played == 2 and state.trick == 0:
                assert state.hands[0] == sorted(passes[1][:10])   # reshuffled: the second pass
            state.apply_action(state.legal_actions()[0])
        result = state.result()
        assert state.hand_tricks == [7, 2, 6, 3, 5, 4]
        assert result.winners == (0,) and result.scores == (6.0,)
        assert state.stats()["victory"] == 1.0


class TestTwoPlayers:
    def test_co_captains_hold_five_each_and_play_alternately(self) -> None:
        state = R.new_game(2, seed=3, check=True)
        assert [len(h) for h in state.hands] == [T.cards_each_2p] * 2
        seats = []
        while state.hands_played == 0:
            seats.append(state.current_player())
            legal = [a for a in state.legal_actions() if a != FLIP]
            state.apply_action(legal[0])
        assert seats == [0, 1] * 5
        if not state.is_terminal():
            assert state.current_player() == 1   # the other co-captain opens the next hand

    def test_a_co_captain_sees_neither_the_partner_hand_nor_the_pirate_pile(self) -> None:
        state = R.new_game(2, seed=4)
        obs = state.observation(0)
        assert obs["hand"] == state.hands[0]
        assert set(state.hands[1]).isdisjoint(obs["hand"])
        text = repr(dict(obs))
        hidden = state.pirate[1:]
        assert all(c not in obs["seen_this_pass"] for c in hidden)
        assert obs["pirate_hidden"] == len(hidden)
        assert "pirate" not in obs or obs.get("pirate") is None
        assert text  # built lazily, but complete when read


class TestActionsAsText:
    def test_round_trip_and_errors(self) -> None:
        state = R.new_game(1, seed=1)
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action
        assert state.action_to_string(FLIP) == "flip exposed port"
        assert state.string_to_action("play 7 anchors") == card("7 anchors")
        with pytest.raises(IllegalAction, match="unreadable action"):
            state.string_to_action("play 12 anchors")

    def test_playing_a_card_you_do_not_hold_names_the_rule(self) -> None:
        state = R.new_game(1, seed=1)
        missing = next(c for c in range(N) if c not in state.hands[0])
        with pytest.raises(IllegalAction, match="not in the hand"):
            state.apply_action(missing)
