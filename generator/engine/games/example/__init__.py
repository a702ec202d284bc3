"""The example engine: Nim, as small as an engine gets, in the shape every engine has. Copy it to start a game.

Players take 1..`take_max` doubloons from one pile in turn; whoever takes the
last one wins. Alone, you play against the tide: after each of your turns the
sea takes the amount the deal says, and you must take the last doubloon
yourself. Its numbers come from the game's `rules:` in the YAML, like any
engine's. No game ships with it (no entry point registers it): the test
suite plays it, and `tests/fifth_game/` is a whole game built around it,
its engine an installable plugin (`plunder_pile`) that reuses these modules.

How to add a game's engine, step by step (this package is each step's example):

1. **config.py**: read every number and card the engine needs from the `Game`
   once, into one frozen dataclass (`load_config`). Never type a game fact
   that the YAML holds; a rule the text leaves open goes in the YAML under a
   `designed:` note. Its `PLAYABLE` table (`generator.engine.playable`)
   declares the range of every rules value the engine can play (`Span`) and
   the relations between them (`Needs`); `Rules` refuses a misfit at its YAML
   line before any game starts, and `pnp validate` lists every one.
2. **actions.py**: a fixed action space of small integers with readable names
   (`ActionSpace`, a `NamedActions`). Logs and `pnp check` read and write the names.
3. **state.py**: the game in progress (`State`): whose turn, the legal actions
   (sorted), `apply_action` (an illegal action raises `IllegalAction` naming
   the rule), `is_terminal`, `result`, `observation` (what one seat sees at
   the table, and nothing more), a hand-written `copy`, `determinize` (a copy
   with everything a seat cannot see drawn anew: what the search bot plans
   with), `check_invariants`,
   `stats` (figures for the simulator), and `opener` when the deal draws who
   starts.
4. **rules.py**: `Rules[YourState]` with `game_id` equal to the data folder's
   name. `random_deal` draws every chance outcome of a game up front into
   JSON-able data; `new_state` plays from a deal (and refuses a malformed one).
5. **bots.py**: at least a "heuristic" bot (the base's `RandomBot` is "random";
   `generator.engine.search.SearchBot` is "search", for any game with `determinize`).
   A bot reads only its observation and breaks ties with its own seeded rng
   (`Bot.pick_best`), never by seat.
6. **checks.py**: `composition_checks(game)`, the game's own deck checks for
   `pnp validate`, run through the engine's real setup code.
7. **__init__.py** (this file): the three hooks `RULES`, `BOTS` and
   `composition_checks`. Then register the package: in its distribution's
   pyproject.toml, under `[project.entry-points."pirate_press.engines"]`, one
   line `your-game = "your_package:RULES"` (the name is the data folder's),
   and `pip install` it. The registry finds it and checks the hooks when the
   engine is first asked for; docs/new-game.md walks through it.

Nothing else changes: the simulator, `pnp check`, the replay logs and the
engine tests are parametrised from the registry and pick the game up.
"""

from generator.engine.base import Bot, RandomBot
from generator.engine.games.example.bots import HeuristicBot
from generator.engine.games.example.checks import composition_checks
from generator.engine.games.example.rules import NimRules
from generator.engine.search import SearchBot

RULES = NimRules
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}

__all__ = ["BOTS", "RULES", "composition_checks"]
