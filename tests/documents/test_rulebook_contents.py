"""Rulebooks are laid out once: the table of contents' page numbers, drawn after the layout,
are the pages the headings land on (read back from the PDF's text), and each number links there."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from generator.render.documents.rulebook import rulebook_pdf
from tests.documents.conftest import GAMES
from tests.documents.helpers import reader

PAPERS = ("a4", "letter")
ENTRY = re.compile(r"^(?P<title>.*?[^.\s])(?:\s+\.)+\s+(?P<page>\d+)$")  # "A round . . . . 3"


def page_lines(data: bytes) -> list[list[str]]:
    document = pdfium.PdfDocument(data)
    pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    # an entry's dot leader and number may come out as a line of their own: join them to the entry
    return [[line.strip() for line in re.sub(r"\s*\r?\n\s*(?=\. )", " ", page).splitlines()] for page in pages]


def contents(lines: list[list[str]]) -> tuple[int, list[tuple[str, int]]]:
    """(index of the contents page, its entries as (title, printed page number))."""
    for index, page in enumerate(lines):
        entries = [(m["title"], int(m["page"])) for m in map(ENTRY.match, page) if m]
        if len(entries) >= 3:
            return index, entries
    raise AssertionError("no table of contents found")


def has_contents(game_id: str) -> bool:
    from tests.documents.conftest import ROOT

    return "::: toc" in (ROOT / "templates" / "rulebooks" / f"{game_id}.md.j2").read_text(encoding="utf-8")


CONTENTS_GAMES = [g for g in GAMES if has_contents(g)]


def test_three_games_have_a_table_of_contents() -> None:
    assert len(CONTENTS_GAMES) >= 3


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", CONTENTS_GAMES)
def test_contents_numbers_are_the_pages_the_headings_land_on(books, game_id, paper) -> None:
    lines = page_lines(books[(game_id, paper)])
    toc_page, entries = contents(lines)
    assert len(entries) >= 8
    page = toc_page  # a heading may share the contents' page (under it)
    for title, printed in entries:  # headings come in contents order: search on from the last one found
        while page < len(lines) and title not in lines[page]:
            page += 1
        assert page < len(lines), f"heading {title!r} not found from page {toc_page + 1} on"
        assert printed == page + 1, f"{title!r}: contents says page {printed}, the heading is on page {page + 1}"
        assert lines[page][0].endswith(f"rules {page + 1}") or str(page + 1) in lines[page][0]  # the footer agrees


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", CONTENTS_GAMES)
def test_each_contents_number_links_to_its_page_and_covers_the_number(books, game_id, paper) -> None:
    data = books[(game_id, paper)]
    pdf = reader(data)
    numbers = {page.indirect_reference.idnum: index + 1 for index, page in enumerate(pdf.pages)}
    toc_page, entries = contents(page_lines(data))
    document = pdfium.PdfDocument(data)
    text = document[toc_page].get_textpage()
    linked = []
    for annotation in pdf.pages[toc_page].get("/Annots") or []:
        link = annotation.get_object()
        left, bottom, right, top = (float(v) for v in link["/Rect"])
        # a number's link reaches from its baseline one line up, into the line above: its number comes last
        covered = text.get_text_bounded(left, bottom, right, top).split()
        if covered and all(word.isdigit() for word in covered):  # (a title's link covers the title)
            linked.append(int(covered[-1]))
            assert numbers[link["/Dest"][0].idnum] == int(covered[-1])
    assert linked == [printed for _, printed in entries]


def test_a_booklet_numbers_its_contents_as_its_pages(project, games) -> None:
    """Booklet pages are forms imposed two-up; the contents is still drawn, numbers and all."""
    data = rulebook_pdf(games["pirate-tricks"], project, "letter", booklet=True)
    document = pdfium.PdfDocument(data)
    sheets = "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    plain = books_entries(rulebook_pdf(games["pirate-tricks"], project, "letter", booklet=False))
    assert plain  # the same headings, and every printed number appears after its leader
    for title, _ in plain:
        assert title in sheets
    assert len(re.findall(r"(?:\. ){3,}\.?\s*\d+", re.sub(r"\s*\r?\n\s*(?=\. )", " ", sheets))) >= len(plain)


def books_entries(data: bytes) -> list[tuple[str, int]]:
    return contents(page_lines(data))[1]
