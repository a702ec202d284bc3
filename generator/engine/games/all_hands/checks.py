"""Deck checks for `pnp validate`: the deals fit, every combination can be formed, captains are marked."""

from __future__ import annotations

from generator.checks import Check
from generator.engine.games.all_hands.config import PIRATE
from generator.engine.games.all_hands.rules import AllHandsRules
from generator.errors import DataError
from generator.model import Game


def composition_checks(game: Game) -> list[Check]:
    try:
        rules = AllHandsRules(game)
    except DataError as exc:
        return [Check("rules readable by the engine", "valid rules", exc.message, False, exc.location)]
    return (deal_checks(rules) + formable_checks(rules) + pair_checks(rules) + captain_checks(rules)
            + score_sheet_checks(rules))


def deal_checks(rules: AllHandsRules) -> list[Check]:
    """Deal every player count with the real setup code and count the drawing piles."""
    game = rules.game
    checks = []
    for players in game.player_range:
        each = rules.config.deal[players]
        available = len(rules.in_play(players))
        where = game.rule_location("deal")
        checks.append(Check.holds(
            f"{players} players: deck covers the deal", each * players <= available,
            f"{players} x {each} = {each * players} cards", f"{available} in play", where, players))
        if each * players > available:
            continue
        state = rules.new_game(players, seed=players)
        sizes = sorted({len(p) + len(s) for p, s in zip(state.piles, state.stock, strict=False)})
        checks.append(Check.equal(f"{players} players: every drawing pile dealt", f"[{each}]", str(sizes), where,
                                  players))
    return checks


def formable_checks(rules: AllHandsRules) -> list[Check]:
    """Each score-sheet combination must be formable from the smallest deck (2-4 players)."""
    game = rules.game
    players = game.players_min
    counts = [0] * len(rules.config.kinds)
    for card in rules.in_play(players):
        counts[rules.config.card_kind[card]] += 1
    checks = []
    for combo in rules.config.combinations:
        ok = any(all(counts[k] >= n for k, n in o.parts) for o in rules.options if o.combination is combo)
        checks.append(Check.holds(
            f"combination {combo.id} formable with {players} players", ok, "formable",
            "formable" if ok else "not enough cards of its kinds", game.rule_location(combo.path), players))
    return checks


def pair_checks(rules: AllHandsRules) -> list[Check]:
    """Each crew kind makes at most one pair on the score sheet, so two equal crew name one action."""
    game = rules.game
    config = rules.config
    checks = []
    seen: dict[int, str] = {}
    for combo in config.combinations:
        if combo.shape != "pair" or combo.kind is None:
            continue
        other = seen.setdefault(combo.kind, combo.id)
        checks.append(Check.holds(
            f"pair {combo.id}: its own crew kind", other == combo.id, f"no other pair of {config.kinds[combo.kind]}",
            f"{other} is a pair of {config.kinds[combo.kind]} too" if other != combo.id else "its own",
            game.rule_location(f"{combo.path}.kind")))
    return checks


def captain_checks(rules: AllHandsRules) -> list[Check]:
    """Captains must carry the black frame (`captain: true`) and have a penalty."""
    game = rules.game
    config = rules.config
    checks = []
    for item in game.component(PIRATE).items:
        is_captain = item["kind"] in config.kinds[config.crew:]
        checks.append(Check.holds(
            f"pirate {item.id}: captain frame", bool(item.get("captain")) == is_captain,
            f"captain: {str(is_captain).lower()}", f"captain: {str(bool(item.get('captain'))).lower()}", item.location))
    for k in config.captains:
        checks.append(Check.holds(
            f"captain {config.kinds[k]}: lone-captain penalty", config.captain_penalty[k] > 0, "> 0",
            str(config.captain_penalty[k]), game.rule_location(f"captain_penalty.{config.kinds[k]}")))
    return checks


def score_sheet_checks(rules: AllHandsRules) -> list[Check]:
    """The score sheet's 'maximum cards in the game' table must match the deck at each player count."""
    game = rules.game
    config = rules.config
    columns = game.rule("score_sheet.columns", tuple)
    checks = []
    for k, kind in enumerate(config.kinds):
        path = f"score_sheet.max_cards.{kind}"
        printed = list(game.rule(path, tuple))
        actual = []
        for column in columns:
            players = int(str(column).split("-")[-1])
            actual.append(sum(1 for c in rules.in_play(players) if config.card_kind[c] == k))
        checks.append(Check.equal(f"score sheet: maximum {kind} cards", actual, printed, game.rule_location(path)))
    return checks
