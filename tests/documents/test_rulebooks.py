"""Rulebooks: both papers, page sizes, embedded fonts, data-driven text, determinism, booklets."""

from __future__ import annotations

import re

import pytest

from generator.load import load_game
from generator.render.documents import write_documents
from generator.render.documents.booklet import saddle_order
from generator.render.documents.rulebook import rulebook_pdf
from tests.documents.conftest import GAMES
from tests.documents.helpers import fonts, page_sizes, reader, text

SIZES = {"a4": (595, 842), "letter": (612, 792)}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("paper", list(SIZES))
def test_rulebook_pages_fonts(books, game_id, paper):
    data = books[(game_id, paper)]
    assert len(reader(data).pages) >= 2
    assert page_sizes(data) == {SIZES[paper]}
    used = fonts(data)
    assert used and all(used.values()), f"fonts not embedded: {used}"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_rulebook_names_every_component_and_credit(books, games, game_id):
    game = games[game_id]
    words = re.sub(r"\s+", " ", text(books[(game_id, "a4")]))
    for entry in game.contents:
        assert f"{entry.count} {entry.label}" in words
    for credit in game.credits:
        for name in credit.names:
            assert name in words
    assert game.title in words


@pytest.mark.slow
def test_counterattack_ports_from_data(books, games):
    words = text(books[("counterattack", "a4")])
    for port in games["counterattack"].component("port").items:
        assert port.fields["name"] in words
        assert f"exactly {port.fields['tricks']}" in words


@pytest.mark.slow
def test_rulebook_follows_a_changed_count(copy_project):
    """Change a count in the data; the rulebook's contents list and prose follow."""
    cards = copy_project.data_dir / "counterattack" / "game.yaml"
    source = cards.read_text()
    assert "hand_size: 10" in source
    cards.write_text(source.replace("hand_size: 10", "hand_size: 9"))
    game = load_game(copy_project, "counterattack")
    words = re.sub(r"\s+", " ", text(rulebook_pdf(game, copy_project, "a4")))
    assert "Deal nine to yourself and nine face down" in words
    assert "Deal ten to yourself" not in words


@pytest.mark.slow
def test_rulebook_follows_a_changed_item_count(copy_project):
    path = copy_project.data_dir / "pirate-tricks" / "pieces.yaml"
    path.write_text(path.read_text().replace("{id: loon-5, value: 5, count: 18}", "{id: loon-5, value: 5, count: 21}")
                    .replace("- {id: screen, count: 5}", "- {id: screen, count: 5}"))
    contents = copy_project.data_dir / "pirate-tricks" / "game.yaml"
    contents.write_text(contents.read_text().replace("count: 18, component: loon", "count: 21, component: loon"))
    game = load_game(copy_project, "pirate-tricks")
    words = re.sub(r"\s+", " ", text(rulebook_pdf(game, copy_project, "a4")))
    assert "21 loon coins (5 value)" in words


@pytest.mark.parametrize("game_id", GAMES[:1])
def test_deterministic(project, games, game_id):
    assert rulebook_pdf(games[game_id], project, "a4") == rulebook_pdf(games[game_id], project, "a4")
    assert rulebook_pdf(games[game_id], project, "letter", booklet=True) == rulebook_pdf(
        games[game_id], project, "letter", booklet=True)


@pytest.mark.slow
@pytest.mark.parametrize("paper", list(SIZES))
def test_booklet_is_two_up_landscape(project, games, paper):
    data = rulebook_pdf(games["counterattack"], project, paper, booklet=True)
    width, height = SIZES[paper]
    assert page_sizes(data) == {(height, width)}
    assert len(reader(data).pages) % 2 == 0
    assert all(fonts(data).values())
    assert "Pirates Port" in text(data)


@pytest.mark.parametrize("pages", [1, 2, 4, 5, 8, 13])
def test_saddle_order_uses_every_page_once(pages):
    sides = saddle_order(pages)
    assert len(sides) % 2 == 0 and len(sides) * 2 >= pages
    shown = [p for side in sides for p in side if p is not None]
    assert sorted(shown) == list(range(pages))
    total = len(sides) * 2
    # the outer sheet's front carries the last and the first page
    assert sides[0] == (total - 1 if total - 1 < pages else None, 0)
    # facing pages of each side add up to total - 1 (the fold)
    for left, right in sides:
        if left is not None and right is not None:
            assert left + right == total - 1


@pytest.mark.slow
def test_write_documents_writes_every_output(copy_project):
    game = load_game(copy_project, "counterattack")
    paths = write_documents(game, copy_project, "a4")
    names = {p.name for p in paths}
    assert "counterattack-rules-a4.pdf" in names
    assert "counterattack-campaign-log-a4.pdf" in names
    assert "counterattack-campaign-log-fillable-a4.pdf" in names
    for path in paths:
        assert path.is_file() and path.read_bytes().startswith(b"%PDF")
        assert path.parent == copy_project.output_dir / "counterattack"
    with_booklet = {p.name for p in write_documents(game, copy_project, "a4", booklet=True)}
    assert with_booklet == names | {"counterattack-booklet-a4.pdf"}
    write_documents(game, copy_project, "a4")  # the rules' "How to print" page names the booklet only when made
    before = {p: p.stat().st_mtime_ns for p in paths}
    write_documents(game, copy_project, "a4")  # identical bytes: files left alone
    assert {p: p.stat().st_mtime_ns for p in paths} == before


@pytest.mark.slow
def test_rulebook_follows_changed_trick_count(copy_project):
    path = copy_project.data_dir / "pirate-tricks" / "game.yaml"
    source = path.read_text()
    assert "  tricks: 10\n" in source
    path.write_text(source.replace("  tricks: 10\n", "  tricks: 12\n"))
    game = load_game(copy_project, "pirate-tricks")
    words = re.sub(r"\s+", " ", text(rulebook_pdf(game, copy_project, "a4")))
    assert "7. Twelve tricks" in words
    assert "Ten tricks" not in words


@pytest.mark.slow
def test_document_jobs_plug_into_the_build(copy_project):
    from generator.build.jobs import Summary
    from generator.build.options import BuildOptions
    from generator.build.plan import document_jobs
    from generator.build.run import run

    game = load_game(copy_project, "pirate-tricks")
    jobs = document_jobs(game, copy_project, BuildOptions(papers=("letter",)))
    assert {job.label for job in jobs} == {
        "pirate-tricks rules letter", "pirate-tricks loon-ledger letter", "pirate-tricks screen letter"}
    summary = Summary.of(run(jobs, copy_project))
    names = sorted(p.name for p in summary.written)
    assert names == ["pirate-tricks-loon-ledger-fillable-letter.pdf", "pirate-tricks-loon-ledger-letter.pdf",
                     "pirate-tricks-rules-letter.pdf", "pirate-tricks-screen-letter.pdf"]
