"""`pnp init` and `pnp new`: a designer's own project outside this repository, with games that build at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.starter import STARTER, renamed
from tests.helpers import REPO, run_pnp


def _pnp(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """`pnp` as a designer runs it: a new process, in their project folder (not in this repository)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "generator", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)


@pytest.mark.slow
def test_init_and_new_make_a_project_that_validates_and_builds(tmp_path: Path) -> None:
    assert not tmp_path.is_relative_to(REPO)
    made = _pnp(tmp_path, "init", "studio")
    assert made.returncode == 0 and made.stdout == "next: cd studio && pnp new my-game\n", made.stderr
    root = tmp_path / "studio"
    assert sorted(p.name for p in root.iterdir()) == [".gitignore", "README.md", "art", "data", "fonts", "templates"]
    assert _pnp(root, "new", "treasure-hunt").returncode == 0

    validated = _pnp(root, "validate", "--failures-only")
    assert validated.returncode == 0 and validated.stdout.startswith("treasure-hunt: "), validated.stdout
    built = _pnp(root, "-q", "build", "--paper", "a4")
    assert built.returncode == 0, built.stderr
    out = root / "output" / "treasure-hunt"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["treasure-hunt-card-a4-duplex-long.pdf",
                                                         "treasure-hunt-rules-a4.pdf"]
    assert "Treasure Hunt" in (root / "output" / "index.html").read_text(encoding="utf-8")
    rules = _pdf_text(out / "treasure-hunt-rules-a4.pdf")
    assert "What is in the box" in rules and "How to print and assemble" in rules  # the shared last page too


def _pdf_text(path: Path) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


@pytest.mark.slow
def test_the_starter_game_counts_and_lays_out_right(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_pnp(capsys, "init", str(tmp_path / "p"))
    root = str(tmp_path / "p")
    code, out, err = run_pnp(capsys, "--root", root, "new", "sea-dogs", "--title", "Sea Dogs: A Card Game")
    assert code == 0, err
    assert out == "made sea-dogs: pnp validate sea-dogs, then pnp build sea-dogs\n"
    assert err.splitlines() == [f"wrote {name}" for name in (
        "data/sea-dogs/cards.yaml", "data/sea-dogs/game.yaml", "templates/layouts/sea-dogs/back.yaml",
        "templates/layouts/sea-dogs/card.yaml", "templates/rulebooks/sea-dogs.md.j2")]
    game = yaml.safe_load((tmp_path / "p" / "data" / "sea-dogs" / "game.yaml").read_text(encoding="utf-8"))
    assert game["game"]["id"] == "sea-dogs" and game["game"]["title"] == "Sea Dogs: A Card Game"
    code, out, err = run_pnp(capsys, "--root", root, "validate", "-v")  # every check listed, not only the verdict
    assert code == 0, out + err
    for check in ("contents: treasure cards", "layout sea-dogs/card (card front)", "layout sea-dogs/back (card back)",
                  "preflight sea-dogs/card (card front)", "document templates/rulebooks/sea-dogs.md.j2 renders"):
        assert check in out


def test_new_with_csv_keeps_the_cards_in_a_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_pnp(capsys, "init", str(tmp_path))
    code, _out, err = run_pnp(capsys, "--root", str(tmp_path), "new", "sheet-game", "--csv")
    assert code == 0, err
    folder = tmp_path / "data" / "sheet-game"
    assert "items: {from: cards.csv}" in (folder / "cards.yaml").read_text(encoding="utf-8")
    sheet = folder / "cards.csv"
    assert sheet.read_text(encoding="utf-8").splitlines()[0] == "id,count,name,value,text"
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "validate", "--failures-only")
    assert code == 0, out + err
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("cutlass,3,", "cutlass,4,"), encoding="utf-8")
    code, out, _err = run_pnp(capsys, "--root", str(tmp_path), "validate", "--failures-only")
    assert code == 1 and "contents: treasure cards" in out and "13" in out  # the sheet is the source of the count


@pytest.mark.slow
def test_new_from_a_shipped_game_renames_its_id_and_layouts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_pnp(capsys, "init", str(tmp_path))
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "-q", "new", "my-ports", "--from", "counterattack")
    assert (code, out, err) == (0, "made my-ports (a copy of counterattack): pnp validate my-ports, then pnp build "
                                   "my-ports\n", "")
    cards = (tmp_path / "data" / "my-ports" / "cards.yaml").read_text(encoding="utf-8")
    assert "front: my-ports/port" in cards and "counterattack/" not in cards
    shipped = (REPO / "data" / "counterattack" / "cards.yaml").read_text(encoding="utf-8")
    assert cards == shipped.replace("counterattack/", "my-ports/")  # nothing else changed, comments included
    frame = (tmp_path / "templates" / "layouts" / "my-ports" / "port.yaml").read_text(encoding="utf-8")
    assert "extends: my-ports/frame" in frame
    assert 'path: "art/my-ports/{{ card.art }}.svg"' in frame  # the port's art, copied along with its licence
    assert {p.name for p in (tmp_path / "templates" / "art" / "my-ports").iterdir()} >= {"tortuga.svg",
                                                                                       "LICENCE-game-icons.md"}
    assert (tmp_path / "templates" / "sheets" / "my-ports").is_dir()
    code, out, err = run_pnp(capsys, "--root", str(tmp_path), "validate", "--failures-only")
    assert code == 0, out + err  # a copy of a game with an engine is a data-only game: it validates without it
    code, _out, err = run_pnp(capsys, "--root", str(tmp_path), "simulate", "my-ports")
    assert code == 2 and err.startswith("pnp: my-ports has no rules engine")


def test_new_from_a_game_of_the_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_pnp(capsys, "init", str(tmp_path))
    run_pnp(capsys, "--root", str(tmp_path), "new", "first", "--csv")
    code, _out, err = run_pnp(capsys, "--root", str(tmp_path), "new", "second", "--from", "first", "--title", "Two")
    assert code == 0, err
    assert (tmp_path / "data" / "second" / "cards.csv").read_bytes() == (tmp_path / "data" / "first" / "cards.csv").read_bytes()
    game = yaml.safe_load((tmp_path / "data" / "second" / "game.yaml").read_text(encoding="utf-8"))["game"]
    assert (game["id"], game["title"]) == ("second", "Two")
    code, out, _err = run_pnp(capsys, "--root", str(tmp_path), "list")
    assert code == 0 and "Two" in out and "First" in out


def test_what_pnp_new_and_init_refuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_pnp(capsys, "--root", str(tmp_path), "new", "orphan")
    assert code == 2 and err == (f"pnp: {tmp_path} is not a Pirate Press project (no data/ or templates/ folder): make "
                                 "one with 'pnp init DIR', or give its folder with --root\n")
    run_pnp(capsys, "init", str(tmp_path / "p"))
    root = str(tmp_path / "p")
    refusals = {
        ("new", "My Game"): "game id 'My Game' must be lower-case letters and digits in words joined by '-'",
        ("new", "x", "--from", "no-such-game"): "--from 'no-such-game': no such game (games: all-hands-on-deck",
        ("new", "x", "--from", "counterattack", "--csv"): "--csv shapes the starter's cards; --from copies",
        ("init", root): "is not empty; pnp init makes a project in a new or empty folder",
    }
    for argv, message in refusals.items():
        code, out, err = run_pnp(capsys, "--root", root, *argv)
        assert code == 2 and out == "" and err.startswith("pnp: ") and message in err and err.count("\n") == 1, argv
    assert run_pnp(capsys, "--root", root, "new", "taken")[0] == 0
    code, _out, err = run_pnp(capsys, "--root", root, "new", "taken", "--csv")
    assert code == 2 and err == "pnp: data/taken already exists: game 'taken' is taken; choose another id or remove it\n"
    assert not (tmp_path / "p" / "data" / "taken" / "cards.csv").exists()  # nothing of the refused game written
    assert sorted(p.name for p in (tmp_path / "p" / "data").iterdir()) == ["taken"]


def test_a_failure_part_way_leaves_nothing_of_the_new_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_pnp(capsys, "init", str(tmp_path))
    (tmp_path / "templates" / "layouts").rmdir()
    (tmp_path / "templates" / "layouts").write_text("a file where the layouts folder belongs")
    code, _out, err = run_pnp(capsys, "--root", str(tmp_path), "new", "half")
    assert code == 2 and err.startswith("pnp: cannot write ") and "templates/layouts is a file where a folder is needed" in err
    assert not (tmp_path / "data" / "half").exists() and not (tmp_path / "templates" / "rulebooks" / "half.md.j2").exists()


def test_the_starter_s_last_rulebook_page_is_the_shipped_one() -> None:
    """A project gets the same "How to print and assemble" page as the shipped games: keep the copy in step."""
    starter = STARTER / "project" / "templates" / "rulebooks" / "how-to-print.md.j2"
    assert starter.read_bytes() == (REPO / "templates" / "rulebooks" / "how-to-print.md.j2").read_bytes()


def test_renaming_finds_values_by_parsing_not_by_searching() -> None:
    text = ("# from old/frame, the comment stays\n"
            "game: {id: old, title: 'Old: the game'}\n"
            "components:\n"
            "  - {id: old, front: \"old/front\", back: old/back}   # a component may share the game's id\n"
            "  - id: deck\n"
            "    front: old-school/front\n"
            "extends: old/frame\n"
            "note: old/frame\n")
    assert renamed(text, "old", "new", "game.yaml", title="New") == (
        "# from old/frame, the comment stays\n"
        "game: {id: new, title: \"New\"}\n"
        "components:\n"
        "  - {id: old, front: \"new/front\", back: new/back}   # a component may share the game's id\n"
        "  - id: deck\n"
        "    front: old-school/front\n"
        "extends: new/frame\n"
        "note: old/frame\n")
