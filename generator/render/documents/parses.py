"""Each document template rendered and parsed once per build, for every job of the game in this process.

A build's documents read the same templates several times: the rulebook for both
papers, a score sheet for its own files and again for every paper's print plan (its
page count on the rulebook's "How to print" page), and validation renders both first.
The parse depends only on the template's bytes and the game, so the first one is kept
for the rest of the build in this process, with what it read: the files (replayed
into the read gate's open recordings) and the item fields (replayed into the asking
job's `FieldReads`, so its key covers exactly what it would have read itself).

Sharing happens only where the build says so (`serving` around a document job,
`sharing` around validation); any other call parses as before. The store belongs
to one read gate (one session) and is emptied at every new build.

A score sheet's layout is shared the same way (`layout`): the rulebook's print plan
lays out each sheet on its paper for its page count, and the sheet's own job, when
it runs later in the same process and build, draws that layout instead of laying it
out again. Only sheets that draw no card (no pictures, no scenes) are shared: their
layout reads no item field, so the sheet's job records what it would have read itself
(the parse's fields, replayed as above, and the files, replayed into the read gate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.model import Game
from generator.project import Project
from generator.readgate import ReadSet
from generator.render.base.modelreads import FieldReads, watched
from generator.speed import speedups

Parsed = tuple[str, list[Any]]  # (display name, markup blocks): frozen blocks, safe to share
Note = tuple[str, str, str, str, Any]  # one item field read: (component, item, side, key, value)


class _Notes(FieldReads):
    """The field reads of one shared watched copy of the game, noted into whichever list parses now."""

    def __init__(self) -> None:
        super().__init__()
        self.current: list[Note] | None = None

    def note(self, component: str, item: str, side: str, key: str, value: Any) -> None:
        if self.current is not None:
            self.current.append((component, item, side, key, value))


@dataclass
class _Entry:
    game: Game  # kept alive while its id() keys the entry
    parsed: Parsed
    notes: list[Note]
    files: ReadSet


@dataclass
class _Job:
    game: Game  # the loaded game
    seen: Game  # the job's watched copy of it
    reads: FieldReads  # where the job's field reads go


@dataclass
class _Layout:
    game: Game  # kept alive while its id() keys the entry
    blocks: tuple[Any, ...]  # the parsed blocks it was laid out from
    value: Any
    files: ReadSet


class TemplateParses:
    """Parsed templates (and score sheet layouts) of the current build, by (template, game); see the module's
    docstring."""

    def __init__(self) -> None:
        self._generation = -1
        self._entries: dict[tuple[Path, int], _Entry] = {}
        self._views: dict[int, tuple[Game, Game, _Notes]] = {}  # id(game) -> (game, watched copy, its notes)
        self._layouts: dict[tuple[Path, str, int], _Layout] = {}  # (template, paper, id(game))
        self._job: _Job | None = None
        self._shared: Game | None = None

    def _this_build(self, gate: Any) -> None:
        if self._generation != gate.generation:
            self._generation, self._entries, self._views, self._layouts = gate.generation, {}, {}, {}

    def layout(self, path: Path, paper: str, game: Game, project: Project, blocks: list[Any],
               compute: Callable[[], Any]) -> Any:
        """`compute()`, the sheet `path` laid out on `paper` from `blocks`, once per build and process for
        every job of the game served here, when the sheet draws no card; else computed each time."""
        job = self._job
        if job is None or game is not job.seen or not _draws_no_card(blocks):
            return compute()
        gate = project.gate
        self._this_build(gate)
        key = (path, paper, id(job.game))
        entry = self._layouts.get(key)
        if (entry is not None and entry.game is job.game and len(entry.blocks) == len(blocks)
                and all(a is b for a, b in zip(entry.blocks, blocks, strict=True)) and not gate.changed(entry.files)):
            gate.inherit(entry.files)
            return entry.value
        with gate.recording() as files:
            value = compute()
        self._layouts[key] = _Layout(job.game, tuple(blocks), value, files)
        return value

    @contextmanager
    def serving(self, game: Game, seen: Game, reads: FieldReads) -> Iterator[None]:
        """Within: parses asked with `seen` (the job's watched copy of `game`) are shared (not with the speed
        switch off: `generator.speed`)."""
        if not speedups().memos:
            yield
            return
        outer, self._job = self._job, _Job(game, seen, reads)
        try:
            yield
        finally:
            self._job = outer

    @contextmanager
    def sharing(self, game: Game) -> Iterator[None]:
        """Within: parses asked with `game` itself (validation's) are shared (not with the speed switch off)."""
        if not speedups().memos:
            yield
            return
        outer, self._shared = self._shared, game
        try:
            yield
        finally:
            self._shared = outer

    def parse(self, path: Path, game: Game, project: Project,
              compute: Callable[[Path, Game, Project], Parsed]) -> Parsed:
        job = self._job
        if job is not None and game is job.seen:
            base, into = job.game, job.reads
        elif self._shared is not None and game is self._shared:
            base, into = game, None
        else:
            return compute(path, game, project)
        gate = project.gate
        self._this_build(gate)
        entry = self._entries.get((path, id(base)))
        if entry is None or entry.game is not base or gate.changed(entry.files):
            entry = self._compute(path, base, project, compute)
            self._entries[(path, id(base))] = entry
        else:
            gate.inherit(entry.files)
        if into is not None:
            for note in entry.notes:
                into.note(*note)
        return entry.parsed[0], list(entry.parsed[1])

    def _compute(self, path: Path, base: Game, project: Project,
                 compute: Callable[[Path, Game, Project], Parsed]) -> _Entry:
        view = self._views.get(id(base))
        if view is None or view[0] is not base:
            notes = _Notes()
            view = self._views[id(base)] = (base, watched(base, notes), notes)
        _, copy, recorder = view
        noted: list[Note] = []
        recorder.current = noted
        try:
            with project.gate.recording() as files:
                display, blocks = compute(path, copy, project)
        finally:
            recorder.current = None
        return _Entry(base, (display, list(blocks)), noted, files)


def _draws_no_card(blocks: Any) -> bool:
    """No picture or scene anywhere in the blocks (callouts included): laying them out reads no item field."""
    from generator.render.documents import markup

    for block in blocks:
        if isinstance(block, (markup.Pictures, markup.Scene)):
            return False
        if isinstance(block, markup.Callout) and not _draws_no_card(block.blocks):
            return False
    return True


def template_parses(project: Project) -> TemplateParses:
    """The store of this project handle's session (kept by its read gate)."""
    return project.gate.derived(("template-parses",), TemplateParses)
