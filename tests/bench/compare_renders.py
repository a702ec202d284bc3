"""Two output folders drawn alike: every PDF whose bytes differ is rendered page by page (pypdfium2,
150 dpi) and the pixels compared; prints each file's verdict, asserts nothing (run by hand).

    .venv/bin/python tests/bench/compare_renders.py REFERENCE_OUTPUT NEW_OUTPUT

For speed changes that may change bytes but must not change what prints.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def pages(path: Path, dpi: int) -> list[tuple[tuple[int, int], bytes]]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        rendered = []
        for page in document:
            bitmap = page.render(scale=dpi / 72, may_draw_forms=True)
            rendered.append(((bitmap.width, bitmap.height), bytes(bitmap.buffer)))
        return rendered
    finally:
        document.close()


def compare(reference: Path, new: Path, dpi: int) -> str:
    if reference.read_bytes() == new.read_bytes():
        return "same bytes"
    old_pages, new_pages = pages(reference, dpi), pages(new, dpi)
    if len(old_pages) != len(new_pages):
        return f"DIFFERENT page count {len(old_pages)} -> {len(new_pages)}"
    differing = [i + 1 for i, (a, b) in enumerate(zip(old_pages, new_pages, strict=True)) if a != b]
    if differing:
        return f"DIFFERENT pixels on pages {differing}"
    return f"other bytes, pixel-identical on all {len(new_pages)} pages"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args()
    verdicts: dict[str, int] = {}
    for old in sorted(args.reference.rglob("*.pdf")):
        relative = old.relative_to(args.reference)
        if ".cache" in relative.parts:
            continue
        new = args.new / relative
        verdict = compare(old, new, args.dpi) if new.exists() else "MISSING in the new folder"
        kind = verdict.split(" ")[0]
        verdicts[kind] = verdicts.get(kind, 0) + 1
        if verdict != "same bytes":
            print(f"{relative}: {verdict}")
    print(", ".join(f"{count} {kind}" for kind, count in sorted(verdicts.items())))


if __name__ == "__main__":
    main()
