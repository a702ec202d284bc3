"""Deck checks for `pnp validate`: the fleets last the game, every number and effect is known."""

from __future__ import annotations

from collections import Counter

from generator.checks import Check
from generator.engine.games.under_fire.board import longest_lines, table_problem
from generator.engine.games.under_fire.config import BOARD, KINDS, MERCENARY, SHIP, parse_effect
from generator.engine.games.under_fire.rules import UnderFireRules
from generator.errors import DataError, Location
from generator.model import Game


def composition_checks(game: Game) -> list[Check]:
    checks = effect_checks(game)
    if not all(c.ok for c in checks):
        return checks
    try:
        rules = UnderFireRules(game)
    except DataError as exc:
        return [*checks, Check("rules readable by the engine", "valid rules", exc.message, False, exc.location)]
    return checks + fleet_checks(rules) + scoring_checks(rules)


def effect_checks(game: Game) -> list[Check]:
    """Every ability, mercenary effect and sea space names an effect the engine knows and the rules explain."""
    checks = []
    explained = set(game.rules.get("effects", {}) or {})
    named: list[tuple[str, str, Location]] = []
    for item in game.component(SHIP).items:
        named.append((f"ship {item.id} ability", item["ability"], item.location))
    for item in game.component(MERCENARY).items:
        named.append((f"mercenary {item.id} effect", item["effect"], item.location))
    for item in game.component(BOARD).items:
        for row, text in enumerate(item["rows"], start=1):
            for key in str(text).split():
                named.append((f"sea board {item.id} row {row} space {key}", key, item.location))
    for what, key, where in named:
        try:
            parsed = parse_effect(key, where)
        except DataError as exc:
            checks.append(Check(f"{what}: known to the engine", f"one of {', '.join(KINDS)}", exc.message, False,
                                where))
            continue
        kinds = [k for k, _ in parsed] or ["none"]
        missing = [k for k in kinds if k not in explained]
        checks.append(Check.holds(f"{what}: known and explained", not missing, "in rules.effects",
                                  f"missing {', '.join(missing)}" if missing else "yes", where))
    return _dedupe(checks)


def _dedupe(checks: list[Check]) -> list[Check]:
    seen, out = set(), []
    for check in checks:
        key = (check.name, check.ok)
        if key not in seen:
            seen.add(key)
            out.append(check)
    return out


def fleet_checks(rules: UnderFireRules) -> list[Check]:
    """Deal with the real setup code: each fleet must fill the hand and last exactly `turns` turns."""
    game = rules.game
    config = rules.config
    ships = game.component(SHIP)
    state = rules.new_game(2, seed=0)
    checks = []
    for seat, fleet in enumerate(config.fleets):
        hand, deck = len(state.hands[seat]), len(state.decks[seat])
        checks.append(Check.equal(f"{fleet} fleet: starting hand", config.hand_size, hand,
                                  game.rule_location("hand_size")))
        # one draw after each turn; the turn after the draw that empties the deck is the last
        checks.append(Check.equal(f"{fleet} fleet: turns it lasts (deck {deck} + 1)", config.turns, deck + 1,
                                  ships.location, source=game.rule_location("turns")))
        numbers = Counter(config.ship_number[t] for t in rules.fleet_tiles[seat])
        wanted = range(config.min_number, config.max_number + 1)
        missing = [n for n in wanted if not numbers[n]]
        checks.append(Check.holds(f"{fleet} fleet: every ship number {wanted[0]}-{wanted[-1]}", not missing,
                                  "all present", f"missing {missing}" if missing else "all present", ships.location))
    return checks


def scoring_checks(rules: UnderFireRules) -> list[Check]:
    """The set and run tables cover every line a board allows, longer paying more; each row is formable."""
    game = rules.game
    config = rules.config
    longest = max(len(line) for line in rules.geometry.lines)
    copies = Counter(config.ship_number[t] for t in rules.fleet_tiles[0])
    checks = []
    longest_set, longest_run = longest_lines(config, rules.geometry)
    for name, table, most in (("sets", config.sets, longest_set), ("runs", config.runs, longest_run)):
        problem = table_problem(table, most)
        checks.append(Check.holds(f"{name} table covers every length up to {most}, longer paying more",
                                  problem is None, f"VP for {min(table)}..{most}, rising", problem or "yes",
                                  game.rule_location(f"scoring.{name}")))
    for length in sorted(config.sets):
        ok = length <= longest and max(copies.values()) >= length
        checks.append(Check.holds(f"set of {length} formable", ok, f"{length} equal ships in a line",
                                  f"at most {min(longest, max(copies.values()))}", game.rule_location("scoring.sets")))
    for length in sorted(config.runs):
        ok = length <= min(longest, len(copies))
        checks.append(Check.holds(f"run of {length} formable", ok, f"{length} consecutive numbers in a line",
                                  f"at most {min(longest, len(copies))}", game.rule_location("scoring.runs")))
    return checks
