"""Showcase images: a fanned hand, one of each design, the box's contents; read back as pixels."""

from __future__ import annotations

import io
from collections import deque

import pytest
from PIL import Image

from generator.model import Game
from generator.project import Project
from generator.render.base.outputs import FileKind
from generator.render.exports.raster import Workers
from generator.render.faces.renderer import renderer
from generator.render.site.box_front import SIZE, box_front_pdf
from generator.render.site.showcase import ShowcaseSettings, draw_showcase, showcased
from tests.helpers import run_pnp


@pytest.fixture(scope="module")
def shots(ca_project: Project, ca_game: Game) -> dict[str, bytes]:
    files = draw_showcase(renderer(ca_project), ca_game, Workers(1), None, ShowcaseSettings())
    assert all(f.kind is FileKind.SHOWCASE for f in files)
    return {f.name: f.data for f in files}


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def blobs(image: Image.Image, min_area: int = 1) -> list[int]:
    """Areas of the separate opaque shapes (shadows and soft edges left out), on a 1/4 grid."""
    small = image.getchannel("A").resize((image.width // 4, image.height // 4), Image.Resampling.NEAREST)
    width, height = small.size
    opaque = [a >= 250 for a in small.tobytes()]
    seen = [False] * len(opaque)
    areas = []
    for start in range(len(opaque)):
        if not opaque[start] or seen[start]:
            continue
        seen[start] = True
        queue, area = deque([start]), 0
        while queue:
            at = queue.popleft()
            area += 1
            x, y = at % width, at // width
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                n = ny * width + nx
                if 0 <= nx < width and 0 <= ny < height and opaque[n] and not seen[n]:
                    seen[n] = True
                    queue.append(n)
        if area >= min_area:
            areas.append(area)
    return areas


@pytest.mark.slow
def test_three_transparent_pngs_per_game(shots: dict[str, bytes]) -> None:
    assert set(shots) == {"counterattack-hand.png", "counterattack-spread.png", "counterattack-box.png"}
    for data in shots.values():
        image = _image(data)
        assert image.format == "PNG" and image.mode == "RGBA"
        assert image.getpixel((0, 0))[3] == 0 and image.getpixel((image.width - 1, image.height - 1))[3] == 0


@pytest.mark.slow
def test_the_spread_shows_each_design_once(shots: dict[str, bytes], ca_game: Game) -> None:
    designs = sum(len(c.items) for c in showcased(ca_game))
    assert len(blobs(_image(shots["counterattack-spread.png"]))) == designs == 54


def test_the_box_shows_one_pile_per_component(shots: dict[str, bytes], ca_game: Game) -> None:
    card = ShowcaseSettings().dpi * 63 / 25.4 / 4 * ShowcaseSettings().dpi * 88 / 25.4 / 4  # a face, on the 1/4 grid
    shapes = blobs(_image(shots["counterattack-box.png"]), min_area=round(card / 2))  # labels are small shapes
    lid = (ShowcaseSettings().dpi * SIZE[0] / 25.4 / 4) * (ShowcaseSettings().dpi * SIZE[1] / 25.4 / 4)
    piles = [area for area in shapes if area < lid / 2]
    assert len(piles) == len(showcased(ca_game)) == 3
    assert all(area > card for area in piles)  # a pile is more than one face: copies show under the top one


def test_the_box_shows_its_front_the_title_over_the_art_the_data_names(shots: dict[str, bytes],
                                                                        ca_project: Project, ca_game: Game) -> None:
    """Left of the piles stands the box's front: a square lid in the game's colour, its title in type, and
    the illustration `theme.box_art` names (templates/art/counterattack/isla-calavera.svg) drawn as paths."""
    import pypdfium2 as pdfium

    dpi = ShowcaseSettings().dpi
    image = _image(shots["counterattack-box.png"])
    lid = (dpi * SIZE[0] / 25.4 / 4) * (dpi * SIZE[1] / 25.4 / 4)
    assert [area for area in blobs(image, min_area=round(lid / 2)) if area > lid * 0.9]  # one lid-sized shape
    primary = tuple(int(ca_game.theme["colours"]["primary"][i:i + 2], 16) for i in (1, 3, 5))
    opaque = image.getchannel("A").point(lambda a: 255 if a >= 250 else 0)
    left = opaque.getbbox()[0]  # the lid's left edge: it stands left of the piles
    top = next(y for y in range(image.height) if opaque.getpixel((left + 10, y)))
    inside = (round(left + dpi * 3 / 25.4), round(top + dpi * SIZE[1] / 2 / 25.4))  # left of the disc, in the frame
    assert image.getpixel(inside)[:3] == primary
    assert ca_game.theme["box_art"] == "isla-calavera"
    pdf = box_front_pdf(renderer(ca_project), ca_game)
    assert pdf is not None
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage().get_text_range()
    assert ca_game.title in text and "1\u20132 players" in text
    paths = [obj for obj in page.get_objects(max_depth=5) if obj.type == pdfium.raw.FPDF_PAGEOBJ_PATH]
    art = (ca_project.templates_dir / "art" / "counterattack" / "isla-calavera.svg").read_text(encoding="utf-8")
    assert len(paths) >= 3 + art.count("<path")  # frame, inner frame and disc, then the art's own paths


def test_a_game_without_box_art_has_no_box_front(project_copy: Project) -> None:
    from generator.load import load_game
    from tests.helpers import edit

    edit(project_copy.data_dir / "counterattack" / "game.yaml", "  box_art: isla-calavera", "  # no box art")
    game = load_game(project_copy, "counterattack")
    assert box_front_pdf(renderer(project_copy), game) is None


@pytest.mark.slow
def test_box_art_naming_no_file_is_one_line_in_validate(project_copy: Project, capsys) -> None:
    from tests.helpers import edit

    edit(project_copy.data_dir / "counterattack" / "game.yaml", "  box_art: isla-calavera", "  box_art: nowhere")
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack")
    assert code != 0 and "Traceback" not in out + err
    line = next(line for line in (out + err).splitlines() if "data/counterattack/game.yaml:" in line)
    assert "theme.box_art" in line and "templates/art/counterattack/nowhere.svg" in line


def test_the_hand_fans_cards_out_side_by_side(shots: dict[str, bytes]) -> None:
    hand = _image(shots["counterattack-hand.png"])
    dpi = ShowcaseSettings().dpi
    width, height = 63 / 25.4 * dpi, 88 / 25.4 * dpi
    [fan] = blobs(hand)  # overlapping cards: one shape
    assert fan * 16 > 3 * width * height  # more than three cards' worth shows
    assert hand.width > 4 * width and hand.height < 2 * height  # spread sideways, rising only a little


@pytest.mark.slow
def test_pnp_build_showcase_writes_them_and_the_gallery_shows_them(fresh_project: Project, shots: dict[str, bytes],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--paper", "a4", "--showcase", "-q")
    assert code == 0, err
    folder = fresh_project.output_dir / "counterattack" / "showcase"
    # The build (faces through its cache) draws the same bytes as a direct call: deterministic.
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == shots
    html = (fresh_project.output_dir / "index.html").read_text()
    assert 'src="counterattack/showcase/counterattack-hand.png?v=' in html
    code, _, err = run_pnp(capsys, "--root", str(fresh_project.root), "build", "--paper", "a4", "-q")
    assert code == 0, err
    assert sorted(p.name for p in folder.iterdir()) == sorted(shots)  # a build that did not ask leaves them alone
