"""Per-game seeds derived from the root seed and the game's index, never from worker order.

Game 4711 of a run gets the same seed whether one process or eight play it,
and whatever chunk it falls in, so results are identical for any `--jobs`.
BLAKE2b is stable across Python versions and platforms (unlike `hash()`).
"""

from __future__ import annotations

import hashlib

SEED_BITS = 63  # JSON-safe, and small enough to retype from a log


def game_seed(root: int, index: int) -> int:
    """The seed of game `index` in a run seeded with `root`."""
    digest = hashlib.blake2b(f"{root}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)

