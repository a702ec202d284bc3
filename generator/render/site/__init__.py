"""The web pages and the showcase: `gallery` renders `output/index.html` (`index.html.j2`; `gallery.js.j2` for
search, filters and lightbox; `live.js.j2` for reload under `pnp serve`) from the build's records; the Play
page's template (`play.html.j2`); `showcase` composes the `--showcase` images from rasterized faces.

It may import every room below it, model and the ground floor; not reports.
"""
