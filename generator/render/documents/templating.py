"""Rendering a document template (Jinja) in a sandbox, keeping track of source lines.

Templates are data, not code: they run in an immutable sandbox with strict
undefined variables, so a typo fails loudly instead of printing nothing. Each
source line is tagged with an invisible line marker before Jinja sees it;
the markers survive into the output, so the markup parser can report a bad
table or directive at the template line that produced it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from generator.errors import DataError, Location
from generator.model import Game
from generator.readgate import ReadGate
from generator.render.base.sandbox import LimitedEnvironment, NamedUndefined, where_data_lacks
from generator.render.base.template_cache import CodeCache
from generator.render.documents.markup import LITERAL, escape_literal
from generator.render.faces.glyphs import composed, drawable_lines

MARK_OPEN = "\ue000"  # private-use characters: not whitespace, so Jinja's "-%}" keeps them
MARK_CLOSE = "\ue001"
MARK_RE = re.compile(f"{MARK_OPEN}(\\d+){MARK_CLOSE}")

_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def mark_lines(source: str) -> str:
    """Append a line marker to every line that does not end inside a Jinja tag."""
    out: list[str] = []
    depth_closer: str | None = None
    for number, line in enumerate(source.split("\n"), start=1):
        i = 0
        while i < len(line):
            if depth_closer is None:
                if line.startswith(("{{", "{%", "{#"), i):
                    depth_closer = {"{{": "}}", "{%": "%}", "{#": "#}"}[line[i : i + 2]]
                    i += 2
                    continue
            elif line.startswith(depth_closer, i):
                depth_closer = None
                i += 2
                continue
            i += 1
        if depth_closer or not line.strip():
            out.append(line)  # inside a tag, or a blank line that must stay blank
        else:
            out.append(f"{line}{MARK_OPEN}{number}{MARK_CLOSE}")
    return "\n".join(out)


def split_marks(text: str) -> list[tuple[int, str]]:
    """Rendered text as (template line, text) pairs.

    Blank template lines carry no marker and stay blank (paragraph breaks); a
    line left holding only a marker came from pure Jinja tags and vanishes.
    """
    lines: list[tuple[int, str]] = []
    last = 0
    for raw in text.split("\n"):
        numbers = MARK_RE.findall(raw)
        clean = MARK_RE.sub("", raw)
        if numbers:
            last = int(numbers[0])
            if not clean.strip():
                continue
        lines.append((last, clean))
    return lines


def number_word(value: int) -> str:
    """'ten' for 10: rule texts read better with small numbers spelled out."""
    return _NUMBER_WORDS[value] if isinstance(value, int) and 0 <= value < len(_NUMBER_WORDS) else str(value)


def plural(count: int, singular: str, many: str | None = None) -> str:
    return singular if count == 1 else (many or singular + "s")


def join_and(values: Any, last: str = "and") -> str:
    words = [str(v) for v in values]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def data_value(value: Any) -> Any:
    """What a `{{ ... }}` prints is data: its markup characters print as written (a '|' in a card name)."""
    return escape_literal(value) if isinstance(value, str) else value


@lru_cache(maxsize=1)
def environment() -> LimitedEnvironment:
    """The one sandbox all document templates run in (shared, so compiled templates are reused)."""
    env = LimitedEnvironment(
        code_cache=CodeCache.for_user(),
        undefined=NamedUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        finalize=data_value,
    )
    env.filters.update(words=number_word, plural=plural, join_and=join_and)
    env.globals.update(words=number_word, plural=plural, join_and=join_and)
    return env


def template_context(game: Game) -> dict[str, Any]:
    """What a template sees: the game model and short names for its parts."""

    def items(component_id: str, players: int | None = None) -> tuple[Any, ...]:
        return game.items_for(component_id, players)

    return {
        "game": game,
        "rules": game.rules,
        "theme": game.theme,
        "component": game.component,
        "has_component": game.has_component,
        "items": items,
        "deck": lambda component_id, players=None: len(game.deck(component_id, players)),
        "rule": game.rule,
    }


@lru_cache(maxsize=64)
def _compiled(source: str, display: str) -> jinja2.Template:
    """Compile a template once per process and source text (a watch session rebuilds often)."""
    template = environment().from_string(mark_lines(source))
    template.name = display
    template.filename = display
    return template


def render_template(
    path: Path, display: str, context: Mapping[str, Any], extra: Mapping[str, Callable[..., Any]] | None = None,
    *, gate: ReadGate, fonts: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
) -> list[tuple[int, str]]:
    """Render one template file (read through the project's read gate) to (line, text) pairs;
    every failure is a DataError at file:line."""
    source = gate.read_text(path, Location(display))
    try:
        template = _compiled(source, display)
    except jinja2.TemplateSyntaxError as exc:
        raise DataError(f"template syntax: {exc.message}", Location(display, exc.lineno or 0)) from None
    try:
        text = template.render({**context, **(extra or {})})
    except jinja2.UndefinedError as exc:
        line = _error_line(display)
        lacking = where_data_lacks(context.get("game"), exc)
        if lacking is not None:  # the data file lacks a key (cut short?): say so there, naming the template
            raise DataError(f"{_clean(exc.message)}, which {line} reads (is the file cut short?)", lacking) from None
        raise DataError(f"template uses a name the data lacks: {_clean(exc.message)}", line) from None
    except jinja2.exceptions.SecurityError as exc:
        raise DataError(f"template not allowed: {_clean(str(exc))}", _error_line(display)) from None
    except DataError:
        raise
    except (jinja2.TemplateError, TypeError, ValueError, KeyError, AttributeError, IndexError,
            ZeroDivisionError) as exc:
        raise DataError(f"template failed: {type(exc).__name__}: {_clean(str(exc))}", _error_line(display)) from None
    try:
        if fonts is None:
            return drawable_lines(split_marks(text), display, markers="".join(LITERAL.values()))
        return drawable_lines(split_marks(text), display, markers="".join(LITERAL.values()), body=fonts[0],
                              headings=fonts[1])
    except DataError as exc:
        holder = _holding(context.get("game"), getattr(exc, "lost", ()))
        if holder is None:
            raise
        raise DataError(f"{holder[0]}: {exc.message} (printed by {exc.location})", holder[1]) from None


def _holding(game: Any, lost: tuple[str, ...]) -> tuple[str, Location] | None:
    """The first item (its key and YAML line) whose field text holds one of the characters `lost`."""
    if not isinstance(game, Game) or not lost:
        return None
    for component in game.components:
        for item in component.items:
            for value in (item.id, *item.fields.values()):
                if isinstance(value, str) and any(char in composed(value) for char in lost):
                    return item.key, item.location
    return None


def _clean(message: str | None) -> str:
    return MARK_RE.sub("", message or "").replace("\n", " ")


def _error_line(display: str) -> Location:
    """The template line of the exception being handled (Jinja rewrites frames to template lines)."""
    tb = sys.exc_info()[2]
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == display:
            line = tb.tb_lineno
        tb = tb.tb_next
    return Location(display, line)
