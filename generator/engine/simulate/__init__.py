"""The simulator: bots play a game's real rules many times; results come back as counts.

`runner.simulate(spec, jobs)` plays the games (in worker processes when
jobs > 1) and returns an `Aggregate`; `summary.summarize` turns it into the
plain dict that the terminal table, `--json` and the PDF report print.
"""

from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.bots import resolve_bot, seat_bots
from generator.engine.simulate.runner import CHUNK, EngineSource, SimSpec, play_game, simulate
from generator.engine.simulate.summary import summarize

__all__ = [
           "CHUNK",
           "Aggregate",
           "EngineSource",
           "SimSpec",
           "play_game",
           "resolve_bot",
           "seat_bots",
           "simulate",
           "summarize",
]
