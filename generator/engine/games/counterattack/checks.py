"""Does the Counterattack deck fit its rules? One `Check` per question, each pointing at the YAML to fix."""

from __future__ import annotations

import random
from collections import Counter

from generator.checks import Check
from generator.engine.games.counterattack.config import EXPOSED, MAIN, PORT
from generator.engine.games.counterattack.rules import CounterattackRules
from generator.errors import PnpError
from generator.model import Game


def composition_checks(game: Game) -> list[Check]:
    checks: list[Check] = []
    for comp_id in (PORT, EXPOSED, MAIN):
        checks.append(Check.holds(f"component '{comp_id}' exists", game.has_component(comp_id),
                                  "present", "present" if game.has_component(comp_id) else "missing", game.location))
    if not all(c.ok for c in checks):
        return checks
    ports, exposed, main = (game.component(c) for c in (PORT, EXPOSED, MAIN))
    checks.append(Check.holds(
        "ports, exposed ports and main deck are separate", len({ports.id, exposed.id, main.id}) == 3
        and not ({i.id for i in ports.items} & {i.id for i in main.items}),
        "three components, no shared item", "separate", main.location))
    try:
        rules = CounterattackRules(game)
    except PnpError as exc:
        checks.append(Check("rules config builds", "the engine can read the data", exc.message, False, exc.location))
        return checks
    t = rules.config

    checks.append(Check.equal("one port per hand to win", t.ports_to_win, ports.count, ports.location,
                              source=game.rule_location("ports_to_win")))
    numbers = [i["tricks"] for i in ports.items for _ in range(i.count)]
    dupes = sorted(n for n, k in Counter(numbers).items() if k > 1)
    checks.append(Check.holds("port numbers distinct", not dupes, "all different",
                              f"repeated: {dupes}" if dupes else "all different", ports.location))
    bad = [n for n in numbers if not 0 <= n <= t.tricks_per_hand]
    checks.append(Check.holds(f"port numbers reachable in {t.tricks_per_hand} tricks", not bad,
                              f"0..{t.tricks_per_hand}", f"out of range: {bad}" if bad else "all in range",
                              ports.location, source=game.rule_location("tricks_per_hand")))
    checks.append(Check.equal("tricks per hand = hand size", t.hand_size, t.tricks_per_hand,
                              game.rule_location("tricks_per_hand"), source=game.rule_location("hand_size")))
    # one exposed port is turned up at setup; each flip turns up one more, the last leaves no trump
    checks.append(Check.equal("flips in a game = exposed port cards after the first", exposed.count - 1, t.flips,
                              game.rule_location("exposed_stack.flips"), source=exposed.location))
    main_suits = set(t.card_suit)
    missing = sorted({t.suit_names[s] for s in t.exposed_suit} - {t.suit_names[s] for s in main_suits})
    checks.append(Check.holds("exposed port suits exist in the main deck", not missing, "every exposed suit",
                              f"missing: {missing}" if missing else "all present", exposed.location))
    ids = [(t.card_suit[c], t.card_rank[c]) for c in range(len(t.card_suit))]
    checks.append(Check.equal("main cards unique (suit x rank)", len(ids), len(set(ids)), main.location))

    # Deal one pass with the engine's own cut: every hand full, the rest set aside after the last.
    deck = rules.random_deal(1, random.Random(0))["passes"][0]
    cuts = [t.cut(deck, hand) for hand in range(t.hands_per_pass)]
    dealt = [(len(mine), len(pirate)) for mine, pirate, _aside in cuts]
    wanted = [(t.hand_size, t.hand_size)] * t.hands_per_pass
    checks.append(Check.equal("each hand deals you and the pirate a full hand", wanted, dealt, main.location,
                              source=game.rule_location("hand_size")))
    checks.append(Check.equal(f"cards set aside after hand {t.hands_per_pass} of a pass", t.set_aside,
                              len(cuts[-1][2]), main.location, source=game.rule_location("set_aside_after_aft")))
    need = t.hands_per_pass * 2 * t.hand_size + t.set_aside
    checks.append(Check.equal(f"main deck = hands per pass x {2 * t.hand_size} + cards set aside", need, main.count,
                              main.location, source=game.rule_location("hands_per_pass")))
    two = rules.new_state(2, rules.random_deal(2, random.Random(0)))
    checks.append(Check.equal("co-captains' hands (2 players)", [t.cards_each_2p] * 2, [len(h) for h in two.hands],
                              game.rule_location("two_player.cards_each"), players=2))
    return checks
