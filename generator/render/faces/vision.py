"""Colour as people see it: WCAG contrast, and colour-blind simulation with CIEDE2000 distances.

The accessibility preflight (`render.faces.access`) measures drawn colours with these.
Contrast is WCAG 2.x's (relative luminance of sRGB). Colour-vision deficiency is
Machado, Oliveira & Fernandes 2009 at severity 1.0 (full dichromacy), applied to linear
sRGB, and distances are CIEDE2000 in CIE L*a*b* (D65): both from colour-science, a
well-kept library, so the published models are not re-typed here. colour-science takes
seconds to import, so the distances a validation asks for (`closest_apart`) are kept in the
per-user cache, keyed by its version: a validation whose colours did not change never imports it.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia")
_MACHADO = {"protanopia": "Protanomaly", "deuteranopia": "Deuteranomaly", "tritanopia": "Tritanomaly"}


def rgb(hex_colour: str) -> tuple[float, float, float]:
    """'#rrggbb' or '#rgb' as sRGB components 0..1."""
    value = hex_colour.strip().lstrip("#")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


@cache
def luminance(hex_colour: str) -> float:
    """WCAG 2.x relative luminance."""
    r, g, b = (_linear(c) for c in rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG 2.x contrast ratio of two colours, 1..21."""
    a, b = sorted((luminance(first), luminance(second)), reverse=True)
    return (a + 0.05) / (b + 0.05)


@cache
def _colour() -> Any:
    """colour-science, imported on first use (it takes a second); its notes that optional extras
    (SciPy, Matplotlib) are missing are not for our users: none of what we call needs them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour
    return colour


@cache
def seen_as(hex_colour: str, deficiency: str | None) -> tuple[float, float, float]:
    """The colour in CIE L*a*b* (D65) as a person with `deficiency` sees it (None: normal vision)."""
    import numpy as np

    colour = _colour()
    linear = np.array([_linear(c) for c in rgb(hex_colour)])
    if deficiency is not None:
        with warnings.catch_warnings():  # its note that tritanomaly is modelled by a shift, as the paper says
            warnings.simplefilter("ignore")
            matrix = colour.blindness.matrix_cvd_Machado2009(_MACHADO[deficiency], 1.0)
        linear = np.clip(matrix @ linear, 0.0, 1.0)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False)
    white = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]
    lab = colour.XYZ_to_Lab(xyz, white)
    return (float(lab[0]), float(lab[1]), float(lab[2]))


@cache
def distance(first: str, second: str, deficiency: str | None) -> float:
    """CIEDE2000 between two colours as a person with `deficiency` sees them."""
    import numpy as np

    found = _colour().delta_E(np.array(seen_as(first, deficiency)), np.array(seen_as(second, deficiency)),
                              method="CIE 2000")
    return float(found)


def closest_under_deficiency(first: str, second: str) -> tuple[float, str]:
    """The smallest CIEDE2000 of two colours over the three dichromacies, and which one it is."""
    return min((distance(first, second, kind), kind) for kind in DEFICIENCIES)


def closest_apart(pairs: Iterable[tuple[str, str]], folder: Path | None = None
                  ) -> dict[tuple[str, str], tuple[float, str]]:
    """`closest_under_deficiency` of each pair, read from the per-user cache where a process before
    worked it out (`folder`: the cache folder; default the user's, see `user_cache`)."""
    from generator.user_cache import private_folder, store_entry, user_folder

    wanted = {pair: _pair_key(*pair) for pair in pairs}
    folder = folder if folder is not None else user_folder()
    path = None
    stored: dict[str, Any] = {}
    if folder is not None and private_folder(folder):
        path = folder / f"vision-{_library_version()}.json"
        stored = _read_stored(path)
    found = {}
    missing = False
    for pair, key in wanted.items():
        entry = stored.get(key)
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], float)
                and entry[1] in DEFICIENCIES):
            entry = list(closest_under_deficiency(*pair))
            stored[key] = entry
            missing = True
        found[pair] = (float(entry[0]), str(entry[1]))
    if missing and path is not None:
        store_entry(path, json.dumps(stored, sort_keys=True).encode())
    return found


def _pair_key(first: str, second: str) -> str:
    return "|".join(sorted((first.strip().lower(), second.strip().lower())))


def _library_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("colour-science")
    except PackageNotFoundError:
        return "unknown"


def _read_stored(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
