"""The gallery in a real browser: every image loads and every link resolves (headless Chromium)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from generator.build.options import BuildOptions
from generator.build.session import build
from generator.project import Project

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def rendered_dom(page: Path) -> str:
    """The DOM after scripts ran, as headless Chromium sees the page from the file system."""
    with tempfile.TemporaryDirectory() as profile:
        completed = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--allow-file-access-from-files", "--virtual-time-budget=15000",
             "--dump-dom", page.as_uri()],
            capture_output=True, text=True, timeout=120, check=False,
        )
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_gallery_images_load_and_links_resolve(project_copy: Project) -> None:
    build(project_copy, ["counterattack", "pirates-under-fire"], BuildOptions(papers=("a4",), exports=("sheets", "preview")))
    page = project_copy.output_dir / "index.html"
    dom = rendered_dom(page)
    body = re.search(r"<body([^>]*)>", dom).group(1)
    attributes = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body))
    images = len(re.findall(r"<img ", dom))
    assert images > 40
    assert attributes.get("images-done") == "yes", attributes
    assert attributes["images-broken"] == "0"
    assert int(attributes["images-loaded"]) == images
    links = re.findall(r'<a href="([^"#]+)"', dom)
    assert any(link.endswith("-a4-duplex-long.pdf") for link in links)
    for link in links:
        target = (page.parent / unquote(urlparse(link).path)).resolve()
        assert target.is_file(), link


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_a_missing_preview_shows_as_broken(project_copy: Project) -> None:
    build(project_copy, ["counterattack"], BuildOptions(papers=("a4",), exports=("sheets", "preview")))
    (project_copy.output_dir / "counterattack" / "preview" / "port-tortuga.png").unlink()
    dom = rendered_dom(project_copy.output_dir / "index.html")
    body = re.search(r"<body([^>]*)>", dom).group(1)
    assert 'data-images-broken="1"' in body
    assert 'alt="missing: counterattack/preview/port-tortuga.png"' in dom
