"""`pnp build`: print-ready sheets (and PNG / Tabletop Simulator exports) under output/<game>/.

Thin: parses options, validates each game (refusing an invalid deck unless
--force), asks `generator.build.plan` for the plan and runs it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any, cast

import click

from generator.cli.context import Context, complete_games, complete_presets, pass_context, quiet_option, root_option
from generator.engine.registry import EngineError
from generator.errors import DataError, PnpError, Refused, UsageError


def _offset(value: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise UsageError(f"--back-offset {value!r} must be two numbers in mm, like 0.5,-1") from None
    return x, y


def _tts_base(tts_url: str, tts: bool, output_uri: str) -> str:
    """The base URL of output/ for the TTS saved objects: refused without --tts or when TTS could not load it."""
    if not tts_url:
        return output_uri if tts else ""
    if not tts:
        raise UsageError(f"--tts-url {tts_url!r} needs --tts (it says where the TTS images are hosted)")
    if not tts_url.startswith(("https://", "http://", "file://")) or " " in tts_url:
        raise UsageError(f"--tts-url {tts_url!r} must be an http(s):// or file:// URL, like https://example.org/pnp/")
    return tts_url


def paper_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--paper`, its choices read from the paper registry (plus `all`; `both` is kept as its old name)."""
    from generator.render.base.units import ALL_PAPERS, PAPERS

    choices = [*PAPERS, ALL_PAPERS, "both"]
    return click.option("--paper", type=click.Choice(choices, case_sensitive=False), default=ALL_PAPERS, show_default=True,
                        help=f"Paper of the sheets and documents ({ALL_PAPERS}: every one of "
                             f"{', '.join(p.label for p in PAPERS.values())}).")(command)


def exporter_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """One flag per exporter that asks for one (`--png`, `--tts`), from the exporter registry."""
    from generator.render.exports.registry import EXPORTERS

    for exporter in reversed(list(EXPORTERS.values())):
        if exporter.flag:
            command = click.option(exporter.flag, f"export_{exporter.name}", is_flag=True,
                                   help=exporter.help)(command)
    return command


def chosen_exports(flags: dict[str, bool], gallery: bool) -> tuple[str, ...]:
    """Exporter names for a build: sheets, the flagged ones, and the gallery previews unless turned off."""
    from generator.render.exports.registry import EXPORTERS, PREVIEW, SHEETS

    return tuple(name for name, exporter in EXPORTERS.items()
                 if name == SHEETS or (name == PREVIEW and gallery) or flags.get(f"export_{name}"))


PRESET_NAMES = "PRESET-NAMES"  # in build's help, replaced by the shipped presets' names when help is shown


class BuildCommand(click.Command):
    """`pnp build`, whose help names the shipped presets from their registry (read only when help is shown,
    so a new preset in presets.yaml is listed without a second list to keep)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        import copy

        from generator.render.exports.presets import registry

        named = copy.copy(self)
        named.help = (self.help or "").replace(PRESET_NAMES, ", ".join(registry()))
        click.Command.format_help_text(named, ctx, formatter)


@click.command("build", cls=BuildCommand)
@click.argument("games", nargs=-1, shell_complete=complete_games)
@click.option("--only", "only", multiple=True, metavar="COMPONENT", help="Build only this component (repeatable).")
@paper_option
@click.option("--bleed", type=float, default=3.0, show_default=True, help="Bleed around each face, mm.")
@click.option("--duplex", type=click.Choice(["long", "short", "none"], case_sensitive=False), default="long", show_default=True,
              help="Backs on the following page for long- or short-edge flip; none: gutter-fold "
                   "(or fronts only when all backs are equal).")
@click.option("--no-crop-marks", is_flag=True, help="Leave out the crop marks.")
@click.option("--cut-lines", is_flag=True, help="Also draw thin grey cut lines through the sheet.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Shift backs by X,Y mm to match a printer's front/back drift.")
@exporter_options
@click.option("--preset", "presets", multiple=True, metavar="NAME", shell_complete=complete_presets,
              help="Also write what a print service asks for to output/<game>/NAME/ (repeatable; "
                   "see README 'Print services' for the names).")
@click.option("--colour", "colour", type=click.Choice(["rgb", "cmyk"], case_sensitive=False), default="rgb", show_default=True,
              help="cmyk: write every PDF (sheets, --png's face PDFs, rulebooks, score sheets, screens, boards) "
                   "as CMYK PDF/X through the shipped FOGRA39 profile, total ink at most 240%.")
@click.option("--tts-url", "tts_url", default="", metavar="BASE",
              help="With --tts: base URL where output/ is hosted, for the images in the TTS saved objects "
                   "(default: file:// URIs of output/ on this machine).")
@click.option("--jobs", "-j", type=click.IntRange(0), default=0, show_default=True,
              help="Processes: games build side by side, PNG faces rasterize in parallel (0: one per core).")
@click.option("--booklet", is_flag=True, help="Also impose the rulebooks as saddle-stitched booklets.")
@click.option("--guides", is_flag=True,
              help="Draw trim (solid), bleed (dashed) and safe-zone (dotted) lines over every face; files named -guides.")
@click.option("--ink-saver", is_flag=True,
              help="Backgrounds off (white) and thin frames, for home printers; files named -inksaver.")
@click.option("--no-gallery", is_flag=True, help="Skip the PNG previews and output/index.html.")
@click.option("--showcase", is_flag=True,
              help="Also draw showcase images per game in output/<game>/showcase/: a fanned hand, "
                   "a spread of every design, the box's contents (PNG).")
@click.option("--force", is_flag=True, help="Build even if validation fails.")
@click.option("--clean", is_flag=True, help="Ignore (and reset) the build cache: redraw everything.")
@quiet_option
@root_option
@pass_context
def build_command(ctx: Context, games: tuple[str, ...], only: tuple[str, ...], jobs: int, force: bool, clean: bool,
                  **values: Any) -> None:
    """Write every printable to output/<game>/: cards, tiles, tokens, rulebooks, sheets, boards.

    One PDF per component and paper: <game>-<component>-<paper>-<mode>.pdf
    (mode: duplex-long, duplex-short, gutterfold, single-sided); components
    of one size that name one shared sheet (`sheet: <name>`) print one after
    the other in <game>-<name>-..., small pieces (`sheet: mixed`, and the
    last part-filled page of a `sheet: spill` component, turned where only
    that fits) on <game>-tokens-...; plus
    <game>-rules-<paper>.pdf, the score sheets and play aids (also as
    -fillable- forms) and the boards. The deck is validated first (an invalid
    deck is refused with exit code 1). Only what changed is redrawn (cache in
    output/.cache), and output/index.html shows every component with previews
    and links. As many faces per
    page as fit, centred; faces and their bleed stay 5 mm from the paper edge,
    and so do the crop marks (3 mm long, on the cut lines; where the margin is
    narrow they run over the outer bleed, never onto a face: on US Letter the
    column marks are the 2.7 mm from the 5 mm margin to the trim). Where full
    bleed around every face does not fit (3 x 3 poker cards), faces are butted:
    shared cut lines, bleed on the outer edges only (on US Letter 2.7 mm top and
    bottom). Backs follow each page of fronts, mirrored for
    the duplex flip; --duplex none lays out fronts and backs side by side to
    fold along the middle, or fronts only when every back is the same.

    --png writes output/<game>/png/<component>-<item>-<copy>.png (300 dpi,
    with bleed) and a one-face-per-page PDF with TrimBox and BleedBox; --tts
    writes Tabletop Simulator deck sheets to output/<game>/tts/.

    --preset NAME writes what a print service asks for to output/<game>/NAME/
    (PRESET-NAMES; see the
    README's "Print services"); --colour cmyk makes every PDF CMYK PDF/X;
    --tts also writes TTS saved objects, their images at --tts-url.
    """
    from generator.build.session import BuildSession

    ctx.game_ids(games)  # a misspelt game is refused with the likely one, before anything starts
    options = options_from_cli(values, jobs=jobs or os.cpu_count() or 1, only=only,
                               output_uri=ctx.project.output_dir.resolve().as_uri())
    started = time.perf_counter()
    with BuildSession(ctx.project, registry=ctx.registry) as session:
        if only:
            loaded = _loadable(session, games)
            known = {c.id for game in loaded for c in game.components}
            unknown = [c for c in only if c not in known]
            # a game that does not load may hold it: the build then says what is wrong with that game instead
            if unknown and len(loaded) == len(session.game_ids(games)):
                raise UsageError(f"--only {unknown[0]!r}: no such component (components: {', '.join(sorted(known))})")
        result, broken = build_apart(session, games, options, force=force, clean=clean,
                                     progress=_progress_bar if ctx.show_progress else None)
        built = tuple(game_id for game_id in session.game_ids(games) if game_id not in broken)
        skip_notes, empty = _preset_skips(session, built, options) if built else ([], [])
    for warning in result.all_warnings():
        ctx.note(f"warning: {warning}")
    for line in skip_notes:
        ctx.note(line)
    if not ctx.quiet:
        elapsed = time.perf_counter() - started
        where = ctx.project.display(ctx.project.output_dir)
        click.echo(f"{result.summary.line()} in {where}/ ({elapsed:.1f} s)")
        if result.gallery_written or ((ctx.project.output_dir / "index.html").is_file() and not values.get("no_gallery")):
            click.echo(f"gallery: {where}/index.html (every design at print size: {where}/look.html)")
    # a broken game is its own line; a print order with nothing in it is one too: the files that fit are written
    # (and the other games built), and the exit code says what failed
    ctx.fail_for([*broken.values(), *([Refused("; ".join(empty))] if empty else [])])


# What one game can get wrong without the others being at fault: its data or templates, its validation, its engine.
ONE_GAMES_FAULT: tuple[type[PnpError], ...] = (DataError, Refused, EngineError)


def build_apart(session: Any, games: tuple[str, ...], options: Any, *, force: bool, clean: bool,
                progress: Any) -> tuple[Any, dict[str, PnpError]]:
    """Build the games, and when one of them fails, every other one still: each game on its own, and
    each failure is that game's own error. Returns the merged result and the errors, one per broken game.

    The session builds the games together (one pool of workers, nothing written before every game has
    validated); only when that build stops on one game's fault does this build them one by one, from the
    same session (loads, validations and the manifest are reused, so the good games cost little more).
    An error that names no file of its game is prefixed with the game's id.
    """
    from generator.build.session import BuildResult

    try:
        return session.build(games, options, force=force, clean=clean, progress=progress), {}
    except ONE_GAMES_FAULT:
        ids = session.game_ids(games)
        if len(ids) < 2:
            raise
    merged, broken = BuildResult(), {}
    for game_id in ids:
        try:
            result = session.build((game_id,), options, force=force, progress=progress)
        except ONE_GAMES_FAULT as exc:
            broken[game_id] = exc if game_id in str(exc) else type(exc)(f"{game_id}: {exc}")
            continue
        merged.games += result.games
        merged.warnings += result.warnings
        merged.gallery_written = merged.gallery_written or result.gallery_written
        merged.changed_during_build += result.changed_during_build
    return merged, broken


def _loadable(session: Any, games: tuple[str, ...]) -> list[Any]:
    """The named games whose data loads (a broken one fails on its own in the build, with its own line)."""
    loaded = []
    for game_id in session.game_ids(games):
        try:
            loaded.append(session.load(game_id))
        except ONE_GAMES_FAULT:
            continue
    return loaded


def _preset_skips(session: Any, games: tuple[str, ...], options: Any) -> tuple[list[str], list[str]]:
    """One warning line per preset, game and component that service does not take, and why; and one line
    per preset and game it writes nothing for (`presets.nothing_written`), which makes the build exit 1.

    Every asked component counts, sheets and boards too: a service never prints those (they are documents,
    in the game's folder), and a player screen left out of a print order without a word is a missing piece.
    """
    if not options.presets:
        return [], []  # and presets.yaml stays unread
    from generator.build.plan import asked
    from generator.render.exports.presets import nothing_written
    from generator.render.exports.presets import preset as find_preset

    lines: list[str] = []
    empty: list[str] = []
    for name in dict.fromkeys(options.presets):
        chosen = find_preset(name)
        for game_id in session.game_ids(games):
            components = asked(session.load(game_id), options)
            lines.extend(f"warning: --preset {name} skips {game_id} {c.id}: {reason}" for c in components
                         if (reason := chosen.skip_reason(c)))
            if components and (line := nothing_written(chosen, game_id, components)):
                empty.append(line)
    return lines, empty


def _progress_bar(jobs: list[Any]) -> Callable[[Any], None]:
    """A terminal progress bar over the jobs that will run (closed when the last one is done)."""
    progressbar = cast(Any, click.progressbar)  # its stub types the bar too narrowly for item labels
    bar = progressbar(length=len(jobs), label="building", file=sys.stderr,
                      item_show_func=lambda label: label or "")
    bar.__enter__()
    done = [0]

    def advance(job: Any) -> None:
        done[0] += 1
        bar.update(1, job.label)
        if done[0] == len(jobs):
            bar.__exit__(None, None, None)

    return advance


def options_from_cli(values: dict[str, Any], jobs: int, only: tuple[str, ...] = (), output_uri: str = "") -> Any:
    """`BuildOptions` from `pnp build`'s option values (by parameter name): what `pnp watch` starts with.

    The options with their own spelling on the command line are translated; any
    other value whose name is a `BuildOptions` field is passed on as it is, so an
    option added to `pnp build` under its field's name reaches `pnp watch` too.
    """
    import dataclasses

    from generator.build.options import BuildOptions
    from generator.render.base.units import paper_names

    given = dict(values)
    translated: dict[str, Any] = {
        "papers": paper_names(given.pop("paper", "all")),
        "crop_marks": not given.pop("no_crop_marks", False),
        "back_offset": _offset(given.pop("back_offset", "0,0")),
        "exports": chosen_exports(given, not given.pop("no_gallery", False)),
    }
    # TTS saved objects name their images by URL: --tts-url, or this machine's output folder.
    translated["tts_url"] = _tts_base(given.pop("tts_url", ""), "tts" in translated["exports"], output_uri)
    translated["presets"] = tuple(dict.fromkeys(given.pop("presets", ())))  # a preset named twice is written once
    fields = {f.name for f in dataclasses.fields(BuildOptions)}
    rest = {name: value for name, value in given.items() if name in fields and name not in translated}
    options = BuildOptions(**translated, **rest, jobs=jobs, only=only)
    options.check()
    return options
