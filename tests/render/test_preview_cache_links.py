"""The build cache keeps a big deck's preview faces as links to the preview files just written (one file
created per face, not two), and never trusts one that changed since: a preview edited in place is redrawn."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from generator.build.cache import BuildCache
from generator.build.options import BuildOptions
from generator.build.session import build
from generator.render.base.units import px
from generator.render.exports.registry import PREVIEW, PreviewSettings
from tests.bench.scaled import scale_deck
from tests.helpers import copy_sources

GAME = "all-hands-on-deck"


def preview_faces(cache: BuildCache) -> dict[str, Path]:
    """The cache's faces at the previews' resolution (those of the look page's images, at 192 dpi, are kept
    beside them as files of their own: the look job is not split into parts)."""
    width = px(63, PreviewSettings().dpi)  # the game's cards are all poker size
    faces = {key: cache.root / "faces" / f"{key}.png" for key in cache.faces}
    return {key: path for key, path in faces.items() if struct.unpack(">I", path.read_bytes()[16:20])[0] == width}


def previews(root: Path) -> dict[str, bytes]:
    folder = root / "output" / GAME / "preview"
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.png"))}


@pytest.mark.slow
def test_parallel_preview_parts_keep_their_faces_as_links_to_the_previews(tmp_path: Path) -> None:
    project = copy_sources(tmp_path)
    scale_deck(project.root, 4, GAME)  # more than one part of previews, so workers and this process draw parts
    options = BuildOptions(papers=("a4",), exports=(PREVIEW,), jobs=2)
    result = build(project, [GAME], options, force=True)
    assert f"{GAME} pirate preview" in result.summary.ran
    made = previews(project.root)
    cache = BuildCache.open(project)
    kept = preview_faces(cache)
    assert len(kept) > 96 and all(cache.face(key) is not None for key in kept)  # every face kept, intact
    by_inode = {(path.stat().st_dev, path.stat().st_ino): name
                for name in made for path in [project.output_dir / GAME / "preview" / name]}
    linked = [path for path in kept.values() if (path.stat().st_dev, path.stat().st_ino) in by_inode]
    assert len(linked) == len(kept)  # each kept face is a preview file's second name, not a second file
    assert all(path.read_bytes() == made[by_inode[(path.stat().st_dev, path.stat().st_ino)]] for path in linked)

    # a preview overwritten in place changes its cache entry too: the next build sees both, redraws the face
    # (the cache entry fails its digest) and writes the preview's bytes back
    victim = next(name for name in made if name.startswith("pirate-") and name != "pirate-back.png")
    with open(project.output_dir / GAME / "preview" / victim, "r+b") as handle:
        handle.seek(100)
        handle.write(b"\x00" * 16)
    again = build(project, [GAME], options, force=True)  # (force: the scaled deck fails its count checks)
    assert f"{GAME} pirate preview" in again.summary.ran
    assert previews(project.root) == made
    cache = BuildCache.open(project)
    assert all(cache.face(key) is not None for key in cache.faces)
