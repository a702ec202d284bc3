"""Compare two folders of PDFs page by page as rendered pictures (pypdfium2, 150 dpi).

For a speed change that alters a PDF's bytes but must not alter what prints:
`python tests/bench/compare_renders.py REFERENCE_DIR NEW_DIR [GLOB]` renders every page of
every PDF matching GLOB (default `*.pdf`, searched recursively) in both folders and
prints, per file, whether the bytes are equal, whether every page's pixels are, and the
page count; it exits 1 if any file differs in pixels or is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium

DPI = 150


def pages(path: Path) -> list[bytes]:
    document = pdfium.PdfDocument(path)
    try:
        return [document[i].render(scale=DPI / 72).to_pil().convert("RGB").tobytes() for i in range(len(document))]
    finally:
        document.close()


def main(reference: Path, new: Path, pattern: str = "*.pdf") -> int:
    failures = 0
    files = sorted(p.relative_to(reference) for p in reference.rglob(pattern))
    for name in files:
        if not (new / name).exists():
            print(f"MISSING  {name}")
            failures += 1
            continue
        if (reference / name).read_bytes() == (new / name).read_bytes():
            print(f"same bytes   {name}")
            continue
        old_pages, new_pages = pages(reference / name), pages(new / name)
        differing = [i + 1 for i, (a, b) in enumerate(zip(old_pages, new_pages, strict=False)) if a != b]
        if len(old_pages) != len(new_pages) or differing:
            print(f"DIFFERENT    {name}: pages {len(old_pages)} -> {len(new_pages)}, differing {differing}")
            failures += 1
        else:
            print(f"same pixels  {name} ({len(old_pages)} pages)")
    print(f"{len(files)} files, {failures} differing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), *sys.argv[3:4]))
