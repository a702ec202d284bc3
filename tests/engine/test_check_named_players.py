"""`pnp check` on a hand-typed Pirate Tricks game: the disputed card is found and told by name."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generator.engine.games.pirate_tricks import RULES
from generator.load import load_game
from generator.project import Project
from tests.helpers import run_pnp

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Bo", "Ann", "Cy")


def a_game_with_a_revoke(seed: int) -> tuple[list[str], str, str, str]:
    """Random legal actions up to a trick where the next player could revoke; and that revoke."""
    rules = RULES(load_game(Project.at(ROOT), "pirate-tricks"))
    state = rules.new_game(3, seed)
    rng = random.Random(seed)
    actions: list[str] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        texts = [state.action_to_string(a) for a in legal]
        if all(t.startswith("play ") for t in texts):
            seat = state.current_player()
            hand = [state.action_to_string(c) for c in state.hands[seat]]
            led = state.trick_cards[0] if state.trick_cards else None
            if led is not None:
                colour = state.action_to_string(led).split()[-1]
                others = [h for h in hand if not h.endswith(colour)]
                followers = [h for h in hand if h.endswith(colour)]
                if others and followers:
                    return actions, others[0], followers[0], colour
        action = legal[rng.randrange(len(legal))]
        actions.append(state.action_to_string(action))
        state.apply_action(action)
    pytest.skip("no revoke chance in this game")


def test_a_revoke_is_reported_at_its_line_with_the_players_name(tmp_path: Path, capsys) -> None:
    actions, revoke, follow, colour = a_game_with_a_revoke(seed=4)
    log = tmp_path / "table.log"
    header = ["# Friday night, table 2", "game: pirate-tricks", "players: 3", f"names: {', '.join(NAMES)}",
              "seed: 4", "---"]
    log.write_text("\n".join(header + actions + [revoke]) + "\n")
    code, out, err = run_pnp(capsys, "--root", str(ROOT), "check", "pirate-tricks", str(log))
    assert code == 1
    line = len(header) + len(actions) + 1
    held = follow.removeprefix("play ")
    played = revoke.removeprefix("play ")
    expected = f"line {line}: "
    message = (out + err).strip().splitlines()[-1]
    assert message.startswith(expected) and f"played {played} but holds " in message, message
    assert message.endswith(f"and must follow {colour}") and any(f"{name} played" in message for name in NAMES), message
    assert held.split()[-1] == colour
