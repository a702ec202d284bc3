"""Sheets: a component's faces imposed on printer paper, with crop marks and registered backs.

One PDF per component and paper, or per shared sheet (`sheet: <name>`:
components of one size one after the other in one grid, `impose_shared`), and
one mixed sheet of small pieces per game (`impose_mixed`; a `sheet: spill`
component puts there only what would leave its own last page part-filled).
Page order for duplex is front, back,
front, back...; the backs are mirrored (see `grid.mirror_slot`) so they land
behind their fronts after a long- or short-edge flip. With `duplex="none"` a
component whose backs differ is laid out gutter-fold (fronts left, backs
right, fold along the page's vertical centre line; the page turns landscape
when that holds more), and so is a double-sided
one (each item carries its own second face); one whose backs are all equal
(or that has no back) is printed fronts-only.

Every distinct face is drawn once into a PDF form (XObject) and placed with
`doForm`, so a back shared by 54 cards costs one drawing, and the file stays
small. The renderer's `FormStore` (stamps.py) keeps what each form drawing
wrote, so the next sheet of the build holding the same face (the other paper,
most often) replays it instead of drawing it again, with the same bytes.
Each placement is clipped to that slot's bleed box, so neighbouring
faces never overdraw each other. Canvases are `invariant` (no timestamps or
random ids): the same inputs give byte-identical files.
"""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD

from generator.errors import DataError
from generator.model import Component, Game
from generator.render.base.units import Paper, pt
from generator.render.faces.draw import draw_face
from generator.render.faces.layout import Face, back_layout
from generator.render.faces.renderer import FaceRenderer
from generator.render.faces.stamps import FormStore
from generator.render.sheets.grid import Grid, Slot, make_grid, mirror_slot
from generator.render.sheets.options import DUPLEX_MODES, SheetOptions

MARK_WIDTH = 0.3  # points
HALO_WIDTH = 1.2  # points: the white band under a mark that crosses a dark outer bleed
@dataclass(frozen=True)
class SheetResult:
    """A finished PDF and what it holds, for the build summary and tests."""

    pdf: bytes
    pages: int
    sheets: int  # physical sheets of paper
    faces: int
    per_page: int
    mode: str  # "duplex-long", "duplex-short", "gutter-fold" or "fronts-only"
    grid: Grid | None  # None for the mixed sheet (packed, not a grid)


class _Forms:
    """Draws each distinct face once as a PDF form; later uses are a `doForm`."""

    def __init__(self, c: Any, bleed: float, store: FormStore) -> None:
        self.c = c
        self.bleed = bleed
        self.store = store  # the renderer's: a form drawn for one sheet is replayed into the next
        self.names: dict[Face, str] = {}
        self._same: dict[int, tuple[Face, str]] = {}  # by the face object: its name without hashing it again
        self._moves: dict[Slot, tuple[str, str]] = {}  # a slot's clip and move operators (pages repeat slots)

    def name(self, face: Face) -> str:
        same = self._same.get(id(face))
        if same is not None and same[0] is face:
            return same[1]
        found = self.names.get(face)
        if found is None:
            found = self.names[face] = f"face{len(self.names)}"
            b = pt(self.bleed)
            self.store.form(self.c, found, (-b, -b, pt(face.width) + b, pt(face.height) + b), (face, self.bleed),
                            lambda: draw_face(self.c, face, self.bleed))
        self._same[id(face)] = (face, found)  # holding the face keeps its id from being reused
        return found

    def place(self, face: Face, slot: Slot) -> None:
        """`q`, clip to the slot's bleed box, move to its trim corner, `Do` the form, `Q`.

        Written straight into the page's operators: the very strings ReportLab's
        saveState / clipPath / translate / doForm / restoreState write (the canvas's
        graphics state is the same after the `Q`), without their bookkeeping per copy.
        """
        name = self.name(face)
        c = self.c
        moves = self._moves.get(slot)
        if moves is None:
            moves = self._moves[slot] = (f"n {fp_str(tuple(pt(v) for v in slot.clip))} re",
                                         f"{fp_str(*_placing(slot))} cm")
        clip = "W* n" if c._fillMode == FILL_EVEN_ODD else "W n"
        c._code.extend(("q", f"{moves[0]} {clip}", moves[1], f"/{c._doc.getXObjectName(name)} Do", "Q"))
        c._formsinuse.append(name)


def _placing(slot: Slot) -> tuple[float, ...]:
    """The matrix (a, b, c, d, e, f in points) that puts a face's form on its slot: moved to the trim corner,
    and turned a quarter about it when the slot is turned (its trim box then still covers the slot's)."""
    if slot.turn == 1:  # counterclockwise: the face's top runs along the slot's left edge
        return (0, 1, -1, 0, pt(slot.x + slot.w), pt(slot.y))
    if slot.turn == -1:  # clockwise: its top along the right edge
        return (0, -1, 1, 0, pt(slot.x), pt(slot.y + slot.h))
    return (1, 0, 0, 1, pt(slot.x), pt(slot.y))


def component_faces(renderer: FaceRenderer, game: Game, component: Component) -> list[tuple[Face, Face | None]]:
    """(front, back) of every physical copy, in the component's stable order (an item's copies share its faces:
    resolved, and their reads inherited, once per item)."""
    faces = []
    has_back = back_layout(component) is not None
    for item in component.items:
        if item.count <= 0:  # no copy to print: nothing resolved, as `component.copies()` gives none
            continue
        front = renderer.face(game, component, item, "front")
        back = renderer.face(game, component, item, "back") if has_back else None
        faces.extend([(front, back)] * item.count)
    return faces


def impose(renderer: FaceRenderer, game: Game, component: Component, options: SheetOptions) -> SheetResult:
    """Lay out every copy of `component` on sheets of `options.paper` (a print service's file: none spilled
    onto the mixed sheet); returns the PDF bytes."""
    return impose_shared(renderer, game, [component], options, spill=False)


def impose_shared(renderer: FaceRenderer, game: Game, components: list[Component],
                  options: SheetOptions, spill: bool = True) -> SheetResult:
    """Every copy of one or more components of one size in one grid, one after the other (a shared sheet,
    `sheet: <name>`): the last page of one pile is filled with the next, so no pile leaves a page near empty.

    Without duplex a back shared by a whole pile is left off, as on a pile's own sheet; backs that differ
    within a pile make the whole sheet gutter-fold. With `spill` (the build's sheets), a `sheet: spill`
    component keeps only its full pages here (`spilled`)."""

    per_pile = [component_faces(renderer, game, component) for component in components]
    mode = _piles_mode(options.duplex, [([b for _, b in pairs if b is not None], component.double_sided)
                                        for component, pairs in zip(components, per_pile)])
    if spill:  # `sheet: spill`: the copies beyond its full pages are on the mixed sheet
        per_pile = [pairs[:len(pairs) - spilled(component, options, mode)]
                    for component, pairs in zip(components, per_pile)]
    faces = [pair for pairs in per_pile for pair in pairs]
    paper = options.paper
    size = components[0].size
    if mode == "gutter-fold":
        paper, grid = _fold_grid(paper, size.width, size.height, options.bleed)
    else:
        grid = make_grid(paper, size.width, size.height, options.bleed)
    if grid is None:
        raise DataError(f"component '{components[0].id}' ({size.label()}) does not fit on {paper.name} paper "
                        f"with {options.bleed:g} mm bleed", components[0].location)
    plural = ", ".join(component.plural for component in components)
    count = len(faces)
    buffer = io.BytesIO()
    c = _sheet_canvas(buffer, paper, f"{game.title}: {plural} ({paper.name})",
                      f"{count} {plural}, {mode}, {options.bleed:g} mm bleed")
    forms = _Forms(c, options.bleed, renderer.forms)
    per_page = grid.per_page
    pages = 0
    chunks = [faces[i:i + per_page] for i in range(0, len(faces), per_page)]
    page_slots: dict[int, list[Slot]] = {}  # by faces on the page: every full page has the same slots
    page_marks: dict[int, list[tuple[float, float, float, float]]] = {}
    mirrored: dict[tuple[int, str], list[Slot]] = {}

    def backs_of(slots: list[Slot], flip: str, offset: tuple[float, float]) -> list[Slot]:
        key = (len(slots), flip)
        if key not in mirrored:
            mirrored[key] = [mirror_slot(slot, paper, flip, offset) for slot in slots]
        return mirrored[key]

    for chunk in chunks:
        slots = page_slots.get(len(chunk))
        if slots is None:  # a partly filled page keeps full bleed where a neighbour is missing
            slots = page_slots[len(chunk)] = grid.slots(len(chunk))
        for (front, _), slot in zip(chunk, slots):
            forms.place(front, slot)
        if mode == "gutter-fold":
            for (_, back), slot in zip(chunk, backs_of(slots, "fold", (0.0, 0.0))):
                if back is not None:  # a pile of the shared sheet that has no back
                    forms.place(back, slot)
            _fold_line(c, paper)
        filled = len(chunk)
        if filled not in page_marks:
            page_marks[filled] = _mark_lines(grid, options, mirrored=mode == "gutter-fold", filled=filled)
        _marks(c, grid, options, page_marks[filled])
        c.showPage()
        pages += 1
        if mode.startswith("duplex"):
            flip = mode.split("-")[1]
            for (_, back), slot in zip(chunk, backs_of(slots, flip, options.back_offset)):
                if back is not None:
                    forms.place(back, slot)
            c.showPage()
            pages += 1
    forms.store.save(c)
    return SheetResult(buffer.getvalue(), pages, len(chunks), len(faces), per_page, mode, grid)


def _fold_grid(paper: Paper, width: float, height: float, bleed: float) -> tuple[Paper, Grid | None]:
    """Gutter-fold fronts fill the left half of the page, portrait or landscape, whichever holds more."""
    best: tuple[Paper, Grid | None] = (paper, None)
    for sheet in (paper, dataclasses.replace(paper, width=paper.height, height=paper.width)):
        grid = make_grid(sheet, width, height, bleed, (0.0, sheet.width / 2))
        if grid is not None and (best[1] is None or grid.per_page > best[1].per_page):
            best = (sheet, grid)
    return best


def _mode(duplex: str, backs: list[Face], double_sided: bool) -> str:
    """How to print: a shared back may be left off without duplex; an item's own second face may not."""
    if duplex not in DUPLEX_MODES:
        raise ValueError(duplex)
    if not backs:
        return "fronts-only"
    if duplex == "none":
        shared = not double_sided and all(b == backs[0] for b in backs)
        return "fronts-only" if shared else "gutter-fold"
    return f"duplex-{duplex}"


def _piles_mode(duplex: str, piles: list[tuple[list[Face], bool]]) -> str:
    """How to print piles that share one grid (each pile's backs, and whether it is double-sided): each pile as
    `_mode` decides for it, and gutter-fold for all if one of them needs it."""
    modes = [_mode(duplex, backs, double_sided) for backs, double_sided in piles]
    if "gutter-fold" in modes:
        return "gutter-fold"
    return next((m for m in modes if m.startswith("duplex")), "fronts-only")


def _mark_lines(grid: Grid, options: SheetOptions, mirrored: bool,
                filled: int | None = None) -> list[tuple[float, float, float, float]]:
    """The crop marks of a page with `filled` faces (mm), mirrored onto the back half for gutter-fold."""
    lines = grid.marks(filled) if options.crop_marks else []
    if mirrored and lines:
        lines = lines + [(grid.page.width - x1, y1, grid.page.width - x2, y2) for x1, y1, x2, y2 in lines]
    return lines


def _halo(c: Any, lines: list[tuple[float, float, float, float]]) -> None:
    """A white band under each crop mark: where a narrow margin puts a mark over the outer bleed
    (`grid.Grid.marks`), a black hairline on a dark bleed would not show; on the paper it is unseen."""
    if not lines:
        return
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    half = HALO_WIDTH / 2
    for x1, y1, x2, y2 in lines:
        left, right, bottom, top = pt(min(x1, x2)), pt(max(x1, x2)), pt(min(y1, y2)), pt(max(y1, y2))
        c.rect(left - half, bottom - half, right - left + 2 * half, top - bottom + 2 * half, stroke=0, fill=1)
    c.restoreState()


def draw_crop_marks(c: Any, lines: list[tuple[float, float, float, float]]) -> None:
    """Crop marks (mm) as every sheet draws them: black hairlines, each on its white band; boards use it too."""
    _halo(c, lines)
    _lines(c, lines)


def _marks(c: Any, grid: Grid, options: SheetOptions, lines: list[tuple[float, float, float, float]]) -> None:
    _halo(c, lines)
    c.saveState()
    c.setLineWidth(MARK_WIDTH)
    c.setStrokeColorRGB(0, 0, 0)
    for x1, y1, x2, y2 in lines:
        c.line(pt(x1), pt(y1), pt(x2), pt(y2))
    if options.cut_lines:
        c.setStrokeColorRGB(0.6, 0.6, 0.6)
        c.setLineWidth(0.2)
        x0, x1 = grid.cols.bleed_span
        y0, y1 = grid.rows.bleed_span
        for x in grid.cols.cuts():
            c.line(pt(x), pt(y0), pt(x), pt(y1))
        for y in grid.rows.cuts():
            c.line(pt(x0), pt(y), pt(x1), pt(y))
    c.restoreState()


def _fold_line(c: Any, paper: Paper) -> None:
    c.saveState()
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.setLineWidth(0.4)
    c.setDash(4, 3)
    c.line(pt(paper.width / 2), pt(8), pt(paper.width / 2), pt(paper.height - 8))
    c.restoreState()


MIXED = "tokens"  # the mixed sheet's name in file names: <game>-tokens-<paper>-<mode>.pdf


def mixed_components(game: Game) -> list[Component]:
    """The game's components that share the mixed sheet (`sheet: mixed` in their YAML), or whose last, part-filled
    page goes there (`sheet: spill`), in data order."""
    return [c for c in game.components if c.sheet in ("mixed", "spill")]


def spilled(component: Component, options: SheetOptions, mode: str) -> int:
    """How many copies of `component` go on the mixed sheet rather than its own, printed in `mode` (its own
    sheet's): for `sheet: spill`, those that would leave its own last page part-filled; none otherwise."""
    if component.sheet != "spill":
        return 0
    grid = _own_grid(component, options, mode)
    return component.count % grid.per_page if grid is not None else 0


def sheet_counts(renderer: FaceRenderer, game: Game, components: list[Component], options: SheetOptions,
                 mixed: bool) -> list[int]:
    """How many copies of each component one sheet holds: the mixed sheet (`mixed`) or their own or shared one."""
    counts = []
    for component in components:
        spill = spilled(component, options, sheet_mode(renderer, game, [component], options.duplex))
        counts.append(component.count if component.sheet == "mixed" else spill if mixed else component.count - spill)
    return counts


def _own_grid(component: Component, options: SheetOptions, mode: str) -> Grid | None:
    size = component.size
    if mode == "gutter-fold":
        return _fold_grid(options.paper, size.width, size.height, options.bleed)[1]
    return make_grid(options.paper, size.width, size.height, options.bleed)


def shared_sheets(game: Game) -> dict[str, list[Component]]:
    """The game's printed sheets of one size in one grid, by the name their files take: a component's id for
    one on its own sheet (`sheet: own`, or `spill`: its full pages), the sheet's name for those that share one (`sheet: <name>`), in data
    order. The mixed sheet (`mixed_components`) is not among them."""
    sheets: dict[str, list[Component]] = {}
    for component in game.components:
        if component.printable and component.sheet != "mixed":
            own = component.sheet in ("own", "spill")
            sheets.setdefault(component.id if own else component.sheet, []).append(component)
    return sheets


def impose_mixed(renderer: FaceRenderer, game: Game, components: list[Component],
                 options: SheetOptions) -> SheetResult:
    """Every copy of several small components packed on shared sheets, each face with its own crop marks.

    Backs follow as for one component: on the next page mirrored for the flip,
    or (`--duplex none`, backs that differ) gutter-fold, fronts packed in the
    left half; faces without a back leave their place on the back page empty.
    """

    from generator.render.sheets.mixed import pack

    per_component = [component_faces(renderer, game, component) for component in components]
    backs = [b for pairs in per_component for _, b in pairs if b is not None]  # a spilling pile's count whole
    mode = _mode(options.duplex, backs, any(c.double_sided for c in components))
    counts = sheet_counts(renderer, game, components, options, mixed=True)
    per_component = [pairs[len(pairs) - count:] if count else [] for pairs, count in zip(per_component, counts)]
    faces = [pair for pairs in per_component for pair in pairs]
    paper = options.paper
    region = (0.0, paper.width / 2) if mode == "gutter-fold" else None
    groups = [(c.size.width, c.size.height, len(pairs)) for c, pairs in zip(components, per_component) if pairs]
    pages_of_blocks = pack(groups, paper, options.bleed, region)
    if pages_of_blocks is None:
        names = ", ".join(c.id for c in components)
        raise DataError(f"a piece of the mixed sheet ({names}) does not fit on {paper.name} paper "
                        f"with {options.bleed:g} mm bleed", components[0].location)
    buffer = io.BytesIO()
    c = _sheet_canvas(buffer, paper, f"{game.title}: {', '.join(comp.plural for comp in components)} ({paper.name})",
                      f"{len(faces)} pieces, {mode}, {options.bleed:g} mm bleed")
    forms = _Forms(c, options.bleed, renderer.forms)
    pages = 0
    start = 0
    for blocks in pages_of_blocks:
        slots = [slot for block in blocks for slot in block.slots()]
        chunk = faces[start:start + len(slots)]
        start += len(slots)
        marks = [line for block in blocks for line in block.marks()] if options.crop_marks else []
        cuts = [line for block in blocks for line in block.cut_lines()] if options.cut_lines else []
        for (front, _), slot in zip(chunk, slots):
            forms.place(front, slot)
        if mode == "gutter-fold":
            for (_, back), slot in zip(chunk, slots):
                if back is not None:
                    forms.place(back, mirror_slot(slot, paper, "fold"))
            marks += [(paper.width - x1, y1, paper.width - x2, y2) for x1, y1, x2, y2 in marks]
            _fold_line(c, paper)
        _halo(c, marks)
        _lines(c, marks)
        _lines(c, cuts, grey=0.6, width=0.2)
        c.showPage()
        pages += 1
        if mode.startswith("duplex"):
            flip = mode.split("-")[1]
            for (_, back), slot in zip(chunk, slots):
                if back is not None:
                    forms.place(back, mirror_slot(slot, paper, flip, options.back_offset))
            c.showPage()
            pages += 1
    forms.store.save(c)
    per_page = max(sum(block.filled for block in blocks) for blocks in pages_of_blocks)
    return SheetResult(buffer.getvalue(), pages, len(pages_of_blocks), len(faces), per_page, mode, None)


def _lines(c: Any, lines: list[tuple[float, float, float, float]], grey: float = 0.0,
           width: float = MARK_WIDTH) -> None:
    c.saveState()
    c.setLineWidth(width)
    c.setStrokeColorRGB(grey, grey, grey)
    for x1, y1, x2, y2 in lines:
        c.line(pt(x1), pt(y1), pt(x2), pt(y2))
    c.restoreState()


def sheet_mode(renderer: FaceRenderer, game: Game, components: list[Component], duplex: str,
               mixed: bool = False) -> str:
    """How `impose_shared` / `impose_mixed` (`mixed`) will print these components, drawing faces only when it
    must (`--duplex none` with backs: are they all alike?). A spilling pile's backs count whole on both sheets."""
    if not any(back_layout(c) for c in components):
        return "fronts-only"
    if duplex != "none":
        return f"duplex-{duplex}"  # as `_mode` decides whenever there are backs
    piles = [[b for _, b in component_faces(renderer, game, c) if b is not None] for c in components]
    if mixed:
        return _mode(duplex, [b for pile in piles for b in pile], any(c.double_sided for c in components))
    return _piles_mode(duplex, [(pile, c.double_sided) for pile, c in zip(piles, components)])


def sheets_for(components: list[Component], options: SheetOptions, mode: str, counts: list[int],
               mixed: bool) -> int:
    """Sheets of paper `counts` copies of the components take in `mode`, from the same grid or packing the
    imposition uses (`sheet_counts`: a spilling component's copies are split between two sheets)."""
    from generator.render.sheets.grid import sheets_needed
    from generator.render.sheets.mixed import pack

    paper = options.paper
    if not mixed:  # one grid, one pile after the other (`impose_shared`)
        grid = _own_grid(components[0], options, mode)
        return sheets_needed(sum(counts), grid.per_page) if grid else 0
    region = (0.0, paper.width / 2) if mode == "gutter-fold" else None
    pages = pack([(c.size.width, c.size.height, n) for c, n in zip(components, counts) if n], paper, options.bleed,
                 region)
    return len(pages) if pages else 0


def _sheet_canvas(buffer: io.BytesIO, paper: Paper, title: str, subject: str) -> Any:
    """A sheet PDF's canvas: deterministic (invariant), compressed, the shipped font, and its metadata."""
    from reportlab.pdfgen import canvas as rl_canvas

    c = rl_canvas.Canvas(buffer, pagesize=(pt(paper.width), pt(paper.height)), invariant=1, pageCompression=1,
                         initialFontName="Sans", initialFontSize=9)
    c.setTitle(title)
    c.setAuthor("Pirate Press")
    c.setCreator("pnp build")
    c.setSubject(subject)
    return c
