"""Every game as a PettingZoo AEC environment, for reinforcement learning (optional extra: `pip install '.[rl]'`).

    from generator.engine.rl import game_env
    env = game_env("pirate-tricks", players=4)

The environment knows no game: it drives the engine interface. Agents are
`player_0..`, one per seat; the agent to act is the engine's current player.
Actions are the game's fixed action space (`rules.space`, sized from the
data); each observation is a dict of

* `observation`: what the seat sees (`State.observation`), encoded as a
  fixed-length float vector by feature hashing: every number, word and list
  entry of the observation, with its path (`hand`, `rows.0.loon`...), adds into
  one of `FEATURES` slots chosen by a stable CRC of that path and value;
* `action_mask`: 1 for the legal actions of the agent to act, all 0 otherwise.

Rewards come at the end: +1 to each winner, -1 to everyone else (a lost
cooperative game is -1 for all). numpy, gymnasium and pettingzoo are imported
only here, so the rest of `pnp` never needs them.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from generator.engine.base import NamedActions, Rules, State
from generator.engine.registry import REGISTRY, Registry
from generator.errors import UsageError
from generator.load import load_game
from generator.project import Project

FEATURES = 512  # slots of the hashed observation vector


def encode(observation: Mapping[str, Any], size: int = FEATURES) -> np.ndarray:
    """A fixed-length vector of an observation of any shape (feature hashing with a stable CRC).

    A number adds its value at its path, and also counts once at (path, value) so card ids in lists
    read as a bag of cards; a word counts at (path, word); lists and mappings are walked with the
    index or key added to the path.
    """
    vector = np.zeros(size, dtype=np.float32)
    _add(vector, "", observation)
    return vector


def _slot(text: str, size: int) -> int:
    return zlib.crc32(text.encode()) % size


def _add(vector: np.ndarray, path: str, value: Any) -> None:
    size = len(vector)
    if value is None:
        return
    if isinstance(value, bool | int | float):
        vector[_slot(path, size)] += float(value)
        vector[_slot(f"{path}={value}", size)] += 1.0
    elif isinstance(value, str):
        vector[_slot(f"{path}={value}", size)] += 1.0
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _add(vector, f"{path}.{key}", item)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            if isinstance(item, bool | int | float | str):
                vector[_slot(f"{path}[]={item}", size)] += 1.0  # as a bag
            _add(vector, f"{path}.{index}", item)
    else:
        raise TypeError(f"cannot encode {type(value).__name__} at {path or 'the top'} of an observation")


def action_count(rules: Rules[Any]) -> int:
    """The size of the game's fixed action space."""
    space = getattr(rules, "space", None)
    if not isinstance(space, NamedActions):
        raise UsageError(f"the {rules.game_id} engine has no fixed action space (rules.space): it cannot be an "
                         "RL environment")
    return space.size


class GameEnv(AECEnv):
    """One game at one player count, as an AEC environment (see the module docstring)."""

    metadata: dict[str, Any]  # per game: its name, render modes

    def __init__(self, rules: Rules[Any], players: int, render_mode: str | None = None) -> None:
        super().__init__()
        if players not in rules.player_counts:
            raise UsageError(f"{rules.game_id} is played by {', '.join(map(str, rules.player_counts))} players, "
                             f"not {players}")
        self.rules = rules
        self.players = players
        self.render_mode = render_mode
        self.metadata = {"name": f"pirate_press_{rules.game_id.replace('-', '_')}", "render_modes": ["human"],
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        count = action_count(rules)
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (FEATURES,), np.float32),
            "action_mask": spaces.Box(0, 1, (count,), np.int8),
        }) for agent in self.possible_agents}
        self.game: State | None = None
        self.acted: str | None = None  # the agent who made the last move (what `render` shows)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = random.Random(seed)
        self.game = self.rules.new_state(self.players, self.rules.random_deal(self.players, rng))
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player()]
        self.acted = None

    def _state(self) -> State:
        if self.game is None:
            raise UsageError("call reset() before using the environment")
        return self.game

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._state()
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if not game.is_terminal() and game.current_player() == seat:
            mask[game.legal_actions()] = 1
        return {"observation": encode(game.observation(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._state()
        self._cumulative_rewards[agent] = 0.0
        game.apply_action(int(action))  # an illegal action raises IllegalAction naming the rule
        self.acted = agent  # who made the last move: `agent_selection` moves on to the next seat below
        if game.is_terminal():
            winners = game.result().winners
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = 1.0 if seat in winners else -1.0
                self.terminations[name] = True
        else:
            self.agent_selection = self.possible_agents[game.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> None:
        """The last move, by the agent who made it: `player_1: play Tortuga`."""
        game = self._state()
        if game.history and self.acted is not None:
            print(f"{self.acted}: {game.action_to_string(game.history[-1])}")

    def close(self) -> None:
        pass


def game_env(game_id: str, players: int | None = None, root: str | Path = ".", registry: Registry = REGISTRY,
             render_mode: str | None = None) -> GameEnv:
    """The environment of a game of the project at `root` (the fewest players it allows by default)."""
    rules = registry.engine(game_id).rules(load_game(Project.at(root), game_id))
    return GameEnv(rules, players if players is not None else min(rules.player_counts), render_mode)
