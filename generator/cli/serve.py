"""`pnp serve`: the gallery as a live preview in the browser, rebuilt on every save.

The build loop is `pnp watch`'s (one warm session, one line per rebuild);
the server (`generator.cli.server`) runs beside it in a thread and tells the
page when a build changed something or failed.
"""

from __future__ import annotations

import os

import click

from generator.cli.build import chosen_exports, paper_option
from generator.cli.context import Context, complete_games, pass_context, quiet_option, root_option


@click.command("serve")
@click.argument("game_ids", nargs=-1, metavar="[GAME]...", shell_complete=complete_games)
@paper_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default keeps the preview on this machine).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port; the URL is printed).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests addressed to this name (repeatable); on a loopback --host only "
                   "localhost and the address itself are answered, so no web page can reach the preview.")
@click.option("--png", is_flag=True, help="Also keep the 300 dpi PNG faces up to date (the lightbox shows their bleed).")
@click.option("--force", is_flag=True, help="Build even if validation fails (the page shows the faces anyway).")
@quiet_option
@root_option
@pass_context
def serve_command(ctx: Context, game_ids: tuple[str, ...], paper: str, host: str, port: int,
                  allow_hosts: tuple[str, ...], png: bool, force: bool) -> None:
    """Serve output/ with the gallery on http://127.0.0.1:8000/, rebuilding on every save.

    The page reloads by itself after each rebuild; a build error (file:line)
    shows on top of the page until it is fixed. Click a face to see it large
    with its bleed, trim and safe lines. Ctrl-C stops.
    """
    from generator.build.options import BuildOptions
    from generator.cli.playweb import PREFIX, PlayTables
    from generator.cli.server import BuildState, PreviewServer, is_loopback
    from generator.cli.watch import watch_and_build
    from generator.render.base.units import paper_names
    from generator.render.site.gallery import render_gallery

    ctx.game_ids(game_ids)  # a misspelt game is refused with the likely one, before the server starts
    options = BuildOptions(papers=paper_names(paper), exports=chosen_exports({"export_png": png}, gallery=True),
                           jobs=os.cpu_count() or 1)
    state = BuildState()
    placeholder = render_gallery(ctx.project, []).encode("utf-8")
    play = PlayTables(ctx.project.root, ctx.registry)
    with PreviewServer(ctx.project.output_dir, host, port, state, placeholder, play=play,
                       allow_hosts=allow_hosts) as server:
        if not is_loopback(host):  # printed even with --quiet: it is about who can see the files, not chatter
            click.echo(f"warning: --host {host}: other machines on the network can see the preview", err=True)
        click.echo(f"serving {ctx.project.display(ctx.project.output_dir)}/ at {server.url} (Ctrl-C to stop); "
                   f"play against the bots at {server.url}{PREFIX.lstrip('/')}")
        try:
            watch_and_build(ctx.project, ctx.registry, game_ids, options, click.echo, around=state.run, force=force)
        finally:  # Ctrl-C: the games in progress on the Play pages are kept as logs
            for saved in play.save_all():
                click.echo(f"saved an unfinished game from the Play page to {saved}")
