"""`pnp watch`: rebuild on every save of data/ or templates/, one line per rebuild.

The process stays warm, so a rebuild pays only for what changed: compiled
layouts and fonts are kept between rebuilds (dropped when a template
changes), and the build cache skips every job whose inputs are unchanged.
An error (bad YAML, a failed check) prints its one line and watching goes on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import click

from generator.cli.context import Context, pass_context, quiet_option
from generator.errors import PnpError
from generator.project import Project


def rebuild_line(project: Project, build: Callable[[], object], changed: list[Path]) -> str:
    """Run one build and describe it in one line (or the error that stopped it)."""
    from generator.render import faces

    if any(project.templates_dir in path.parents for path in changed):
        faces._RENDERERS.pop(project.root, None)  # layouts changed: compile them afresh
    names = ", ".join(project.display(p) for p in changed[:3]) + (f" (+{len(changed) - 3} more)" if len(changed) > 3 else "")
    started = time.perf_counter()
    try:
        result = build()
    except PnpError as exc:
        return f"{names}: error: {exc}"
    elapsed = time.perf_counter() - started
    summary = result.summary  # type: ignore[attr-defined]
    written = [project.display(p) for p in summary.written]
    what = ", ".join(written[:4]) + (f" (+{len(written) - 4} more)" if len(written) > 4 else "")
    return (f"{names or 'start'}: {len(summary.ran)} jobs rebuilt, {len(written)} files written"
            f"{': ' + what if what else ''} in {elapsed:.2f} s")


def watch_loop(project: Project, build: Callable[[], object], changes: Iterable[set[tuple[object, str]]],
               echo: Callable[[str], None]) -> None:
    """Build once, then once per batch of file changes. Separated from watchfiles for testing."""
    echo(rebuild_line(project, build, []))
    echo(f"watching {project.display(project.data_dir)}/ and {project.display(project.templates_dir)}/ (Ctrl-C to stop)")
    for batch in changes:
        changed = sorted({Path(path) for _, path in batch if _relevant(Path(path))})
        if changed:
            echo(rebuild_line(project, build, changed))


SOURCE_SUFFIXES = (".yaml", ".yml", ".j2", ".md", ".html", ".css", ".png", ".jpg", ".jpeg", ".svg", ".ttf")


def _relevant(path: Path) -> bool:
    """Sources only: editors' and tools' temporary files come and go without meaning a change."""
    return not path.name.startswith(".") and path.suffix.lower() in SOURCE_SUFFIXES


@click.command("watch")
@click.argument("game_ids", nargs=-1, metavar="[GAME]...")
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both", show_default=True)
@click.option("--png", is_flag=True, help="Also keep the 300 dpi PNG faces up to date.")
@quiet_option
@pass_context
def watch_command(ctx: Context, game_ids: tuple[str, ...], paper: str, png: bool) -> None:
    """Watch data/ and templates/; validate and rebuild what changed on every save.

    Prints one line per rebuild (what changed, what was rebuilt, how long), or
    the error with its file:line, and keeps running until Ctrl-C.
    """
    from watchfiles import watch

    from generator.pipeline import build
    from generator.render.build import BuildOptions
    from generator.render.raster import Workers

    options = BuildOptions(papers=("a4", "letter") if paper == "both" else (paper,), png=png, previews=True,
                           jobs=os.cpu_count() or 1)
    folders = [p for p in (ctx.project.data_dir, ctx.project.templates_dir) if p.is_dir()]
    with Workers(1) as workers:
        def run_build() -> object:
            return build(ctx.project, list(game_ids), options, workers=workers, registry=ctx.registry)

        try:
            watch_loop(ctx.project, run_build, watch(*folders, debounce=200, step=50, raise_interrupt=False),
                       lambda line: click.echo(line))
        except KeyboardInterrupt:
            pass
