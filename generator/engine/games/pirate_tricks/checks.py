"""Does the Pirate Tricks box fit its rules? One `Check` per question, each pointing at the YAML to fix.

Dealing is checked with the engine's own set-up (`random_deal` + `new_state`),
so the check and the game cannot disagree about how cards are dealt.
"""

from __future__ import annotations

import random
from collections import Counter

from generator.checks import Check
from generator.engine.games.pirate_tricks.rules import PirateTricksRules
from generator.errors import PnpError
from generator.model import Game


def composition_checks(game: Game) -> list[Check]:
    checks: list[Check] = []
    needed = ("crew", "recruitment", "capture", "treasure", "loon", "bid", "bid-marker", "screen", "go-first")
    for comp_id in needed:
        present = game.has_component(comp_id)
        checks.append(Check.holds(f"component '{comp_id}' exists", present, "present",
                                  "present" if present else "missing", game.location))
    if not all(c.ok for c in checks):
        return checks
    try:
        rules = PirateTricksRules(game)
    except PnpError as exc:
        checks.append(Check("rules config builds", "the engine can read the data", exc.message, False, exc.location))
        return checks
    t = rules.config
    crew = game.component("crew")

    ids = Counter((t.card_colour[c], t.card_rank[c]) for c in range(len(t.card_colour)))
    dupes = sorted(f"{r} {t.colours[c]}" for (c, r), k in ids.items() if k > 1)
    checks.append(Check.holds("crew cards unique (number x colour)", not dupes, "no repeats",
                              f"repeated: {dupes}" if dupes else "no repeats", crew.location))
    checks.append(Check.equal("rows per player (the engine deals one)", 1, t.rows_per_player,
                              game.rule_location("rows_per_player")))
    checks.append(Check.equal("ten tricks from a 12-card hand less the ditch", t.tricks,
                              t.hand_size + t.row_size - t.ditch, game.rule_location("tricks")))

    for players in game.player_range:
        where = game.player_counts[players].location if players in game.player_counts else crew.location
        state = rules.new_state(players, rules.random_deal(players, random.Random(players)))
        hands = [len(h) for h in state.hands]
        rows = [len(r) for r in state.rows]
        dealt = sum(hands) + sum(rows)
        deck = len(t.in_play[players])
        checks.append(Check.equal(f"{players} players: {t.hand_size} cards to each hand", [t.hand_size] * players,
                                  hands, where, players, source=game.rule_location("hand_size")))
        checks.append(Check.equal(f"{players} players: one {t.row_size}-card row per player", [t.row_size] * players,
                                  rows, where, players))
        checks.append(Check.equal(f"{players} players: every crew card dealt, none left over", deck, dealt,
                                  where, players))

    # the bank: every player's starting coins, denomination by denomination
    coins: Counter[int] = Counter()
    for item in game.component("loon").items:
        coins[int(item["value"])] += item.count
    start = game.rule("start_loon.coins", (list, tuple))
    most = game.players_max
    for entry in start:
        value, count = int(entry["value"]), int(entry["count"])
        checks.append(Check.holds(
            f"bank has {count} x {value}-loon coin(s) for each of {most} players", coins[value] >= count * most,
            f">= {count * most}", str(coins[value]), game.component("loon").location, most))
    declared = game.rule("start_loon.total", int)
    checks.append(Check.equal("starting coins add up to the starting loon", declared, t.start_loon,
                              game.rule_location("start_loon")))

    # score decks last the longest game
    longest = max(t.round_options)
    for name in ("recruitment", "capture", "treasure"):
        comp = game.component(name)
        need = longest * t.per_round[name]
        checks.append(Check.holds(f"{name} deck lasts {longest} rounds", comp.count >= need, f">= {need}",
                                  str(comp.count), comp.location))
    for name in ("bid", "bid-marker", "screen"):
        comp = game.component(name)
        checks.append(Check.holds(f"one {comp.name} per player ({most})", comp.count >= most, f">= {most}",
                                  str(comp.count), comp.location))
    bid = game.component("bid").items[0]
    track = (bid.get("first"), bid.get("last"))
    checks.append(Check.equal("bid card track matches the prediction rule", (t.prediction_min, t.prediction_max),
                              track, bid.location, source=game.rule_location("prediction_track")))
    checks.append(Check.equal("prediction track covers every trick count", (0, t.tricks),
                              (t.prediction_min, t.prediction_max), game.rule_location("prediction_track")))
    runs = [i for i in t.recruitment if i["effect"] in ("run", "set", "colour_group", "mixed") and int(i["length"]) < 2]
    checks.append(Check.holds("recruitment combinations need at least two cards", not runs, "length >= 2",
                              ", ".join(i.id for i in runs) or "all >= 2", runs[0].location if runs else None))
    return checks
