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
    piles = blobs(_image(shots["counterattack-box.png"]), min_area=round(card / 2))  # labels are small shapes
    assert len(piles) == len(showcased(ca_game)) == 3
    assert all(area > card for area in piles)  # a pile is more than one face: copies show under the top one


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
