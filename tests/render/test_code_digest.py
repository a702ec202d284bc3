"""The code digest covers every file of the package (code, fonts, built-in templates) but no bytecode cache."""

from __future__ import annotations

from pathlib import Path

from generator.render.cache import PACKAGE_DIR, _package_files, code_digest


def test_every_package_file_is_listed_and_bytecode_caches_are_not(tmp_path: Path) -> None:
    (tmp_path / "render" / "site").mkdir(parents=True)
    (tmp_path / "render" / "__pycache__").mkdir()
    (tmp_path / "render" / "__pycache__" / "draw.cpython-311.pyc").write_bytes(b"x")
    (tmp_path / "render" / "draw.py").write_text("A = 1\n")
    (tmp_path / "render" / "site" / "index.html.j2").write_text("<html>")
    (tmp_path / "fonts.ttf").write_bytes(b"\0" * 10)
    listed = {name: info.st_size for name, info in _package_files(str(tmp_path), "")}
    assert listed == {"render/draw.py": 6, "render/site/index.html.j2": 6, "fonts.ttf": 10}


def test_the_shipped_package_is_covered() -> None:
    names = {name for name, _ in _package_files(str(PACKAGE_DIR), "")}
    shipped = {p.relative_to(PACKAGE_DIR).as_posix() for p in PACKAGE_DIR.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert names == shipped
    assert {"render/cache.py", "fonts/DejaVuSans.ttf", "render/exports/presets.yaml"} <= names
    assert len(code_digest()) == 64
