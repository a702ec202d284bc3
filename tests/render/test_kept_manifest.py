"""A build session keeps its manifest in memory from build to build (`pnp watch` reads it once), as
long as nobody else has written output/.cache/manifest.json since; what it keeps behaves as the file
read again would, and the file it leaves is the one a fresh process would leave."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.build.cache import MANIFEST, BuildCache
from generator.build.options import BuildOptions
from generator.build.session import BuildSession, build
from generator.project import Project
from tests.render.conftest import make_project

OPTIONS = BuildOptions(exports=("sheets", "preview"), jobs=1)


def manifest(project: Project) -> dict:
    return json.loads((project.output_dir / ".cache" / MANIFEST).read_text())


@pytest.mark.slow
def test_a_session_keeps_its_manifest_until_another_build_writes_the_file(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    project = make_project(tmp_path / "ca")
    cards = project.root / "data" / "counterattack" / "cards.yaml"
    opened: list[BuildCache] = []
    real_open = BuildCache.open.__func__  # type: ignore[attr-defined]

    def noted(cls, *args, **kw):  # type: ignore[no-untyped-def]
        opened.append(real_open(cls, *args, **kw))
        return opened[-1]

    monkeypatch.setattr(BuildCache, "open", classmethod(noted))
    with BuildSession(project) as session:
        session.build((), OPTIONS)
        cards.write_text(cards.read_text().replace("name: Nassau,", "name: Nassau Harbour,", 1))
        edited = session.build((), OPTIONS)
        assert opened[1] is opened[0]  # the same manifest, not read again
        assert "counterattack port a4" in edited.summary.ran
        kept = manifest(project)

        assert not session.build((), OPTIONS).summary.ran  # nothing changed: nothing redone
        assert manifest(project) == kept and opened[2] is opened[0]
        # the kept records are what reading the file gives
        assert {game: record.to_json() for game, record in opened[2].games.items()} == kept["games"]
        assert opened[2].gallery is not None and opened[2].gallery.to_json() == kept["extra"]["gallery"]

        cards.write_text(cards.read_text().replace("name: Nassau Harbour,", "name: Nassau,", 1))
        build(project, (), OPTIONS)  # another build (a `pnp build` beside the watch) writes the manifest
        assert not session.build((), OPTIONS).summary.ran  # read again: what that build did is known
        assert opened[-1] is not opened[0]
    written = (project.output_dir / ".cache" / MANIFEST).read_bytes()  # encoded a job record at a time ...
    assert written == json.dumps(json.loads(written), sort_keys=True, separators=(",", ":")).encode()  # ... as one
    fresh = make_project(tmp_path / "fresh")
    build(fresh, (), OPTIONS)
    assert manifest(project)["jobs"].keys() == manifest(fresh)["jobs"].keys()


@pytest.mark.slow
def test_a_deleted_manifest_is_not_trusted_from_memory(tmp_path: Path) -> None:
    project = make_project(tmp_path / "ca")
    with BuildSession(project) as session:
        session.build((), OPTIONS)
        (project.output_dir / ".cache" / MANIFEST).unlink()
        (project.output_dir / "counterattack" / "counterattack-rules-a4.pdf").unlink()
        again = session.build((), OPTIONS)
    assert "counterattack rules a4" in again.summary.ran  # an empty manifest: everything redone
    assert (project.output_dir / "counterattack" / "counterattack-rules-a4.pdf").is_file()
