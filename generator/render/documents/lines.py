"""Paragraph line breaks kept by a session between builds, so `pnp watch` breaks only the lines an edit changed.

A one-card edit draws the rulebooks and score sheets that name the card again, but
nearly all of their paragraphs read as before. Breaking a paragraph into lines
(`Paragraph.breakLines`, a quarter of drawing a rulebook) depends on nothing but its
markup, its style and the width it is set in, with the shipped fonts (constant for a
process), so the lines worked out for the same three in a recent build of this
session are the same lines. `ParagraphLines` keeps them by that key: those of this
build and of the two before (older ones are dropped, so it holds at most three
builds' paragraphs). Paragraphs with inline icons are not kept (their pictures come
from project files).

The store belongs to one read gate (one session: `paragraph_lines`); a forked
worker inherits a copy. In a session that builds again (`pnp watch`), a worker hands
back with each job's result the lines it broke and the keys of older lines it used
(`hand_back`), and the building process keeps them (`take_back`), so after any build
it holds every paper's lines, even those only a worker drew, and the next build's
workers inherit them all. The papers whose rulebook this process drew last build are
still planned first (`first_papers`): a worker takes the first rulebook, and this
process draws the other paper.
"""

from __future__ import annotations

import os
from collections.abc import Hashable
from typing import Any

from generator.project import Project
from generator.readgate import ReadGate
from generator.speed import speedups

Broken = tuple[float, Any, Any, float, float]  # width asked, _wrapWidths, blPara, height, _width_max


class ParagraphLines:
    """Line breaks by (kind of paragraph, markup, style's values, width) from this build and the two before."""

    def __init__(self, gate: ReadGate) -> None:
        self.enabled = speedups().memos  # off: every paragraph breaks its own lines (generator.speed)
        self._gate = gate
        self._generation = gate.generation
        self._builds: list[dict[Hashable, Broken]] = [{}, {}, {}]  # this build's lines, the last build's, ...
        self._drawn: list[set[tuple[str, str]]] = [set(), set()]  # (game, paper) rulebooks drawn here: now, last build
        self._styles: dict[int, tuple[Any, tuple[Any, ...]]] = {}  # id(style) -> (style, its values), this build
        # what this process (`_made_by`: a forked worker's copy starts afresh) broke or took from an older build
        # since it last handed them back (`hand_back`)
        self._made_by = os.getpid()
        self._made: dict[Hashable, Broken] = {}
        self._kept: list[Hashable] = []

    def key(self, kind: str, markup: str, bullet: Any, style: Any, width: float) -> Hashable:
        return kind, markup, _value(bullet), self._style_values(style), width

    def get(self, key: Hashable) -> Broken | None:
        if not self.enabled:
            return None
        self._turn()
        current = self._builds[0]
        found = current.get(key)
        if found is None:
            found = self._older(key)
            if found is not None:
                current[key] = found
                self._own_notes()[1].append(key)
        return found

    def put(self, key: Hashable, broken: Broken) -> None:
        if not self.enabled:
            return
        self._turn()
        self._builds[0][key] = broken
        self._own_notes()[0][key] = broken

    def hand_back(self) -> tuple[dict[Hashable, Broken], list[Hashable]] | None:
        """In a forked worker, after a job: the lines it broke and the keys of older lines it used since the
        last call (None if neither), for the building process's `take_back`."""
        made, kept = self._own_notes()
        if not made and not kept:
            return None
        self._made, self._kept = {}, []
        return made, kept

    def take_back(self, handed: tuple[dict[Hashable, Broken], list[Hashable]]) -> None:
        """Keep what a worker handed back as this build's lines (a line this process has is kept as it is)."""
        self._turn()
        made, kept = handed
        current = self._builds[0]
        for key, broken in made.items():
            current.setdefault(key, broken)
        for key in kept:
            if key not in current:
                found = self._older(key)
                if found is not None:
                    current[key] = found

    def _older(self, key: Hashable) -> Broken | None:
        """The lines kept under `key` by the latest of the earlier builds that has them."""
        return next((build[key] for build in self._builds[1:] if key in build), None)

    def _own_notes(self) -> tuple[dict[Hashable, Broken], list[Hashable]]:
        """The lines this process broke and the older keys it used, since the last `hand_back` (a forked
        worker does not hand back its parent's)."""
        if self._made_by != os.getpid():
            self._made_by, self._made, self._kept = os.getpid(), {}, []
        return self._made, self._kept

    def drew(self, game: str, paper: str) -> None:
        """This process drew the game's rulebook on `paper` in this build."""
        self._turn()
        self._drawn[0].add((game, paper))

    def first_papers(self, game: str, papers: tuple[str, ...]) -> tuple[str, ...]:
        """`papers`, those whose rulebook of `game` this process drew in the last build first (else as given)."""
        self._turn()
        last = self._drawn[1]
        return tuple(sorted(papers, key=lambda paper: (game, paper) not in last))

    def _turn(self) -> None:
        """A new build: the builds' lines move one place back, and those of the third build back are dropped."""
        if self._generation != self._gate.generation:
            self._generation = self._gate.generation
            self._builds = [{}, *self._builds[:-1]]
            self._drawn = [set(), self._drawn[0]]
            self._styles = {}
            self._made, self._kept = {}, []

    def _style_values(self, style: Any) -> tuple[Any, ...]:
        """Every value of the style (fonts, sizes, colours, indents...), worked out once per style object
        and build: the lines' runs carry the style's fonts and colours into drawing, so all of it counts."""
        known = self._styles.get(id(style))
        if known is not None and known[0] is style:
            return known[1]
        names = sorted(getattr(type(style), "defaults", {}))
        values = (type(style).__name__, *((name, _value(getattr(style, name, None))) for name in names))
        self._styles[id(style)] = (style, values)
        return values


def _value(value: Any) -> Any:
    """A hashable, exact stand-in for a style value (a colour by its class and components)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_value(v) for v in value)
    fields = getattr(value, "__dict__", None)
    if fields is not None:
        return type(value).__name__, tuple(sorted((k, _value(v)) for k, v in fields.items()))
    return type(value).__name__, repr(value)


def paragraph_lines(project: Project) -> ParagraphLines:
    """The store of this project handle's session (kept by its read gate, like the template parses)."""
    return project.gate.derived(("paragraph-lines",), lambda: ParagraphLines(project.gate))
