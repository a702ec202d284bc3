"""The gallery page: copies by player count from the data, and search and filters that work in a browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.load import load_game
from generator.project import Project
from generator.render.base.outputs import FileKind, FileRecord
from generator.render.site.gallery import MAX_FACES_SHOWN, MAX_FAILURES_SHOWN, GalleryGame, collect, render_gallery
from tests.cdp import CHROMIUM, Page


def entry(project: Project, game_id: str) -> GalleryGame:
    """The game's gallery entry with a preview record per item (the images themselves are not needed)."""
    game = load_game(project, game_id)
    folder = project.output_dir / game_id / "preview"
    outputs = [(folder, FileRecord(f"{c.id}-{i.id}.png", FileKind.PREVIEW, c.id, i.id), "0" * 64)
               for c in game.components for i in c.items]
    return collect(game, project, outputs, bleed=3.0)


def test_copies_in_play_follow_the_player_count_removals(project: Project) -> None:
    crew = next(c for c in entry(project, "pirate-tricks").components if c.id == "crew")
    # data/pirate-tricks/game.yaml: 5 players all 60, 4 players without 1-4 (48 left), 3 without 1-8 (36 left).
    assert crew.counts == [(3, 36), (4, 48), (5, 60)]
    html = render_gallery(project, [entry(project, "pirate-tricks")])
    assert "<th>3 players</th><th>4 players</th><th>5 players</th>" in html
    assert "<tr><th>crew card</th><td>36</td><td>48</td><td>60</td></tr>" in html


def test_the_lightbox_gets_the_face_geometry(project: Project) -> None:
    port = next(c for c in entry(project, "counterattack").components if c.id == "port")
    assert (port.width_mm, port.height_mm, port.bleed_mm, port.safe_mm) == (63, 88, 3.0, 3.0)
    assert port.faces[0].src == "counterattack/preview/port-port-royal.png?v=000000000000"
    assert port.faces[0].large == ""  # no --png faces in this build: the lightbox shades the bleed area instead
    assert port.faces[0].words == "Port Royal"  # the search finds a face by its card's name too


def test_the_lightbox_shows_the_png_face_with_its_bleed_when_there_is_one(project: Project) -> None:
    game = load_game(project, "counterattack")
    out = project.output_dir / "counterattack"
    outputs = [(out / "preview", FileRecord("port-tortuga.png", FileKind.PREVIEW, "port", "tortuga"), "1" * 64),
               (out / "preview", FileRecord("port-back.png", FileKind.PREVIEW, "port", "back"), "2" * 64),
               (out / "png", FileRecord("port-tortuga-1.png", FileKind.PNG, "port", "tortuga 1"), "3" * 64),
               (out / "png", FileRecord("port-tortuga-2.png", FileKind.PNG, "port", "tortuga 2"), "4" * 64),
               (out / "png", FileRecord("port-back.png", FileKind.PNG, "port", "back"), "5" * 64),
               (out, FileRecord("counterattack-rules-a4.pdf", FileKind.RULES, paper="a4"), "6" * 64),
               (out, FileRecord("counterattack-port-a4.pdf", FileKind.SHEET, "port", paper="a4"), "7" * 64)]
    entry = collect(game, project, outputs, bleed=3.0)
    assert entry.files == [("counterattack-port-a4.pdf", "counterattack/counterattack-port-a4.pdf"),
                           ("counterattack-rules-a4.pdf", "counterattack/counterattack-rules-a4.pdf")]
    port = next(c for c in entry.components if c.id == "port")
    assert [(f.label, f.large) for f in port.faces] == [
        ("tortuga", "counterattack/png/port-tortuga-1.png?v=333333333333"),
        ("back", "counterattack/png/port-back.png?v=555555555555"),
    ]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_search_and_filters_show_only_what_matches(project: Project, tmp_path: Path) -> None:
    games = [entry(project, "counterattack"), entry(project, "pirates-under-fire")]
    page_file = tmp_path / "index.html"
    page_file.write_text(render_gallery(project, games), encoding="utf-8")
    faces = [(g.id, c.id, c.name, f"{f.label} {f.words}".lower()) for g in games for c in g.components for f in c.faces]

    def show(search: str = "", game: str = "", component: str = "") -> int:
        page.evaluate(f"""(function () {{
            var set = function (id, value) {{ var e = document.getElementById(id); e.value = value;
                                             e.dispatchEvent(new Event('input')); }};
            set('filter-game', {json.dumps(game)}); set('filter-component', {json.dumps(component)});
            set('search', {json.dumps(search)});
        }})()""")
        visible = page.evaluate("Array.prototype.filter.call(document.querySelectorAll('.faces figure'),"
                                " function (f) { return f.offsetParent !== null; }).length")
        assert visible == int(page.evaluate("document.body.dataset.facesShown"))
        return int(visible)

    with Page(page_file.as_uri()) as page:
        page.wait_for("document.body.dataset.facesShown", what="the gallery script")
        assert show() == len(faces)
        assert show(search="skull") == sum("skull" in (name + " " + label) for _, _, name, label in faces) > 0
        assert show(game="pirates-under-fire") == sum(g == "pirates-under-fire" for g, *_ in faces)
        assert show(component="counterattack/port") == sum((g, c) == ("counterattack", "port") for g, c, *_ in faces)
        assert show(search="skull", component="counterattack/port") == 1  # Skull Rock
        assert show(search="no such card") == 0
        assert page.evaluate("document.getElementById('counterattack').hidden")
        assert show(search="deadman's wharf") == 1  # by the card's name, which its id (deadmans-wharf) spells otherwise


def test_a_huge_deck_shows_its_first_faces_and_says_how_many_more(project: Project) -> None:
    """A 100,000-card deck once overflowed the page's 2,000,000-character cap and failed the build at its end:
    a component now shows its first MAX_FACES_SHOWN faces, the game its first MAX_FAILURES_SHOWN failures."""
    game = load_game(project, "counterattack")
    folder = project.output_dir / "counterattack" / "preview"
    made = MAX_FACES_SHOWN + 2600
    outputs = [(folder, FileRecord(f"port-{k}.png", FileKind.PREVIEW, "port", f"port {k}"), f"{k:064x}")
               for k in range(made)]
    big = collect(game, project, outputs, bleed=3.0)
    port = next(c for c in big.components if c.id == "port")
    assert [f.label for f in port.faces] == [f"port {k}" for k in range(MAX_FACES_SHOWN)]  # the first, in order
    assert port.more_faces == made - MAX_FACES_SHOWN
    assert all(c.more_faces == 0 for c in big.components if c.id != "port")
    failures = [f"data/counterattack/cards.yaml:{k}: wrong" for k in range(1, 30_001)]
    shown = GalleryGame.from_json(json.loads(json.dumps(big.to_json())), False, failures)
    assert shown.failures == failures[:MAX_FAILURES_SHOWN] and shown.more_failures == 30_000 - MAX_FAILURES_SHOWN
    html = render_gallery(project, [shown])  # under the cap that 3,000 faces and 30,000 failures passed
    assert html.count("<figure data-search=\"port ") == MAX_FACES_SHOWN
    assert f"… and {made - MAX_FACES_SHOWN} more faces, not shown on this page" in html
    assert f"… and {30_000 - MAX_FAILURES_SHOWN} more: <code>pnp validate counterattack</code>" in html
    small = render_gallery(project, [entry(project, "counterattack")])
    assert "more faces" not in small and "more: <code>" not in small  # a shipped deck shows every face


def test_a_project_s_own_page_reads_the_records_fields_and_nothing_else(tmp_path: Path) -> None:
    """The page's own records are read straight away (a field of a game, component or face), the rest of the
    sandbox holds: no dunder, no changing a list."""
    from generator.errors import DataError
    from tests.render.conftest import make_project

    project = make_project(tmp_path / "ca")
    site = project.templates_dir / "site"
    site.mkdir()
    page = site / "index.html.j2"
    page.write_text("{% for g in games %}{{ g.title }}:{% for c in g.components %}{{ c.id }}={{ c.count }}"
                    "/{{ c.faces[0].src }} {% endfor %}{% endfor %}")
    html = render_gallery(project, [entry(project, "counterattack")])
    assert html.startswith("Pirates Port: Counterattack:port=6/counterattack/preview/port-port-royal.png?v=000")
    for unsafe in ("{{ games[0].__class__ }}", "{{ games[0].components.append(1) }}", "{{ games[0].__dict__ }}"):
        page.write_text(unsafe)
        with pytest.raises(DataError, match="gallery template"):
            render_gallery(Project.at(project.root), [entry(project, "counterattack")])
