"""Two output folders alike: every file is the same bytes, or a PNG whose decoded pixels are the same.

    .venv/bin/python tests/bench/compare_pngs.py REFERENCE_OUTPUT NEW_OUTPUT

For speed changes to PNG encoding (previews, --png, --tts, presets): the bytes may change, the pixels
may not. PNGs are compared after decoding with Pillow, as RGBA (so a palette, grey or RGB file with the
same colours counts as the same picture, and transparency still counts); their size and dpi must match
too. Prints a summary and every file that differs otherwise; asserts nothing (run by hand). The build
cache (`.cache/`) is left out: its keys cover the code.
"""

from __future__ import annotations

import argparse
import io
from collections import Counter
from pathlib import Path


def verdict(reference: Path, new: Path) -> str:
    old_bytes, new_bytes = reference.read_bytes(), new.read_bytes()
    if old_bytes == new_bytes:
        return "same bytes"
    if reference.suffix != ".png":
        return "DIFFERENT bytes"
    from PIL import Image

    old_image, new_image = Image.open(io.BytesIO(old_bytes)), Image.open(io.BytesIO(new_bytes))
    if old_image.size != new_image.size:
        return f"DIFFERENT size {old_image.size} -> {new_image.size}"
    if old_image.info.get("dpi") != new_image.info.get("dpi"):
        return f"DIFFERENT dpi {old_image.info.get('dpi')} -> {new_image.info.get('dpi')}"
    if old_image.convert("RGBA").tobytes() != new_image.convert("RGBA").tobytes():
        return "DIFFERENT pixels"
    return "other bytes, same pixels"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("reference", type=Path)
    parser.add_argument("new", type=Path)
    args = parser.parse_args()

    def files(root: Path) -> set[Path]:
        return {p.relative_to(root) for p in root.rglob("*") if p.is_file() and ".cache" not in p.parts}

    old, new = files(args.reference), files(args.new)
    tally: Counter[str] = Counter()
    for name in sorted(old - new):
        print(f"only in reference: {name}")
    for name in sorted(new - old):
        print(f"only in new: {name}")
    old_png_bytes = new_png_bytes = 0
    for name in sorted(old & new):
        result = verdict(args.reference / name, args.new / name)
        tally[result] += 1
        if name.suffix == ".png":
            old_png_bytes += (args.reference / name).stat().st_size
            new_png_bytes += (args.new / name).stat().st_size
        if result.startswith("DIFFERENT"):
            print(f"{name}: {result}")
    print(", ".join(f"{count} {result}" for result, count in sorted(tally.items())))
    print(f"PNG bytes: {old_png_bytes / 1e6:.2f} MB -> {new_png_bytes / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
