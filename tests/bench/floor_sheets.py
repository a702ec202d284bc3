"""The floor for card sheets: a bare ReportLab script placing the same cards as `pnp build`.

Run: python tests/bench/floor_sheets.py ROOT [PAPER ...]
For every printable component of every game under ROOT, every copy is placed on
sheets of each paper, in a plain grid, fronts then backs: a filled rectangle,
a rounded border and the item's name in an embedded TrueType font. No layouts,
no caching, no imposition options: what a hand-written script would cost. Prints
one JSON line: {"placements": N, "draw_cpu": seconds spent drawing and writing}.
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.load import load_games  # noqa: E402
from generator.project import Project  # noqa: E402
from generator.render.base.fonts import register_fonts  # noqa: E402
from generator.render.base.units import PAPERS  # noqa: E402

PRINTABLE = ("card", "tile", "token")
MARGIN = 10 * mm


def place(canvas: Canvas, names: list[str], width: float, height: float, page: tuple[float, float]) -> int:
    """Every name on as many pages as it takes, fronts then the backs page after each front page."""
    cols = max(1, int((page[0] - 2 * MARGIN) // width))
    rows = max(1, int((page[1] - 2 * MARGIN) // height))
    per_page = cols * rows
    for start in range(0, len(names), per_page):
        chunk = names[start:start + per_page]
        for back in (False, True):
            for index, name in enumerate(chunk):
                col, row = index % cols, index // cols
                if back:
                    col = cols - 1 - col  # long-edge duplex: backs mirrored
                x, y = MARGIN + col * width, page[1] - MARGIN - (row + 1) * height
                canvas.setFillColorRGB(0.95, 0.92, 0.85)
                canvas.rect(x, y, width, height, stroke=0, fill=1)
                canvas.setStrokeColorRGB(0.2, 0.2, 0.3)
                canvas.roundRect(x + 3 * mm, y + 3 * mm, width - 6 * mm, height - 6 * mm, 2 * mm)
                canvas.setFillColorRGB(0.1, 0.1, 0.1)
                canvas.setFont("Sans", 9)
                canvas.drawCentredString(x + width / 2, y + height / 2, "back" if back else name)
            canvas.showPage()
    return len(names)


def main() -> None:
    root = Path(sys.argv[1])
    papers = sys.argv[2:] or list(PAPERS)
    register_fonts()
    games = load_games(Project.at(root))
    start = time.process_time()
    placements = 0
    for game in games:
        for component in game.components:
            if component.kind not in PRINTABLE:
                continue
            names = [item.fields.get("name", item.id) for item, _ in component.copies()]
            for paper in papers:
                buffer = io.BytesIO()
                canvas = Canvas(buffer, pagesize=PAPERS[paper].size_pt, invariant=1)
                placements += place(canvas, [str(n) for n in names], component.size.width * mm,
                                    component.size.height * mm, PAPERS[paper].size_pt)
                canvas.save()
                (root / "output").mkdir(exist_ok=True)
                (root / "output" / f"floor-{game.id}-{component.id}-{paper}.pdf").write_bytes(buffer.getvalue())
    print(json.dumps({"placements": placements, "draw_cpu": time.process_time() - start}))


if __name__ == "__main__":
    main()
