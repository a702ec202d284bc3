"""Per-face cost: our layout pipeline against a bare ReportLab script drawing the same card.

Run: python tests/bench/bench_faces.py [--repeat N]
Targets: pipeline under 3x the bare script per face (layouts are compiled once,
so a face costs template renders and drawing); PNG export under 30 ms per
face per core; also prints a gallery preview's cost (96 dpi, no bleed). Prints
CPU-time figures (robust to other load on the machine).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.load import load_game  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.render.base.fonts import register_fonts  # noqa: E402
from generator.render.base.units import pt  # noqa: E402
from generator.render.faces.draw import draw_face  # noqa: E402
from generator.render.faces.icons import icon_set  # noqa: E402
from generator.render.faces.renderer import FaceRenderer  # noqa: E402

SHIPPED = icon_set(Project.at(ROOT), "")  # the icons, read once from templates/icons/


def bare_card(c, suit: dict, rank: int, paper: str) -> None:
    """The Counterattack crew card, hand-written against ReportLab (the baseline)."""
    from reportlab.lib.colors import HexColor

    colour = HexColor(suit["colour"])
    c.setFillColor(HexColor(paper))
    c.rect(-pt(3), -pt(3), pt(69), pt(94), stroke=0, fill=1)
    c.setStrokeColor(colour)
    c.setLineWidth(1.2)
    c.roundRect(pt(3), pt(3), pt(57), pt(82), pt(2.5), stroke=1, fill=0)
    c.setLineWidth(0.4)
    c.roundRect(pt(4.4), pt(4.4), pt(54.2), pt(79.2), pt(1.8), stroke=1, fill=0)

    def icon(x, y, size):
        c.saveState()
        c.translate(x, y)
        c.scale(size / 100, size / 100)
        c.setFillColor(colour)
        c.setStrokeColor(colour)
        c.addLiteral(SHIPPED.icon(suit["symbol"], None).operators())  # the icon's paths, as drawing replays them
        c.restoreState()

    for turn in (False, True):
        c.saveState()
        if turn:
            c.translate(pt(63), pt(88))
            c.rotate(180)
        c.setFillColor(colour)
        c.setFont("Display", 24)
        c.drawCentredString(pt(10), pt(88 - 15.5), str(rank))
        icon(pt(10), pt(88 - 21.5), pt(6.5))
        c.restoreState()
    columns = 1 if rank <= 3 else (2 if rank <= 6 else 3)
    rows = -(-rank // columns)
    for i in range(rank):
        row, col = divmod(i, columns)
        icon(pt(17 + 29 * (col + 0.5) / columns), pt(88 - 14 - 60 * (row + 0.5) / rows), pt(8.5))
    c.setFillColor(colour)
    c.setFont("Sans-Semibold", 6.5)
    c.drawCentredString(pt(31.5), pt(88 - 79.5), suit["label"].upper())


def measure(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from reportlab.pdfgen.canvas import Canvas

    register_fonts()
    project = Project.at(ROOT)
    game = load_game(project, "counterattack")
    component = game.component("main")
    items = component.items
    renderer = FaceRenderer(project)
    renderer.library.get(component.front)  # compile once, as a build does

    def ours() -> None:
        renderer._faces.clear()  # resolve every face again: templates run per card
        c = Canvas(io.BytesIO(), invariant=1)
        for item in items:
            draw_face(c, renderer.face(game, component, item, "front"), 3.0)
            c.showPage()
        c.save()

    def bare() -> None:
        c = Canvas(io.BytesIO(), invariant=1)
        for item in items:
            bare_card(c, game.theme["suits"][item["suit"]], item["rank"], game.theme["colours"]["paper"])
            c.showPage()
        c.save()

    ours_t, bare_t = measure(ours, args.repeat), measure(bare, args.repeat)
    n = len(items)
    print(f"faces per run:               {n}")
    print(f"bare ReportLab per face:     {bare_t / n * 1000:.2f} ms")
    print(f"layout pipeline per face:    {ours_t / n * 1000:.2f} ms  ({ours_t / bare_t:.2f}x the bare script; target < 3x)")

    from generator.render.exports.raster import _render_pages, faces_pdf, pixel_scale

    faces = [renderer.face(game, component, item, "front") for item in items]
    for label, bleed, dpi in (("png export", 3.0, 300), ("gallery preview", 0.0, 96)):
        pdf = faces_pdf(faces, bleed, dpi, compress=False)  # as the raster workers draw them
        raster_t = measure(lambda pdf=pdf, dpi=dpi: _render_pages(pdf, pixel_scale(dpi), list(range(n))),
                           max(1, args.repeat // 2))
        draw_t = measure(lambda bleed=bleed, dpi=dpi: faces_pdf(faces, bleed, dpi, compress=False), args.repeat)
        print(f"{label + ' per face:':29s}{(raster_t + draw_t) / n * 1000:.1f} ms per core at {dpi} dpi "
              f"(drawing {draw_t / n * 1000:.1f} + rasterize/encode {raster_t / n * 1000:.1f}"
              f"{'; target < 30' if dpi == 300 else ''})")


if __name__ == "__main__":
    main()
