"""Untrusted layouts, documents and the site template stay in their box: each costly or
broken expression ends in one file:line error, quickly and without filling memory, and
no inf or nan reaches a PDF."""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.errors import DataError
from generator.load import load_game
from generator.render.base.sandbox import LimitedEnvironment, TemplateLimit
from generator.render.faces.renderer import FaceRenderer

REPO = Path(__file__).resolve().parents[2]
LAYOUT = "templates/layouts/counterattack/port.yaml"

# (expression in a text element, words of the message)
HOSTILE = [
    ("{{ range(10**9) | list | length }}", "range of 1000000000 entries is too large"),
    ("{{ 'x' * 10**9 }}", "repeating a str to 1000000000 entries is too large"),
    ("{{ lipsum(10**6) }}", "too much placeholder text"),
    ("{{ '%2000000000d' | format(1) }}", "format width or precision of 2000000000 is too large"),
    ("{{ '{:>2000000000}'.format(1) }}", "format width or precision of 2000000000 is too large"),
    ("{{ '%.*f' % (2000000000, 1.0) }}", "'*' width taken from an argument"),
    ("{{ 2.0 ** 10000 }}", "2.0 ** 10000 is out of range"),
    ("{{ 10 ** 5000 }}", "10 ** 5000 is too large"),
    ("{{ 1 / 0 }}", "division by zero"),
    ("{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}", "does too much work"),
    ("{% for i in range(10000) %}{{ 'y' * 99999 }}{% endfor %}", "output passes"),
    ("{% set x = 'abcdefghij' * 10 %}{% for a in x %}{% for b in x %}{% for c in x %}{% for d in x %}"
     "{% endfor %}{% endfor %}{% endfor %}{% endfor %}", "does too much work"),
    ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "calls nested more than"),
    ("{{ 'a' | center(2000000000) }}", "center width 2000000000 is too large"),
    # issue 30: str methods that grow a string are sized before they run, as '*' is
    ("{{ 'x'.ljust(2000000000) }}", "str.ljust would make a string of 2000000000 characters"),
    ("{{ 'x'.rjust(2000000000) }}", "str.rjust would make a string of 2000000000 characters"),
    ("{{ 'x'.center(2000000000) }}", "str.center would make a string of 2000000000 characters"),
    ("{{ 'x'.zfill(2000000000) }}", "str.zfill would make a string of 2000000000 characters"),
    ("{{ ('x' * 99999).replace('', 'y' * 99999) }}", "str.replace would make a string of 9999999999"),
    ("{{ ('x' * 99999) | replace('x', 'y' * 99999) }}", "replace would make a string of 9999800001"),
    ("{{ ('y' * 99999).join(['a'] * 99999) }}", "str.join would make a string of"),
    ("{{ (['x' * 99999] * 1000) | join }}", "join would make a string of 99999000"),
    ("{{ ('{0}' * 30000).format('x' * 99999) }}", "str.format would make a string of"),
    ("{{ ('\\t' * 9999).expandtabs(1000) }}", "str.expandtabs would make a string of"),
    ("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}", "brackets nested more than 100 deep"),
]


def write_layout(project, text: str) -> None:
    (project.root / LAYOUT).write_text(text)


def resolve_port(project):
    game = load_game(project, "counterattack")
    component = game.component("port")
    return FaceRenderer(project).face(game, component, component.items[0], "front")


def layout_error(project, text: str) -> DataError:
    write_layout(project, text)
    with pytest.raises(DataError) as caught:
        resolve_port(project)
    return caught.value


@pytest.mark.slow
@pytest.mark.parametrize(("expression", "words"), HOSTILE)
def test_hostile_layout_expressions_end_in_one_error_at_their_line(fresh_project, expression: str,
                                                                  words: str) -> None:
    error = layout_error(fresh_project, f"elements:\n  - name: t\n    type: text\n    text: \"{expression}\"\n")
    assert (error.location.file, error.location.line) == (LAYOUT, 4)
    assert words in error.message and "\n" not in str(error), str(error)


@pytest.mark.parametrize("element", [
    "{name: t, type: rect, w: .inf, h: 10}",
    "{name: t, type: text, text: hi, size: .inf}",
    "{name: t, type: text, text: hi, rotate: .nan}",
    "{name: t, type: rect, w: 20, h: 10, x: -.inf}",
    "{name: t, type: rect, w: \"{{ 1e308 * 10 }}\", h: 10}",
])
def test_inf_and_nan_never_reach_a_pdf(fresh_project, element: str) -> None:
    error = layout_error(fresh_project, f"elements:\n  - {element}\n")
    assert (error.location.file, error.location.line) == (LAYOUT, 2)
    assert "finite" in error.message, error.message


def test_rows_times_cols_is_capped(fresh_project) -> None:
    error = layout_error(fresh_project, "elements:\n  - {name: cell, type: rect, rows: 400, cols: 400, w: 1, h: 1}\n")
    assert (error.location.line, error.message) == (2, "element 'cell' rows x cols makes 160000 copies, at most 400")


def test_id_patterns_name_fields_only(fresh_project) -> None:
    cards = fresh_project.data_dir / "counterattack" / "cards.yaml"
    text = cards.read_text()
    assert text.count('id: "{suit}-{rank}"') == 1
    for pattern, words in [("{rank:>1000000000}", "format '>1000000000' is not allowed"),
                           ("{suit.__class__}", "must name a field"),
                           ("{rank:{rank}}", "is not allowed")]:
        cards.write_text(text.replace('id: "{suit}-{rank}"', f'id: "{pattern}"'))
        with pytest.raises(DataError) as caught:
            load_game(fresh_project, "counterattack")
        assert caught.value.location.file == "data/counterattack/cards.yaml" and words in caught.value.message


def test_ordinary_templates_still_work() -> None:
    env = LimitedEnvironment()
    text = env.from_string("{{ 7 * 6 }} {{ '%.1f' | format(2.25) }} {{ '{:>3}'.format(5) }} {{ range(3) | list }} "
                           "{{ 2 ** 10 }} {{ 'ab' * 2 }} {{ 'Score 123456: %5.1f%%' % 3.14 }} {{ -3 }}").render()
    assert text == "42 2.2   5 [0, 1, 2] 1024 abab Score 123456:   3.1% -3"
    grown = env.from_string("{{ 'ab'.ljust(4) }}|{{ 'a-b' | replace('-', '+') }}|{{ [1, 2] | join(',') }}|"
                            "{{ ', '.join(['a', 'b']) }}|{{ '{}-{}'.format(1, 2) }}|{{ '7'.zfill(3) }}").render()
    assert grown == "ab  |a+b|1,2|a, b|1-2|007"
    assert env.compile_expression("2 ** 3 + 1")() == 9
    with pytest.raises(TemplateLimit):  # each render has its own budget, and a spent one stays spent
        env.from_string("{% for i in range(10000) %}{% for j in range(100) %}{% endfor %}{% endfor %}").render()
    assert env.from_string("{% for i in range(100) %}.{% endfor %}").render() == "." * 100


@pytest.mark.parametrize("body", ["{{ 'x' * 10**9 }}", "{{ 10 ** 5000 }}", "{{ 1/0 }}",
                                  "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}"])
def test_hostile_rulebook_template_is_one_error_at_its_line(copy_project, body: str) -> None:
    from generator.render.documents.rulebook import rulebook_pdf

    path = copy_project.templates_dir / "rulebooks" / "counterattack.md.j2"
    path.write_text("# Title\n\nSome text.\n\n" + body + "\n")
    with pytest.raises(DataError) as caught:
        rulebook_pdf(load_game(copy_project, "counterattack"), copy_project, "a4")
    assert caught.value.location.file == "templates/rulebooks/counterattack.md.j2"
    assert caught.value.location.line == 5


@pytest.fixture
def copy_project(tmp_path: Path):
    from generator.project import Project

    (tmp_path / "data").mkdir()
    shutil.copytree(REPO / "data" / "counterattack", tmp_path / "data" / "counterattack")
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    return Project.at(tmp_path)


@pytest.mark.slow
def test_a_hostile_site_template_is_one_line_from_pnp_with_bounded_memory(copy_project) -> None:
    site = copy_project.templates_dir / "site"  # the project's own site template overrides the built-in one
    site.mkdir(exist_ok=True)
    (site / "index.html.j2").write_text("<html>\n{{ 'x' * 10**9 }}\n</html>\n")

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(copy_project.root), "-q", "build",
                           "counterattack", "--only", "port", "--paper", "a4", "-j", "1"],
                          capture_output=True, text=True, timeout=60, preexec_fn=limit_memory, check=False)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "index.html.j2" in done.stderr and "repeating a str" in done.stderr, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("files", "words"), [
    ({"index.html.j2": '<html>\n{% include "site/index.html.j2" %}\n'}, "include or extend each other without end"),
    ({"index.html.j2": '{% extends "site/index.html.j2" %}\n'}, "include or extend each other without end"),
    ({"index.html.j2": '{% include "site/a.j2" %}\n', "a.j2": '{% include "site/index.html.j2" %}\n'},
     "include or extend each other without end"),
    ({"index.html.j2": "<html>\n\n{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}\n"}, "brackets nested more than 100"),
])
def test_a_site_template_that_includes_itself_is_one_line(copy_project, files: dict[str, str], words: str) -> None:
    from generator.render.site.gallery import render_gallery

    site = copy_project.templates_dir / "site"
    site.mkdir(exist_ok=True)
    for name, text in files.items():
        (site / name).write_text(text)
    with pytest.raises(DataError) as caught:
        render_gallery(copy_project, [])
    assert caught.value.location.file == "templates/site/index.html.j2"
    assert words in caught.value.message and "\n" not in str(caught.value)
    if "brackets" in words:
        assert caught.value.location.line == 3


@pytest.mark.parametrize(("element", "words"), [
    ("{name: p, type: pips, icon: anchor, count: 1e9, w: 10, h: 10, size: 2}", "count must be within -10000..10000"),
    ("{name: p, type: pips, icon: anchor, count: 5000, w: 10, h: 10, size: 2}", "count must be a whole number 0..400"),
    ("{name: p, type: pips, icon: anchor, count: 3, columns: 1e9, w: 10, h: 10, size: 2}", "columns must be within"),
    ("{name: t, type: track, first: 1, last: 1e9, w: 10, h: 5}", "last must be within -10000..10000"),
    ("{name: t, type: track, first: -5000, last: 5000, w: 10, h: 5}", "first must be a whole number -400..400"),
    ("{name: t, type: rect, x: -1e308, w: 1.7e308, h: 5}", "x must be within -10000..10000, got '-1e308'"),
    ("{name: t, type: rect, x: 0, w: 1.7e+308, h: 5}", "w must be within -10000..10000, got 1.7e+308"),
])
def test_huge_counts_and_sizes_end_at_their_line(fresh_project, element: str, words: str) -> None:
    error = layout_error(fresh_project, f"elements:\n  - {element}\n")
    assert (error.location.file, error.location.line) == (LAYOUT, 2)
    assert words in error.message, error.message


def test_a_billion_laughs_layout_under_the_alias_cap_is_one_line(fresh_project) -> None:
    anchors = "\n".join([f"  l0: &l0 [{', '.join(['1'] * 9)}]"]
                        + [f"  l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]" for n in range(1, 8)])
    error = layout_error(fresh_project, f"vars:\n{anchors}\nelements:\n  - {{name: t, type: rect, w: 1, h: 1}}\n")
    assert error.location.file == LAYOUT and error.location.line == 8  # l6: the first that expands past the cap
    assert "aliases ('*' references) expand to more than" in error.message
