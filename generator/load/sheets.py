"""Items from a spreadsheet: one row per item, one column per field (CSV or XLSX).

Designers keep card lists in spreadsheets, so a component may say
`items: {from: crew.csv}` (or list `- from: crew.xlsx` beside YAML entries).
The header row names the columns: `id`, optional `count` and `designed`, the
component's fields, and `back.<field>` for a double-sided item's own back.

Cells are typed by the field they fill, never guessed (`007` stays text in a
`str` field): an `int` cell holds `3`, a `number` `2.5`, a `bool` `true`/`false`
(also yes/no, 1/0), an `enum` one of its values, a `list` its entries separated by
`;` (entries written as whole numbers are numbers, as in YAML). An empty cell is
a value not given: the field's default applies, or it is missing. XLSX cells that
already hold numbers or booleans are taken as they are.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from generator.errors import DataError, Location
from generator.model import Component, FieldSpec
from generator.readgate import ReadGate

SHEET_SUFFIXES = (".csv", ".xlsx")
LIST_SEPARATOR = ";"
MAX_ROWS = 10_000
MAX_COLUMNS = 200
MAX_SHEET_BYTES = 16 << 20
MAX_UNPACKED_BYTES = 64 << 20  # an XLSX's XML once unzipped: a 10,000-row sheet is a few MB; a zip bomb is refused
ITEM_COLUMNS = ("id", "count", "designed")
BACK_PREFIX = "back."
TRUE_WORDS = ("true", "yes", "1")
FALSE_WORDS = ("false", "no", "0")
_INT_RE = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class SheetRow:
    """One item's row: its line (CSV) or row number (XLSX), and its non-empty cells by column."""

    line: int
    cells: dict[str, Any]


@dataclass(frozen=True)
class Sheet:
    """A spreadsheet read into rows; `name` is the file as errors show it (data/game/crew.csv)."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    header_line: int = 1

    def at(self, line: int, column: str = "") -> Location:
        return Location(self.name, line, column)


# (the `from:` value, the worksheet name or None, where `from:` stands) -> the sheet
SheetReader = Callable[[str, "str | None", Location], Sheet]


def sheet_reader(gate: ReadGate, folder: Path) -> SheetReader:
    """Read sheets named relative to a game folder, through the read gate (so cache keys cover them)."""

    def read(source: str, worksheet: str | None, where: Location) -> Sheet:
        relative = _checked_source(source, where)
        path = folder / relative
        data = gate.read_bytes(path, where, limit=MAX_SHEET_BYTES)
        name = gate.name(path)
        if relative.suffix.lower() == ".csv":
            if worksheet is not None:
                raise DataError(f"'sheet: {worksheet}' names a worksheet, but {source} is a CSV file with one "
                                "sheet; remove 'sheet:'", where)
            return parse_csv(data, name)
        return parse_xlsx(data, name, worksheet, where)

    return read


def _checked_source(source: str, where: Location) -> PurePosixPath:
    """A sheet lives in the game's folder: a relative path, no '..', a .csv or .xlsx name."""
    relative = PurePosixPath(source)
    if relative.is_absolute() or ".." in relative.parts or "\\" in source or not relative.parts:
        raise DataError(f"items 'from' {source!r} must be a file in the game's folder, like 'crew.csv' "
                        "(no absolute path, no '..')", where)
    if relative.suffix.lower() not in SHEET_SUFFIXES:
        raise DataError(f"items 'from' {source!r} must be a .csv or .xlsx file (a Google Sheet: "
                        "File > Download > Comma-separated values)", where)
    return relative


# -- reading -----------------------------------------------------------------------------


def parse_csv(data: bytes, name: str) -> Sheet:
    """A CSV file (UTF-8, with or without Excel's byte-order mark) as a sheet."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError("not UTF-8 text (export the sheet as 'CSV UTF-8')", Location(name, line)) from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    raw_rows: list[tuple[int, list[Any]]] = []
    start = 1
    try:
        for cells in reader:
            raw_rows.append((start, cells))
            start = reader.line_num + 1
            if len(raw_rows) > MAX_ROWS + 1:
                raise DataError(f"too many rows (at most {MAX_ROWS} items in one sheet)", Location(name, start))
    except csv.Error as exc:
        raise DataError(f"not valid CSV: {exc}", Location(name, reader.line_num or 1)) from None
    return _sheet(name, raw_rows)


def parse_xlsx(data: bytes, name: str, worksheet: str | None, where: Location) -> Sheet:
    """The first worksheet of an XLSX workbook (or the one named by `sheet:`) as a sheet."""
    import openpyxl  # imported here: only projects with XLSX sources pay for it

    _check_unpacked(data, name)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # an untrusted file may break the reader in many ways
        raise _unreadable(name, exc) from None
    try:
        if worksheet is None:
            sheet = book.worksheets[0]
        elif worksheet in book.sheetnames:
            sheet = book[worksheet]
        else:
            raise DataError(f"{name} has no worksheet {worksheet!r} (worksheets: {', '.join(book.sheetnames)})",
                            where)
        raw_rows: list[tuple[int, list[Any]]] = []
        # read-only rows are padded to the sheet's declared width (up to 16,384 columns): read one past the cap
        for number, values in enumerate(sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1), start=1):
            if len(values) > MAX_COLUMNS and not _blank(values[MAX_COLUMNS]):
                raise DataError(f"too many columns (at most {MAX_COLUMNS})", Location(name, number))
            raw_rows.append((number, list(values[:MAX_COLUMNS])))
            if len(raw_rows) > MAX_ROWS + 1:
                raise DataError(f"too many rows (at most {MAX_ROWS} items in one sheet)", Location(name, number))
    except DataError:
        raise
    except Exception as exc:  # a broken worksheet inside a readable zip
        raise _unreadable(name, exc) from None
    finally:
        book.close()
    return _sheet(name, raw_rows)


def _check_unpacked(data: bytes, name: str) -> None:
    """Refuse a workbook whose parts unzip past MAX_UNPACKED_BYTES before any is unzipped (zipfile stops
    a part at the size its entry declares, so the declared sizes bound the work)."""
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(entry.file_size for entry in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise _unreadable(name, exc) from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise DataError(f"the workbook unzips to {unpacked >> 20} MB (at most {MAX_UNPACKED_BYTES >> 20} MB); "
                        "a sheet of items is a few MB: save only the items' sheet", Location(name))


def _unreadable(name: str, exc: Exception) -> DataError:
    return DataError(f"not a readable XLSX workbook ({type(exc).__name__}); save it as .xlsx from Excel, "
                     "LibreOffice or Google Sheets", Location(name))


def _sheet(name: str, raw_rows: list[tuple[int, list[Any]]]) -> Sheet:
    """Header and rows; blank rows are skipped, blank trailing header cells are ignored."""
    rows = [(line, cells) for line, cells in raw_rows if any(not _blank(c) for c in cells)]
    if not rows:
        raise DataError("the sheet is empty: its first row must name the columns (id, count, and the "
                        "component's fields)", Location(name, 1))
    header_line, header = rows[0]
    columns = [str(c).strip() if not _blank(c) else "" for c in header]
    while columns and not columns[-1]:
        columns.pop()
    if len(columns) > MAX_COLUMNS:
        raise DataError(f"too many columns (at most {MAX_COLUMNS})", Location(name, header_line))
    for index, column in enumerate(columns):
        if not column:
            raise DataError(f"column {index + 1} of the header has no name; name it after a field or delete it",
                            Location(name, header_line))
        if column in columns[:index]:
            raise DataError(f"column {column!r} is named twice in the header", Location(name, header_line, column))
    sheet_rows = []
    for line, cells in rows[1:]:
        extra = [c for c in cells[len(columns):] if not _blank(c)]
        if extra:
            raise DataError(f"the row has {len(columns) + len(extra)} or more cells but the header names "
                            f"{len(columns)} columns; name the extra column or delete its cells", Location(name, line))
        values = {column: cell for column, cell in zip(columns, cells, strict=False) if not _blank(cell)}
        sheet_rows.append(SheetRow(line, values))
    return Sheet(name, tuple(columns), tuple(sheet_rows), header_line)


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def check_columns(sheet: Sheet, specs: Iterable[FieldSpec], double_sided: bool, noun: str) -> None:
    """Every header column must be an item key or a field (typos do not pass silently)."""
    fields = [spec.name for spec in specs]
    known = [*ITEM_COLUMNS, *fields, *(BACK_PREFIX + f for f in fields if double_sided)]
    if "id" not in sheet.columns:
        raise DataError(f"the header has no 'id' column (each {noun} needs an id; columns: "
                        f"{', '.join(sheet.columns)})", sheet.at(sheet.header_line))
    for column in sheet.columns:
        if column in known:
            continue
        if column.startswith(BACK_PREFIX) and column[len(BACK_PREFIX):] in fields and not double_sided:
            raise DataError(f"column {column!r} gives a back face, but the component is not double_sided "
                            "(set double_sided: true)", sheet.at(sheet.header_line, column))
        close = difflib.get_close_matches(column, known, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise DataError(f"unknown column {column!r}{hint} (columns may be: {', '.join(known)})",
                        sheet.at(sheet.header_line, column))


# -- typing cells --------------------------------------------------------------------------


def cell_value(spec: FieldSpec, cell: Any) -> Any:
    """A cell as the value its field expects; a cell that cannot be one is returned unchanged, so the
    field check reports it exactly as it would a YAML value."""
    text = cell.strip() if isinstance(cell, str) else None
    if spec.type == "int":
        if isinstance(cell, float) and cell.is_integer():
            return int(cell)
        return int(text) if text is not None and _INT_RE.match(text) else cell
    if spec.type == "number":
        return _number(text) if text is not None else cell
    if spec.type == "bool":
        if text is not None and text.lower() in TRUE_WORDS + FALSE_WORDS:
            return text.lower() in TRUE_WORDS
        return cell
    if spec.type == "enum":
        for value in spec.values or ():
            if (text is not None and text == str(value)) or (text is None and value == cell):
                return value
        return cell
    if spec.type == "list":
        if text is None:
            return [cell]
        return [int(part) if _INT_RE.match(part) else part
                for part in (p.strip() for p in text.split(LIST_SEPARATOR)) if part]
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, (int, float)):
        return str(int(cell)) if isinstance(cell, float) and cell.is_integer() else str(cell)
    return cell


def _number(text: str) -> Any:
    if _INT_RE.match(text):
        return int(text)
    try:
        value = float(text)
    except ValueError:
        return text
    return value if value == value and value not in (float("inf"), float("-inf")) else text


def count_value(cell: Any) -> Any:
    """A `count` cell as an integer when it is one (the caller checks the range)."""
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)
    if isinstance(cell, str) and _INT_RE.match(cell.strip()):
        return int(cell.strip())
    return cell


# -- writing (pnp export-items) ----------------------------------------------------------------


def component_rows(component: Component) -> tuple[list[str], list[list[str]]]:
    """Today's items of a component as a header and rows that read back to the same items."""
    field_names = [spec.name for spec in component.fields]
    back_names = [name for name in field_names
                  if any(item.back is not None and item.back.get(name) != item.fields.get(name)
                         for item in component.items)]
    columns = ["id", "count", *field_names, *(BACK_PREFIX + name for name in back_names)]
    rows = []
    for item in component.items:
        row = [item.id, str(item.count)]
        row += [_cell_text(item.fields.get(name), item, name) for name in field_names]
        for name in back_names:
            back = item.back or {}
            same = back.get(name) == item.fields.get(name)
            row.append("" if same else _cell_text(back.get(name), item, BACK_PREFIX + name))
        rows.append(row)
    return columns, rows


def write_csv(component: Component) -> str:
    """The component's items as CSV text (header first, one row per item, '\\n' line ends)."""
    columns, rows = component_rows(component)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()


def _cell_text(value: Any, item: Any, column: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        for entry in value:
            text = str(entry)
            if LIST_SEPARATOR in text or (isinstance(entry, str) and _INT_RE.match(text.strip())):
                raise DataError(f"{item.id} '{column}' entry {entry!r} cannot be written as a sheet cell "
                                f"(entries are separated by '{LIST_SEPARATOR}' and whole numbers read back as "
                                "numbers); keep this component in YAML", item.location)
        return f"{LIST_SEPARATOR} ".join(str(entry) for entry in value)
    return str(value)
