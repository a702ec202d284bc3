"""Heuristic bots before and after their speed-ups, on one core: prints games per second and the ratio.

    .venv/bin/python tests/bench/bench_heuristics.py [--games N]

"Before" is the plain bot kept in tests/engine/reference/ (the very decisions, found
the slow way: observation rebuilt with every seat's recruitment lay-out, recruitment
combinations recounted, every line of the board rescanned twice per candidate);
"after" is the engine's bot. Both play the same seeded games with the bot in every
seat; CPU seconds of this process (other load on the machine does not count).
Prints figures, asserts nothing (run by hand).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.engine.base import Bot, Rules
from generator.engine.registry import REGISTRY
from generator.load import load_game
from generator.project import Project
from tests.engine.reference.pirate_tricks_bot import HeuristicBot as PlainTricks
from tests.engine.reference.pirate_tricks_state import PlainTricksState
from tests.engine.reference.under_fire_bot import HeuristicBot as PlainFire

BEFORE: dict[str, type[Bot]] = {"pirate-tricks": PlainTricks, "pirates-under-fire": PlainFire}
PLAIN_STATE: dict[str, type] = {"pirate-tricks": PlainTricksState}  # the state as it observed before


def games_per_second(rules: Rules[Any], players: int, bot: type[Bot], games: int, plain: type | None = None) -> float:
    began = time.process_time()
    for seed in range(games):
        state = rules.new_game(players, seed)
        if plain is not None:
            state.__class__ = plain
        rng = random.Random(seed)
        bots = [bot(rules, seat, rng) for seat in range(players)]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state.observation(seat), state.legal_actions()))
    return games / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    project = Project.at(".")
    for game_id, plain in BEFORE.items():
        engine = REGISTRY.engine(game_id)
        rules = engine.rules(load_game(project, game_id))
        for players in rules.player_counts:
            before = games_per_second(rules, players, plain, args.games, PLAIN_STATE.get(game_id))
            after = games_per_second(rules, players, engine.bots["heuristic"], args.games)
            print(f"{game_id:20} {players}p heuristic: before {before:7.1f} games/s, after {after:7.1f} games/s, "
                  f"{after / before:4.1f}x")


if __name__ == "__main__":
    main()
