"""The Play page in a real (headless) Chromium: a Counterattack hand and a Pirate Tricks round played by
clicking the printed faces and the move list, with undo and hint."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from generator.cli.playweb import PREFIX, PlayTables
from generator.cli.server import BuildState, PreviewServer
from generator.engine.registry import REGISTRY
from generator.project import Project
from tests.cdp import CHROMIUM, Page
from tests.helpers import copy_sources

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's "
                                                          "chromium)")]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A project whose two games have their gallery previews (the faces the page draws)."""
    project = copy_sources(tmp_path_factory.mktemp("play-browser"))
    subprocess.run([sys.executable, "-m", "generator", "-q", "build", "counterattack", "pirate-tricks", "--paper",
                    "a4"], cwd=project.root, check=True, capture_output=True)
    return project


@pytest.fixture
def url(built: Project) -> Iterator[str]:
    play = PlayTables(built.root, REGISTRY)
    with PreviewServer(built.output_dir, "127.0.0.1", 0, BuildState(), b"", play=play) as server:
        yield f"{server.url}{PREFIX.lstrip('/')}"


class Table:
    """The page, clicked as a person clicks: a mouse press and release at the middle of an element."""

    def __init__(self, page: Page) -> None:
        self.page = page
        page.wait_for("document.body.dataset.ready === '1'", 60, "the first deal")

    def js(self, expression: str) -> object:
        return self.page.evaluate(expression)

    def click(self, selector: str) -> None:
        """Click the element and wait until the server's answer is on the table."""
        before = self.js("Number(document.body.dataset.answers || 0)")
        box = self.js(f"(() => {{ const el = document.querySelector({selector!r}); el.scrollIntoView({{block: 'center'}});"
                      "const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        assert isinstance(box, list), f"nothing to click at {selector}"
        for kind in ("mousePressed", "mouseReleased"):
            self.page.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                                        "clickCount": 1}, self.page.session)
        self.page.wait_for(f"Number(document.body.dataset.answers || 0) > {before} && "
                           "document.body.dataset.shown === '1'", 60, f"the answer to a click on {selector}")
        assert self.js("document.getElementById('error').textContent") == ""

    @property
    def moves(self) -> int:
        return int(str(self.js("document.body.dataset.moves")))

    def status(self) -> str:
        return str(self.js("document.getElementById('status').textContent"))

    def hint_then_undo(self, play: str) -> None:
        """Ask for a hint (it names a legal move and marks it), play `play`, undo it: the same table again."""
        self.click("#hint")
        hint = str(self.js("document.getElementById('hinttext').textContent"))
        assert hint.startswith("Hint: ") and " - " in hint, hint
        assert self.js("document.querySelectorAll('.hinted').length") >= 1
        legal = self.js("[...document.querySelectorAll('#moves button')].map(b => b.dataset.action)")
        assert isinstance(legal, list) and hint[len("Hint: "):].split(" - ")[0] in legal
        before = (self.moves, self.js("document.querySelector('[data-zone=hand]').textContent"))
        self.click(play)
        assert self.moves > before[0]
        self.click("#undo")
        assert (self.moves, self.js("document.querySelector('[data-zone=hand]').textContent")) == before
        assert "undone" in str(self.js("document.getElementById('hinttext').textContent"))


def test_a_counterattack_hand_played_by_clicking_the_cards(url: str) -> None:
    with Page(f"{url}counterattack?speed=0&seed=12&players=2") as page:
        table = Table(page)
        page.wait_for("[...document.querySelectorAll('[data-zone=hand] img')].filter(i => i.complete && "
                      "i.naturalWidth > 0).length === 5", 30, "the hand drawn with the printed faces")
        assert table.js("document.querySelectorAll('[data-zone=hand] .face.legal').length") == 5
        table.hint_then_undo("[data-zone=hand] .face.legal")
        assert table.status().startswith("pass 1, hand 1")
        while table.status().startswith("pass 1, hand 1") and not table.js("document.getElementById('moves')"
                                                                            ".textContent.includes('Game over')"):
            table.click("[data-zone=hand] .face.legal")
        log = table.js("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
        assert isinstance(log, list)
        assert any(str(line).startswith("you: play ") for line in log), log
        assert any(str(line).startswith("seat 2 (heuristic): play ") for line in log)


def test_a_pirate_tricks_round_played_by_clicking(url: str) -> None:
    with Page(f"{url}pirate-tricks?speed=20&seed=4&players=3") as page:
        table = Table(page)
        assert table.status().startswith("round 1 of ")
        table.hint_then_undo("#moves button")
        clicks = 0
        while table.status().startswith("round 1 of "):
            card = table.js("!!document.querySelector('[data-zone=hand] .face.legal')")
            table.click("[data-zone=hand] .face.legal" if card else "#moves button")
            clicks += 1
            assert clicks < 200
        log = table.js("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
        assert isinstance(log, list)
        assert "seat 2 (heuristic): bids" in log  # another seat's bid is never shown
        assert any(str(line).startswith("you: play ") for line in log), log
        assert any(str(line).startswith("seat 3 (heuristic): play ") for line in log)
