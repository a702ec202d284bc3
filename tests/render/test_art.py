"""Illustrations are data: every face design draws art beyond its text and frames, every art file a
layout draws exists beside a licence entry and is credited in its game's rulebook, and the cards
the rules tell apart get illustrations of their own (issue 32: "all 9 capture cards share one icon").
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from generator.load import load_game
from generator.model import Game, Item
from generator.project import Project
from generator.render.faces.access import behind
from generator.render.faces.fit import printable_side
from generator.render.faces.images import Picture
from generator.render.faces.layout import Element, Face
from generator.render.faces.preflight import drawn_shapes
from tests.helpers import REPO

GAMES = ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire")
ART = REPO / "templates" / "art"
LICENCE = "LICENCE-game-icons.md"  # beside each game's art, so `pnp new --from` copies it along
CC_BY = "creativecommons.org/licenses/by/3.0"
ART_TYPES = ("image", "icon", "pips")  # what draws a picture, as opposed to text, rules and frames
# fronts whose picture is the suit's own symbol (a crew card's pips), drawn as shipped icons, not an illustration file
SYMBOL_FRONTS = {"counterattack": {"main"}}
OWN_LICENCE = "LICENCE-own-art.md"
_OWN_ROW = re.compile(r"^\| ([\w./-]+\.svg) \| [^|]+ \| MIT \|$")
_ROW = re.compile(r"^\| ([\w./-]+\.svg) \| ([\w-]+) \| ([^|]+?) \| CC BY 3\.0 \|$")


def licence_rows() -> dict[str, tuple[str, str]]:
    """The licence files' tables: art file (relative to templates/art/) -> (original icon, author)."""
    rows = {}
    for licence in sorted(ART.glob(f"*/{LICENCE}")):
        for line in licence.read_text(encoding="utf-8").splitlines():
            found = _ROW.match(line)
            if found:
                rows[f"{licence.parent.name}/{found.group(1)}"] = (found.group(2), found.group(3))
    return rows


def face_sides(project: Project, game: Game) -> list[tuple[str, str, list[tuple[Item, Face]]]]:
    """Every face design of the game, boards included: (component id, side, its items' resolved faces)."""
    found = []
    for component in game.components:
        if not (component.printable or component.kind == "board"):
            continue
        for side, layout in (("front", component.front), ("back", component.back)):
            if layout is None:
                continue
            resolved = printable_side(game, project, component, side, layout)
            assert resolved.error is None, resolved.error
            found.append((component.id, side, list(resolved.faces)))
    return found


def drawn_art(face: Face) -> list[Element]:
    """The face's elements that draw a picture of some size (not a hidden, zero-sized one)."""
    def sized(element: Element) -> bool:
        if element.type == "image":
            return bool(element.get("w") > 1 and element.get("h") > 1)
        return bool(element.get("size") > 1)
    return [e for e in face.elements if e.type in ART_TYPES and sized(e)]


def pictures(face: Face) -> list[Picture]:
    return [e.get("path") for e in face.elements if e.type == "image"]


@pytest.fixture(scope="module")
def sides(project: Project) -> dict[str, list[tuple[str, str, list[tuple[Item, Face]]]]]:
    return {game_id: face_sides(project, load_game(project, game_id)) for game_id in GAMES}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_face_design_and_board_draws_art(sides: dict, game_id: str) -> None:
    lacking = [f"{component} {side} {item.id}" for component, side, faces in sides[game_id]
               for item, face in faces if not drawn_art(face)]
    assert lacking == []


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_art_stands_beside_text_never_behind_it(sides: dict, game_id: str) -> None:
    """No text's drawn box meets an illustration's box, unless a panel drawn over the art lies under the
    text (the sea board's spaces on its sea): art does not crowd the words, and the contrast preflight
    (which cannot see into art) keeps measuring every text against a known colour."""
    crowded = set()
    for component, side, faces in sides[game_id]:
        for item, face in faces:
            boxes = [(e.name, e.get("x"), e.get("y"), e.get("x") + e.get("w"), e.get("y") + e.get("h"))
                     for e in face.elements if e.type == "image"]
            for index, element in enumerate(face.elements):
                if element.type not in ("text", "textbox", "track") or \
                        (element.type != "track" and not element.get("text")):
                    continue
                for shape in drawn_shapes(element, face):
                    xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
                    corners = [(x, y) for x in (min(xs), max(xs)) for y in (min(ys), max(ys))]
                    if all(behind(face, index, x, y) is not None for x, y in corners):
                        continue  # on a panel (or the stock), whatever art lies further below
                    for name, left, top, right, bottom in boxes:
                        if min(xs) < right and max(xs) > left and min(ys) < bottom and max(ys) > top:
                            crowded.add(f"{component} {side} {item.id}: {element.name} meets {name}")
    assert sorted(crowded) == []


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_card_and_tile_front_carries_an_illustration_file(sides: dict, project: Project,
                                                                game_id: str) -> None:
    """Not only shipped icons: a front of each card and tile component draws SVG art from templates/art/."""
    game = load_game(project, game_id)
    kinds = {c.id: c.kind for c in game.components}
    plain = [component for component, side, faces in sides[game_id]
             if side == "front" and kinds[component] in ("card", "tile")
             and not all(pictures(face) for _, face in faces)]
    assert set(plain) == SYMBOL_FRONTS.get(game_id, set()), plain
    for component, _side, faces in sides[game_id]:
        for item, face in faces:
            for picture in pictures(face):
                assert picture.vector, f"{component} {item.id}: {picture.path} is not vector art"
                assert picture.path.startswith(f"templates/art/{game_id}/"), picture.path


@pytest.mark.slow
@pytest.mark.parametrize("game_id, component, telling", [
    ("pirate-tricks", "recruitment", "id"),
    ("pirate-tricks", "capture", "id"),
    ("pirate-tricks", "treasure", "id"),
    ("pirate-tricks", "crew", "suit"),
    ("all-hands-on-deck", "pirate", "kind"),
    ("counterattack", "port", "id"),
    ("pirates-under-fire", "mercenary", "id"),
    ("pirates-under-fire", "ship", "fleet"),
])
def test_cards_told_apart_have_their_own_illustration(sides: dict, game_id: str, component: str,
                                                      telling: str) -> None:
    """Cards whose data differ in `telling` (each card, each suit, kind or fleet) draw different art."""
    art: dict[object, set[str]] = defaultdict(set)
    for name, side, faces in sides[game_id]:
        if name == component and side == "front":
            for item, face in faces:
                art[item.id if telling == "id" else item.fields[telling]].update(p.path for p in pictures(face))
    assert len(art) >= 2 and all(art.values()), art
    owners: dict[frozenset[str], list[object]] = defaultdict(list)
    for value, paths in art.items():
        owners[frozenset(paths)].append(value)
    shared = [values for values in owners.values() if len(values) > 1]
    assert shared == [], f"{component}: these share one illustration: {shared}"


def own_art_rows() -> set[str]:
    """The art drawn for Pirate Press itself (MIT), listed in `LICENCE-own-art.md` beside a game's art."""
    return {f"{licence.parent.name}/{found.group(1)}" for licence in sorted(ART.glob(f"*/{OWN_LICENCE}"))
            for found in map(_OWN_ROW.match, licence.read_text(encoding="utf-8").splitlines()) if found}


def test_every_art_file_is_a_clean_svg_with_a_licence_entry() -> None:
    rows = licence_rows()
    own = own_art_rows()
    files = sorted(p.relative_to(ART).as_posix() for p in ART.rglob("*.svg"))
    assert files and sorted([*rows, *own]) == files and not own & set(rows)
    for name in sorted(own):
        text = (ART / name).read_text(encoding="utf-8")
        for refused in ("<text", "<filter", "<mask", "<pattern", "href", "url("):
            assert refused not in text, f"{name} holds {refused}"
    files = sorted(rows)
    for name in files:
        text = (ART / name).read_text(encoding="utf-8")
        assert re.search(r'<svg [^>]*viewBox="0 0 512 512"', text), name
        for refused in ("<text", "<filter", "<mask", "<pattern", "href", "url("):
            assert refused not in text, f"{name} holds {refused}"
        icon, author = rows[name]
        assert f'"{icon}" by {author} from game-icons.net' in text, name


@pytest.mark.parametrize("game_id", GAMES)
def test_each_rulebook_credits_the_art_it_prints(project: Project, game_id: str) -> None:
    """Every author of the game's art is in its credits, which its rulebook prints with the licence."""
    game = load_game(project, game_id)
    authors = {author for name, (_, author) in licence_rows().items() if name.startswith(f"{game_id}/")}
    assert authors
    credited = {name for credit in game.credits if "game-icons.net" in credit.role for name in credit.names}
    assert authors <= credited, authors - credited
    rulebook = (REPO / "templates" / "rulebooks" / f"{game_id}.md.j2").read_text(encoding="utf-8")
    credits = rulebook[rulebook.index("## Credits"):]
    assert "{% for credit in game.credits" in credits and CC_BY in credits and "game-icons.net" in credits


def test_layouts_name_only_art_that_exists() -> None:
    """Every `art/...svg` a layout names (with the item's field filled in) is a file beside the licence."""
    rows = licence_rows()
    for layout in sorted((REPO / "templates" / "layouts").rglob("*.yaml")):
        for path in re.findall(r"path: \"?(art/[^\"},]+)", layout.read_text(encoding="utf-8")):
            if "{{" not in path:
                assert path.removeprefix("art/") in rows, f"{layout.name}: {path}"
                assert Path(ART, path.removeprefix("art/")).is_file()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_sheets_drawing_svg_art_name_only_embedded_fonts(all_games_built: Project, game_id: str) -> None:
    """svglib drawings start in ReportLab's Helvetica; the art's sheets must not name that unembedded font."""
    from tests.documents.helpers import fonts

    sheets = sorted((all_games_built.output_dir / game_id).glob(f"{game_id}-*-a4-*.pdf"))
    assert sheets
    for sheet in sheets:
        used = fonts(sheet.read_bytes())
        assert all(used.values()), f"{sheet.name}: fonts not embedded: {used}"
