"""Physical sizes of components, in millimetres.

Named sizes are the industry's standard card and tile formats (not game
facts), so they live here; a component may also give explicit millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Shape = Literal["rect", "circle"]


@dataclass(frozen=True)
class Size:
    """Trim size of one face. `corner` is the rounding radius of the die cut."""

    width: float
    height: float
    shape: Shape = "rect"
    corner: float = 0.0
    name: str | None = None

    @property
    def diameter(self) -> float:
        return self.width

    def label(self) -> str:
        if self.shape == "circle":
            dims = f"⌀{self.width:g} mm"
        else:
            dims = f"{self.width:g}×{self.height:g} mm"
        return f"{self.name} ({dims})" if self.name else dims


NAMED_SIZES: dict[str, Size] = {
    "poker": Size(63, 88, corner=3, name="poker"),
    "bridge": Size(57, 89, corner=3, name="bridge"),
    "mini": Size(44, 63, corner=3, name="mini"),
    "mini-euro": Size(44, 67, corner=3, name="mini-euro"),
    "tarot": Size(70, 120, corner=3, name="tarot"),
    "square-50": Size(50, 50, corner=2, name="square-50"),
    "square-60": Size(60, 60, corner=2, name="square-60"),
    "square-70": Size(70, 70, corner=2, name="square-70"),
    "circle-20": Size(20, 20, shape="circle", name="circle-20"),
    "circle-25": Size(25, 25, shape="circle", name="circle-25"),
    "circle-30": Size(30, 30, shape="circle", name="circle-30"),
    "a5": Size(148, 210, name="a5"),
    "a6": Size(105, 148, name="a6"),
}
