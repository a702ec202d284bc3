"""Every rulebook ends with "How to print and assemble", drawn from the build: it names exactly the files
the build wrote for its paper, with the options used (duplex, booklet, marks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build.options import BuildOptions
from generator.build.session import build
from generator.render.base.units import PAPERS
from generator.render.exports.registry import SHEETS
from tests.helpers import copy_sources

GAMES = ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire")
PDF_NAME = re.compile(r"[a-z0-9-]+\.pdf")


def how_to_page(rulebook: Path) -> str:
    """The text of the rulebook from its last "How to print and assemble" heading on (the contents page names
    it too); a booklet's pages are in folding order, so there the whole text."""
    pages = PdfReader(rulebook).pages
    last = pages if "booklet" in rulebook.name else pages[-2:]  # the page, and room for it to run over
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in last))
    assert "How to print and assemble" in text
    return text if "booklet" in rulebook.name else text[text.rindex("How to print and assemble"):]


def printed_files(folder: Path, game: str, paper: str) -> set[str]:
    """The PDFs a build wrote for one game and paper (not the png/ or tts/ exports)."""
    return {p.name for p in folder.glob(f"{game}-*.pdf") if re.search(rf"-{paper}(-|\.pdf)", p.name)}


def named(text: str) -> set[str]:
    return set(PDF_NAME.findall(text.replace(" .pdf", ".pdf")))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_default_build_lists_exactly_the_files_it_wrote(all_games_built, game) -> None:
    folder = all_games_built.output_dir / game
    for paper in PAPERS:
        text = how_to_page(folder / f"{game}-rules-{paper}.pdf")
        assert named(text) == printed_files(folder, game, paper), (game, paper)
        assert "flip on the long edge" in text  # the default duplex
        assert "staple them in the top left corner" in text  # no booklet asked for
        for name in printed_files(folder, game, paper):
            if name.endswith("-single-sided.pdf"):
                assert f"{name}:" in text and "Print: one side" in text


@pytest.fixture(scope="module")
def other_options(tmp_path_factory: pytest.TempPathFactory):
    """Pirate Tricks on Letter with gutter-fold, a booklet and no crop marks; All Hands on A4, short-edge flip."""
    project = copy_sources(tmp_path_factory.mktemp("how-to"))
    build(project, ["pirate-tricks"], BuildOptions(papers=("letter",), duplex="none", booklet=True,
                                                  crop_marks=False, back_offset=(0.5, -1.0), exports=(SHEETS,)))
    build(project, ["all-hands-on-deck"], BuildOptions(papers=("a4",), duplex="short", exports=(SHEETS,)))
    return project


@pytest.mark.slow
def test_gutter_fold_booklet_and_no_marks_are_what_the_page_says(other_options) -> None:
    folder = other_options.output_dir / "pirate-tricks"
    for rulebook in ("pirate-tricks-rules-letter.pdf", "pirate-tricks-booklet-letter.pdf"):
        text = how_to_page(folder / rulebook)
        assert named(text) == printed_files(folder, "pirate-tricks", "letter")
        assert "pirate-tricks-booklet-letter.pdf" in text and "fold the stack in half, and staple" in text
        assert "gutterfold.pdf" in text and "fold on the line with the printing outside" in text
        assert "left the crop marks out" in text
        assert "shifted 0.5 mm across and -1.0 mm up" in text
        assert "Fold the player screens on the dashed lines into three panels" in text


@pytest.mark.slow
def test_short_edge_flip_and_a5_sheets_two_to_a_page(other_options) -> None:
    folder = other_options.output_dir / "all-hands-on-deck"
    text = how_to_page(folder / "all-hands-on-deck-rules-a4.pdf")
    assert named(text) == printed_files(folder, "all-hands-on-deck", "a4")
    assert "all-hands-on-deck-pirate-a4-duplex-short.pdf" in text and "flip on the short edge" in text
    assert "all-hands-on-deck-score-sheet-a4-2up-duplex-short.pdf" in text
    assert "cut each sheet in half on the dashed line" in text


def test_sheet_counts_on_the_page_are_the_sheets_in_the_files(all_games_built) -> None:
    folder = all_games_built.output_dir / "pirates-under-fire"
    text = how_to_page(folder / "pirates-under-fire-rules-a4.pdf")
    for name in printed_files(folder, "pirates-under-fire", "a4"):
        said = re.search(re.escape(name) + r": [^.]*?, (\d+) sheets?\.", text)
        if said is None:
            continue  # documents: no count given
        pages = len(PdfReader(folder / name).pages)
        assert int(said.group(1)) == (pages // 2 if "-duplex-" in name else pages), name


def _entries(text: str) -> dict[str, str]:
    """Each listed file's entry on the page, from its name to the next entry (or the end of the list)."""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"([a-z0-9-]+\.pdf):", text)]
    ends = [s for s, _ in starts[1:]] + [text.index(" Before") if " Before" in text else text.index(" Cut")]
    return {name: text[start:end] for (start, name), end in zip(starts, ends)}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_card_stock_total_counts_every_print_of_every_file(all_games_built, game) -> None:
    """Issue 32 print review: Pirate Tricks said 15 sheets of card stock, leaving out that its screen file
    (card stock) prints 5 times: 20. The total is each card-stock file's sheets times its prints, and each
    file's sheets are the sheets in the file."""
    folder = all_games_built.output_dir / game
    for paper in PAPERS:
        text = how_to_page(folder / f"{game}-rules-{paper}.pdf")
        total = int(re.search(r"The pieces take (\d+) sheets? of card stock", text).group(1))
        counted = 0
        for name, entry in _entries(text).items():
            if "Paper: card stock." not in entry:
                continue
            sheets = re.search(r", (\d+) sheets?\. Paper:", entry)
            assert sheets, f"{name}: a card-stock file says how many sheets it takes"
            prints = re.search(r"Prints: (\d+|one)\b", entry)
            times = 1 if prints is None or prints.group(1) == "one" else int(prints.group(1))
            pages = len(PdfReader(folder / name).pages)
            assert int(sheets.group(1)) == ((pages + 1) // 2 if "Print: both sides" in entry else pages), name
            counted += int(sheets.group(1)) * times
        assert total == counted, (game, paper, total, counted)
        if game == "pirate-tricks":
            assert "Prints: 5" in _entries(text)[f"pirate-tricks-screen-{paper}.pdf"]  # the case that was wrong
