"""Issue 32's findings on the printed faces, each measured on the faces the games resolve to."""

from __future__ import annotations

import colorsys

from generator.load import load_game
from generator.project import Project
from generator.render.faces.access import behind, face_findings, text_size
from generator.render.faces.renderer import renderer
from generator.render.faces.vision import contrast, rgb


def faces_of(project: Project, game_id: str, component_id: str, side: str = "front"):
    game = load_game(project, game_id)
    component = game.component(component_id)
    return [(item, renderer(project).face(game, component, item, side)) for item in component.items]


def named(face, name: str):
    return next(e for e in face.elements if e.name == name)


def test_coin_values_read_at_4_5_to_1(project: Project) -> None:
    """Was white on light gold, 2.0:1, on 48 of 71 Pirate Tricks coins and 30 of 38 Under Fire gold coins."""
    for game_id, component_id in (("pirate-tricks", "loon"), ("pirates-under-fire", "gold")):
        for item, face in faces_of(project, game_id, component_id):
            index = next(i for i, e in enumerate(face.elements) if e.name == "value")
            value = face.elements[index]
            ratio = contrast(value.get("colour"), behind(face, index, value.get("x"), value.get("y") - 2))
            assert ratio >= 4.5, (item.key, ratio)


def test_under_fire_tiles_keep_frames_and_headers_3_mm_inside_the_trim(project: Project) -> None:
    """Butted tiles: a miscut must show only more ground, never the other fleet's header or a lopsided frame."""
    for component_id, side in (("ship", "front"), ("ship", "back"), ("mercenary", "front"), ("mercenary", "back")):
        for item, face in faces_of(project, "pirates-under-fire", component_id, side):
            frame = named(face, "frame")
            inset = frame.get("x") - frame.get("stroke_width") / 72 * 25.4 / 2
            assert inset >= 3 - 0.25, (item.key, side, inset)  # the stroke's outer edge, 0.8 pt wide
            for element in face.elements:
                if element.type == "rect" and element.get("fill") != "none" and not element.get("bleed"):
                    assert element.get("x") >= 3 and element.get("y") >= 3, (item.key, element.name)
                    assert element.get("x") + element.get("w") <= face.width - 3, (item.key, element.name)


def test_under_fire_text_is_7_pt_or_more(project: Project) -> None:
    """Was: ability text 6.5 pt, mercenary VP 5-6.5 pt; read across the table, upside down."""
    for component_id in ("ship", "mercenary", "sea-board"):
        for item, face in faces_of(project, "pirates-under-fire", component_id):
            for element in face.elements:
                size = text_size(element) if element.type in ("text", "textbox") else None
                if size is not None:
                    assert size >= 7, (item.key, element.name, size)


def test_counterattack_piles_have_three_different_backs(project: Project) -> None:
    backs = {component: {face for _, face in faces_of(project, "counterattack", component, "back")}
             for component in ("port", "exposed-port", "main")}
    assert all(len(found) == 1 for found in backs.values())
    assert len({next(iter(found)) for found in backs.values()}) == 3


def test_pirate_tricks_suits_print_the_colour_they_are_named(project: Project) -> None:
    """The score cards say "each red card": the red suit must print red, not orange."""
    hues = {"red": (345, 15), "green": (90, 170), "blue": (200, 250)}
    for suit, entry in load_game(project, "pirate-tricks").theme["suits"].items():
        hue, _, saturation = colorsys.rgb_to_hls(*rgb(entry["colour"]))
        low, high = hues[entry["label"].lower()]
        degrees = hue * 360
        inside = low <= degrees <= high if low < high else degrees >= low or degrees <= high
        assert inside and saturation > 0.4, (suit, entry["colour"], degrees)


def test_all_hands_corner_index_has_contrast_and_a_name(project: Project) -> None:
    """Was a 7 mm icon alone at 1.9:1 (cook, lookout) to 2.5:1: all a fanned hand shows."""
    names = set()
    for item, face in faces_of(project, "all-hands-on-deck", "pirate"):
        assert [f for f in face_findings(face) if f.element.startswith("corner")] == [], item.key
        names.add(named(face, "corner-label").get("text"))
    assert names >= {"COOK", "GUNNER", "LOOKOUT", "CUTTHROAT", "CARPENTER", "NAVIGATOR"}


def test_sixes_and_nines_are_underlined_in_both_card_games(project: Project) -> None:
    """Review finding: a 6 and a 9 read alike in the rotated corner; both games with ranks up to 9 and beyond
    underline exactly those two ranks, under the number, in its colour."""
    for game_id, component_id in (("counterattack", "main"), ("pirate-tricks", "crew")):
        for item, face in faces_of(project, game_id, component_id):
            marks = [e for e in face.elements if e.name == "rank-mark"]
            assert bool(marks) == (item["rank"] in (6, 9)), (game_id, item.key)
            if marks:
                rank = named(face, "rank")
                assert marks[0].get("stroke") == rank.get("colour")
                assert rank.get("y") < marks[0].get("y")  # under the number's baseline (y grows down)


def test_all_hands_captains_print_what_a_lone_one_costs(project: Project) -> None:
    """Review finding: a lone captain's penalty was only on the score sheet; each captain now says it, from the
    rules' own table (so a retune of the penalty reprints the cards)."""
    game = load_game(project, "all-hands-on-deck")
    penalties = game.rule("captain_penalty")
    captains = [(item, face) for item, face in faces_of(project, game.id, "pirate") if item["captain"]]
    assert {item["kind"] for item, _ in captains} == set(game.rule("captain_kinds", tuple))
    for item, face in captains:
        assert named(face, "role").get("text") == f"CAPTAIN · ALONE \u2212{penalties[item['kind']]}"


def test_counterattack_backs_show_no_suit_symbol(project: Project) -> None:
    """Review finding: the exposed-port and crew backs showed the anchor and the compass, two suits' symbols,
    which a new player may read as a hint at what lies face down."""
    game = load_game(project, "counterattack")
    suits = {suit["symbol"] for suit in game.theme["suits"].values()}
    for component in ("port", "exposed-port", "main"):
        for _, face in faces_of(project, game.id, component, "back"):
            drawn = {e.get("icon").name for e in face.elements if e.type == "icon"}
            assert drawn and not drawn & suits, (component, drawn)
