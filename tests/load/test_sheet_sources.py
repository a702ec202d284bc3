"""Items from spreadsheets: CSV and XLSX rows become items checked exactly like YAML entries, errors name
file:row:column, and `pnp export-items` writes a sheet that builds the very same faces."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import DataError, Location
from generator.load import load_game
from generator.load.sheets import parse_csv, write_csv
from generator.model import NAMED_SIZES, Component, FieldSpec, Item
from generator.project import Project
from tests.helpers import copy_sources, run_pnp

GAME_YAML = """\
game:
  id: toy
  title: Toy Game
  players: {min: 2, max: 4}
  play_time: 20
  age: 8
"""

CARDS_YAML = """\
components:
  - id: crew
    kind: card
    name: crew card
    size: poker
    front: toy/crew
    fields:
      suit: {type: enum, values: [red, blue]}
      rank: {type: int, min: 1, max: 20}
      power: {type: number, default: 0}
      captain: {type: bool, default: false}
      tags: {type: list, default: []}
      code: {type: str, required: false}
      text: {type: text, default: ""}
    items: ITEMS
"""

CREW_CSV = """\
id,count,suit,rank,power,captain,tags,code,text
red-1,3,red,1,2.5,yes,boat; 2,007,"Take 1 gold.
Then pass."
blue-7,,blue,7,,FALSE,,,
"""


def toy(tmp_path: Path, items: str = "{from: crew.csv}", sheet: str | None = CREW_CSV,
        name: str = "crew.csv") -> Project:
    folder = tmp_path / "data" / "toy"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS_YAML.replace("ITEMS", items), encoding="utf-8")
    if sheet is not None:
        (folder / name).write_text(sheet, encoding="utf-8")
    return Project.at(tmp_path)


def error_of(project: Project) -> str:
    with pytest.raises(DataError) as info:
        load_game(project, "toy")
    return str(info.value)


# --- CSV ---------------------------------------------------------------------------------


def test_csv_rows_become_items_with_typed_cells_and_counts(tmp_path: Path) -> None:
    crew = load_game(toy(tmp_path), "toy").component("crew")
    red, blue = crew.items
    assert (red.id, red.count, blue.id, blue.count) == ("red-1", 3, "blue-7", 1)
    assert dict(red.fields) == {"suit": "red", "rank": 1, "power": 2.5, "captain": True, "tags": ("boat", 2),
                                "code": "007", "text": "Take 1 gold.\nThen pass."}
    # empty cells are values not given: defaults apply, optional fields stay empty
    assert dict(blue.fields) == {"suit": "blue", "rank": 7, "power": 0, "captain": False, "tags": (),
                                 "code": None, "text": ""}
    assert crew.count == 4
    assert str(red.location) == "data/toy/crew.csv:2" and str(blue.location) == "data/toy/crew.csv:4"


def test_sheet_rows_sit_beside_yaml_entries_and_share_their_ids(tmp_path: Path) -> None:
    items = "\n      - {id: blue-1, suit: blue, rank: 1}\n      - from: crew.csv"
    crew = load_game(toy(tmp_path, items), "toy").component("crew")
    assert [i.id for i in crew.items] == ["blue-1", "red-1", "blue-7"]


def test_a_duplicate_id_between_yaml_and_sheet_names_both_places(tmp_path: Path) -> None:
    items = "\n      - {id: red-1, suit: red, rank: 1}\n      - from: crew.csv"
    message = error_of(toy(tmp_path, items))
    assert message.startswith("data/toy/crew.csv:2:id: duplicate crew card id 'red-1'")
    assert "cards.yaml:" in message


@pytest.mark.parametrize(("sheet", "expected"), [
    ("id,suit,rank\nred-1,red,1\nred-2,red,two\n",
     "data/toy/crew.csv:3:rank: crew card 'red-2' 'rank' must be an integer 1..20, got 'two'"),
    ("id,suit,rank\nred-1,red,21\n",
     "data/toy/crew.csv:2:rank: crew card 'red-1' 'rank' must be an integer 1..20, got 21"),
    ("id,suit,rank\nred-1,green,1\n",
     "data/toy/crew.csv:2:suit: crew card 'red-1' 'suit' must be one of 'red', 'blue', got 'green'"),
    ("id,suit,rank,captain\nred-1,red,1,maybe\n",
     "data/toy/crew.csv:2:captain: crew card 'red-1' 'captain' must be true or false, got 'maybe'"),
    ("id,suit,rnak\nred-1,red,1\n", "data/toy/crew.csv:1:rnak: unknown column 'rnak'; did you mean 'rank'?"),
    ("id,suit\nred-1,red\n", "data/toy/crew.csv:2: crew card 'red-1' is missing field 'rank' (an integer 1..20)"),
    ("suit,rank\nred,1\n", "data/toy/crew.csv:1: the header has no 'id' column"),
    ("id,suit,rank\n,red,1\n", "data/toy/crew.csv:2:id: the row has no id"),
    ("id,suit,rank\nRed 1,red,1\n", "data/toy/crew.csv:2:id: crew card id 'Red 1' must be lower-case"),
    ("id,suit,rank\nred-1,red,1\nred-1,red,2\n",
     "data/toy/crew.csv:3:id: duplicate crew card id 'red-1' (first defined at data/toy/crew.csv:2)"),
    ("id,count,suit,rank\nred-1,-1,red,1\n",
     "data/toy/crew.csv:2:count: crew card 'red-1' 'count' must be an integer 0..1000, got -1"),
    ("id,count,suit,rank\nred-1,lots,red,1\n", "data/toy/crew.csv:2:count: crew card 'red-1' 'count' must be"),
    ("id,suit,rank\nred-1,red,1,extra\n", "data/toy/crew.csv:2: the row has 4 or more cells but the header names 3"),
    ("id,suit,suit\nred-1,red,red\n", "data/toy/crew.csv:1:suit: column 'suit' is named twice"),
    ("id,suit,rank,back.rank\nred-1,red,1,2\n", "data/toy/crew.csv:1:back.rank: column 'back.rank' gives a back "
                                               "face, but the component is not double_sided"),
    ('id,suit,rank\nred-1,"red,1\n', "data/toy/crew.csv:2: not valid CSV"),
    ("", "data/toy/crew.csv:1: the sheet is empty"),
])
def test_csv_errors_name_file_row_and_column(tmp_path: Path, sheet: str, expected: str) -> None:
    assert error_of(toy(tmp_path, sheet=sheet)).startswith(expected)


@pytest.mark.parametrize(("items", "expected"), [
    ("{from: ../other/crew.csv}", "data/toy/cards.yaml:15: items 'from' '../other/crew.csv' must be a file in the "
                                  "game's folder"),
    ("{from: /etc/passwd.csv}", "must be a file in the game's folder"),
    ("{from: crew.txt}", "items 'from' 'crew.txt' must be a .csv or .xlsx file"),
    ("{from: missing.csv}", "data/toy/cards.yaml:15: data/toy/missing.csv does not exist"),
    ("{from: crew.csv, sheet: Crew}", "'sheet: Crew' names a worksheet, but crew.csv is a CSV file"),
    ("{from: crew.csv, form: x}", "unknown key 'form'"),
])
def test_bad_sources_are_refused_at_the_yaml_line(tmp_path: Path, items: str, expected: str) -> None:
    assert expected in error_of(toy(tmp_path, items))


def test_a_symlinked_sheet_leading_outside_the_project_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.csv"
    outside.write_text(CREW_CSV, encoding="utf-8")
    project = toy(tmp_path / "project", sheet=None)
    (project.data_dir / "toy" / "crew.csv").symlink_to(outside)
    assert "leads outside the project" in error_of(project)


def test_excel_csv_with_byte_order_mark_and_crlf_line_ends_reads_the_same(tmp_path: Path) -> None:
    project = toy(tmp_path, sheet=None)
    (project.data_dir / "toy" / "crew.csv").write_bytes(b"\xef\xbb\xbf" + CREW_CSV.replace("\n", "\r\n").encode())
    red = load_game(project, "toy").component("crew").items[0]
    assert red.id == "red-1" and red["text"] == "Take 1 gold.\r\nThen pass."


def test_the_sheet_is_a_recorded_input_so_caches_see_its_edits(tmp_path: Path) -> None:
    project = toy(tmp_path)
    with project.gate.recording() as reads:
        load_game(project, "toy")
    assert "data/toy/crew.csv" in reads.as_dict()


def test_cli_reports_a_sheet_error_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy_sources(tmp_path)
    folder = tmp_path / "data" / "pirate-tricks"
    point_items_at(folder / "crew.yaml", "crew", "crew.csv")
    (folder / "crew.csv").write_text("id,suit,rank\nred-1,red,1\nred-2,red,x\n", encoding="utf-8")
    code, _out, err = run_pnp(capsys, "--root", str(tmp_path), "show", "pirate-tricks")
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines() == [
        "pnp: data/pirate-tricks/crew.csv:3:rank: crew card 'red-2' 'rank' must be an integer 1..20, got 'x'"]


# --- XLSX --------------------------------------------------------------------------------


def workbook(rows: list[list[object]], title: str = "Crew") -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def toy_xlsx(tmp_path: Path, rows: list[list[object]], items: str = "{from: crew.xlsx}") -> Project:
    project = toy(tmp_path, items, sheet=None)
    (project.data_dir / "toy" / "crew.xlsx").write_bytes(workbook(rows))
    return project


XLSX_ROWS: list[list[object]] = [
    ["id", "count", "suit", "rank", "power", "captain", "tags", "code"],
    ["red-1", 2, "red", 1, 1.5, True, "boat; 2", 7],
    [None, None, None, None, None, None, None, None],
    ["blue-2", None, "blue", 2.0, "3", "no", None, None],
]


def test_xlsx_typed_cells_become_items(tmp_path: Path) -> None:
    red, blue = load_game(toy_xlsx(tmp_path, XLSX_ROWS), "toy").component("crew").items
    assert (red.count, red["rank"], red["power"], red["captain"], red["tags"], red["code"]) == (
        2, 1, 1.5, True, ("boat", 2), "7")
    assert (blue.count, blue["rank"], blue["power"], blue["captain"]) == (1, 2, 3, False)
    assert str(blue.location) == "data/toy/crew.xlsx:4"


def test_xlsx_names_a_worksheet(tmp_path: Path) -> None:
    project = toy_xlsx(tmp_path, XLSX_ROWS, "{from: crew.xlsx, sheet: Crew}")
    assert len(load_game(project, "toy").component("crew").items) == 2
    project = toy_xlsx(tmp_path / "other", XLSX_ROWS, "{from: crew.xlsx, sheet: Sheet9}")
    assert "data/toy/crew.xlsx has no worksheet 'Sheet9' (worksheets: Crew)" in error_of(project)


@pytest.mark.parametrize(("rows", "expected"), [
    ([["id", "suit", "rank"], ["red-1", "red", 2.5]],
     "data/toy/crew.xlsx:2:rank: crew card 'red-1' 'rank' must be an integer 1..20, got 2.5"),
    ([["id", "suit", "rank"], ["red-1", "red", 1], ["red-2", "red", True]],
     "data/toy/crew.xlsx:3:rank: crew card 'red-2' 'rank' must be an integer 1..20, got True"),
    ([["id", "suit", "rank", "colour"], ["red-1", "red", 1, "x"]], "data/toy/crew.xlsx:1:colour: unknown column"),
])
def test_xlsx_errors_name_file_row_and_column(tmp_path: Path, rows: list[list[object]], expected: str) -> None:
    assert error_of(toy_xlsx(tmp_path, rows)).startswith(expected)


def test_a_broken_workbook_is_one_clear_error(tmp_path: Path) -> None:
    project = toy(tmp_path, "{from: crew.xlsx}", sheet=None)
    (project.data_dir / "toy" / "crew.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    assert error_of(project).startswith("data/toy/crew.xlsx: not a readable XLSX workbook")


# --- export and round trip ---------------------------------------------------------------------


def point_items_at(yaml_path: Path, component: str, sheet: str) -> None:
    """Replace a component's `items:` block in a data file by `items: {from: SHEET}`."""
    lines = yaml_path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {component}")
    items = next(i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("items:"))
    end = next((i for i in range(items + 1, len(lines)) if lines[i].startswith("  - id:")), len(lines))
    while end > items + 1 and not lines[end - 1].strip():
        end -= 1
    lines[items:end] = [f"    items: {{from: {sheet}}}\n"]
    yaml_path.write_text("".join(lines), encoding="utf-8")


# (game, data file, component): generated ids, a list field, a double-sided back of its own
ROUND_TRIPS = [("pirate-tricks", "crew.yaml", "crew"), ("pirate-tricks", "score.yaml", "treasure"),
               ("pirates-under-fire", "tiles.yaml", "ship")]


@pytest.mark.slow
def test_exported_items_build_byte_identical_sheets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = copy_sources(tmp_path)
    root = str(tmp_path)

    def build() -> dict[str, bytes]:
        for game in ("pirate-tricks", "pirates-under-fire"):
            only = [arg for g, _f, c in ROUND_TRIPS if g == game for arg in ("--only", c)]
            code, _out, err = run_pnp(capsys, "--root", root, "build", game, *only, "--paper", "a4",
                                      "--no-gallery", "--clean", "-q")
            assert code == 0, err
        return {p.name: p.read_bytes() for p in sorted(project.output_dir.glob("*/*.pdf"))}

    before = build()
    assert len(before) == 3
    for game, data_file, component in ROUND_TRIPS:
        sheet = tmp_path / "data" / game / f"{component}.csv"
        code, _out, err = run_pnp(capsys, "--root", root, "export-items", game, component, "--csv", "--out", str(sheet))
        assert code == 0, err
        point_items_at(tmp_path / "data" / game / data_file, component, sheet.name)
    for game, _data_file, component in ROUND_TRIPS:
        reloaded = load_game(Project.at(tmp_path), game).component(component)
        assert all(item.location.file.endswith(".csv") for item in reloaded.items)
    for pdf in project.output_dir.glob("*/*.pdf"):
        pdf.unlink()
    assert build() == before


def test_export_prints_csv_and_refuses_an_unknown_component(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_pnp(capsys, "export-items", "pirates-under-fire", "ship")
    assert code == 0
    assert out.splitlines()[0] == "id,count,fleet,number,name,ability,text,art,side,back.side"
    assert out.splitlines()[1].startswith("red-1,1,red,1,Broadside,broadside,")
    assert out.splitlines()[1].endswith(",active,fire")
    code, _out, err = run_pnp(capsys, "export-items", "pirates-under-fire", "shipp")
    assert code == 2 and "has no component 'shipp' (components: ship," in err


def test_export_says_to_move_a_sheet_written_outside_the_games_folder(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    copy_sources(tmp_path)
    root = str(tmp_path)
    inside = tmp_path / "data" / "pirates-under-fire" / "ships.csv"
    code, _out, err = run_pnp(capsys, "--root", root, "export-items", "pirates-under-fire", "ship", "--out", str(inside))
    assert code == 0 and "move it" not in err and "'items: {from: ships.csv}' in data/pirates-under-fire/" in err
    outside = tmp_path / "ships.csv"
    code, _out, err = run_pnp(capsys, "--root", root, "export-items", "pirates-under-fire", "ship", "--out", str(outside))
    assert code == 0 and "move it into data/pirates-under-fire/, then point the component at it" in err


TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.tuples(TEXT.filter(lambda t: t.strip() != ""), st.integers(-50, 50),
                                  st.booleans(), st.floats(allow_nan=False, allow_infinity=False, width=32)),
                        min_size=1, max_size=5))
def test_any_text_number_and_flag_survives_export_and_reading(values: list[tuple[str, int, bool, float]]) -> None:
    """Quotes, commas, newlines and unicode in text, and any number, read back as they were written."""
    from generator.load.items import parse_items

    specs = (FieldSpec("text", "text"), FieldSpec("n", "int"), FieldSpec("flag", "bool"), FieldSpec("x", "number"))
    items = tuple(Item(f"i{k}", "c", 1, {"text": t, "n": n, "flag": b, "x": x}, Location("c.yaml", 1))
                  for k, (t, n, b, x) in enumerate(values))
    component = Component("c", "card", "card", "cards", NAMED_SIZES["poker"], "g/c", None, False, specs, items, Location("c.yaml", 1))
    sheet = parse_csv(write_csv(component).encode("utf-8"), "c.csv")
    read = parse_items({"from": "c.csv"}, "c", "card", specs, False, Location("c.yaml", 1), [],
                       lambda _source, _ws, _where: sheet)
    assert [dict(i.fields) for i in read] == [dict(i.fields) for i in items]


def test_editing_the_sheet_rebuilds_what_it_feeds_exactly_as_a_clean_build(tmp_path: Path) -> None:
    """The sheet is a recorded input of the build: an edited cell redraws, and the result equals a clean build."""
    from generator.build.options import BuildOptions
    from generator.build.session import build

    project = copy_sources(tmp_path)
    folder = project.data_dir / "pirate-tricks"
    point_items_at(folder / "crew.yaml", "crew", "crew.csv")
    (folder / "crew.csv").write_text("id,suit,rank\nred-1,red,1\nred-2,red,2\n", encoding="utf-8")
    options = BuildOptions(papers=("a4",), exports=("sheets",), only=("crew",))
    build(project, ["pirate-tricks"], options, force=True)
    sheet = project.output_dir / "pirate-tricks" / "pirate-tricks-crew-a4-duplex-long.pdf"
    before = sheet.read_bytes()
    (folder / "crew.csv").write_text("id,suit,rank\nred-1,red,1\nred-2,red,7\n", encoding="utf-8")
    again = build(project, ["pirate-tricks"], options, force=True)
    assert again.summary.ran and sheet.read_bytes() != before
    edited = sheet.read_bytes()
    build(project, ["pirate-tricks"], options, force=True, clean=True)
    assert sheet.read_bytes() == edited


def test_a_designed_cell_is_listed_with_the_design_decisions(tmp_path: Path) -> None:
    sheet = "id,suit,rank,designed\nred-1,red,1,The one red card we kept.\n"
    game = load_game(toy(tmp_path, sheet=sheet), "toy")
    assert [(str(d.location), d.text) for d in game.decisions] == [
        ("data/toy/crew.csv:2:designed", "The one red card we kept.")]


def test_pnp_watch_rebuilds_when_a_sheet_is_saved() -> None:
    from generator.cli.watch import _relevant

    assert _relevant(Path("data/pirate-tricks/crew.csv")) and _relevant(Path("data/pirate-tricks/crew.xlsx"))
    assert not _relevant(Path("data/pirate-tricks/.~lock.crew.csv#"))


def rewritten(data: bytes, sheet_xml: Callable[[str], str]) -> bytes:
    """The workbook `data` with its first worksheet's XML changed by `sheet_xml` (deflated, as Excel saves)."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            body = source.read(entry)
            if entry.filename == "xl/worksheets/sheet1.xml":
                body = sheet_xml(body.decode("utf-8")).encode("utf-8")
            target.writestr(entry.filename, body)
    return out.getvalue()


@pytest.mark.slow
def test_an_xlsx_bomb_is_refused_before_it_is_unzipped(tmp_path: Path) -> None:
    project = toy(tmp_path, "{from: crew.xlsx}", sheet=None)
    padding = "<!--" + " " * (80 << 20) + "-->"  # 80 MB of XML that deflates to a fraction of a megabyte
    bomb = rewritten(workbook(XLSX_ROWS), lambda xml: xml.replace("<sheetData>", padding + "<sheetData>", 1))
    assert len(bomb) < 1 << 20
    (project.data_dir / "toy" / "crew.xlsx").write_bytes(bomb)
    assert error_of(project) == ("data/toy/crew.xlsx: the workbook unzips to 80 MB (at most 64 MB); a sheet of "
                                 "items is a few MB: save only the items' sheet")


def test_a_declared_width_of_16384_columns_is_not_read_cell_by_cell(tmp_path: Path) -> None:
    rows: list[list[object]] = [["id", "suit", "rank"], ["red-1", "red", 1], *([[None]] * 3000)]
    data = rewritten(workbook(rows), lambda xml: re.sub(r'<dimension ref="[^"]*"', '<dimension ref="A1:XFD3002"', xml))
    project = toy(tmp_path, "{from: crew.xlsx}", sheet=None)
    (project.data_dir / "toy" / "crew.xlsx").write_bytes(data)
    assert [item.id for item in load_game(project, "toy").component("crew").items] == ["red-1"]

