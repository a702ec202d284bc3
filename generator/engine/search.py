"""A general search bot for every game: single-observer information-set Monte-Carlo tree search.

It knows no game. Each iteration asks the seat's information set for one full
state consistent with what the seat sees (`State.determinize`), walks one
shared tree with UCB (counting, per action, how often it was available, so
actions legal only in some samples are judged fairly), adds one node, plays
the rest at random, and credits every node with the payoff of the seat that
moved into it. After a fixed number of iterations (a budget in work, not
time, so a seed gives the same game on any machine) it plays the most visited
action.

Guided by a game's heuristic bot with `candidates` set, it searches where a
small budget pays best: at the root, over the heuristic's few best moves
only, by sequential halving (Karnin, Koren & Somekh 2013): every round plays
each surviving move from the same fresh samples, with the same play-out
randomness (common random numbers, so two moves are compared on the same
hidden cards and dice), and keeps the better half, until one is left. The
heuristic plays the play-outs, so the bot improves on the heuristic by one
step of policy iteration rather than guessing among a hundred moves with
fifty samples; a move must beat the heuristic's own on the shared samples to
be played instead. With a `horizon`, a play-out stops after that many moves and the
game's `evaluate` (each seat's score so far, as if the game ended there) judges
the position through `margins`: a few moves of the heuristic and a static
judgement cost a tenth of a whole play-out, and see the rival's reply.

Its only inputs are the observation's information set, the legal actions and
its own seeded rng: hidden cards never reach it except through samples that
depend on nothing the seat cannot see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from generator.engine.base import Bot, InformationSet, Result, State, information_of
from generator.errors import UsageError

WIN_WEIGHT = 0.5  # payoff = half the share of the victory + half the score margin


class Node:
    """One action's statistics below a node of the shared tree."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat that played the action leading here
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[int, Node] = {}


def payoffs(result: Result, players: int) -> list[float]:
    """Each seat's payoff in [0, 1]: half its share of the victory, half its score margin over the others.

    The margin (squashed, and measured in tenths of the table's typical score, so it means the same in
    any game) gives random play-outs a gradient: a narrow loss is better than a rout, a cooperative
    loss still counts the ports taken. Where every seat scores the same, the score itself counts.
    """
    scores = result.scores
    share = 1.0 / len(result.winners) if result.winners else 0.0
    scale = 0.1 * max(1.0, sum(abs(s) for s in scores) / players)
    out = []
    for seat in range(players):
        won = share if seat in result.winners else 0.0
        s = scores[seat]
        if players > 1 and max(scores) != min(scores):
            others = (sum(scores) - s) / (players - 1)
            margin = 0.5 + 0.5 * math.tanh((s - others) / scale)
        else:
            margin = 0.5 + 0.5 * s / (abs(s) + 1.0)
        out.append(WIN_WEIGHT * won + (1.0 - WIN_WEIGHT) * margin)
    return out


def margins(scores: Sequence[float]) -> list[float]:
    """Each seat's payoff in [0, 1] from scores so far (a cut play-out): the squashed score margin of
    `payoffs`, with no share of a victory nobody has won yet."""
    players = len(scores)
    scale = 0.1 * max(1.0, sum(abs(s) for s in scores) / players)
    if players == 1:
        return [0.5 + 0.5 * scores[0] / (abs(scores[0]) + 1.0)]
    total = sum(scores)
    return [0.5 + 0.5 * math.tanh((s - (total - s) / (players - 1)) / scale) for s in scores]


class SearchBot(Bot):
    """ISMCTS with determinization from the seat's own information set; `iterations` samples per decision.

    An engine may lend it a bot (`guided`): as a prior, that bot's choice for the real observation
    takes the first `prior_visits` samples and counts them twice when the move is chosen, so the
    search departs from it only for a move its samples keep preferring (prior knowledge in UCT,
    after Gelly & Silver 2007); as
    `playout`, it plays the play-outs in every seat, from each sampled seat's own observation.
    Without either, moves are found from random play-outs alone.
    """

    name = "search"
    iterations: ClassVar[int] = 200
    exploration: ClassVar[float] = 0.7
    prior: ClassVar[type[Bot] | None] = None
    prior_visits: ClassVar[int] = 10
    playout: ClassVar[type[Bot] | None] = None
    candidates: ClassVar[int] = 0  # > 0: sequential halving over the prior's best moves instead of the tree
    figures: dict[int, tuple[int, float]]  # after `choose`: per action weighed, (play-outs, mean payoff): a hint's why
    horizon: ClassVar[int] = 0  # > 0: halving play-outs stop after this many moves and `evaluate` the position
    scorer: ClassVar[tuple[Callable[[State], Sequence[float]], ...]] = ()  # (each seat's score so far,) or ()
    widening: ClassVar[float] = 0.0  # > 0: IS-MCTS with progressive widening (see `Widening`), this many children at first
    widening_power: ClassVar[float] = 0.5  # a node visited n times offers widening * n ** widening_power children

    @classmethod
    def guided(cls, prior: type[Bot] | None = None, playout: type[Bot] | None = None,
               iterations: int | None = None, candidates: int = 0, horizon: int = 0,
               evaluate: Callable[[State], Sequence[float]] | None = None, widening: float = 0.0,
               widening_power: float = 0.5, exploration: float | None = None) -> type[SearchBot]:
        """A search bot with a prior bot, play-out bot and budget of its own; `candidates` > 0 (with a
        prior) weighs only that many of the prior's best moves, by sequential halving; `horizon` > 0
        (with `evaluate`) cuts each play-out after that many moves and scores the position there;
        `widening` > 0 (with a prior) searches a tree by IS-MCTS with progressive widening instead."""
        budget = cls.iterations if iterations is None else iterations
        if horizon and evaluate is None:
            raise ValueError("a play-out horizon needs an evaluation of the positions it stops at")
        if widening and prior is None:
            raise ValueError("progressive widening needs a prior bot to order the children by")
        return type("GuidedSearchBot", (cls,), {"prior": prior, "playout": playout, "iterations": budget,
                                                "candidates": candidates, "horizon": horizon,
                                                "scorer": (evaluate,) if evaluate else (),
                                                "widening": widening, "widening_power": widening_power,
                                                "exploration": cls.exploration if exploration is None else exploration,
                                                "__doc__": cls.__doc__})

    def choose(self, observation: Mapping[str, Any], legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        info = information_of(observation)
        if info is None:
            raise UsageError("the search bot needs an observation that carries the seat's information set "
                             "(State.information_set): this game's observation() does not attach one")
        rng = self.rng
        playout_bots: dict[int, Bot] = {}  # made on first need, kept for this decision
        if self.prior is not None and self.widening > 0:
            return self._widening(observation, legal, info, rng)
        if self.prior is not None and self.candidates > 0:
            order = ranking(self.prior(self.rules, self.seat, rng), observation, legal, rng)
            return self._halving(order[:self.candidates], info, rng, playout_bots)
        root = Node(-1)
        hint = None if self.prior is None else self.prior(self.rules, self.seat, rng).choose(observation, legal)
        for i in range(self.iterations):
            self._iterate(root, info.sample(rng), rng, playout_bots, hint if i < self.prior_visits else None)
        children = root.children
        self.figures = {a: (n.visits, n.reward / n.visits) for a, n in children.items() if n.visits}
        head_start = self.prior_visits
        return self.pick_best([a for a in legal if a in children] or legal,
                              lambda a: (children[a].visits if a in children else 0) + (head_start if a == hint else 0))

    def _widening(self, observation: Mapping[str, Any], legal: list[int], info: InformationSet,
                  rng: random.Random) -> int:
        """IS-MCTS with progressive widening over the prior's order (`widening_tree`): the most visited
        root move, equal counts going to the prior's order."""
        prior = self.prior
        assert prior is not None
        order = ranking(prior(self.rules, self.seat, rng), observation, legal, rng)
        if len(order) == 1:
            return order[0]
        root = widening_tree(self, order, info, rng)
        children = root.children
        self.figures = {a: (n.visits, n.reward / n.visits) for a, n in children.items() if n.visits}
        return max(order, key=lambda a: (children[a].visits if a in children else 0, -order.index(a)))

    def helpers(self, role: str) -> dict[int, Bot]:
        """The bots this search bot plays other seats with (`role`: play-outs, rankings), by seat, kept
        for its whole game so their memos of what positions are worth carry from one decision to the next."""
        kept: dict[str, dict[int, Bot]] | None = getattr(self, "_helpers", None)
        if kept is None:
            kept = {}
            self._helpers = kept
        return kept.setdefault(role, {})

    def _halving(self, pool: list[int], info: InformationSet, rng: random.Random,
                 playout_bots: dict[int, Bot]) -> int:
        """Sequential halving over `pool` (best first): each round, every survivor is played from the same
        fresh samples with the same play-out seeds; the better half goes on. Ties keep the prior's order."""
        if len(pool) == 1:
            return pool[0]
        rounds = max(1, math.ceil(math.log2(len(pool))))
        totals = dict.fromkeys(pool, 0.0)
        plays = dict.fromkeys(pool, 0)
        while len(pool) > 1:
            for _ in range(max(1, self.iterations // (rounds * len(pool)))):
                seed = rng.getrandbits(64)
                sample = info.sample(random.Random(seed))
                for action in pool:
                    totals[action] += self._playout_from(sample.copy(), action, random.Random(seed), playout_bots)
                    plays[action] += 1
            ranked = sorted(range(len(pool)), key=lambda i: (-totals[pool[i]], i))
            pool = [pool[i] for i in sorted(ranked[:(len(pool) + 1) // 2])]
        self.figures = {a: (n, totals[a] / n) for a, n in plays.items() if n}
        return pool[0]

    def _playout_from(self, state: State, action: int, rng: random.Random, playout_bots: dict[int, Bot]) -> float:
        """This seat's payoff after `action` and a play-out in which every bot draws on `rng` alone."""
        state.apply_action(action)
        for bot in playout_bots.values():
            bot.rng = rng
        self._play_out(state, rng, playout_bots, self.horizon)
        if not state.is_terminal() and self.scorer:
            return margins(self.scorer[0](state))[self.seat]
        return payoffs(state.result(), state.players)[self.seat]

    def _play_out(self, state: State, rng: random.Random, playout_bots: dict[int, Bot], horizon: int = 0) -> None:
        """Play to the end (or `horizon` moves when > 0): the play-out bot in every seat (made on first
        need), else at random."""
        playout = self.playout
        moves = 0
        while not state.is_terminal():
            if horizon and moves == horizon:
                return
            moves += 1
            legal = state.legal_actions()
            if playout is None or len(legal) == 1:
                state.apply_action(legal[rng.randrange(len(legal))])
                continue
            mover = state.current_player()
            bot = playout_bots.get(mover)
            if bot is None:
                bot = playout_bots[mover] = playout(self.rules, mover, rng)
            state.apply_action(bot.choose(state.observation(mover), legal))

    def _iterate(self, root: Node, state: State, rng: random.Random, playout_bots: dict[int, Bot],
                 first: int | None = None) -> None:
        """One sample: down the tree by UCB (through `first` at the root when given), one new node, a play-out."""
        node = root
        path: list[Node] = []
        c = self.exploration
        while not state.is_terminal():
            legal = state.legal_actions()
            mover = state.current_player()
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                if a in children:
                    children[a].available += 1
            if first is not None and node is root and first in children:
                action = first
                state.apply_action(action)
                node = children[action]
                path.append(node)
                continue
            if untried:
                action = first if first is not None and node is root else untried[rng.randrange(len(untried))]
                child = children[action] = Node(mover)
                child.available = 1
                state.apply_action(action)
                path.append(child)
                break
            action = self._select(children, legal, c, rng)
            state.apply_action(action)
            node = children[action]
            path.append(node)
        self._play_out(state, rng, playout_bots)
        values = payoffs(state.result(), state.players)
        for visited in path:
            visited.visits += 1
            visited.reward += values[visited.mover]

    @staticmethod
    def _select(children: dict[int, Node], legal: Sequence[int], c: float, rng: random.Random) -> int:
        """UCB over the actions legal in this sample, exploring by availability rather than parent visits."""
        best: list[int] = []
        top = -math.inf
        for a in legal:
            child = children[a]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > top:
                best, top = [a], value
            elif value == top:
                best.append(a)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def widening_tree(bot: SearchBot, order: list[int], info: InformationSet, rng: random.Random) -> Node:
    """Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012) with progressive widening
    (Coulom 2007; Chaslot et al. 2008), `bot.iterations` iterations: the searched tree's root.

    Each iteration draws one world from the seat's information set, so every hidden card is one the
    seat has not seen. It walks the one shared tree (nodes are the moves played, whoever plays them)
    by UCB over the children legal in that world, counting per child how often it was available.
    A node visited n times offers only the first `widening * n ** widening_power` moves in its
    mover's heuristic order (the prior's `ranked`, from that mover's observation in this world;
    `order` at the root): the heuristic's favourite is searched first and alternatives enter as the
    visits grow. The first unvisited move offered is added, the heuristic plays on from there until
    `horizon` moves from the decision (tree and play-out together, so an iteration costs the same at
    any depth; or to the end without one), the game's `evaluate` judges a cut play-out, and every
    node on the path is credited with the payoff of the seat that moved into it. Forced moves are
    played without a node. Budgets are iterations, so a seed gives the same tree on any machine.
    """
    prior = bot.prior
    assert prior is not None
    root = Node(-1)
    playout_bots, rankers = bot.helpers("playout"), bot.helpers("ranker")
    c = bot.exploration
    width, power = bot.widening, bot.widening_power
    horizon, scorer = bot.horizon, bot.scorer
    for _ in range(bot.iterations):
        world = info.sample(rng)
        node, path = root, []
        expanded = False
        depth = 0  # moves played from the decision: the tree and the play-out together stop at `horizon`
        while not expanded and not world.is_terminal() and not (horizon and depth >= horizon):
            depth += 1
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply_action(legal[0])
                continue
            mover = world.current_player()
            if node is root:
                ranked = [a for a in order if a in legal]
            else:
                ranker = rankers.get(mover)
                if ranker is None:
                    ranker = rankers[mover] = prior(bot.rules, mover, rng)
                ranker.rng = rng
                ranked = ranking(ranker, world.observation(mover), legal, rng)
            offered = ranked[:max(1, int(width * (node.visits + 1) ** power))]
            children = node.children
            action = -1
            for a in offered:
                child = children.get(a)
                if child is None:
                    if action < 0:  # the first move offered and not yet tried: the new node
                        children[a] = Node(mover)
                        children[a].available = 1
                        action = a
                else:
                    child.available += 1
            if action < 0:
                action = SearchBot._select(children, offered, c, rng)
            else:
                expanded = True
            world.apply_action(action)
            node = children[action]
            path.append(node)
        for playout_bot in playout_bots.values():
            playout_bot.rng = rng
        if not horizon or depth < horizon:
            bot._play_out(world, rng, playout_bots, horizon - depth if horizon else 0)
        if world.is_terminal():
            values = payoffs(world.result(), world.players)
        elif scorer:
            values = margins(scorer[0](world))
        else:
            values = [0.5] * world.players
        root.visits += 1
        for visited in path:
            visited.visits += 1
            visited.reward += values[visited.mover]
    return root


def ranking(bot: Bot, observation: Mapping[str, Any], legal: list[int], rng: random.Random) -> list[int]:
    """The legal moves, the bot's best first: its own `ranked` order where it offers one, else its choice
    and then the rest in a random order (drawn from the searcher's `rng`)."""
    ranked = getattr(bot, "ranked", None)
    if ranked is not None:
        order: list[int] = ranked(observation, legal)
        return order
    first = bot.choose(observation, legal)
    rest = [a for a in legal if a != first]
    rng.shuffle(rest)
    return [first, *rest]


def ranked_by(options: Sequence[int], value: Callable[[int], Any], rng: random.Random) -> list[int]:
    """Options by descending `value`, equal values in a random order: for a heuristic bot's `ranked`."""
    keys = {option: (value(option), rng.random()) for option in options}
    return sorted(options, key=keys.__getitem__, reverse=True)
