"""Template mistakes are DataErrors pointing at the template line; the sandbox holds."""

from __future__ import annotations

import pytest

from generator.errors import DataError
from generator.load import load_game
from generator.render.documents import markup
from generator.render.documents.rulebook import rulebook_pdf

GOOD_HEAD = "# Title\n\nSome text.\n"


def _book(copy_project, body: str):
    path = copy_project.templates_dir / "rulebooks" / "counterattack.md.j2"
    path.write_text(body)
    game = load_game(copy_project, "counterattack")
    with pytest.raises(DataError) as caught:
        rulebook_pdf(game, copy_project, "a4")
    return caught.value


@pytest.mark.slow
@pytest.mark.parametrize("body, line, words", [
    (GOOD_HEAD + "\n{{ game.no_such_thing }}\n", 5, "no_such_thing"),
    (GOOD_HEAD + "{% for x in rules %}\n", 0, "syntax"),
    (GOOD_HEAD + "\n| a | b |\n|---|---|\n| c |\n", 7, "cells"),
    (GOOD_HEAD + "\nThis is **bold but unclosed.\n", 5, "unpaired"),
    (GOOD_HEAD + "\n::: wobble\n", 5, "unknown directive"),
    (GOOD_HEAD + "\n![x](port/atlantis)\n", 5, "unknown item"),
    (GOOD_HEAD + "\n{{ ''.__class__ }}\n", 5, ""),
    (GOOD_HEAD + "\n{% include '../../../../etc/passwd' %}\n", 5, "{% include %}, {% import %} and {% extends %} are not"),
    (GOOD_HEAD + "\n::: scene 100 wide\n+ label 1 1 x\n", 5, "needs 2 numbers"),
    (GOOD_HEAD + "\n::: scene 100 50 A scene\n+ label 1 1 fine\n+ face port/atlantis 0 0\n", 7, "unknown item"),
    (GOOD_HEAD + "\n::: scene 100 50 A scene\n+ face port/tortuga 0 0 turn 45\n", 6, "90, 180 or 270"),
    (GOOD_HEAD + "\n::: scene 100 50 A scene\n+ circle 1 1\n", 6, "unknown scene line"),
    (GOOD_HEAD + "\n::: scene 100 50 A scene\n+ face port/tortuga 0 0 counted\n", 6, "'counted' to show N"),
    (GOOD_HEAD + "\nFine.\n\n::: spacer 400\n\nMore.\n", 7, "taller than a page"),
    (GOOD_HEAD + "{% set ports = component('port') %}\n{% for p in ports.items %}\n| {{ p.name }} |\n"
     "{% endfor %}\n| x | y |\n", 8, "cells"),
])
def test_bad_template_points_at_line(copy_project, body, line, words):
    error = _book(copy_project, body)
    assert error.location is not None
    assert error.location.file == "templates/rulebooks/counterattack.md.j2"
    if line:
        assert error.location.line == line
    else:
        assert error.location.line > 0
    assert words.lower() in error.message.lower()


@pytest.mark.parametrize("expression, said", [
    ("game.titel", "Game has no 'titel' (did you mean 'title'?)"),
    ("rules.ports_to_wim", "the data has no 'ports_to_wim' (did you mean 'ports_to_win'?)"),
    ("component('port').items[0].trickz", "Item has no 'trickz' (did you mean 'tricks'?)"),  # an item's field
])
def test_a_misspelt_name_is_said_in_the_datas_words_with_the_likely_one(copy_project, expression, said):
    error = _book(copy_project, GOOD_HEAD + "\n{{ " + expression + " }}\n")
    assert error.message == f"template uses a name the data lacks: {said}"


def test_sandbox_refuses_mutation(copy_project):
    error = _book(copy_project, GOOD_HEAD + "\n{{ game.credits.append(1) }}\n")
    assert error.location.line == 5


def test_missing_template(copy_project):
    (copy_project.templates_dir / "rulebooks" / "counterattack.md.j2").unlink()
    game = load_game(copy_project, "counterattack")
    with pytest.raises(DataError, match="no rulebook template"):
        rulebook_pdf(game, copy_project, "a4")


def test_markup_blocks():
    lines = list(enumerate([
        "## Head", "", "para *it* and **b**", "more", "", "- one", "  cont", "- two", "",
        "1. first", "2. second", "", "| h | [[f]] |", "|---|---|", "| a | [[ ]] |", "", "> **Ex** box", "> more",
        "::: pagebreak",
    ], start=1))
    blocks = markup.parse(lines, "t")
    kinds = [type(b).__name__ for b in blocks]
    assert kinds == ["Heading", "Paragraph", "ListBlock", "ListBlock", "Table", "Callout", "Directive"]
    assert blocks[1].text == "para *it* and **b** more"
    assert blocks[2].items == ("one cont", "two")
    assert blocks[4].rows[0][1] == markup.Field("f") and blocks[4].header
    assert markup.inline_to_para("a < b & **c** *d*") == "a &lt; b &amp; <b>c</b> <i>d</i>"


def _sheet_error(copy_project, body: str) -> DataError:
    from generator.render.documents.sheets import sheet_pdf

    folder = copy_project.templates_dir / "sheets" / "counterattack"
    path = folder / "bad.md.j2"
    path.write_text(body)
    game = load_game(copy_project, "counterattack")
    with pytest.raises(DataError) as caught:
        sheet_pdf(game, copy_project, path, "a4", fillable=True)
    return caught.value


@pytest.mark.parametrize("body, line, words", [
    ("::: copies many\n| a |\n", 1, "whole number"),
    ("::: frame nothing\n| a |\n", 1, "unknown component"),
    ("## Sheet\n\n::: landscape\n", 3, "sheet setting"),
    ("## Sheet\n\n::: slot ghost Put it here\n", 3, "unknown component"),
])
def test_bad_sheet_settings(copy_project, body, line, words):
    error = _sheet_error(copy_project, body)
    assert error.location.file == "templates/sheets/counterattack/bad.md.j2"
    assert error.location.line == line
    assert words in error.message


@pytest.mark.slow
def test_a_game_yaml_cut_short_is_blamed_on_game_yaml(project_copy, capsys) -> None:
    """A truncated game.yaml that still parses names the key it lacks at game.yaml, not only the template that
    first read it (issue 30); a misspelt name in a template stays the template's (above)."""
    from tests.helpers import run_pnp

    path = project_copy.data_dir / "counterattack" / "game.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("  ports_to_win:")])  # cut inside rules:, where the text still parses
    rules_line = text[:text.index("rules:")].count("\n") + 1
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack")
    assert code == 1 and "Traceback" not in out + err
    failures = [line.strip() for line in out.splitlines() if line.startswith("  ") and ": expected " in line]
    assert failures and all(f.startswith(f"data/counterattack/game.yaml:{rules_line}: ") for f in failures), failures
    assert any("the data has no 'ports_to_win'" in f and "campaign-log.md.j2:" in f and "cut short" in f
               for f in failures)


def test_a_character_no_font_draws_is_blamed_on_the_cards_line(project_copy, capsys) -> None:
    """The rulebook prints a port's name; a snowman in it is the card file's line to fix (issue 30)."""
    from tests.helpers import edit, run_pnp

    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "name: Tortuga,", 'name: "Tortuga \u2603",')
    line = next(n for n, text in enumerate(cards.read_text().splitlines(), 1) if "\u2603" in text)
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack")
    assert code == 1 and "Traceback" not in out + err
    failures = [text.strip() for text in out.splitlines() if text.startswith("  ") and ": expected " in text]
    assert failures and all(f.startswith(f"data/counterattack/cards.yaml:{line}: ") for f in failures), failures
    assert "port/tortuga: the fonts (Serif, Sans) cannot draw '\u2603' (U+2603 SNOWMAN)" in failures[0]
    assert "(printed by templates/rulebooks/counterattack.md.j2:" in failures[0]


def test_a_theme_cut_short_is_blamed_on_game_yaml_by_layouts_and_documents(project_copy, capsys) -> None:
    from tests.helpers import run_pnp

    path = project_copy.data_dir / "counterattack" / "game.yaml"
    text = path.read_text()
    skulls = text.index("    skulls:")
    path.write_text(text[:skulls] + text[text.index("\n", skulls) + 1:])  # the last suit lost
    suits_line = text[:text.index("  suits:")].count("\n") + 1
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack")
    assert code == 1 and "Traceback" not in out + err
    failures = [line.strip() for line in out.splitlines() if line.startswith("  ") and ": expected " in line]
    assert {f.split(": ")[0] for f in failures} == {f"data/counterattack/game.yaml:{suits_line}"}, failures
    assert any("layout counterattack/main" in f and "templates/layouts/counterattack/main.yaml:" in f for f in failures)
    assert any("rulebook template" in f and "the data has no 'skulls'" in f for f in failures)


@pytest.mark.slow
@pytest.mark.parametrize("accent", ["\u0330", "\u1ab0"])
def test_a_combining_accent_the_fonts_lack_is_an_error_at_the_card(project_copy, capsys, accent: str) -> None:
    """Never dropped from the page without a word: the faces' check (with the fallback font) or the rulebook's
    names the accent, at the card's line (issue 30)."""
    from tests.helpers import edit, run_pnp

    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "name: Tortuga,", f'name: "Tortuga a{accent}",')
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack")
    assert code == 1 and "Traceback" not in out + err
    failures = [line.strip() for line in out.splitlines() if line.startswith("  ") and ": expected " in line]
    assert failures and all(f.startswith("data/counterattack/cards.yaml:19: ") for f in failures), failures
    assert any(f"U+{ord(accent):04X}" in f for f in failures)
