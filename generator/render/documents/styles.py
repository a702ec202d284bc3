"""Page sizes (from the paper registry) and the paragraph styles every document shares, coloured by the game's theme.

Colours come from the game's `theme.colours` (primary, accent, paper, ink, accent_text) so
each rulebook looks like its game; missing entries fall back to neutral ink. `accent` draws rules
and fold lines; text in the accent's hue (a cover's tagline, list bullets) takes `accent_text`, a darker
shade the theme declares that reads at 4.5:1 or more on white paper (the ink when a theme has none):
a light gold on white cannot be read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm

from generator.model import Game
from generator.project import Project
from generator.render.base.fonts import register_fonts
from generator.render.base.units import paper

MARGIN = 15 * mm  # inside any home printer's unprintable edge


def paper_size(name: str) -> tuple[float, float]:
    """The sheet of a registered paper (`generator.render.base.units.PAPERS`) in points."""
    return paper(name).size_pt


def booklet_page(name: str) -> tuple[float, float]:
    """One booklet page of a registered paper (half the sheet, folded) in points."""
    return paper(name).booklet_pt


@dataclass(frozen=True)
class Palette:
    primary: colors.Color
    accent: colors.Color
    paper: colors.Color
    ink: colors.Color
    accent_text: colors.Color  # the accent's hue dark enough for text (see the module's docstring)


def palette(game: Game) -> Palette:
    raw: Any = game.theme.get("colours", {}) if hasattr(game.theme, "get") else {}
    raw = raw if isinstance(raw, dict) or hasattr(raw, "get") else {}

    def pick(name: str, default: str) -> colors.Color:
        value = raw.get(name, default)
        try:
            return colors.HexColor(str(value))
        except (ValueError, TypeError):
            return colors.HexColor(default)

    ink = pick("ink", "#1b1b1b")
    return Palette(
        primary=pick("primary", "#1f3b57"),
        accent=pick("accent", "#c8962c"),
        paper=pick("paper", "#f4ead5"),
        ink=ink,
        accent_text=pick("accent_text", ink.hexval().replace("0x", "#")),
    )


@dataclass(frozen=True)
class Styles:
    palette: Palette
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    body: ParagraphStyle
    item: ParagraphStyle
    cell: ParagraphStyle
    head_cell: ParagraphStyle
    caption: ParagraphStyle
    toc: tuple[ParagraphStyle, ...]

    def heading(self, level: int) -> ParagraphStyle:
        return (self.h1, self.h2, self.h3, self.h3)[max(1, min(level, 4)) - 1]


@dataclass(frozen=True)
class DocumentFonts:
    """The fonts a game's documents use for their title and chapter headings (`display`) and their running
    text (`body`, whose family gives `**bold**` and `*italic*`): the game's `theme.fonts`, else shipped ones."""

    display: str = "Display"
    body: str = "Serif"

    @property
    def checked(self) -> tuple[str, ...]:
        """The fonts every line of a document's text must be drawable in (body text, and tables in Sans)."""
        return (self.body, "Sans")


FONT_ROLES = ("display", "body")


def document_fonts(game: Game, project: Project) -> DocumentFonts:
    """The game's `theme.fonts` (`display:`, `body:`: a shipped font or a project font's file stem), resolved
    and registered; shipped fonts where it names none."""
    from generator.errors import DataError
    from generator.render.base.project_fonts import resolve_family, resolve_font

    raw: Any = game.theme.get("fonts") if hasattr(game.theme, "get") else None
    if raw is None:
        return DocumentFonts()
    if not hasattr(raw, "items") or any(key not in FONT_ROLES or not isinstance(value, str)
                                        for key, value in raw.items()):
        raise DataError(f"theme.fonts must map {' and '.join(FONT_ROLES)} to font names, got {dict(raw)!r}",
                        game.location)
    display = resolve_font(project, game.id, raw["display"], game.location) if "display" in raw else "Display"
    body = resolve_family(project, game.id, raw["body"], game.location)[0] if "body" in raw else "Serif"
    return DocumentFonts(display, body)


def make_styles(game: Game, scale: float = 1.0, fonts: DocumentFonts | None = None) -> Styles:
    """Styles at a base size; `scale` < 1 for booklet (half-size) pages; `fonts`: see `document_fonts`."""
    register_fonts()
    pal = palette(game)
    size = 10.5 * scale
    fonts = fonts or DocumentFonts()

    def style(name: str, **kw: Any) -> ParagraphStyle:
        base = dict(fontName=fonts.body, fontSize=size, leading=size * 1.35, textColor=pal.ink)
        base.update(kw)
        return ParagraphStyle(name, **base)

    return Styles(
        palette=pal,
        title=style("title", fontName=fonts.display, fontSize=size * 3, leading=size * 3.4, textColor=pal.primary,
                    alignment=TA_CENTER, spaceAfter=size * 0.6),
        subtitle=style("subtitle", fontName="Sans-Italic", fontSize=size * 1.3, leading=size * 1.7,
                       alignment=TA_CENTER, textColor=pal.accent_text, spaceAfter=size),
        h1=style("h1", fontName=fonts.display, fontSize=size * 1.9, leading=size * 2.3, textColor=pal.primary,
                 spaceBefore=size * 1.1, spaceAfter=size * 0.5, keepWithNext=1),
        h2=style("h2", fontName="Sans-Bold", fontSize=size * 1.3, leading=size * 1.6, textColor=pal.primary,
                 spaceBefore=size * 0.9, spaceAfter=size * 0.3, keepWithNext=1),
        h3=style("h3", fontName="Sans-Semibold", fontSize=size * 1.08, leading=size * 1.4, textColor=pal.ink,
                 spaceBefore=size * 0.6, spaceAfter=size * 0.2, keepWithNext=1),
        body=style("body", spaceAfter=size * 0.55),
        item=style("item", spaceAfter=size * 0.2),
        cell=style("cell", fontName="Sans", fontSize=size * 0.92, leading=size * 1.15),
        head_cell=style("head_cell", fontName="Sans-Bold", fontSize=size * 0.92, leading=size * 1.15,
                        textColor=colors.white),
        caption=style("caption", fontName="Sans-Italic", fontSize=size * 0.8, leading=size, alignment=TA_CENTER),
        toc=(
            style("toc1", fontName="Sans-Semibold", fontSize=size * 1.05, leading=size * 1.6, leftIndent=0),
            style("toc2", fontName="Sans", fontSize=size * 0.95, leading=size * 1.35, leftIndent=size * 1.5),
        ),
    )
