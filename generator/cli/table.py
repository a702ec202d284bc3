"""Plain-text tables for the terminal (no dependency; columns sized to their content)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]], wrap: dict[int, int] | None = None) -> str:
    """Left-aligned columns; numbers right-aligned; `wrap` maps a column index to a width."""
    wrap = wrap or {}
    cells = [[str(c) for c in row] for row in rows]
    wrapped_rows: list[list[list[str]]] = []
    for cell_row in cells:
        wrapped_rows.append([textwrap.wrap(c, wrap[i]) or [""] if i in wrap else [c] for i, c in enumerate(cell_row)])
    widths = [len(h) for h in headers]
    for row in wrapped_rows:
        for i, lines in enumerate(row):
            widths[i] = max(widths[i], *(len(line) for line in lines))
    numeric = [all(_is_number(r[i]) for r in cells) and bool(cells) for i in range(len(headers))]

    def fmt(values: Sequence[str]) -> str:
        parts = [v.rjust(widths[i]) if numeric[i] else v.ljust(widths[i]) for i, v in enumerate(values)]
        return "  ".join(parts).rstrip()

    out = [fmt(list(headers)), fmt(["-" * w for w in widths])]
    for row in wrapped_rows:
        height = max(len(lines) for lines in row)
        for k in range(height):
            out.append(fmt([lines[k] if k < len(lines) else "" for lines in row]))
    return "\n".join(out)


def _is_number(text: str) -> bool:
    try:
        float(text.rstrip("%"))
    except ValueError:
        return False
    return True
