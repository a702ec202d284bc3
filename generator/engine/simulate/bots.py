"""Bots are plug-ins: a name from the engine's `BOTS`, or `module:Class` for a user's own.

Specs stay strings until a process needs the classes, so they travel to
worker processes cheaply and appear verbatim in logs and reports.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping, Sequence

from generator.engine.base import Bot
from generator.errors import UsageError, did_you_mean

DEFAULT_BOT = "random"  # every seat's bot when none is named: the fastest baseline
COMMON_BOTS = ("random", "heuristic", "search")  # every game's engine has these (others may add more)


def resolve_bot(spec: str, builtin: Mapping[str, type[Bot]]) -> type[Bot]:
    """The class for one bot spec; a bad name or path is a one-line UsageError."""
    if spec in builtin:
        return builtin[spec]
    if ":" not in spec:
        raise UsageError(f"unknown bot {spec!r}{did_you_mean(spec, builtin)} "
                         f"(bots: {', '.join(sorted(builtin))}, or module:Class)")
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UsageError(f"bot {spec!r} must be written module:Class, e.g. mybots:GreedyBot")
    _allow_working_directory()
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"bot {spec!r}: cannot import module {module_name!r} ({exc})") from None
    target: object = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise UsageError(f"bot {spec!r}: module {module_name!r} has no {attr!r}")
        target = getattr(target, part)
    if not (isinstance(target, type) and issubclass(target, Bot)):
        raise UsageError(f"bot {spec!r} is not a subclass of generator.engine.base.Bot")
    if getattr(target, "__abstractmethods__", None):
        missing = ", ".join(sorted(target.__abstractmethods__))
        raise UsageError(f"bot {spec!r} does not implement {missing}")
    return target


def _allow_working_directory() -> None:
    """Let `mybots:Greedy` find mybots.py in the folder pnp runs in, as `python -m` would.

    The `pnp` script's own folder heads sys.path instead; the working directory
    goes last, so it can never shadow an installed module.
    """
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)


def seat_bots(players: int, bot: str | None, bots: str | None, builtin: Mapping[str, type[Bot]]) -> tuple[str, ...]:
    """One bot spec per seat from `--bot NAME` (every seat) or `--bots a,b,c` (per seat)."""
    if bot and bots:
        raise UsageError("give either --bot (every seat) or --bots (one per seat), not both")
    if bots:
        specs = tuple(s.strip() for s in bots.split(","))
        if len(specs) != players or not all(specs):
            raise UsageError(f"--bots names {len(specs)} bots for {players} seats: give one per seat, comma-separated")
    else:
        specs = (bot or DEFAULT_BOT,) * players
    for spec in dict.fromkeys(specs):
        resolve_bot(spec, builtin)
    return specs


def unique(specs: Sequence[str]) -> list[str]:
    """Bot specs in first-seat order without repeats."""
    return list(dict.fromkeys(specs))
