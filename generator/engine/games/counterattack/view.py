"""Counterattack at the table, as one seat sees it (`pnp play`): made from the observation only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules
from generator.engine.games.counterattack.config import EXPOSED, MAIN, NO_TRUMP, PORT
from generator.engine.view import Face, TableView, Zone, backs


def table(rules: Rules, observation: Mapping[str, Any]) -> TableView:
    """Ports, the exposed port stack, the pirate's card, your hand and the cards seen this pass."""
    game = rules.game
    config = rules.config  # type: ignore[attr-defined]
    main, exposed, ports = game.deck(MAIN), game.deck(EXPOSED), game.deck(PORT)
    playing = observation["phase"] == "play" and observation["current"] == observation["seat"]

    def card(c: int, playable: bool = False) -> Face:
        return Face(MAIN, main[c].id, config.card_names[c], f"play {config.card_names[c]}" if playable else None)

    open_ports = set(observation["ports_open"])
    port_faces = tuple(Face(PORT, ports[p].id, f"{config.port_names[p]} ({config.port_tricks[p]})")
                       for p in range(len(ports)) if p in open_ports)
    seen = [Face(EXPOSED, exposed[e].id, f"{exposed[e].get('name') or exposed[e].id} "
                                         f"({config.suit_names[config.exposed_suit[e]]})")
            for e in observation["exposed_seen"]]
    stack = backs(EXPOSED, observation["exposed_left"])
    flip = "flip exposed port" if playing and observation["can_flip"] else None
    top = (Face(EXPOSED, None, "face down", flip),) if flip and stack else ()
    pirate = () if observation["pirate_card"] is None else (card(observation["pirate_card"]),)
    trump = observation["trump"]
    trump_text = "no trump" if trump == NO_TRUMP else f"trump {config.suit_names[trump]}"
    exploited = len(ports) - len(open_ports)
    zones = (
        Zone("ports", "ports still open", port_faces, f"{exploited} of {config.ports_to_win} exploited"),
        Zone("exposed", "exposed port", tuple(seen[-1:]) + top + stack[len(top):],
             f"{trump_text}; {observation['exposed_left']} face down"),
        Zone("pirate", "the pirate's card", pirate, f"{observation['pirate_hidden']} more face down"),
        Zone("hand", "your hand", tuple(card(c, playing) for c in observation["hand"])),
        Zone("tricks", "this hand", text=f"trick {observation['trick'] + 1} of {config.tricks_per_hand}; "
                                         f"won {observation['won']}, lost {observation['lost']}"),
        Zone("partners", "hands", text=", ".join(f"seat {s + 1}: {n} cards"
                                                  for s, n in enumerate(observation["partner_hand_size"]))),
        Zone("seen", "seen this pass", tuple(card(c) for c in observation["seen_this_pass"])),
    )
    status = (f"pass {observation['pass'] + 1}, hand {observation['hand_in_pass'] + 1}; {trump_text}; "
              f"{exploited} of {config.ports_to_win} ports exploited")
    return TableView(zones, (float(exploited),) * int(observation["players"]), status)


def narrate(rules: Rules, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A trick won or lost, a port exploited, a new trump: what the seat saw come of a move."""
    config = rules.config  # type: ignore[attr-defined]
    notes = []
    pirate = before["pirate_card"]
    against = "" if pirate is None else f" against the pirate's {config.card_names[pirate]}"
    if after["hands_played"] == before["hands_played"]:
        if after["won"] > before["won"]:
            notes.append(f"the crew wins the trick{against}")
        elif after["lost"] > before["lost"]:
            notes.append(f"the pirate wins the trick with {config.card_names[pirate]}" if pirate is not None
                         else "the pirate wins the trick")
    else:
        taken = set(before["ports_open"]) - set(after["ports_open"])
        won = ", ".join(config.port_names[p] for p in sorted(taken))
        notes.append(f"hand over: {won} exploited" if won else "hand over: no port exploited")
    if len(after["exposed_seen"]) > len(before["exposed_seen"]):
        trump = after["trump"]
        notes.append("no trump from now on" if trump == NO_TRUMP else f"trump is now {config.suit_names[trump]}")
    return notes
