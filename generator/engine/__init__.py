"""Rules engines and what plays them.

The framework: `base` (Rules, State, Bot, InformationSet), `registry` (engines from the
`pirate_press.engines` entry points, an immutable value), `composition` (generic deck checks), `replay`
(logs, `pnp check`), `search` (the information-set search bot), `play` and `view` (a person at the table),
`rl` (PettingZoo, extra .[rl]) and `simulate/`. The games are in `games/`, one package each.

Engine code may import load, model and the ground floor, never render, validate or build; the framework
never imports a game by name (import-linter keeps the games independent of each other).
"""
