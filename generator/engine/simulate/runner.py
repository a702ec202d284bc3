"""Play many games, in chunks, in worker processes, and add them up.

The chunk layout (CHUNK games each, numbered from 0) and every game's seed
depend only on the run's seed and the number of games; chunks are merged in
their own order. So a run gives identical figures for any `--jobs`.

The rules a run plays are built once per run (`Built`, handed down explicitly;
forked workers inherit it, other processes build their own), bot classes are
resolved once per chunk, and a worker sends back one `Aggregate` plus, when a
log is wanted, that chunk's log lines: nothing per game is pickled.

Ctrl-C (or SIGTERM) stops a run between chunks: `SimulationInterrupted` carries
the counts of every chunk finished and logged so far, so the caller can still
report them; a chunk being played when the interrupt came is left out whole.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from generator.engine.base import Bot, IllegalAction, RandomBot, Rules, State
from generator.engine.replay import GameRecord, for_people, result_dict
from generator.engine.simulate.aggregate import Aggregate
from generator.engine.simulate.balance import BalanceTally, load_hook
from generator.engine.simulate.bots import resolve_bot
from generator.engine.simulate.seeds import game_seed
from generator.errors import DataError
from generator.load.overrides import Override, describe
from generator.model import Game
from generator.workers import can_fork, forked_map

CHUNK = 1000  # games per task at most: large enough that process overhead vanishes
MIN_CHUNKS = 16  # small runs (slow bots) still split into enough tasks to keep every core busy


@dataclass(frozen=True)
class EngineSource:
    """Where a process finds the rules: a project folder, a game id and its engine module."""

    root: str
    game_id: str
    engine: str  # dotted module path of the engine (what its entry point names)
    overrides: tuple[Override, ...] = ()  # `--set PATH=VALUE`, applied to the data as it loads

    def build(self) -> tuple[Rules, dict[str, type[Bot]]]:
        from generator.engine.registry import load_engine
        from generator.load import load_game
        from generator.project import Project

        engine = load_engine(self.game_id, self.engine)
        game = load_game(Project.at(self.root), self.game_id, self.overrides)
        return build_rules(engine.rules, game, self.overrides), dict(engine.bots)


def build_rules(rules: type[Rules], game: Game, overrides: tuple[Override, ...] = ()) -> Rules:
    """The engine's rules for `game`; a rule the overrides broke names them in its one-line error."""
    if not overrides:
        return rules(game)
    try:
        return rules(game)
    except DataError as exc:
        raise DataError(exc.message + describe(overrides), exc.location) from None


@dataclass(frozen=True)
class SimSpec:
    """Everything that determines a run's results (plus `log`, which only adds output)."""

    source: EngineSource
    players: int
    bots: tuple[str, ...]  # one spec per seat
    seed: int
    games: int
    check: bool = False
    log: bool = False


@dataclass
class ChunkResult:
    aggregate: Aggregate
    log_lines: list[str]


Built = dict[EngineSource, tuple[Rules, dict[str, type[Bot]]]]  # one run's rules and bot classes, by source


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run: `partial` holds one `Aggregate` per spec with every chunk
    finished so far, and `chunks_logged` how many chunks' lines the log sink was given (all counted)."""

    def __init__(self, partial: list[Aggregate], chunks_logged: int) -> None:
        super().__init__()
        self.partial = partial
        self.chunks_logged = chunks_logged


def engine_for(source: EngineSource, built: Built | None = None) -> tuple[Rules, dict[str, type[Bot]]]:
    """The rules and bots of `source`: from `built` (a run's own table, filled as needed) or built now."""
    if built is None:
        return source.build()
    engine = built.get(source)
    if engine is None:
        engine = built[source] = source.build()
    return engine


def play_game(rules: Rules, players: int, classes: Sequence[type[Bot]], seed: int, check: bool,
              labels: Sequence[str] = (), record: list[str] | None = None,
              on_deal: Callable[[dict[str, Any]], None] | None = None) -> tuple[State, int]:
    """One game from its seed; returns the final state and the number of actions.

    One random stream per game: the deal is drawn from it first, in full, and
    the bots draw from what follows, so a deal never depends on the bots.
    Bots are made afresh for every game (a constructor costs well under a
    microsecond, and no bot can carry memory from one game into the next, so a
    game plays the same whichever chunk holds it). `on_deal` sees the deal
    before the engine does; when `record` is a list, each action's text is
    appended to it. Random bots are not shown an observation (they ignore it),
    which keeps the random baseline as fast as the engine allows.
    """
    rng = random.Random(seed)
    deal = rules.random_deal(players, rng)
    if on_deal is not None:
        on_deal(deal)
    state = rules.dealt_state(players, deal, check)
    bots = [cls(rules, seat, rng) for seat, cls in enumerate(classes)]
    blind = [type(bot).choose is RandomBot.choose for bot in bots]
    if all(blind) and not check and record is None:
        return _play_random(state, bots, seed, labels)
    empty: dict[str, Any] = {}
    actions = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = bots[seat].choose(empty if blind[seat] else state.observation(seat), legal)
        if check and action not in legal:
            who = labels[seat] if labels else type(bots[seat]).__name__
            raise IllegalAction(f"bot {who} in seat {seat + 1} chose action {action}, which is not legal "
                                f"(seed {seed}, action {actions + 1})")
        if record is not None:
            record.append(state.action_to_string(action))
        try:
            state.apply_action(action)
        except IllegalAction as exc:
            who = labels[seat] if labels else type(bots[seat]).__name__
            raise IllegalAction(f"bot {who} in seat {seat + 1} made an illegal move (seed {seed}, "
                                f"action {actions + 1}): {for_people(exc.message)}") from None
        actions += 1
    return state, actions


def _play_random(state: State, bots: Sequence[Bot], seed: int, labels: Sequence[str]) -> tuple[State, int]:
    """`play_game`'s loop when every seat is a random bot: each move is `RandomBot.choose` inlined
    (the same draw from the seat's own rng, so the same game), without the per-move calls a bot
    that looks needs. Random games are the simulator's baseline and the search bots' rollouts."""
    draws = [bot.rng.randrange for bot in bots]
    is_terminal, current_player = state.is_terminal, state.current_player
    legal_actions, apply_action = state.legal_actions, state.apply_action
    actions = 0
    try:
        if len({id(bot.rng) for bot in bots}) == 1:  # one shared stream: no need to ask whose turn it is
            randrange = draws[0]
            while not is_terminal():
                legal = legal_actions()
                apply_action(legal[randrange(len(legal))])
                actions += 1
        else:
            while not is_terminal():
                seat = current_player()
                legal = legal_actions()
                apply_action(legal[draws[seat](len(legal))])
                actions += 1
    except IllegalAction as exc:
        seat = state.current_player()
        who = labels[seat] if labels else type(bots[seat]).__name__
        raise IllegalAction(f"bot {who} in seat {seat + 1} made an illegal move (seed {seed}, "
                            f"action {actions + 1}): {for_people(exc.message)}") from None
    return state, actions


def run_chunk(spec: SimSpec, start: int, stop: int, built: Built | None = None) -> ChunkResult:
    """Play games start..stop-1 of a run and add them up (with the rules in `built`, or built now)."""
    rules, builtin = engine_for(spec.source, built)
    classes = [resolve_bot(b, builtin) for b in spec.bots]
    aggregate = Aggregate(spec.players)
    hook = load_hook(spec.source.engine)
    if hook is not None:
        aggregate.balance = BalanceTally(spec.players)
    lines: list[str] = []
    game_id = spec.source.game_id
    for index in range(start, stop):
        seed = game_seed(spec.seed, index)
        if spec.log:
            dealt: list[str] = []
            actions: list[str] = []
            state, count = play_game(rules, spec.players, classes, seed, spec.check, spec.bots, actions,
                                     partial(_keep_deal, dealt))
        else:
            state, count = play_game(rules, spec.players, classes, seed, spec.check, spec.bots)
        result = state.result()
        aggregate.add_game(result.scores, result.winners, count, state.stats(), state.opener())
        if hook is not None and aggregate.balance is not None:
            aggregate.balance.add_game(hook(state), result.winners)
        if spec.log:
            record = GameRecord(game=game_id, index=index, players=spec.players, bots=spec.bots, seed=seed,
                                deal=json.loads(dealt[0]), actions=tuple(actions), result=result_dict(result),
                                settings=tuple(map(str, spec.source.overrides)))
            lines.append(record.to_json())
    return ChunkResult(aggregate.flush(), lines)


def _keep_deal(into: list[str], deal: dict[str, Any]) -> None:
    """Keep the deal as JSON text before the engine sees it (the log records it as dealt)."""
    into.append(json.dumps(deal, separators=(",", ":")))


Task = tuple[SimSpec, tuple[tuple[int, int], ...]]  # one run's consecutive chunks, played by one worker


def run_task(task: Task, built: Built | None = None) -> list[ChunkResult]:
    """Play a task's chunks in order; each chunk keeps its own result, so merging is as for single chunks.
    Without `built` (a Dask worker) the task builds its rules, once for all its chunks."""
    spec, layout = task
    built = {} if built is None else built
    return [run_chunk(spec, start, stop, built) for start, stop in layout]


def _run_built(built: Built, task: Task) -> list[ChunkResult]:
    """`run_task` as a forked worker calls it: the run's rules first (inherited, or built on first use)."""
    return run_task(task, built)


def chunks(games: int, size: int = CHUNK) -> list[tuple[int, int]]:
    """The fixed chunk layout of a run: it depends on the number of games, never on the workers.

    Chunks hold `size` games, or fewer when the run is small, so that a run of
    a few hundred games with a slow bot (the planner) still spreads over every core.
    """
    size = max(1, min(size, -(-games // MIN_CHUNKS)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def tasks(spec: SimSpec, task_games: int = 1) -> list[Task]:
    """The run's chunks grouped into tasks of at least `task_games` games (the last may hold fewer).

    Grouping never changes the chunks, so the merged figures are the same for any grouping."""
    grouped: list[Task] = []
    current: list[tuple[int, int]] = []
    held = 0
    for start, stop in chunks(spec.games):
        current.append((start, stop))
        held += stop - start
        if held >= task_games:
            grouped.append((spec, tuple(current)))
            current, held = [], 0
    if current:
        grouped.append((spec, tuple(current)))
    return grouped


def simulate(spec: SimSpec, jobs: int = 1, progress: Callable[[int], None] | None = None,
             log_sink: Callable[[list[str]], None] | None = None, scheduler: Any = None,
             built: Built | None = None) -> Aggregate:
    """Play `spec.games` games on `jobs` processes (or a Dask `scheduler`) and return the merged counts.

    `progress(n)` is told after each chunk how many games it held; `log_sink`
    gets each chunk's log lines, chunk by chunk, in game order; `built` holds rules
    the caller already built (`{spec.source: (rules, bots)}`), so they are not built again.
    """
    return simulate_many([spec], jobs, progress, log_sink, scheduler, built)[0]


def simulate_many(specs: Sequence[SimSpec], jobs: int = 1, progress: Callable[[int], None] | None = None,
                  log_sink: Callable[[list[str]], None] | None = None, scheduler: Any = None,
                  built: Built | None = None) -> list[Aggregate]:
    """Several runs (a sweep's grid) on one pool: one merged `Aggregate` per spec, in the order given.

    `scheduler` is a Dask scheduler address (or a `distributed` cluster or client): tasks of at
    least DASK_TASK_GAMES games go there instead of to local processes. Results are identical.
    An interrupt raises `SimulationInterrupted` with the chunks finished so far.
    """
    totals = [Aggregate(spec.players) for spec in specs]
    built = {} if built is None else built  # this run's: filled here, inherited by forked workers
    for spec in specs:
        engine_for(spec.source, built)  # fail early, in this process
    if scheduler is not None:
        from generator.engine.simulate import dask_backend

        size = dask_backend.DASK_TASK_GAMES
    else:
        size = 1
    owners = [index for index, spec in enumerate(specs) for _task in tasks(spec, size)]
    work = [task for spec in specs for task in tasks(spec, size)]
    logged = 0  # chunks whose games are in `totals` and whose lines went to `log_sink`
    try:
        results = (_results(work, jobs, built) if scheduler is None
                   else dask_backend.dask_results(scheduler, work, run_task))
        for owner, done in zip(owners, results, strict=True):
            for result in done:
                # Merged aside and swapped in with one assignment: an interrupt anywhere in between leaves
                # `totals` as it was, with the chunk either counted and logged or neither.
                merged = copy.deepcopy(totals[owner])
                merged.merge(result.aggregate)
                if log_sink is not None:
                    log_sink(result.log_lines)
                totals[owner], logged = merged, logged + 1
                if progress is not None:
                    progress(result.aggregate.games)
    except SimulationInterrupted:
        raise
    except KeyboardInterrupt:
        raise SimulationInterrupted(totals, logged) from None
    return totals


def _results(work: list[Task], jobs: int, built: Built) -> Iterator[list[ChunkResult]]:
    if jobs <= 1 or len(work) <= 1:
        for task in work:
            yield run_task(task, built)
        return
    # Forked workers inherit the run's rules; elsewhere (no fork) each worker builds its own, once.
    yield from forked_map(_run_built, built if can_fork() else {}, work, jobs)
