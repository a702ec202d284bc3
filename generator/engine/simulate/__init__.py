"""The simulator: bots play a game's real rules many times; results come back as counts.

`runner.simulate(spec, jobs)` plays the games (in worker processes when
jobs > 1) and returns an `Aggregate`; `summary.summarize` turns it into the
typed `generator.simulation.Summary` that the terminal table, `--json`, the
PDF report and the gallery read; `summary.record_latest` writes the gallery's copy.

It may import the engine framework (base, registry, replay), load (with --set overrides), model and the
ground floor (simulation, workers); `dask_backend` alone imports `distributed` (extra .[dask]).
"""

from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.bots import resolve_bot, seat_bots
from generator.engine.simulate.runner import CHUNK, EngineSource, SimSpec, play_game, simulate
from generator.engine.simulate.summary import record_latest, summarize

__all__ = [
           "CHUNK",
           "Aggregate",
           "EngineSource",
           "SimSpec",
           "play_game",
           "record_latest",
           "resolve_bot",
           "seat_bots",
           "simulate",
           "summarize",
]
