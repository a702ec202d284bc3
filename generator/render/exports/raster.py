"""Raster exports: one PNG per face (300 dpi, with bleed) and Tabletop Simulator deck sheets.

Vector and raster share one drawing path: faces are drawn into a PDF (one page
per distinct face, exactly the code that draws the sheets) and that PDF is
rasterized with pdfium. Page sizes are rounded to whole pixels first, so a
63 x 88 mm card with 3 mm bleed is exactly 815 x 1110 px at 300 dpi.

The single-face PDF carries TrimBox and BleedBox on every page (what print
shops read); it is also written next to the PNGs, and `--png` renders its
pages rather than drawing the faces again. Rasterizing is spread over `jobs`
processes, each page independently, so the result does not depend on the
number of jobs. PNGs are written straight from pdfium's RGB rows by
`pngwrite.py` (no timestamp chunks): identical inputs give identical bytes.
A PDF made only to be rasterized leaves its pages uncompressed.
"""

from __future__ import annotations

import functools
import io
import math
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from generator.model import Component, Game
from generator.render.base.outputs import FaceStore, FileKind, OutputFile
from generator.render.base.pngwrite import png_from_image, png_from_rows
from generator.render.base.units import DPI, pt, px
from generator.render.faces.draw import draw_face
from generator.render.faces.layout import Face, back_layout
from generator.render.faces.renderer import FaceRenderer

if TYPE_CHECKING:
    from concurrent.futures import Executor


TTS_MAX_COLS = 10
TTS_MAX_ROWS = 7
TTS_MAX_PX = 4096
PNG_LEVEL = 3  # zlib level: flat card art compresses well already; higher levels cost time (pngwrite.py)
T = TypeVar("T")
FACE_CHUNK = 48  # faces drawn into one PDF and rasterized together by one worker; fixed, so no byte depends on --jobs


class Workers:
    """A process pool for rasterizing when jobs > 1 (created lazily, closed at the end of a build)."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)
        self._pool: Executor | None = None

    def map_pages(self, pdf: bytes, scale: float, count: int) -> list[bytes]:
        """PNG bytes of pages 0..count-1 of `pdf` rendered at `scale`, in page order."""
        return self._map(_render_pages, pdf, scale, list(range(count)))

    def map_page_list(self, pdf: bytes, scale: float, pages: Sequence[int]) -> list[bytes]:
        """PNG bytes of the given pages of `pdf` rendered at `scale`, in the order given."""
        return self._map(_render_pages, pdf, scale, list(pages))

    def map_pixels(self, pdf: bytes, scale: float, count: int) -> list[Pixels]:
        """The RGB pixels of pages 0..count-1 of `pdf` rendered at `scale`, in page order: for pictures
        composed further (Tabletop Simulator sheets), which would only decode a PNG again."""
        return self._map(_render_pixels, pdf, scale, list(range(count)))

    def _map(self, render: Callable[[bytes, float, Sequence[int]], list[T]], pdf: bytes, scale: float,
             pages: list[int]) -> list[T]:
        if self.jobs == 1 or len(pages) < 4:
            return render(pdf, scale, pages)
        pool = self._executor()
        size = math.ceil(len(pages) / self.jobs)
        chunks = [pages[i:i + size] for i in range(0, len(pages), size)]
        results: list[T] = []
        for part in pool.map(render, [pdf] * len(chunks), [scale] * len(chunks), chunks):
            results.extend(part)
        return results

    def map_faces(self, faces: Sequence[Face], bleed: float, dpi: int) -> Iterator[bytes]:
        """PNG bytes of each face at `dpi` (with `bleed`), in order: drawing and rasterizing both happen in the
        workers, `FACE_CHUNK` faces at a time, so a big deck's faces spread over every worker. Images come
        as their chunk is done, so the caller stores them while the workers draw the next ones.

        Each page is drawn and rendered on its own (pdfium renders a page from its own content), so a
        face's image is the same whichever chunk, worker or number of jobs drew it.
        """
        chunks = [list(faces[i:i + FACE_CHUNK]) for i in range(0, len(faces), FACE_CHUNK)]
        if self.jobs == 1 or len(chunks) < 2:
            for chunk in chunks:
                yield from _draw_and_render(chunk, bleed, dpi)
            return
        for part in self._executor().map(_draw_and_render, chunks, [bleed] * len(chunks), [dpi] * len(chunks)):
            yield from part

    def _executor(self) -> Executor:
        """The worker pool, made on first use: a build that never needs one never imports it."""
        if self._pool is None:
            from generator.workers import process_pool

            self._pool = process_pool(self.jobs, fork=False)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _bitmaps(pdf: bytes, scale: float, pages: Sequence[int]) -> Iterator[Any]:
    """Each of `pages` rendered by pdfium as RGB rows (as a PNG stores them); each bitmap is freed once the
    caller moves on, and the document when all are done."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for index in pages:
            page = document[index]
            bitmap = page.render(scale=scale, rev_byteorder=True)
            try:
                yield bitmap
            finally:
                bitmap.close()
                page.close()
    finally:
        document.close()


def _render_pages(pdf: bytes, scale: float, pages: Sequence[int]) -> list[bytes]:
    """Worker: rasterize some pages to PNG bytes (top level, so it pickles)."""
    return [png_from_rows(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, bitmap.mode, PNG_LEVEL)
            for bitmap in _bitmaps(pdf, scale, pages)]


@dataclass(frozen=True)
class Pixels:
    """A rendered page's pixels: `height` rows of `width` RGB pixels, no padding."""

    width: int
    height: int
    rgb: bytes

    def image(self) -> Any:
        """The pixels as a Pillow image."""
        from PIL import Image

        return Image.frombytes("RGB", (self.width, self.height), self.rgb)

    def png(self) -> bytes:
        return png_from_rows(self.rgb, self.width, self.height, 3 * self.width, "RGB", PNG_LEVEL)


def _render_pixels(pdf: bytes, scale: float, pages: Sequence[int]) -> list[Pixels]:
    """Worker: rasterize some pages to RGB pixels (top level, so it pickles)."""
    out = []
    for bitmap in _bitmaps(pdf, scale, pages):
        if bitmap.mode != "RGB":
            raise RuntimeError(f"pdfium rendered a face page as {bitmap.mode}, not RGB")
        width, height, stride = bitmap.width, bitmap.height, bitmap.stride
        view = memoryview(bitmap.buffer).cast("B")
        rgb = bytes(view) if stride == 3 * width else b"".join(
            view[row:row + 3 * width] for row in range(0, height * stride, stride))
        out.append(Pixels(width, height, rgb))
    return out


def _draw_and_render(faces: Sequence[Face], bleed: float, dpi: int) -> list[bytes]:
    """Worker: draw some faces into a PDF and rasterize every page (top level, so it pickles)."""
    return _render_pages(faces_pdf(faces, bleed, dpi, compress=False), pixel_scale(dpi), range(len(faces)))


def faces_pdf(faces: Sequence[Face], bleed: float, dpi: int = DPI, title: str = "", compress: bool = True) -> bytes:
    """One page per face, page = bleed box rounded to whole pixels at `dpi`, TrimBox and BleedBox set.

    `compress=False` leaves the page streams uncompressed: for a PDF only rasterized and thrown away, where
    deflating (and pdfium inflating) the pages is pure cost; the pages draw exactly the same."""
    from reportlab.pdfgen import canvas as rl_canvas

    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, invariant=1, pageCompression=int(compress),
                         initialFontName="Sans", initialFontSize=9)
    c.setTitle(title)
    c.setCreator("pnp build")
    for face in faces:
        width = px(face.width + 2 * bleed, dpi) * 72.0 / dpi
        height = px(face.height + 2 * bleed, dpi) * 72.0 / dpi
        x0 = (width - pt(face.width)) / 2
        y0 = (height - pt(face.height)) / 2
        c.setPageSize((width, height))
        c.setTrimBox((x0, y0, x0 + pt(face.width), y0 + pt(face.height)))
        c.setBleedBox((0, 0, width, height))
        c.saveState()
        c.translate(x0, y0)
        draw_face(c, face, bleed + 1.0)  # a hair more than the page so rounding never shows paper
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def pixel_scale(dpi: int) -> float:
    """pdfium's render scale for `dpi`, a hair under: it sizes bitmaps with ceil(points * scale), so whole-pixel
    pages (a service's exact 825 x 1125 px) stay whole."""
    return dpi / 72.0 * (1 - 1e-6)


@dataclass(frozen=True)
class FaceFiles:
    """The distinct faces of a component and which file names show them."""

    faces: list[Face]
    names: list[list[str]]  # per distinct face, every file name it is written to
    labels: list[list[str]]  # what each of those files shows ("nassau 1", "back")


def face_files(renderer: FaceRenderer, game: Game, component: Component) -> FaceFiles:
    """Name every face: `<component>-<item>-<copy>.png`, backs `...-back.png`, one shared back once."""
    faces: list[Face] = []
    names: list[list[str]] = []
    labels: list[list[str]] = []
    index: dict[Face, int] = {}

    def add(face: Face, name: str, label: str) -> None:
        if face not in index:
            index[face] = len(faces)
            faces.append(face)
            names.append([])
            labels.append([])
        if name not in names[index[face]]:
            names[index[face]].append(name)
            labels[index[face]].append(label)

    copies = list(component.copies())
    backs = []
    for item, copy in copies:
        add(renderer.face(game, component, item, "front"), f"{component.id}-{item.id}-{copy + 1}.png",
            f"{item.id} {copy + 1}")
    if back_layout(component):
        backs = [renderer.face(game, component, item, "back") for item, _ in copies]
        shared = all(b == backs[0] for b in backs)
        for (item, copy), back in zip(copies, backs):
            if shared:
                add(back, f"{component.id}-back.png", "back")
            else:
                add(back, f"{component.id}-{item.id}-{copy + 1}-back.png", f"{item.id} {copy + 1} (back)")
    return FaceFiles(faces, names, labels)


def rasterize(faces: Sequence[Face], bleed: float, dpi: int, workers: Workers,
              cache: FaceStore | FaceSink | None = None, drawn: bytes | None = None) -> list[bytes]:
    """PNG bytes of each face; faces found in the build cache are not drawn again, and equal faces (a deck's
    copies under other ids) are drawn once.

    `drawn`, when given, is `faces_pdf(faces, bleed, dpi)` already made (the single-face PDF `--png` writes):
    the faces to rasterize are rendered from its pages instead of being drawn again. A page renders the same
    pixels whichever document holds it (`Workers.map_faces`), so the images and the cache do not depend on it."""
    from generator.digests import code_digest, digest

    keys = [digest("face", repr(face), bleed, dpi, code_digest()) for face in faces]
    images: list[bytes | None] = [cache.face(key) if cache is not None else None for key in keys]
    todo: dict[str, int] = {}  # key -> the first face that needs it drawn
    for i, image in enumerate(images):
        if image is None:
            todo.setdefault(keys[i], i)
    made: dict[str, bytes] = {}
    rendered = (workers.map_faces([faces[i] for i in todo.values()], bleed, dpi) if drawn is None
                else workers.map_page_list(drawn, pixel_scale(dpi), list(todo.values())))
    for key, image in zip(todo, rendered, strict=True):
        made[key] = image
        if cache is not None:
            cache.store_face(key, image)
    return [image if image is not None else made[key] for image, key in zip(images, keys)]


def with_dpi(png: bytes, dpi: int) -> bytes:
    """The PNG with a pHYs chunk saying `dpi` (inserted after IHDR; the pixels are not touched)."""
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, CRC
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def export_pngs(renderer: FaceRenderer, game: Game, component: Component, bleed: float,
                workers: Workers, dpi: int = DPI, cache: FaceStore | None = None) -> list[OutputFile]:
    """Every face as a PNG, plus the single-face PDF (TrimBox/BleedBox) of them all."""
    files = face_files(renderer, game, component)
    pdf = faces_pdf(files.faces, bleed, dpi, f"{game.title}: {component.plural}")
    images = rasterize(files.faces, bleed, dpi, workers, cache, drawn=pdf)
    out = [OutputFile(f"{game.id}-{component.id}-faces.pdf", FileKind.FACES_PDF, pdf, component.id)]
    for names, labels, image in zip(files.names, files.labels, images):
        marked = with_dpi(image, dpi)  # print tools read the size from it (the cache keeps the bare image)
        out.extend(OutputFile(name, FileKind.PNG, marked, component.id, label) for name, label in zip(names, labels))
    return out


def export_tts(renderer: FaceRenderer, game: Game, component: Component, workers: Workers,
               base: str = "") -> list[OutputFile]:
    """Tabletop Simulator images and a saved object (`generator.render.exports.tts`) for one component.

    Cards: deck sheets of up to 10 x 7 faces, the last slot the hidden card
    (it shows the back), one slot per distinct item (copies share a slot; the
    saved object lists every copy), the back in its own image (or a back sheet
    when backs differ per item), every image under 4096 px a side. Tiles and
    tokens: one image per item side (tokens cut out along their shape) and a
    Custom_Tile / Custom_Token per copy. `base` prefixes the image names in the JSON.
    """
    if component.kind in ("tile", "token"):
        return _tts_pieces(renderer, game, component, workers, base)
    import json

    from PIL import Image

    from generator.render.exports.tts import deck_object, deck_sheets, to_bytes

    items = list(component.items)
    fronts = [renderer.face(game, component, item, "front") for item in items]
    has_back = back_layout(component) is not None
    backs = [renderer.face(game, component, item, "back") for item in items] if has_back else []
    unique_back = bool(backs) and any(b != backs[0] for b in backs)
    width, height = component.size.width, component.size.height
    page_w, page_h = px(width, 72), px(height, 72)  # faces_pdf at 72 dpi: pages of whole points
    cell_scale = min(((TTS_MAX_PX - 1) // TTS_MAX_COLS) / page_w, ((TTS_MAX_PX - 1) // TTS_MAX_ROWS) / page_h)

    def drawn(faces: list[Face]) -> list[Any]:
        """The faces as images of one cell each. A sheet's faces at a time: a 10,000-card deck's cells all
        at once took 4.5 GB (two copies of some 3,000 cells of 0.7 MB)."""
        pixels = workers.map_pixels(faces_pdf(faces, 0.0, 72, compress=False), cell_scale * (1 - 1e-6), len(faces))
        return [cell.image() for cell in pixels]

    cell_w, cell_h = drawn(fronts[:1])[0].size
    hidden = drawn(backs[:1])[0] if backs else Image.new("RGB", (cell_w, cell_h), (40, 40, 40))
    out: dict[str, bytes] = {}
    decks = []
    sheets = deck_sheets(component.id, [(item.id, item.count) for item in items], unique_back,
                         TTS_MAX_COLS, TTS_MAX_ROWS)
    shared_back = f"{component.id}-back.png"
    per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS - 1
    for sheet, start in zip(sheets, range(0, len(items), per_sheet)):
        chunk = list(range(start, min(len(items), start + per_sheet)))
        cells = drawn([fronts[i] for i in chunk] + ([backs[i] for i in chunk] if unique_back else []))
        front_images, back_images = cells[:len(chunk)], cells[len(chunk):]
        out[sheet.face] = _sheet(front_images, sheet.cols, sheet.rows, cell_w, cell_h, hidden)
        deck: dict[str, Any] = {"FaceURL": sheet.face, "NumWidth": sheet.cols, "NumHeight": sheet.rows,
                                "BackIsHidden": True, "UniqueBack": unique_back, "BackURL": sheet.back,
                                "cards": [{"slot": slot, "item": items[i].id, "count": items[i].count}
                                          for slot, i in enumerate(chunk)]}
        if unique_back:
            out[sheet.back] = _sheet(back_images, sheet.cols, sheet.rows, cell_w, cell_h, hidden)
        decks.append(deck)
    if not unique_back:
        out[shared_back] = _png(hidden)  # the back, or a plain one TTS shows when a component has none
    summary = {"game": game.id, "component": component.id, "card_width_px": cell_w, "card_height_px": cell_h,
               "decks": decks}
    out[f"{component.id}.json"] = (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode()
    landscape = component.size.width > component.size.height
    out[f"{component.id}-saved-object.json"] = to_bytes(deck_object(f"{game.title}: {component.plural}", sheets,
                                                                    base, sideways=landscape))
    return [OutputFile(name, FileKind.TTS_DECK if name.endswith(".json") else FileKind.TTS, data, component.id)
            for name, data in out.items()]


def _tts_pieces(renderer: FaceRenderer, game: Game, component: Component, workers: Workers,
                base: str) -> list[OutputFile]:
    """Tiles and tokens: an image per item side at 300 dpi (tokens transparent outside their shape)."""
    from PIL import Image, ImageDraw

    from generator.render.exports.tts import piece_objects, to_bytes

    shots, pieces = piece_list(renderer, game, component)
    distinct = list(dict.fromkeys(face for _, face in shots))  # a tile's shared back is drawn and encoded once
    drawn = workers.map_pixels(faces_pdf(distinct, 0.0, 72, compress=False), pixel_scale(DPI), len(distinct))
    images: dict[Face, bytes] = {}
    for face, pixels in zip(distinct, drawn, strict=True):
        if component.size.shape == "circle":  # TTS cuts a token out along its transparency
            picture = pixels.image().convert("RGBA")
            mask = Image.new("L", picture.size, 0)
            ImageDraw.Draw(mask).ellipse((0, 0, picture.width - 1, picture.height - 1), fill=255)
            picture.putalpha(mask)
            images[face] = _png(picture)
        else:
            images[face] = pixels.png()
    out = [OutputFile(name, FileKind.TTS, images[face], component.id) for name, face in shots]
    saved = piece_objects(f"{game.title}: {component.plural}", component.kind, component.size.shape, pieces, base,
                          (component.size.width, component.size.height))
    out.append(OutputFile(f"{component.id}-saved-object.json", FileKind.TTS_DECK, to_bytes(saved), component.id))
    return out


def piece_list(renderer: FaceRenderer, game: Game, component: Component
               ) -> tuple[list[tuple[str, Face]], list[tuple[str, int, str, str]]]:
    """A tile or token component's images (name, face) and its pieces (item id, copies, front image, back image
    or "" when the back is the front): what its saved object and the game's table both name."""
    has_back = back_layout(component) is not None
    shots: list[tuple[str, Face]] = []
    pieces: list[tuple[str, int, str, str]] = []
    for item in component.items:
        front = f"{component.id}-{item.id}.png"
        front_face = renderer.face(game, component, item, "front")
        shots.append((front, front_face))
        back = ""
        back_face = renderer.face(game, component, item, "back") if has_back else None
        if back_face is not None and back_face != front_face:  # an equal back is the same image: TTS shows it twice
            back = f"{component.id}-{item.id}-back.png"
            shots.append((back, back_face))
        pieces.append((item.id, item.count, front, back))
    return shots, pieces


def _sheet(faces: list[Any], cols: int, rows: int, cell_w: int, cell_h: int, hidden: Any) -> bytes:
    from PIL import Image

    sheet = Image.new("RGB", (cols * cell_w, rows * cell_h), (255, 255, 255))
    for slot, image in enumerate(faces):
        row, col = divmod(slot, cols)
        sheet.paste(image, (col * cell_w, row * cell_h))
    sheet.paste(hidden, ((cols - 1) * cell_w, (rows - 1) * cell_h))  # TTS shows the last slot for hidden cards
    return _png(sheet)


def _png(image: Any) -> bytes:
    return png_from_image(image, PNG_LEVEL)


def export_previews(renderer: FaceRenderer, game: Game, component: Component, workers: Workers,
                    dpi: int = 96, cache: FaceStore | None = None) -> list[OutputFile]:
    """Small screen previews (no bleed): `<component>-<item>.png` per design, plus the back(s).

    For galleries and web pages: one image per distinct design, not per copy, in
    the order a gallery shows them (each item, its own back after it, a shared
    back last), each labelled with what it shows.
    """
    shots = _preview_shots(_Backs(renderer, game, component), 0, len(component.items))
    return _preview_files(component, shots, dpi, workers, cache)


def _preview_files(component: Component, shots: list[tuple[str, str, Face]], dpi: int, workers: Workers,
                   cache: FaceStore | FaceSink | None) -> list[OutputFile]:
    images = rasterize([face for _, _, face in shots], 0.0, dpi, workers, cache)
    return [OutputFile(name, FileKind.PREVIEW, image, component.id, label)
            for (name, label, _), image in zip(shots, images)]


PREVIEW_PART_ITEMS = 96  # items per part of a split preview job (two raster chunks); fixed, so no byte depends on --jobs


class FaceSink:
    """The build cache as one part of a job sees it: faces are looked up in the cache, and those rasterized
    now are kept here (`made`) for the process that owns the cache to store, as a forked worker cannot."""

    def __init__(self, cache: FaceStore | None) -> None:
        self._cache = cache
        self.made: dict[str, bytes] = {}

    def face(self, key: str) -> bytes | None:
        return self._cache.face(key) if self._cache is not None else None

    def store_face(self, key: str, data: bytes) -> None:
        self.made[key] = data

    def store(self, folder: Path | None = None, files: Sequence[OutputFile] = ()) -> dict[str, str]:
        """Store the faces made into the cache's folder (from a forked worker, once the part's `files` are
        written in `folder`: a face one of them holds is linked, `written_as`); their keys and digests, for the
        process that owns the cache's index to register."""
        if self._cache is None:
            return {}
        held = written_as(files, folder) if self.made else {}
        for key, data in self.made.items():
            self._cache.store_face(key, data, held.get(data))
        return {key: self._cache.faces[key] for key in self.made}


def written_as(files: Sequence[OutputFile], folder: Path | None) -> dict[bytes, Path]:
    """Each of a part's written files by its bytes, as paths in `folder` ({} without one): the build cache links
    the file holding a face's bytes (a preview holds exactly them) instead of writing the bytes again."""
    return {output.data: folder / output.name for output in files} if folder is not None else {}


@dataclass(frozen=True)
class Part:
    """One pure slice of a job (`run` returns its files; `sink` holds the faces it rasterized): the parts of a
    big component's previews run in any worker, and their files are written as each part comes back."""

    run: Callable[[], list[OutputFile]]
    sink: FaceSink
    pieces: int


def preview_parts(renderer: FaceRenderer, game: Game, component: Component, dpi: int,
                  cache: FaceStore | None) -> list[Part]:
    """`export_previews` in slices of `PREVIEW_PART_ITEMS` items: together the same files in the same order
    (the shared back comes with the last slice), each slice drawn and rasterized in the process that runs it."""
    parts = []
    count = len(component.items)
    backs = _Backs(renderer, game, component)  # one per component: each process works the backs out once
    for start in range(0, max(count, 1), PREVIEW_PART_ITEMS):
        sink = FaceSink(cache)
        stop = min(count, start + PREVIEW_PART_ITEMS)
        run = functools.partial(_preview_part, backs, dpi, sink, start, stop)
        parts.append(Part(run, sink, stop - start))
    return parts


def _preview_part(backs: _Backs, dpi: int, sink: FaceSink, start: int, stop: int) -> list[OutputFile]:
    return _preview_files(backs.component, _preview_shots(backs, start, stop), dpi, Workers(1), sink)


class _Backs:
    """A component's back faces and whether one back serves every item: whether it does depends on every item,
    so it is worked out once per process and shared by all the slices of its previews (not once per slice)."""

    def __init__(self, renderer: FaceRenderer, game: Game, component: Component) -> None:
        self.renderer, self.game, self.component = renderer, game, component
        self._worked_out: tuple[list[Face], Face | None] | None = None

    def faces(self) -> list[Face]:
        """Every item's back face, in item order ([] when the component has no back layout)."""
        return self._work_out()[0]

    def shared(self) -> Face | None:
        """The one back every item has, if so (and the component is not double-sided)."""
        return self._work_out()[1]

    def _work_out(self) -> tuple[list[Face], Face | None]:
        if self._worked_out is None:
            component = self.component
            faces = ([self.renderer.face(self.game, component, item, "back") for item in component.items]
                     if back_layout(component) else [])
            one = bool(faces) and all(b == faces[0] for b in faces) and not component.double_sided
            self._worked_out = (faces, faces[0] if one else None)
        return self._worked_out


def _preview_shots(backs: _Backs, start: int, stop: int) -> list[tuple[str, str, Face]]:
    """(file name, label, face) of the previews of items `start`..`stop`, in gallery order; the shared back
    after the last item."""
    renderer, game, component = backs.renderer, backs.game, backs.component
    shots: list[tuple[str, str, Face]] = []
    faces, shared_back = backs.faces(), backs.shared()
    items = component.items
    for index in range(start, stop):
        item = items[index]
        shots.append((f"{component.id}-{item.id}.png", item.id, renderer.face(game, component, item, "front")))
        if faces and shared_back is None:
            shots.append((f"{component.id}-{item.id}-back.png", f"{item.id} (back)", faces[index]))
    if shared_back is not None and stop == len(items):
        shots.append((f"{component.id}-back.png", "back", shared_back))
    return shots
