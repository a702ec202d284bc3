"""The fillable score sheets of two output folders drawn alike: every page of every `*-fillable-*.pdf`
rendered with pypdfium2 at 72, 150 and 300 dpi, once as a plain viewer draws it (widget appearances)
and once with pdfium's form filler initialised (`init_forms`, as an interactive viewer); prints each
file's verdict, asserts nothing (run by hand after a change to how form fields are written).

    .venv/bin/python tests/bench/compare_fillable.py REFERENCE_OUTPUT NEW_OUTPUT [--dpi 72 150 300]
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path


def page_digests(path: Path, dpi: int, forms: bool) -> list[tuple[int, int, str]]:
    """Each page's pixel size and the digest of its pixels."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        if forms:
            document.init_forms()
        digests = []
        for page in document:
            bitmap = page.render(scale=dpi / 72, may_draw_forms=True)
            digests.append((bitmap.width, bitmap.height, hashlib.sha256(bytes(bitmap.buffer)).hexdigest()))
        return digests
    finally:
        document.close()


def compare(reference: Path, new: Path, dpis: list[int]) -> str:
    if reference.read_bytes() == new.read_bytes():
        return "same bytes"
    checked = 0
    for forms in (False, True):
        for dpi in dpis:
            old_pages, new_pages = page_digests(reference, dpi, forms), page_digests(new, dpi, forms)
            mode = f"{dpi} dpi{' with forms' if forms else ''}"
            if len(old_pages) != len(new_pages):
                return f"DIFFERENT page count at {mode}: {len(old_pages)} -> {len(new_pages)}"
            differing = [i + 1 for i, (a, b) in enumerate(zip(old_pages, new_pages, strict=True)) if a != b]
            if differing:
                return f"DIFFERENT pixels at {mode} on pages {differing}"
            checked += len(new_pages)
    return f"other bytes, pixel-identical: {checked} page renders ({len(dpis)} dpi x with/without forms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--dpi", type=int, nargs="+", default=[72, 150, 300])
    args = parser.parse_args()
    verdicts: dict[str, int] = {}
    for old in sorted(args.reference.rglob("*-fillable-*.pdf")):
        relative = old.relative_to(args.reference)
        if ".cache" in relative.parts:
            continue
        new = args.new / relative
        verdict = compare(old, new, args.dpi) if new.exists() else "MISSING in the new folder"
        kind = verdict.split(" ")[0]
        verdicts[kind] = verdicts.get(kind, 0) + 1
        print(f"{relative}: {verdict}")
    print(", ".join(f"{count} {kind}" for kind, count in sorted(verdicts.items())))


if __name__ == "__main__":
    main()
