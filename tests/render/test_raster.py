"""PNG and Tabletop Simulator exports: sizes from millimetres, one drawing path, determinism."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image
from pypdf import PdfReader
from render_pdf import MM

from generator.render.exports.raster import Workers, export_pngs, export_tts
from generator.render.faces.renderer import renderer


def by_name(outputs) -> dict[str, bytes]:
    return {output.name: output.data for output in outputs}


def test_png_per_face_at_300_dpi_with_bleed(ca_project, ca_game) -> None:
    component = ca_game.component("exposed-port")
    with Workers(1) as workers:
        files = by_name(export_pngs(renderer(ca_project), ca_game, component, 3.0, workers))
    pngs = sorted(name for name in files if name.endswith(".png"))
    assert pngs == sorted([f"exposed-port-{i.id}-1.png" for i in component.items] + ["exposed-port-back.png"])
    image = Image.open(io.BytesIO(files["exposed-port-anchor-bay-1.png"]))
    assert image.size == (815, 1110)
    # the single-face PDF carries trim and bleed boxes: trim 63 x 88 mm inside the bleed box
    page = PdfReader(io.BytesIO(files["counterattack-exposed-port-faces.pdf"])).pages[0]
    trim = page.trimbox
    assert abs(float(trim.width) / MM - 63) < 0.01 and abs(float(trim.height) / MM - 88) < 0.01
    assert abs(float(page.bleedbox.width) / MM - 69) < 0.1


def test_png_export_is_the_same_with_two_processes(ca_project, ca_game) -> None:
    component = ca_game.component("port")
    with Workers(1) as one:
        serial = export_pngs(renderer(ca_project), ca_game, component, 3.0, one)
    with Workers(2) as two:
        parallel = export_pngs(renderer(ca_project), ca_game, component, 3.0, two)
    assert serial == parallel


def test_a_big_component_s_faces_split_into_chunks_give_the_images_of_one_face_at_a_time(
        ca_project, ca_game, monkeypatch) -> None:
    from generator.render.exports import raster

    component = ca_game.component("port")
    faces = [renderer(ca_project).face(ca_game, component, item, "front") for item in component.items][:5]
    monkeypatch.setattr(raster, "FACE_CHUNK", 2)  # 5 faces: three chunks, spread over two workers
    with Workers(1) as one:
        serial = list(one.map_faces(faces, 0.0, 96))
    with Workers(2) as two:
        parallel = list(two.map_faces(faces, 0.0, 96))
    alone = [image for face in faces for image in raster._draw_and_render([face], 0.0, 96)]
    assert serial == parallel == alone
    assert [Image.open(io.BytesIO(image)).size for image in serial] == [(238, 333)] * 5  # 63 x 88 mm at 96 dpi


def test_equal_faces_are_drawn_once_and_get_the_same_image(fresh_project, ca_game) -> None:
    from generator.build.cache import BuildCache
    from generator.render.exports.raster import rasterize

    component = ca_game.component("port")
    one, other = (renderer(fresh_project).face(ca_game, component, item, "front") for item in component.items[:2])
    cache = BuildCache.open(fresh_project)
    with Workers(1) as workers:
        images = rasterize([one, other, one, one], 0.0, 96, workers, cache)
    assert cache.faces_drawn == 2  # a deck's copies under other ids cost one drawing
    assert images[0] == images[2] == images[3] != images[1]
    with Workers(1) as workers:
        assert rasterize([other, one], 0.0, 96, workers, cache) == [images[1], images[0]]
    assert cache.faces_drawn == 2  # both from the cache now


@pytest.mark.slow
def test_tts_sheet_fits_the_limits_and_hides_the_last_slot(ca_project, ca_game) -> None:
    component = ca_game.component("main")
    with Workers(1) as workers:
        files = by_name(export_tts(renderer(ca_project), ca_game, component, workers))
    sheet = Image.open(io.BytesIO(files["main-sheet-1.png"]))
    deck = json.loads(files["main.json"])["decks"][0]
    assert sheet.width < 4096 and sheet.height < 4096
    assert (deck["NumWidth"], deck["NumHeight"]) == (10, 5)  # 44 designs + the hidden slot
    assert len(deck["cards"]) == 44 and deck["BackURL"] == "main-back.png"
    cell_w, cell_h = sheet.width // 10, sheet.height // 5
    back = Image.open(io.BytesIO(files["main-back.png"])).convert("RGB")
    hidden = sheet.crop((9 * cell_w, 4 * cell_h, 10 * cell_w, 5 * cell_h))
    assert hidden.tobytes() == back.tobytes()


@pytest.mark.slow
def test_tts_sheets_drawn_a_sheet_at_a_time_hold_the_cells_of_the_whole_deck_drawn_at_once(
        ca_project, ca_game, monkeypatch) -> None:
    """Each sheet's faces are rasterized on their own (memory stays one sheet's, not the deck's): every cell is
    the picture the whole deck rasterized in one document gives that face."""
    from generator.render.exports import raster

    monkeypatch.setattr(raster, "TTS_MAX_ROWS", 2)  # 19 designs a sheet: the 44 come on three sheets
    component = ca_game.component("main")
    with Workers(1) as workers:
        asked: list[int] = []
        draw = workers.map_pixels
        monkeypatch.setattr(workers, "map_pixels", lambda pdf, scale, count: asked.append(count) or draw(pdf, scale, count))
        files = by_name(export_tts(renderer(ca_project), ca_game, component, workers))
        assert max(asked) == 19  # never more faces at once than one sheet holds
        monkeypatch.setattr(workers, "map_pixels", draw)
        decks = json.loads(files["main.json"])["decks"]
        fronts = [renderer(ca_project).face(ca_game, component, item, "front") for item in component.items]
        sheet = Image.open(io.BytesIO(files["main-sheet-1.png"]))
        cell_w, cell_h = sheet.width // decks[0]["NumWidth"], sheet.height // decks[0]["NumHeight"]
        scale = min((4095 // 10) / raster.px(component.size.width, 72), 4095 // 2 / raster.px(component.size.height, 72))
        whole = [p.image() for p in workers.map_pixels(raster.faces_pdf(fronts, 0.0, 72, compress=False),
                                                        scale * (1 - 1e-6), len(fronts))]
    assert [len(deck["cards"]) for deck in decks] == [19, 19, 6]
    index = 0
    for number, deck in enumerate(decks, start=1):
        sheet = Image.open(io.BytesIO(files[f"main-sheet-{number}.png"])).convert("RGB")
        for slot, _card in enumerate(deck["cards"]):
            row, col = divmod(slot, deck["NumWidth"])
            cell = sheet.crop((col * cell_w, row * cell_h, (col + 1) * cell_w, (row + 1) * cell_h))
            assert cell.tobytes() == whole[index].tobytes(), (number, slot)
            index += 1
    assert index == len(fronts) == 44


def test_previews_one_image_per_design(ca_project, ca_game) -> None:
    from generator.render.exports.raster import export_previews

    component = ca_game.component("port")
    with Workers(1) as workers:
        files = by_name(export_previews(renderer(ca_project), ca_game, component, workers))
    assert sorted(files) == sorted([f"port-{i.id}.png" for i in component.items] + ["port-back.png"])
    assert Image.open(io.BytesIO(files["port-tortuga.png"])).size == (238, 333)  # 63 x 88 mm at 96 dpi


def test_a_face_png_holds_exactly_the_pixels_pdfium_draws_of_its_page_in_the_faces_pdf(ca_project, ca_game) -> None:
    import pypdfium2 as pdfium

    from generator.render.exports.raster import _draw_and_render, face_files, pixel_scale, with_dpi

    component = ca_game.component("exposed-port")
    with Workers(1) as workers:
        files = by_name(export_pngs(renderer(ca_project), ca_game, component, 3.0, workers))
    document = pdfium.PdfDocument(files["counterattack-exposed-port-faces.pdf"])
    try:  # pages in face order: the first item's front, ..., the shared back last
        pages = {"exposed-port-anchor-bay-1.png": 0, "exposed-port-back.png": len(document) - 1}
        for name, index in pages.items():
            drawn = document[index].render(scale=pixel_scale(300)).to_pil().convert("RGB")
            image = Image.open(io.BytesIO(files[name]))
            assert tuple(round(d) for d in image.info["dpi"]) == (300, 300)
            assert image.size == drawn.size and image.convert("RGB").tobytes() == drawn.tobytes()
    finally:
        document.close()
    # rendered from the written PDF's pages, a face is the same file as drawn on its own in a chunk
    faces = face_files(renderer(ca_project), ca_game, component).faces
    alone = _draw_and_render([faces[0], faces[-1]], 3.0, 300)
    assert [with_dpi(image, 300) for image in alone] == [files[name] for name in pages]


def test_rendered_pixels_are_the_pixels_of_the_png_of_the_same_page_with_any_number_of_processes(
        ca_project, ca_game) -> None:
    from generator.render.exports.raster import faces_pdf

    component = ca_game.component("port")
    faces = [renderer(ca_project).face(ca_game, component, item, "front") for item in component.items][:5]
    pdf = faces_pdf(faces, 0.0, 72, compress=False)
    with Workers(1) as one:
        pngs = one.map_pages(pdf, 1.5, len(faces))
        pixels = one.map_pixels(pdf, 1.5, len(faces))
    with Workers(2) as two:
        assert two.map_pixels(pdf, 1.5, len(faces)) == pixels
    for png, drawn in zip(pngs, pixels, strict=True):
        image = Image.open(io.BytesIO(png))
        assert image.size == (drawn.width, drawn.height) == (269, 374)  # pages of 179 x 249 pt, 1.5 px a point
        assert image.convert("RGB").tobytes() == drawn.rgb == drawn.image().tobytes()
        assert drawn.png() == png  # the same pixels, the same file


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["counterattack", "pirates-under-fire"])  # shared backs; a back per ship
def test_previews_in_parts_of_any_size_are_the_files_of_one_job(game_id: str, monkeypatch) -> None:
    """`preview_parts` (what --jobs > 1 farms out) gives, part after part, exactly `export_previews`' files in its
    order (a shared back once, after the last item; own backs after their item), whatever the part size, and
    the faces each part rasterized are kept in its sink for the build cache."""
    from generator.load import load_game
    from generator.project import Project
    from generator.render.exports import raster
    from generator.render.exports.raster import export_previews, preview_parts
    from tests.helpers import REPO

    project = Project.at(REPO)  # read only: previews are made in memory
    game = load_game(project, game_id)
    faces = renderer(project)
    backs = []
    for component in game.components:
        if component.kind not in ("card", "tile", "token"):
            continue
        with Workers(1) as workers:
            whole = [(f.name, f.label, f.data) for f in export_previews(faces, game, component, workers)]
        backs += [name for name, *_ in whole if name.endswith("back.png")]
        for size in (1, 3, raster.PREVIEW_PART_ITEMS):
            monkeypatch.setattr(raster, "PREVIEW_PART_ITEMS", size)
            parts = preview_parts(faces, game, component, 96, None)
            assert len(parts) == -(-len(component.items) // size)
            assert sum(part.pieces for part in parts) == len(component.items)
            made = [(f.name, f.label, f.data) for part in parts for f in part.run()]
            assert made == whole, (component.id, size)
            assert set().union(*(part.sink.made.values() for part in parts)) == {data for *_, data in whole}
    assert backs  # the backs' order was checked
