"""Two output folders drawn alike: every PDF whose bytes differ is rendered page by page (pypdfium2)
and the pixels compared; prints each file's verdict, asserts nothing (run by hand).

    .venv/bin/python tests/bench/compare_renders.py REFERENCE_OUTPUT NEW_OUTPUT [--dpi 72 150 300]
        [--glob '*-fillable-*.pdf'] [--forms]

For speed changes that may change bytes but must not change what prints. `--forms` renders each page
twice: as a plain viewer draws it (widget appearances) and with pdfium's form filler initialised
(`init_forms`, as an interactive viewer), for changes to how form fields are written.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def pages(path: Path, dpi: int, forms: bool = False) -> list[tuple[tuple[int, int], bytes]]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        if forms:
            document.init_forms()
        rendered = []
        for page in document:
            bitmap = page.render(scale=dpi / 72, may_draw_forms=True)
            rendered.append(((bitmap.width, bitmap.height), bytes(bitmap.buffer)))
        return rendered
    finally:
        document.close()


def compare(reference: Path, new: Path, dpis: list[int], form_modes: tuple[bool, ...] = (False,)) -> str:
    if reference.read_bytes() == new.read_bytes():
        return "same bytes"
    checked = 0
    for forms in form_modes:
        for dpi in dpis:
            old_pages, new_pages = pages(reference, dpi, forms), pages(new, dpi, forms)
            mode = f"{dpi} dpi{' with forms' if forms else ''}"
            if len(old_pages) != len(new_pages):
                return f"DIFFERENT page count at {mode}: {len(old_pages)} -> {len(new_pages)}"
            differing = [i + 1 for i, (a, b) in enumerate(zip(old_pages, new_pages, strict=True)) if a != b]
            if differing:
                return f"DIFFERENT pixels at {mode} on pages {differing}"
            checked += len(new_pages)
    return f"other bytes, pixel-identical: {checked} page renders ({len(dpis)} dpi x {len(form_modes)} form mode)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--dpi", type=int, nargs="+", default=[150])
    parser.add_argument("--glob", default="*.pdf", help="which PDFs to compare (default: all)")
    parser.add_argument("--forms", action="store_true", help="also render with pdfium's form filler")
    args = parser.parse_args()
    form_modes = (False, True) if args.forms else (False,)
    verdicts: dict[str, int] = {}
    for old in sorted(args.reference.rglob(args.glob)):
        relative = old.relative_to(args.reference)
        if ".cache" in relative.parts:
            continue
        new = args.new / relative
        verdict = compare(old, new, args.dpi, form_modes) if new.exists() else "MISSING in the new folder"
        kind = verdict.split(" ")[0]
        verdicts[kind] = verdicts.get(kind, 0) + 1
        if verdict != "same bytes":
            print(f"{relative}: {verdict}")
    print(", ".join(f"{count} {kind}" for kind, count in sorted(verdicts.items())))


if __name__ == "__main__":
    main()
