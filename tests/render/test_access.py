"""The accessibility preflight: contrast, text size, colours apart under colour blindness, different backs.

Each rule is fed a face or theme that breaks it and must answer with one failing line at the
file:line to fix, naming the card, the measured value and the limit; the four games pass.
"""

from __future__ import annotations

import pytest

from generator.checks import Check
from generator.errors import DataError
from generator.load import load_game
from generator.project import Project
from generator.render.faces.access import access_checks, face_findings
from generator.render.faces.layout import Element, Face
from generator.render.faces.renderer import renderer
from generator.render.faces.vision import closest_under_deficiency, contrast, distance
from tests.helpers import edit, run_pnp, shipped_icon
from tests.render.test_layouts import write_layout

PORT = "counterattack/port"
GAMES = ("all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire")


def failing(project: Project, game_id: str = "counterattack") -> list[Check]:
    return [c for c in access_checks(load_game(project, game_id), project) if not c.ok]


def element(kind: str, name: str, **props: object) -> Element:
    return Element(kind, name, tuple(sorted(props.items())))


def face(*elements: Element) -> Face:
    return Face(63.0, 88.0, "rect", 2.5, elements)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_the_four_games_pass_the_accessibility_preflight(project: Project, game_id: str) -> None:
    checks = access_checks(load_game(project, game_id), project)
    assert [c for c in checks if not c.ok] == []
    assert any(c.name.startswith("access colour") for c in checks)  # each game declares what it tells apart


def test_wcag_contrast_and_the_colour_blind_distance_are_the_published_ones() -> None:
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic just-fails grey
    assert contrast("#ffffff", "#d9b24c") == pytest.approx(2.01, abs=0.01)  # the old coin: white on light gold
    # the old Counterattack cutlasses and compasses: far apart for most, one olive under deuteranopia
    assert distance("#b3261e", "#2e7d32", None) > 50
    apart, kind = closest_under_deficiency("#b3261e", "#2e7d32")
    assert apart < 10 and kind == "deuteranopia"


def test_a_low_contrast_index_is_caught_at_its_layout_line(fresh_project: Project) -> None:
    write_layout(fresh_project, PORT, "elements:\n"
                 "  - {name: background, type: rect, bleed: true, fill: '#f4ead5'}\n"
                 "  - {name: index, type: text, x: 10, y: 15, align: centre, text: '{{ card.tricks }}', size: 12,"
                 " colour: '#e6a100'}\n")
    (check,) = failing(fresh_project)
    assert str(check.location) == "templates/layouts/counterattack/port.yaml:3"
    assert "'index' contrast on port/" in check.name
    assert check.actual.startswith("1.86:1") and "(#e6a100 on #f4ead5)" in check.actual and "and 5 more faces" in check.actual
    assert check.expected == ">= 4.5:1 for 12 pt text (WCAG 2.x)"


def test_contrast_is_measured_against_what_is_drawn_behind() -> None:
    band = element("rect", "band", x=5.0, y=5.0, w=40.0, h=10.0, fill="#1f3b57")
    on_band = element("text", "title", x=25.0, y=12.0, align="centre", text="PORT", size=9.0, colour="#f4ead5")
    assert face_findings(face(band, on_band)) == []
    off_band = element("text", "title", x=25.0, y=40.0, align="centre", text="PORT", size=9.0, colour="#f4ead5")
    (finding,) = face_findings(face(band, off_band))  # on the white stock, not the band
    assert finding.rule == "contrast" and "on #ffffff" in finding.measured
    icon = element("icon", "mark", icon=shipped_icon("anchor"), x=30.0, y=50.0, size=8.0, colour="#e0e0e0")
    (finding,) = face_findings(face(icon))
    assert finding.limit == ">= 3:1 for icon (WCAG 2.x)"


@pytest.mark.slow
def test_5_pt_text_is_caught_and_fine_print_may_go_down_to_6(fresh_project: Project) -> None:
    write_layout(fresh_project, PORT, "elements:\n"
                 "  - {name: tiny, type: text, x: 31.5, y: 40, align: centre, text: Small print, size: 5}\n"
                 "  - {name: fine, type: text, x: 31.5, y: 50, align: centre, text: Fine print, size: 6, fine: true}\n")
    (check,) = failing(fresh_project)
    assert str(check.location) == "templates/layouts/counterattack/port.yaml:2"
    assert "'tiny' size on port/port-royal" in check.name
    assert check.actual.startswith("5 pt") and check.expected.startswith(">= 7 pt")
    edit(fresh_project.templates_dir / "layouts" / f"{PORT}.yaml", "size: 6, fine: true", "size: 5.5, fine: true")
    assert {c.expected for c in failing(fresh_project)} == {">= 7 pt (or mark it `fine: true`: >= 6 pt)",
                                                           ">= 6 pt (fine print)"}


def test_text_that_shrinks_to_fit_is_measured_at_the_size_it_prints() -> None:
    long = element("text", "name", x=31.5, y=40.0, align="centre", text="A VERY LONG NAME INDEED", size=12.0,
                   min_size=4.0, max_width=20.0, fit="shrink")
    (finding,) = face_findings(face(long))
    assert finding.rule == "size" and finding.value < 7


@pytest.mark.slow
def test_red_and_green_only_suits_are_caught_unless_a_cue_tells_them_apart(fresh_project: Project) -> None:
    game_yaml = fresh_project.data_dir / "counterattack" / "game.yaml"
    edit(game_yaml, 'cutlasses: {label: Cutlasses, colour: "#a31f17"', 'cutlasses: {label: Cutlasses, colour: "#b3261e"')
    edit(game_yaml, 'compasses: {label: Compasses, colour: "#257251"', 'compasses: {label: Compasses, colour: "#2e7d32"')
    edit(game_yaml, "told_apart: {suits: symbol}", "told_apart: {suits: none}")
    (check,) = [c for c in failing(fresh_project) if c.name.startswith("access colour")]
    assert check.name == "access colour suits cutlasses and compasses apart"
    assert check.actual == "5.6 under deuteranopia (#b3261e and #2e7d32)"
    assert "CIEDE2000 >= 10" in check.expected
    assert str(check.location) == f"data/counterattack/game.yaml:{_line(game_yaml, 'compasses: {')}"
    edit(game_yaml, "told_apart: {suits: none}", "told_apart: {suits: symbol}")
    # each suit has its own symbol: told apart without colour
    assert [c for c in failing(fresh_project) if c.name.startswith("access colour")] == []


def test_the_counterattack_suits_stay_apart_by_colour_alone(project: Project) -> None:
    """The palette passes on its own; the symbols are a second cue, not a crutch."""
    suits = load_game(project, "counterattack").theme["suits"]
    colours = [suit["colour"] for suit in suits.values()]
    assert min(closest_under_deficiency(a, b)[0] for i, a in enumerate(colours) for b in colours[i + 1:]) >= 10


def test_identical_backs_on_piles_side_by_side_are_caught(fresh_project: Project) -> None:
    game_yaml = fresh_project.data_dir / "counterattack" / "game.yaml"
    edit(game_yaml, 'exposed-port: {label: Exposed port, colour: "#1d4d40", emblem: spyglass}',
         'exposed-port: {label: Crew, colour: "#1f3b57", emblem: wheel}')
    (check,) = failing(fresh_project)
    assert check.name.endswith("exposed-port and main tell apart face down")
    assert check.actual == "the same back on both piles"
    assert str(check.location) == f"data/counterattack/game.yaml:{_line(game_yaml, '- [port, exposed-port, main]')}"


def test_backs_that_differ_only_by_a_colour_that_blurs_are_caught(fresh_project: Project) -> None:
    game_yaml = fresh_project.data_dir / "counterattack" / "game.yaml"
    edit(game_yaml, 'port:         {label: Port,         colour: "#6e2a1c", emblem: flag}',
         'port:         {label: Crew,         colour: "#1f3b58", emblem: wheel}')
    (check,) = failing(fresh_project)
    assert check.name.endswith("port and main tell apart face down")
    assert "no word or symbol differs" in check.actual and "limit 10" in check.actual


@pytest.mark.slow
def test_a_waiver_needs_a_written_reason_and_pnp_show_lists_it(fresh_project: Project,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = fresh_project.templates_dir / "layouts" / f"{PORT}.yaml"
    write_layout(fresh_project, PORT, "waive: {size: yes}\nelements:\n"
                 "  - {name: tiny, type: text, x: 31.5, y: 40, align: centre, text: Small print, size: 5}\n")
    with pytest.raises(DataError) as caught:
        renderer(fresh_project).library.get(PORT)
    assert str(caught.value.location) == "templates/layouts/counterattack/port.yaml:1"
    assert "needs a written reason" in caught.value.message
    path.write_text("waive: {size: \"the copyright line is not read in play\"}\nelements:\n"
                    "  - {name: tiny, type: text, x: 31.5, y: 40, align: centre, text: Small print, size: 5}\n")
    assert failing(fresh_project) == []
    waived = [c for c in access_checks(load_game(fresh_project, "counterattack"), fresh_project)
              if c.name.endswith("size waived")]
    assert waived and waived[0].actual == "the copyright line is not read in play"
    code, out, _ = run_pnp(capsys, "--root", str(fresh_project.root), "show", "counterattack")
    assert code == 0
    assert ("templates/layouts/counterattack/port.yaml:1: counterattack/port waives size: "
            "the copyright line is not read in play") in out


def test_an_unknown_rule_cannot_be_waived(fresh_project: Project) -> None:
    write_layout(fresh_project, PORT, "waive: {contrats: \"a reason of some words\"}\nelements: []\n")
    with pytest.raises(DataError) as caught:
        renderer(fresh_project).library.get(PORT)
    assert "unknown rule 'contrats'" in caught.value.message and "contrast" in caught.value.message


def test_pnp_validate_prints_each_failure_on_one_line(fresh_project: Project,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    write_layout(fresh_project, PORT, "elements:\n"
                 "  - {name: tiny, type: text, x: 31.5, y: 40, align: centre, text: Small print, size: 5}\n")
    code, out, _ = run_pnp(capsys, "--root", str(fresh_project.root), "validate", "counterattack")
    assert code == 1
    line = next(line for line in out.splitlines() if "'tiny' size" in line and line.startswith("  "))
    assert line.strip().startswith("templates/layouts/counterattack/port.yaml:2: access counterattack/port")
    assert "port/port-royal" in line and "expected >= 7 pt" in line and "got 5 pt" in line


def _line(path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


def test_colour_distances_are_kept_between_processes(tmp_path) -> None:
    """colour-science takes seconds to import: a validation whose colours did not change reads the cache."""
    import json

    from generator.render.faces.vision import closest_apart

    pair = ("#b3261e", "#2e7d32")
    first = closest_apart([pair], tmp_path)
    (stored,) = tmp_path.glob("vision-*.json")
    assert first[pair] == pytest.approx((5.6, "deuteranopia"), abs=0.05)
    entries = json.loads(stored.read_text())
    entries["#2e7d32|#b3261e"] = [42.0, "tritanopia"]  # what a process before would have stored
    stored.write_text(json.dumps(entries))
    assert closest_apart([pair], tmp_path)[pair] == (42.0, "tritanopia")
    stored.write_text("not json")  # a damaged entry is worked out again
    assert closest_apart([pair], tmp_path)[pair] == first[pair]
