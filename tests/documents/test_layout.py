"""Every rulebook, as a reader meets it: setup drawn from real faces, a one-page quick reference,
no heading alone at the foot of a page, short tables whole, no word broken in a header, no stray blank page."""

from __future__ import annotations

import re

import pytest

from generator.load import load_game
from generator.render.documents import markup
from generator.render.documents.rulebook import parse_template, rulebook_pdf, rulebook_template
from tests.documents.conftest import GAMES
from tests.documents.helpers import form_placements, logical_pages, reader

# every test here reads the session's rulebooks and booklets of all four games: seconds to build
pytestmark = pytest.mark.slow

KINDS = [("a4", False), ("letter", False), ("a4", True), ("letter", True)]
HEADING_FONTS = ("FjallaOne", "SourceSansPro-Bold", "SourceSansPro-Semibold")


@pytest.fixture(scope="module")
def books(books, booklets) -> dict[tuple[str, str, bool], bytes]:
    """The session's rulebooks and booklets (built once for every test that reads them), by (game, paper, booklet)."""
    return {(g, paper, booklet): (booklets if booklet else books)[(g, paper)] for g in GAMES for paper, booklet in KINDS}


@pytest.fixture(scope="module")
def pages(books, games) -> dict[tuple[str, str, bool], list]:
    """Each book's pages as text runs, read once for all the checks below."""
    return {key: logical_pages(data, _footer(games[key[0]])) for key, data in books.items()}


def _footer(game) -> str:
    return f"{game.title} — rules"


def _blocks(project, game) -> list[markup.Block]:
    return parse_template(rulebook_template(game, project), game, project)[1]


def _headings(project, game) -> set[str]:
    return {markup.plain(b.text) for b in _blocks(project, game) if isinstance(b, markup.Heading) and b.level > 1}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("paper, booklet", KINDS)
def test_no_heading_alone_at_the_foot_of_a_page(pages, project, games, game_id, paper, booklet):
    game = games[game_id]
    headings = _headings(project, game)
    for number, page in enumerate(pages[(game_id, paper, booklet)]):
        body = [r for r in page[2:] if r.text not in ("", _footer(game))]
        if not body:
            continue
        last = min(body, key=lambda r: (r.y, -r.x))
        is_heading = last.text in headings and last.font.startswith(HEADING_FONTS)
        assert not is_heading, f"page {number + 1} ends with the heading {last.text!r}"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("paper, booklet", KINDS)
def test_no_blank_page_in_a_book(books, pages, games, game_id, paper, booklet):
    """Every page has more on it than its footer; a booklet pads only to the next multiple of four."""
    game = games[game_id]
    data = books[(game_id, paper, booklet)]
    book_pages = pages[(game_id, paper, booklet)]
    for number, page in enumerate(book_pages):
        assert len([r for r in page if r.text != _footer(game)]) > 1, f"page {number + 1} is blank"
    if booklet:
        assert len(reader(data).pages) * 2 - len(book_pages) < 4


@pytest.mark.parametrize("game_id", GAMES)
def test_header_words_are_never_broken_in_booklets(pages, project, games, game_id):
    """Every table header cell and heading reads whole in the booklet (narrow columns split no word)."""
    game = games[game_id]
    for paper in ("a4", "letter"):
        said = " ".join(r.text for page in pages[(game_id, paper, True)] for r in page)
        said = re.sub(r"\s+", " ", said)
        for block in _blocks(project, game):
            cells: list[str] = []
            if isinstance(block, markup.Table) and block.header:
                cells = [c for c in block.rows[0] if isinstance(c, str)]
            for cell in cells:
                for word in markup.plain(cell).split():
                    assert re.search(rf"(^|\s|\(){re.escape(word)}", said), f"{game_id} {paper}: {word!r} broken"


@pytest.mark.parametrize("game_id", GAMES)
def test_quick_reference_is_one_page(pages, game_id):
    for paper, booklet in KINDS:
        book_pages = pages[(game_id, paper, booklet)]
        found = [i for i, page in enumerate(book_pages)
                 if any(r.text == "Quick reference" and r.font.startswith("Fjalla") for r in page)]
        assert len(found) == 1, (paper, booklet)
        texts = [r.text for r in book_pages[found[0]]]
        assert texts.count("Quick reference") == 1
        if not booklet:  # the last page, all of it: nothing runs over
            assert found[0] == len(book_pages) - 1, "the quick reference is the last page"


def test_short_table_kept_whole_and_heading_kept_with_its_section(copy_project):
    """A page nearly full of text, then a heading and a six-row table: both move to the next page together."""
    path = copy_project.templates_dir / "rulebooks" / "counterattack.md.j2"
    filler = "\n\n".join(["Words that fill the page, line after line, so that little room is left at the foot."] * 44)
    rows = "\n".join(f"| Row{i} | cell |" for i in range(6))
    path.write_text(f"# T\n\nsub\n\n## Start\n\n{filler}\n\n## Alphaheading\n\n| Headcell | b |\n|---|---|\n{rows}\n")
    game = load_game(copy_project, "counterattack")
    pages = logical_pages(rulebook_pdf(game, copy_project, "a4"), _footer(game))
    where = {t: next(i for i, p in enumerate(pages) if any(r.text == t for r in p))
             for t in ("Alphaheading", "Headcell", "Row0", "Row5")}
    assert where["Alphaheading"] == where["Headcell"] == where["Row0"] == where["Row5"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_setup_is_drawn_from_the_real_faces(books, games, game_id):
    """The setup pages place real faces (PDF forms named after component and item) for every main component."""
    game = games[game_id]
    data = books[(game_id, "a4", False)]
    names = {n for page in range(len(reader(data).pages)) for n, _ in form_placements(data, page)}
    drawn = {n.removeprefix("face-").split("-")[0] for n in names}
    for component in game.components:
        if component.kind in ("card", "tile", "board") and component.count >= 4:
            assert any(n.startswith(f"face-{component.id}-") for n in names), f"{game_id}: no {component.id} drawn"
    assert drawn
