"""`pnp watch`: rebuild on every save of data/ or templates/, one line per rebuild.

The process keeps one build session, so a rebuild pays only for what
changed: loaded games, compiled layouts and fonts are kept between rebuilds
(each dropped when a file it read changes), and the build cache skips every
job whose inputs are unchanged. A file saved while a build was reading it
is built again at once.
An error (bad YAML, a failed check) prints its one line and watching goes on.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click

from generator.cli.build import build_apart, build_command, options_from_cli
from generator.cli.context import Context, complete_games, pass_context, quiet_option, root_option
from generator.engine.registry import Registry
from generator.errors import PnpError
from generator.project import Project


class CardClock:
    """When a build's last card job (sheets, previews: everything but documents) was done, so the
    rebuild line can say how soon the edited card was on disk while rulebooks were still being drawn.

    Pass `progress` to `BuildSession.build`; it is called with the jobs that will run.
    """

    def __init__(self) -> None:
        self.cards_done: float | None = None
        self.document_labels: set[str] = set()

    def reset(self) -> None:
        self.cards_done, self.document_labels = None, set()

    def progress(self, jobs: list[Any]) -> Callable[[Any], None]:
        from generator.build.options import BOOKLET, DOCUMENTS, SHOWCASE  # not at import: `pnp --help` stays quick

        documents = (DOCUMENTS, BOOKLET, SHOWCASE)
        cards = {id(job) for job in jobs if getattr(job, "exporter", documents[0]) not in documents}
        self.document_labels = {job.label for job in jobs if id(job) not in cards}

        def one_done(job: Any) -> None:
            if id(job) in cards:
                cards.discard(id(job))
                if not cards:
                    self.cards_done = time.perf_counter()
        return one_done


def rebuild_line(project: Project, build: Callable[[], Any], changed: list[Path],
                 clock: CardClock | None = None) -> tuple[str, list[Path]]:
    """Run one build and describe it in one line (or the error that stopped it); also returns the
    inputs that changed while the build was reading them (to build again at once). With a `clock`
    the build reports to, a rebuild that redrew documents after the cards also says when the
    cards were done."""
    names = ", ".join(project.display(p) for p in changed[:3])
    names += f" (+{len(changed) - 3} more)" if len(changed) > 3 else ""
    if clock is not None:
        clock.reset()
    started = time.perf_counter()
    try:
        result = build()
    except PnpError as exc:
        return f"{names or 'start'}: error: {exc}", []
    elapsed = time.perf_counter() - started
    summary = result.summary
    written = [project.display(p) for p in summary.written]
    what = ", ".join(written[:4]) + (f" (+{len(written) - 4} more)" if len(written) > 4 else "")
    again = [project.root / (name[3:].rpartition("/")[0] if name.startswith("ls:") else name.lstrip("?"))
             for name in result.changed_during_build]
    cards = ""
    if clock is not None and clock.cards_done is not None and clock.document_labels.intersection(summary.ran):
        cards = f" (cards in {clock.cards_done - started:.2f} s)"
    return (f"{names or 'start'}: {len(summary.ran)} jobs rebuilt, {len(written)} files written"
            f"{': ' + what if what else ''} in {elapsed:.2f} s{cards}"), again


def watch_loop(project: Project, build: Callable[[], Any], changes: Iterable[set[tuple[Any, str]]],
               echo: Callable[[str], None], clock: CardClock | None = None) -> None:
    """Build once, then once per batch of file changes. Separated from watchfiles for testing.

    An input saved while a build was reading it is built again right away, without
    waiting for the next batch.
    """
    _settle(project, build, [], echo, clock)
    extra = "".join(f", {project.display(folder)}/" for folder in watched_folders(project)[2:])
    echo(f"watching {project.display(project.data_dir)}/ and {project.display(project.templates_dir)}/{extra} "
         "(Ctrl-C to stop)")
    for batch in changes:
        changed = sorted({Path(path) for _, path in batch if _relevant(Path(path))})
        if changed:
            _settle(project, build, changed, echo, clock)


MAX_AGAIN = 20  # an editor saving in a loop must not keep `pnp watch` from reading the next batch


def _settle(project: Project, build: Callable[[], Any], changed: list[Path], echo: Callable[[str], None],
            clock: CardClock | None = None) -> None:
    for _ in range(MAX_AGAIN):
        line, changed = rebuild_line(project, build, changed, clock)
        echo(line)
        if not changed:
            return


SOURCE_SUFFIXES = (".yaml", ".yml", ".j2", ".md", ".html", ".css", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ttf", ".otf",
                   ".csv", ".xlsx")  # the last two: item sheets (load/sheets.py)


def watched_folders(project: Project) -> list[Path]:
    """data/ and templates/, and the project's own fonts/ and art/ when it has them (`pnp init` makes them)."""
    return [project.data_dir, project.templates_dir,
            *(folder for folder in (project.root / "fonts", project.root / "art") if folder.is_dir())]


# Editors' temporaries, swap files and backups: vim (.x.swp, x~, its '4913' probe), emacs (#x#, .#x lock links),
# JetBrains (x___jb_tmp___, x___jb_old___), Kate (x.kate-swp), and the like. Saving through one is a change of
# the real file, which comes as its own event; the temporary itself never is.
_EDITOR_TEMPORARY = re.compile(r"^\.|~$|^#.*#$|___jb_\w+___$|\.(sw[a-p]|kate-swp|tmp|bak|orig)$|^\d+$", re.IGNORECASE)


def _relevant(path: Path) -> bool:
    """Sources, and folders: editors' and tools' temporary files come and go without meaning a change, but a
    folder moved or renamed (one event, for the folder itself) takes its sources with it. A folder moved away
    no longer exists, so any name without a suffix that is not a file counts (editors' temporaries excepted)."""
    if _EDITOR_TEMPORARY.search(path.name):
        return False
    if path.suffix.lower() in SOURCE_SUFFIXES:
        return True
    return not path.suffix and not path.is_file()


RUN_ONLY = ("games", "only", "jobs", "clean")  # `pnp build` choices that are not build options (--force is:
# the overlay of `pnp serve` and a refused rebuild of `pnp watch` tell the user to rebuild with it)


@click.command("watch")
@click.argument("game_ids", nargs=-1, metavar="[GAME]...", shell_complete=complete_games)
@quiet_option
@root_option
@pass_context
def watch_command(ctx: Context, game_ids: tuple[str, ...], force: bool, **values: Any) -> None:
    """Watch data/ and templates/; validate and rebuild what changed on every save.

    Takes every option `pnp build` takes (paper, bleed, duplex, marks, exports,
    booklet...) and keeps them for every rebuild. Prints one line per rebuild
    (what changed, what was rebuilt, how long), or the error with its
    file:line, and keeps running until Ctrl-C.
    """
    ctx.game_ids(game_ids)  # a misspelt game is refused with the likely one, before watching starts
    options = options_from_cli(values, jobs=os.cpu_count() or 1, output_uri=ctx.project.output_dir.resolve().as_uri())
    watch_and_build(ctx.project, ctx.registry, game_ids, options, click.echo, force=force)


def watch_and_build(project: Project, registry: Registry, game_ids: tuple[str, ...], options: Any,
                    echo: Callable[[str], None], around: Callable[[Callable[[], Any]], Any] | None = None,
                    force: bool = False, changes: Iterable[set[tuple[Any, str]]] | None = None) -> None:
    """Build, then rebuild on every save until Ctrl-C, in one warm session: `pnp watch` and `pnp serve`.

    `around`, if given, runs each build (it gets the build to call and returns its
    result or raises its error): `pnp serve` records every outcome for the page.
    `force` builds a deck that fails validation; `changes` replaces watchfiles' batches (tests).
    """

    from generator.build.session import BuildSession

    clock = CardClock()
    with BuildSession(project, raster_jobs=1, registry=registry, watching=True) as session:
        def run_build() -> Any:
            # a broken game is reported, after every other game has been rebuilt (`build_apart`)
            result, broken = build_apart(session, game_ids, options, force=force, clean=False, progress=clock.progress)
            if broken:
                errors = list(broken.values())
                raise type(errors[0])("; ".join(map(str, errors)))
            return result

        def build() -> Any:
            return around(run_build) if around else run_build()

        with contextlib.suppress(KeyboardInterrupt):
            watch_loop(project, build, _saves(project) if changes is None else changes, echo, clock)


def _saves(project: Project) -> Iterable[set[tuple[Any, str]]]:
    """watchfiles' batches of changes under the watched folders (imported only when watching starts)."""
    from watchfiles import watch

    folders = [p for p in watched_folders(project) if p.is_dir()]
    return watch(*folders, debounce=200, step=50)


# Every build option of `pnp build`, shared (the same click parameters), so watch cannot fall behind.
_OWN = {option for p in watch_command.params for option in p.opts}
watch_command.params.extend(p for p in build_command.params
                            if p.name not in RUN_ONLY and not _OWN.intersection(p.opts))
