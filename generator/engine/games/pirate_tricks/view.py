"""Pirate Tricks at the table, as one seat sees it (`pnp play`): made from the observation only.

Bids, tie cards and ditched cards are secret until the rules reveal them: another seat's such move is
told without its number or card (`secret`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.engine.base import Rules
from generator.engine.games.pirate_tricks.config import CREW
from generator.engine.view import Face, TableView, Zone, backs

HAND_ACTIONS = {"play": "play", "tie": "tie card", "ditch": "ditch"}  # phase -> what a card in hand does
SECRET = {"bid": "bids", "tie card": "lays a tie card face down", "ditch": "ditches a card"}


def secret(text: str) -> str | None:
    """What the other seats learn of a bid, tie card or ditch: that it happened."""
    for prefix, told in SECRET.items():
        if text.startswith(prefix + " "):
            return told
    return None


def table(rules: Rules, observation: Mapping[str, Any]) -> TableView:
    """The three rows, the score cards of the round, the trick, your hand and the captured piles."""
    game = rules.game
    config = rules.config  # type: ignore[attr-defined]
    crew = game.deck(CREW)
    phase = observation["phase"]
    mine = observation["current"] == observation["seat"]
    verb = HAND_ACTIONS.get(phase) if mine else None

    def card(c: int, action: str | None = None) -> Face:
        name = config.card_names[c]
        return Face(CREW, crew[c].id, name, f"{action} {name}" if action else None)

    def seat(s: int) -> str:
        return "you" if s == observation["seat"] else f"seat {s + 1}"

    zones = []
    for r, row in enumerate(observation["rows"]):
        down = row["face_down"]
        hidden = tuple(card(c) for c in down) if isinstance(down, list) else backs(CREW, down)
        owner = "open" if row["owner"] < 0 else f"won by {seat(row['owner'])}"
        bidding = " (up for bids)" if phase == "bid" and observation["bid_row"] == r else ""
        zones.append(Zone(f"row-{r + 1}", f"row {r + 1}{bidding}", tuple(card(c) for c in row["face_up"]) + hidden,
                          f"{owner}; {row['loon']} loon on it"))
    scoring = tuple(Face(kind, item, label) for kind, item, label in _score_cards(observation))
    zones.append(Zone("score-cards", "this round's score cards", scoring))
    trick = observation["trick"]
    leader = observation["leader"]
    zones.append(Zone("trick", "the trick", tuple(card(c) for c in trick),
                      f"led by {seat(leader)}" if trick and leader >= 0 else ""))
    last = observation["last_trick"]
    if last is not None:
        cards, led, won = last
        zones.append(Zone("last-trick", "last trick", tuple(card(c) for c in cards),
                          f"led by {seat(led)}, won by {seat(won)}"))
    zones.append(Zone("hand", "your hand", tuple(card(c, verb) for c in observation["hand"])))
    sizes = ", ".join(f"{seat(s)}: {n}" for s, n in enumerate(observation["hand_sizes"]))
    predictions = ", ".join(f"{seat(s)}: {p}" for s, p in enumerate(observation["predictions"]) if p is not None)
    zones.append(Zone("players", "at the table", text=f"cards in hand {sizes}"
                      + (f"; predictions {predictions}" if predictions else "")))
    if observation["ditched"]:
        zones.append(Zone("ditched", "you ditched", tuple(card(c) for c in observation["ditched"])))
    for s, shown in enumerate(observation["shown"]):
        if shown:
            zones.append(Zone(f"shown-{s + 1}", f"{seat(s)}: laid out to recruit", tuple(card(c) for c in shown)))
    for s, captured in enumerate(observation["captured"]):
        if captured:
            zones.append(Zone(f"captured-{s + 1}", f"{seat(s)} captured", tuple(card(c) for c in captured)))
    if observation["last_bids"]:
        row, bids = observation["last_bids"][-1]
        text = f"row {row + 1}: " + ", ".join(f"{seat(s)} {b}" for s, b in enumerate(bids) if b >= 0)
        ties = [(r, cards) for r, cards in observation["last_ties"] if r == row]
        if ties:  # the tie cards, turned up once every tied seat has laid one
            text += "; tie cards " + ", ".join(f"{seat(s)} {config.card_names[c]}"
                                               for s, c in enumerate(ties[-1][1]) if c >= 0)
        zones.append(Zone("bids", "last bids", text=text))
    if phase == "bid" and observation["my_bid"] >= 0:
        zones.append(Zone("my-bid", "your bid", text=str(observation["my_bid"])))
    status = (f"round {observation['round'] + 1} of {observation['rounds']}, {phase}; "
              f"your loon {observation['loon']}")
    return TableView(tuple(zones), None, status)


def _score_cards(observation: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    cards = [("recruitment", item, item.replace("-", " ")) for item in observation["recruitment"]]
    cards += [(kind, observation[kind], observation[kind].replace("-", " ")) for kind in ("capture", "treasure")]
    return cards


def narrate(rules: Rules, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A trick taken, a row won, the seat's loon changing, a new round: what came of a move."""
    config = rules.config  # type: ignore[attr-defined]
    me = after["seat"]

    def seat(s: int) -> str:
        return "you" if s == me else f"seat {s + 1}"

    notes = []
    for r, (old, new) in enumerate(zip(before["rows"], after["rows"], strict=False)):
        if old["owner"] < 0 <= new["owner"]:
            notes.append(f"row {r + 1} goes to {seat(new['owner'])}")
    last = after["last_trick"]
    if last is not None and last != before["last_trick"]:
        cards, _led, won = last
        notes.append(f"{seat(won)} {'take' if won == me else 'takes'} the trick "
                     f"({', '.join(config.card_names[c] for c in cards)})")
    if after["round"] != before["round"]:
        notes.append(f"round {after['round'] + 1} begins")
    if after["loon"] != before["loon"]:
        notes.append(f"your loon {before['loon']} -> {after['loon']}")
    return notes
