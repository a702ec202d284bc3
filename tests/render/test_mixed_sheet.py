"""The mixed sheet: a game's small pieces (`sheet: mixed`) share pages; counts, positions and marks read back."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from render_pdf import lines
from test_bleed import faces_on

from generator.load import load_game
from generator.render.base.units import PAPERS
from generator.render.sheets import mixed
from generator.render.sheets.mixed import GAP, PAD, pack


def _separate(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax + aw <= bx + 1e-3 or bx + bw <= ax + 1e-3 or ay + ah <= by + 1e-3 or by + bh <= ay + 1e-3


def _bleed_box(face):
    return (face.x - face.bleed, face.y - face.bleed, face.w + 2 * face.bleed, face.h + 2 * face.bleed)


def _mixed(project, game_id):
    from generator.render.sheets.imposition import mixed_components

    return mixed_components(load_game(project, game_id))


def _on_mixed(project, game_id, paper) -> dict[str, int]:
    """How many copies of each component the mixed sheet holds on `paper` (default duplex): a spilling
    component (`sheet: spill`) only its copies beyond its own full pages."""
    from generator.render.faces.renderer import renderer
    from generator.render.sheets.imposition import mixed_components, sheet_counts
    from generator.render.sheets.options import SheetOptions

    game = load_game(project, game_id)
    members = mixed_components(game)
    counts = sheet_counts(renderer(project), game, members, SheetOptions(paper), mixed=True)
    return {c.id: n for c, n in zip(members, counts)}


@pytest.mark.slow
def test_small_pieces_share_one_tokens_file_per_game_and_paper(all_games_built) -> None:
    out = all_games_built.output_dir
    for game_id in ("pirate-tricks", "pirates-under-fire"):
        members = _mixed(all_games_built, game_id)
        assert members, game_id
        names = sorted(p.name for p in (out / game_id).glob("*.pdf"))
        for paper in PAPERS:
            assert len([n for n in names if n.startswith(f"{game_id}-tokens-{paper}-")]) == 1
        for component in members:  # no page of their own any more (a spilling one: only its full pages)
            if component.sheet == "spill":
                continue
            assert not [n for n in names for paper in PAPERS if n.startswith(f"{game_id}-{component.id}-{paper}-")]
    assert not list((out / "counterattack").glob("*-tokens-*"))  # a game without small pieces has no mixed sheet


def test_every_piece_is_on_the_mixed_sheet_once_inside_the_margins_without_overlap(all_games_built) -> None:
    for game_id in ("pirate-tricks", "pirates-under-fire"):
        members = _mixed(all_games_built, game_id)
        for paper in PAPERS.values():
            expected = Counter()
            on_sheet = _on_mixed(all_games_built, game_id, paper)
            for component in members:
                if on_sheet[component.id]:
                    expected[(round(component.size.width), round(component.size.height))] += on_sheet[component.id]
            path = next((all_games_built.output_dir / game_id).glob(f"{game_id}-tokens-{paper.name}-*.pdf"))
            reader = PdfReader(path)
            duplex = "-duplex-" in path.name
            fronts = reader.pages[::2] if duplex else reader.pages
            found = Counter()
            for page in fronts:
                faces = faces_on(page)
                boxes = [_bleed_box(f) for f in faces]
                for i, (x, y, w, h) in enumerate(boxes):
                    assert x >= PAD - 1e-3 and y >= PAD - 1e-3, (path.name, x, y)
                    assert x + w <= paper.width - PAD + 1e-3 and y + h <= paper.height - PAD + 1e-3
                    for other in faces[i + 1:]:  # faces may touch (a shared cut) but never overlap
                        a = (faces[i].x, faces[i].y, faces[i].w, faces[i].h)
                        assert _separate(a, (other.x, other.y, other.w, other.h))
                found.update((round(f.w), round(f.h)) for f in faces)
            assert found == expected, (path.name, found, expected)


def test_every_cut_line_of_every_piece_has_crop_marks_clear_of_all_faces(all_games_built) -> None:
    path = next((all_games_built.output_dir / "pirate-tricks").glob("pirate-tricks-tokens-a4-*.pdf"))
    page = PdfReader(path).pages[0]
    faces = faces_on(page)
    marks = lines(page)
    assert marks
    paper = PAPERS["a4"]
    for x1, y1, x2, y2 in marks:
        for px, py in ((x1, y1), (x2, y2)):  # all of its ink inside a 5 mm printer margin
            assert 5 - 1e-3 <= px <= paper.width - 5 + 1e-3 and 5 - 1e-3 <= py <= paper.height - 5 + 1e-3
        for face in faces:  # a mark is a hairline: test both its ends and its middle against every face
            for px, py in ((x1, y1), (x2, y2), ((x1 + x2) / 2, (y1 + y2) / 2)):
                bx, by, bw, bh = _bleed_box(face)
                if not (bx + 1e-3 < px < bx + bw - 1e-3 and by + 1e-3 < py < by + bh - 1e-3):
                    continue
                # inside a bleed box only where the margin is narrow: on the face's own cut line, off the face
                assert not (face.x + 1e-3 < px < face.x + face.w - 1e-3 and face.y + 1e-3 < py < face.y + face.h - 1e-3)
                on_edge = (abs(x1 - x2) < 1e-6 and min(abs(x1 - face.x), abs(x1 - face.x - face.w)) < 0.01) or \
                          (abs(y1 - y2) < 1e-6 and min(abs(y1 - face.y), abs(y1 - face.y - face.h)) < 0.01)
                assert on_edge, ((x1, y1, x2, y2), face)
    verticals = [(x1, min(y1, y2), max(y1, y2)) for x1, y1, x2, y2 in marks if abs(x1 - x2) < 1e-6]
    horizontals = [(y1, min(x1, x2), max(x1, x2)) for x1, y1, x2, y2 in marks if abs(y1 - y2) < 1e-6]
    for face in faces:
        for x in (face.x, face.x + face.w):
            assert any(abs(mx - x) < 0.01 for mx, _, _ in verticals), (face, x)
        for y in (face.y, face.y + face.h):
            assert any(abs(my - y) < 0.01 for my, _, _ in horizontals), (face, y)


def test_backs_of_the_mixed_sheet_register_behind_their_fronts(all_games_built) -> None:
    path = next((all_games_built.output_dir / "pirate-tricks").glob("pirate-tricks-tokens-a4-duplex-long.pdf"))
    reader = PdfReader(path)
    width = float(reader.pages[0].mediabox.width) / (72 / 25.4)
    loons = next(c for c in _mixed(all_games_built, "pirate-tricks") if c.back)
    backs_seen = 0
    for front_page, back_page in zip(reader.pages[::2], reader.pages[1::2]):
        fronts = {(round(f.x, 2), round(f.y, 2)) for f in faces_on(front_page)}
        backs = faces_on(back_page)
        backs_seen += len(backs)
        for back in backs:  # long-edge flip: the back's x is mirrored about the page's centre
            assert (round(width - back.x - back.w, 2), round(back.y, 2)) in fronts
    assert backs_seen == loons.count  # only the pieces with a back have one


sizes = st.lists(st.tuples(st.sampled_from([15.0, 20.0, 25.0, 30.0, 41.0]), st.integers(1, 60)), min_size=1,
                 max_size=5)


@settings(max_examples=40, deadline=None)
@given(sizes, st.sampled_from(sorted(PAPERS)), st.sampled_from([0.0, 3.0]), st.booleans())
def test_packing_places_every_face_inside_its_region_and_blocks_keep_their_gap(groups, paper_name, bleed,
                                                                               fold) -> None:
    paper = PAPERS[paper_name]
    region = (0.0, paper.width / 2) if fold else (0.0, paper.width)
    pages = pack([(size, size, count) for size, count in groups], paper, bleed, region)
    assert pages is not None
    assert sum(block.filled for page in pages for block in page) == sum(count for _, count in groups)
    for page in pages:
        assert page
        for block in page:
            for slot in block.slots():
                x, y, w, h = slot.clip
                assert x >= region[0] + PAD - 1e-6 and x + w <= region[1] - PAD + 1e-6
                assert y >= PAD - 1e-6 and y + h <= paper.height - PAD + 1e-6
        for upper, lower in pairwise(page):  # stacked top to bottom, a mark gap apart
            assert upper.grid.rows.bleed_span[0] - lower.grid.rows.bleed_span[1] >= GAP - 1e-6


@settings(max_examples=40, deadline=None)
@given(sizes, st.sampled_from(sorted(PAPERS)), st.sampled_from([0.0, 3.0]))
def test_blocks_marks_get_bands_of_their_own_where_that_costs_no_page(groups, paper_name, bleed) -> None:
    """Stacked blocks' crop marks never share a band unless separate bands would take another page."""
    paper = PAPERS[paper_name]
    pages = pack([(size, size, count) for size, count in groups], paper, bleed)
    assert pages is not None
    shared_band = False
    for page in pages:
        for upper, lower in pairwise(page):
            below_upper = [y for _, y1, _, y2 in upper.marks() for y in (y1, y2) if y < upper.grid.rows.bleed_span[0]]
            above_lower = [y for _, y1, _, y2 in lower.marks() for y in (y1, y2) if y > lower.grid.rows.bleed_span[1]]
            shared_band |= min(below_upper) <= max(above_lower)
    if shared_band:  # the compact packing was chosen: the wide one takes more pages
        wide = mixed._pack([(size, size, count) for size, count in groups], paper, bleed, None, mixed.WIDE_GAP)
        assert wide is None or len(wide) > len(pages)


def test_under_fire_tokens_keep_one_letter_page_and_separate_bands_on_a4(project) -> None:
    """The tried-and-rejected cost: separate bands must not push Under Fire's last two gold tokens to a second
    US Letter page, and on A4, where there is room, the two blocks' marks do not interleave."""
    game = load_game(project, "pirates-under-fire")
    groups = [(c.size.width, c.size.height, c.count) for c in game.components if c.sheet == "mixed" and c.kind == "token"]
    letter = pack(groups, PAPERS["letter"], 3.0)
    a4 = pack(groups, PAPERS["a4"], 3.0)
    assert letter is not None and a4 is not None and len(letter) == 1 and len(a4) == 1
    upper, lower = a4[0][0], a4[0][1]
    assert upper.grid.rows.bleed_span[0] - lower.grid.rows.bleed_span[1] >= mixed.WIDE_GAP - 1e-6


def test_a_bad_sheet_value_is_one_clear_line_with_file_and_line(project_copy, capsys) -> None:
    from tests.helpers import edit, run_pnp

    pieces = project_copy.data_dir / "pirate-tricks" / "pieces.yaml"
    edit(pieces, "    size: circle-30\n    sheet: mixed", "    size: circle-30\n    sheet: Mixed sheet")
    code, _, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "pirate-tricks")
    assert code != 0 and "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert "data/pirate-tricks/pieces.yaml:" in line and "sheet 'Mixed sheet' must be one of own, mixed, spill or the name of a sheet" in line
    edit(pieces, "    sheet: Mixed sheet", "    sheet: mixed")
    edit(pieces, "    size: {width: 210, height: 148}\n", "    size: {width: 210, height: 148}\n    sheet: mixed\n")
    code, _, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "pirate-tricks")
    assert code != 0
    assert "component 'screen' is a sheet: only cards, tiles and tokens can share the mixed sheet" in err


def test_cut_lines_option_draws_each_blocks_cuts_on_the_mixed_sheet(project) -> None:
    import io

    from generator.render.faces.renderer import renderer
    from generator.render.sheets.imposition import impose_mixed, mixed_components
    from generator.render.sheets.options import SheetOptions

    game = load_game(project, "pirates-under-fire")
    members = [c for c in mixed_components(game) if c.kind == "token"]  # the tiles share the sheet too
    plain = impose_mixed(renderer(project), game, members, SheetOptions(PAPERS["a4"]))
    with_cuts = impose_mixed(renderer(project), game, members, SheetOptions(PAPERS["a4"], cut_lines=True))
    before = lines(PdfReader(io.BytesIO(plain.pdf)).pages[0])
    after = lines(PdfReader(io.BytesIO(with_cuts.pdf)).pages[0])
    added = [line for line in after if line not in before]
    # one line per cut of each block: VP tokens 7 columns x 6 rows, gold 9 x 5 (8 + 7 and 10 + 6 cuts)
    assert len(added) == (8 + 7) + (10 + 6)


def test_only_one_piece_still_builds_the_whole_mixed_sheet(project_copy) -> None:
    from generator.build.options import BuildOptions
    from generator.build.session import build

    build(project_copy, ["pirate-tricks"], BuildOptions(papers=("a4",), only=("go-first",), exports=("sheets",)))
    written = sorted(p.name for p in (project_copy.output_dir / "pirate-tricks").glob("*.pdf"))
    assert written == ["pirate-tricks-tokens-a4-duplex-long.pdf"]
    reader = PdfReader(project_copy.output_dir / "pirate-tricks" / written[0])
    placed = sum(len(faces_on(page)) for page in reader.pages[::2])
    assert placed == sum(_on_mixed(project_copy, "pirate-tricks", PAPERS["a4"]).values())


def test_guides_ink_saver_and_cmyk_apply_to_the_mixed_sheet_as_to_any_sheet(project) -> None:
    import io

    import pikepdf
    from test_cmyk import RGB_OPERATORS, colour_report
    from test_facestyle import ink

    from generator.render.exports.registry import PrintSheetOptions, mixed_sheet
    from generator.render.faces.renderer import renderer
    from generator.render.sheets.imposition import mixed_components

    game = load_game(project, "pirate-tricks")
    members, faces = mixed_components(game), renderer(project)

    def drawn(**options):
        (file,) = mixed_sheet(faces, game, members, PrintSheetOptions(PAPERS["a4"], **options))
        return file

    def magenta_strokes(pdf: bytes) -> int:  # the guides' colour, #ff00c8, in the pages or their forms
        document = pikepdf.open(io.BytesIO(pdf))
        streams = [*document.pages, *(o for o in document.objects
                                      if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form")]
        return sum(1 for stream in streams for operands, operator in pikepdf.parse_content_stream(stream)
                   if str(operator) == "RG" and [round(float(v), 3) for v in operands] == [1, 0, 0.784])

    plain, guides, saver = drawn(), drawn(guides=True), drawn(ink_saver=True)
    assert plain.name == "pirate-tricks-tokens-a4-duplex-long.pdf"
    assert guides.name == "pirate-tricks-tokens-a4-duplex-long-guides.pdf"
    assert saver.name == "pirate-tricks-tokens-a4-duplex-long-inksaver.pdf"
    assert magenta_strokes(plain.data) == 0 and magenta_strokes(guides.data) > 0
    assert ink(saver.data) < ink(plain.data)
    cmyk = drawn(colour="cmyk", guides=True, ink_saver=True)
    assert cmyk.name == "pirate-tricks-tokens-a4-duplex-long-inksaver-guides-cmyk.pdf"
    document = pikepdf.open(io.BytesIO(cmyk.data))
    operators, max_ink, _ = colour_report(document)
    assert not operators & RGB_OPERATORS and 0 < max_ink <= 240.0 + 1e-9
    assert document.Root.OutputIntents[0].S == pikepdf.Name.GTS_PDFX
