"""Sheet geometry: how many faces fit, margins, bleed, crop marks and duplex mirroring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render.base.units import PAPERS, px
from generator.render.sheets.grid import MARGIN, MARK_EDGE, MARK_ROOM, Slot, make_grid, mirror_slot


def _overlaps(box, x, y) -> bool:
    bx, by, bw, bh = box
    return bx - 1e-6 <= x <= bx + bw + 1e-6 and by - 1e-6 <= y <= by + bh + 1e-6


def test_poker_cards_fit_three_by_three_on_both_papers() -> None:
    for paper in PAPERS.values():
        grid = make_grid(paper, 63, 88, 3.0)
        assert grid is not None
        assert (grid.cols.count, grid.rows.count) == (3, 3), paper.name


def test_a4_poker_is_butted_across_and_keeps_full_bleed() -> None:
    grid = make_grid(PAPERS["a4"], 63, 88, 3.0)
    assert grid.cols.butted and not grid.rows.butted
    assert grid.cols.outer_bleed == 3.0 and grid.rows.outer_bleed == 3.0
    # centred: equal room left and right
    first, last = grid.cols.starts[0], grid.cols.starts[-1] + 63
    assert abs(first - (210 - last)) < 1e-9


def test_letter_poker_shrinks_outer_bleed_top_and_bottom_only() -> None:
    grid = make_grid(PAPERS["letter"], 63, 88, 3.0)
    assert grid.rows.butted and 1.5 <= grid.rows.outer_bleed < 3.0
    assert grid.cols.outer_bleed == 3.0


def test_every_crop_mark_prints_inside_a_5_mm_printer_margin_and_is_long_enough() -> None:
    """Issue 32: Letter marks were 2 mm long, 3-5 mm from the edge, lost on a printer with a 5 mm margin."""
    for paper in PAPERS.values():
        grid = make_grid(paper, 63, 88, 3.0)
        trim_top = grid.rows.starts[-1] + 88
        for x1, y1, x2, y2 in grid.marks():
            assert min(x1, x2) >= 5 - 1e-9 and max(x1, x2) <= paper.width - 5 + 1e-9
            assert min(y1, y2) >= 5 - 1e-9 and max(y1, y2) <= paper.height - 5 + 1e-9
            length = abs(x2 - x1) + abs(y2 - y1)
            room = paper.height - 5 - trim_top  # from the printable edge to the trim: the most a mark can have
            assert length >= min(3.0, room) - 1e-9, (paper.name, (x1, y1, x2, y2))
    letter = make_grid(PAPERS["letter"], 63, 88, 3.0)
    column_marks = [abs(y2 - y1) for x1, y1, x2, y2 in letter.marks() if x1 == x2]
    assert min(column_marks) >= 2.7 - 1e-9  # all of the 2.7 mm a 5 mm margin leaves above the trim


def test_round_trip_pixel_size_of_a_poker_card_with_bleed() -> None:
    assert (px(63 + 6), px(88 + 6)) == (815, 1110)


sizes = st.tuples(st.floats(15, 130), st.floats(15, 130), st.sampled_from([0.0, 2.0, 3.0, 3.175]),
                  st.sampled_from(sorted(PAPERS)))


@settings(max_examples=60, deadline=None)
@given(sizes)
def test_every_layout_keeps_margins_and_marks_clear_of_faces(case) -> None:
    width, height, bleed, paper_name = case
    paper = PAPERS[paper_name]
    grid = make_grid(paper, width, height, bleed)
    if grid is None:
        return
    slots = grid.slots()
    assert len(slots) == grid.per_page >= 1
    boxes = [s.clip for s in slots]
    for x, y, w, h in boxes:  # bleed boxes inside the 5 mm margin
        assert x >= MARGIN - 1e-6 and y >= MARGIN - 1e-6
        assert x + w <= paper.width - MARGIN + 1e-6 and y + h <= paper.height - MARGIN + 1e-6
    for i, a in enumerate(boxes):  # no two faces overlap
        for b in boxes[i + 1:]:
            assert (a[0] + a[2] <= b[0] + 1e-6 or b[0] + b[2] <= a[0] + 1e-6
                    or a[1] + a[3] <= b[1] + 1e-6 or b[1] + b[3] <= a[1] + 1e-6)
    trims = [(s.x, s.y, s.w, s.h) for s in slots]
    for x1, y1, x2, y2 in grid.marks():  # marks never on a card (they may cross the outer bleed), inside the page
        for tx, ty, tw, th in trims:
            across = (min(x1, x2) < tx + tw - 1e-6 and max(x1, x2) > tx + 1e-6) if x1 != x2 else tx < x1 < tx + tw
            along = (min(y1, y2) < ty + th - 1e-6 and max(y1, y2) > ty + 1e-6) if y1 != y2 else ty < y1 < ty + th
            assert not (across and along), ((x1, y1, x2, y2), (tx, ty, tw, th))
        for x in (x1, x2):
            assert MARK_EDGE - 1e-6 <= x <= paper.width - MARK_EDGE + 1e-6
        for y in (y1, y2):
            assert MARK_EDGE - 1e-6 <= y <= paper.height - MARK_EDGE + 1e-6
    for slot in slots:
        long = mirror_slot(slot, paper, "long")
        short = mirror_slot(slot, paper, "short")
        assert abs((long.x + long.w / 2) - (paper.width - slot.x - slot.w / 2)) < 1e-9 and long.y == slot.y
        assert abs((short.y + short.h / 2) - (paper.height - slot.y - slot.h / 2)) < 1e-9 and short.x == slot.x
        twice = mirror_slot(long, paper, "long")  # flipping twice is the identity
        assert abs(twice.x - slot.x) < 1e-9 and (twice.left, twice.right) == (slot.left, slot.right)


def test_back_offset_nudges_backs() -> None:
    paper = PAPERS["a4"]
    slot = make_grid(paper, 63, 88, 3).slots()[0]
    plain = mirror_slot(slot, paper, "long")
    nudged = mirror_slot(slot, paper, "long", (1.0, -0.5))
    assert (nudged.x - plain.x, nudged.y - plain.y) == (1.0, -0.5)


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(1, 40))
def test_a_partly_filled_page_gives_every_free_edge_full_bleed_and_no_overlap(case, filled) -> None:
    width, height, bleed, paper_name = case
    grid = make_grid(PAPERS[paper_name], width, height, bleed)
    if grid is None:
        return
    slots = grid.slots(filled)
    assert len(slots) == min(filled, grid.per_page)
    full = grid.slots()
    for slot, whole in zip(slots, full):
        assert (slot.x, slot.y) == (whole.x, whole.y)
        for side in ("left", "bottom", "right", "top"):
            assert getattr(slot, side) >= getattr(whole, side) - 1e-9  # never less than on a full page
    trims = [(s.x, s.y, s.w, s.h) for s in slots]
    for i, slot in enumerate(slots):  # a bleed box never reaches into another placed face's trim
        x, y, w, h = slot.clip
        for j, (tx, ty, tw, th) in enumerate(trims):
            if i != j:
                assert x + w <= tx + 1e-6 or tx + tw <= x + 1e-6 or y + h <= ty + 1e-6 or ty + th <= y + 1e-6
        neighbours = {(round(t[0] - slot.x, 6), round(t[1] - slot.y, 6)) for t in trims}
        if (round(slot.w, 6), 0.0) not in neighbours and slot.x + slot.w < grid.cols.starts[-1] + slot.w - 1e-6:
            assert slot.right >= min(bleed, width) - 1e-9  # no neighbour on the right: full bleed there
        if (0.0, round(-slot.h, 6)) not in neighbours and slot.y > grid.rows.starts[0] + 1e-6:
            assert slot.bottom >= min(bleed, height) - 1e-9  # no neighbour below: full bleed there


def test_the_lone_go_first_token_gets_bleed_on_all_four_sides() -> None:
    grid = make_grid(PAPERS["a4"], 30, 30, 3.0)
    (slot,) = grid.slots(1)
    assert (slot.left, slot.bottom, slot.right, slot.top) == (3.0, 3.0, 3.0, 3.0)


def _face_edges(slots) -> tuple[set[float], set[float]]:
    return ({round(e, 3) for s in slots for e in (s.x, s.x + s.w)}, {round(e, 3) for s in slots for e in (s.y, s.y + s.h)})


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(1, 40))
def test_crop_marks_sit_only_on_cut_lines_that_are_a_placed_faces_edge(case, filled) -> None:
    width, height, bleed, paper_name = case
    grid = make_grid(PAPERS[paper_name], width, height, bleed)
    if grid is None:
        return
    xs, ys = _face_edges(grid.slots(filled))
    marks = grid.marks(filled)
    vertical = {round(x1, 3) for x1, _, x2, _ in marks if x1 == x2}
    horizontal = {round(y1, 3) for _, y1, _, y2 in marks if y1 == y2}
    assert vertical == xs and horizontal == ys  # every face edge marked, nothing beside an empty slot
    assert len(marks) == 2 * (len(xs) + len(ys))  # both ends of each line, for a ruler
    assert all(abs(x2 - x1) + abs(y2 - y1) >= MARK_ROOM - 1e-6 for x1, y1, x2, y2 in marks)  # none too short to see


def test_a_partly_filled_sheet_marks_only_its_faces_edges_read_back_from_the_pdf(project) -> None:
    import io

    from pypdf import PdfReader
    from render_pdf import lines
    from test_bleed import faces_on

    from generator.load import load_game
    from generator.render.faces.renderer import renderer
    from generator.render.sheets.imposition import impose
    from generator.render.sheets.options import SheetOptions

    game = load_game(project, "counterattack")
    component = game.component("exposed-port")  # 4 cards on a page of 3 x 3: the bottom row stays empty
    result = impose(renderer(project), game, component, SheetOptions(PAPERS["a4"]))
    front = PdfReader(io.BytesIO(result.pdf)).pages[0]
    faces = faces_on(front)
    assert len(faces) == 4 and result.per_page == 9
    xs = {round(e, 1) for f in faces for e in (f.x, f.x + f.w)}
    ys = {round(e, 1) for f in faces for e in (f.y, f.y + f.h)}
    drawn = lines(front)
    assert {round(x1, 1) for x1, _, x2, _ in drawn if abs(x1 - x2) < 1e-6} == xs
    assert {round(y1, 1) for _, y1, _, y2 in drawn if abs(y1 - y2) < 1e-6} == ys
    assert len(drawn) == 2 * (len(xs) + len(ys)) < len(result.grid.marks())  # the empty row's cuts are unmarked


def test_faces_without_bleed_leave_room_for_crop_marks_on_every_side() -> None:
    grid = make_grid(PAPERS["a4"], 25, 15, 0.0)  # 8 x 25 mm would reach the 5 mm margin and leave no mark room
    assert grid is not None
    _, ys = _face_edges(grid.slots(1))
    marks = grid.marks(1)
    assert {round(y1, 3) for _, y1, _, y2 in marks if y1 == y2} == ys  # the rows' cut lines are marked too
    assert grid.cols.count == 7


def _edge_midpoints(slot: Slot, face_w: float, face_h: float) -> dict[str, tuple[float, float]]:
    """Where the middle of each edge of the face (its own top, bottom, left, right) lands on the page, mm."""
    from generator.render.sheets.imposition import _placing

    a, b, c, d, e, f = (v * 25.4 / 72 if i >= 4 else v for i, v in enumerate(_placing(slot)))
    points = {"top": (face_w / 2, face_h), "bottom": (face_w / 2, 0.0), "left": (0.0, face_h / 2),
              "right": (face_w, face_h / 2)}
    return {edge: (round(a * u + c * v + e, 6), round(b * u + d * v + f, 6)) for edge, (u, v) in points.items()}


@pytest.mark.parametrize("flip", ["long", "short", "fold"])
def test_a_turned_piece_and_its_back_register_like_an_unturned_one(flip) -> None:
    """A 120 x 70 mm card fits the half page of a Letter gutter-fold sheet only turned. Its face covers its
    slot exactly, and after the flip the same edge of the card lies behind its back's top as for a card
    that is not turned: backs stay the right way round (`mirror_slot` turns the back the other way)."""
    from generator.render.sheets.mixed import pack

    paper = PAPERS["letter"]
    ((block,),) = pack([(120, 70, 1)], paper, 3.0, (0.0, paper.width / 2))
    (slot,) = block.slots()
    assert block.turned and slot.turn == 1 and (slot.w, slot.h) == (70, 120)
    front = _edge_midpoints(slot, 120, 70)
    xs, ys = [p[0] for p in front.values()], [p[1] for p in front.values()]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((slot.x, slot.x + 70, slot.y, slot.y + 120))

    def behind_back_top(front_slot: Slot, w: float, h: float) -> str:
        back_slot = mirror_slot(front_slot, paper, flip)
        top = _edge_midpoints(back_slot, w, h)["top"]
        flipped = {edge: (round(paper.width - x, 6), y) if flip in ("long", "fold")
                   else (x, round(paper.height - y, 6)) for edge, (x, y) in _edge_midpoints(front_slot, w, h).items()}
        (edge,) = [edge for edge, point in flipped.items() if point == pytest.approx(top)]
        return edge

    upright = Slot(20.0, 30.0, 120, 70, 3, 3, 3, 3)
    assert behind_back_top(slot, 120, 70) == behind_back_top(upright, 120, 70)
