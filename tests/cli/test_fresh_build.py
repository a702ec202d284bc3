"""`pnp build` in a fresh process: a build with nothing to redo pays for no drawing code, and reuses
what an earlier process recorded only while the files it describes are really unchanged."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from tests.helpers import copy_sources

GAME = "pirate-tricks"
ARGS = ["-q", "build", GAME, "--paper", "a4"]
DRAWING = ("reportlab", "PIL", "jinja2", "pypdfium2", "yaml")  # a no-op build parses no YAML either


def pnp_in_new_process(root: Path, *extra: str) -> tuple[list[str], str]:
    """Run `pnp build` in a new interpreter; the drawing modules it imported, and its stdout."""
    probe = ("import json, sys\nfrom generator.cli import main\ncode = 0\ntry:\n    main(sys.argv[1:])\n"
             "except SystemExit as exc:\n    code = exc.code or 0\n"
             f"print('MODULES', json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({DRAWING!r}))))\n"
             "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", probe, "--root", str(root), *ARGS, *extra],
                          capture_output=True, text=True, check=True)
    *lines, modules = done.stdout.strip().splitlines()
    return json.loads(modules.removeprefix("MODULES ")), "\n".join(lines)


def outputs(root: Path) -> dict[str, tuple[bytes, int]]:
    out = root / "output"
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file() and ".cache" not in p.parts}


@pytest.fixture(scope="module")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fresh")
    copy_sources(root)
    try:
        main(["--root", str(root), *ARGS])
    except SystemExit as exc:
        assert not exc.code
    return root


@pytest.fixture
def built(built_once: Path, tmp_path: Path) -> Path:
    shutil.copytree(built_once, tmp_path / "p")  # copy2 keeps modification times: the manifest still holds
    return tmp_path / "p"


@pytest.mark.slow
def test_a_build_with_nothing_to_redo_imports_no_drawing_code(built: Path) -> None:
    before = outputs(built)
    loaded, _ = pnp_in_new_process(built)
    assert loaded == []
    assert outputs(built) == before  # nothing rewritten, not even the gallery page
