"""Every key a designer can write, in one table: game.yaml (and the other data files) and face layouts.

The loaders read through these tables, not beside them: a `Section` made with
a `Block` refuses (as a programming error) to take a key the block does not
declare, or to take it as another type than declared, and names the block's
keys when a designer misspells one; the layout compiler's key, type, default
and required tables (`render.faces.layout`) are made from `LAYOUT_TYPES`.
`docs/layouts.md` is generated from here (`python -m generator.docs_layouts`),
and a test fails when a declared key has no documentation or the page is stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REQUIRED = None  # a key's `default` when it must be given
UNSET = object()  # a key whose default the code works out (or a required one): no `value`


@dataclass(frozen=True)
class Key:
    """One key: the Python type(s) the loader accepts (data files) or the value kind (layouts), the default
    as a designer reads it (None: required), what it means and an example value as YAML."""

    name: str
    kind: Any
    default: str | None
    doc: str
    example: str
    value: Any = UNSET  # the default the code uses (layouts: `Element.get`), where it is one plain value


@dataclass(frozen=True)
class Block:
    """One YAML mapping the loader reads: its keys; `open` when other keys are data (item fields)."""

    name: str
    doc: str
    keys: tuple[Key, ...]
    open: str = ""  # what the other keys are, when they are allowed

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(key.name for key in self.keys)

    def key(self, name: str) -> Key | None:
        return next((key for key in self.keys if key.name == name), None)


def _k(name: str, kind: Any, default: str | None, doc: str, example: str, value: Any = UNSET) -> Key:
    return Key(name, kind, default, doc, example, value)


# -- data files (game.yaml and the other YAML files of data/<game>/) -----------------------------------------

FILE = Block("a data file", "Each YAML file of `data/<game>/` holds any of these sections; `game.yaml` must exist and "
             "hold `game:`. Every section but `components` appears once per game.", (
    _k("game", dict, REQUIRED, "The game's identity: see **game**.", "{id: my-game, title: My Game, ...}"),
    _k("components", list, "[]", "Everything printed: see **component**. May be split over several files.",
       "[{id: crew, kind: card, ...}]"),
    _k("contents", list, "[]", "The box contents list of the rulebook: see **contents entry**.",
       "[{label: crew cards, count: 54, component: crew}]"),
    _k("player_counts", dict, "{}", "Per player count (a whole number key), what is removed: see **player count**.",
       "{2: {remove: [{component: crew, where: {suit: [gold]}}]}}"),
    _k("rules", dict, "{}", "Free-form numbers and texts the rulebook, the layouts (`rules.x`) and the engine read. "
       "A `designed:` text anywhere marks a design decision.", "{hand_size: 7, rounds: 3}"),
    _k("theme", dict, "{}", "Free-form look of the game, read by layouts as `theme.x`. Known keys: `colours` "
       "(`primary`, `accent`, `paper`, `ink`: the rulebook's colours too; `accent_text`: the accent's hue dark "
       "enough for text, 4.5:1 or more on white, for covers' taglines and list bullets, the ink if absent), "
       "`mark_corner` (one of top left, "
       "top right, bottom left, bottom right), `box_art` (the showcase's box front: an SVG in templates/art/<game>/, "
       "named without `.svg`, drawn under the title) and `fonts` (the documents' `display` font for titles and "
       "chapters and `body` font for its text: shipped fonts or project font stems; a body font's bold and "
       "italic are `<Stem>-Bold`, `<Stem>-Italic`, `<Stem>-BoldItalic` beside it).",
       "{colours: {primary: '#1f3b57', paper: '#f4ead5'}, fonts: {display: PirataOne, body: Serif}}"),
))

GAME = Block("game", "Who the game is for and what it is called.", (
    _k("id", str, REQUIRED, "The game's id: the name of its folder under data/.", "my-game"),
    _k("title", str, REQUIRED, "The title printed on the rulebook and in the gallery.", "Plunder Pile"),
    _k("players", dict, REQUIRED, "How many play: see **game players**.", "{min: 2, max: 4}"),
    _k("play_time", (int, dict), REQUIRED, "Minutes: one number, or a range (see **play time**).", "30"),
    _k("age", int, REQUIRED, "The youngest age it suits (0..99).", "8"),
    _k("credits", list, "[]", "Who made it: see **credit**.", "[{role: Design, names: [Ann]}]"),
    _k("design_notes", list, "[]", "Notes for the designer's own record (not printed).", "[try 5 rounds]"),
    _k("designed", str, "none", "A design decision about the game as a whole (listed in the rulebook's notes).",
       "Ties go to the youngest player."),
    _k("subtitle", str, "''", "A line under the title.", "A game of greed"),
    _k("tagline", str, "''", "One short sentence for the gallery and the box.", "Take the last doubloon"),
    _k("story", str, "''", "A paragraph setting the scene, printed at the start of the rulebook.",
       "One chest, a pile of doubloons..."),
))
PLAYERS = Block("game players", "The player count range.", (
    _k("min", int, REQUIRED, "Fewest players (1..12).", "2"),
    _k("max", int, REQUIRED, "Most players (min..12).", "4"),
))
PLAY_TIME = Block("play time", "A play time range in minutes.", (
    _k("min", int, REQUIRED, "Shortest game, minutes (1 or more).", "20"),
    _k("max", int, REQUIRED, "Longest game, minutes (min or more).", "40"),
))
CREDIT = Block("credit", "One line of the credits.", (
    _k("role", str, REQUIRED, "What they did.", "Illustration"),
    _k("names", (list, str), REQUIRED, "Who: one name or a list.", "[Ann, Bo]"),
))
CONTENTS = Block("contents entry", "One line of the box contents, checked against the components.", (
    _k("label", str, REQUIRED, "What the line says.", "crew cards"),
    _k("count", int, REQUIRED, "How many; validation checks the items selected add up to it.", "54"),
    _k("component", str, REQUIRED, "The component it counts.", "crew"),
    _k("where", dict, "{}", "Only the items whose fields match: see **condition**.", "{suit: [gold, red]}"),
))
CONDITION = Block("condition", "Field tests: each key is a field of the component; the value is one value, a "
                  "list of values, or `{min: N, max: N}` (see **range test**).", (), open="field names")
BOUNDS = Block("range test", "A number range for one field (either bound may be left out).", (
    _k("min", float, "none", "Smallest value that matches.", "3"),
    _k("max", float, "none", "Largest value that matches.", "9"),
))
PLAYER_COUNTS = Block("player counts", "Keys are player counts (whole numbers in the game's range): see "
                      "**player count**.", (), open="player counts")
PLAYER_COUNT = Block("player count", "What changes at one player count.", (
    _k("remove", list, "[]", "Items taken out of the game: see **removal**.", "[{component: crew, where: {rank: 1}}]"),
    _k("note", str, "''", "A line for the rulebook's setup.", "Leave the gold suit in the box."),
))
REMOVAL = Block("removal", "Items removed at a player count.", (
    _k("component", str, REQUIRED, "The component.", "crew"),
    _k("where", dict, "{}", "Only the items whose fields match: see **condition**.", "{suit: gold}"),
))
COMPONENT = Block("component", "Something printed: a deck of cards, tiles, a board, tokens or a sheet.", (
    _k("id", str, REQUIRED, "Its id (lower case, digits, `-`, `_`, `.`).", "crew"),
    _k("kind", str, REQUIRED, "One of card, tile, board, token, sheet.", "card"),
    _k("name", str, REQUIRED, "One of them, as the rulebook says it.", "crew card"),
    _k("plural", str, "name + s", "Several of them.", "crew cards"),
    _k("size", (str, dict), REQUIRED, "A named size (listed under **size**) or a mapping: see **size**.", "poker"),
    _k("front", str, REQUIRED, "Its front layout, `game/layout` (templates/layouts/game/layout.yaml).",
       "my-game/crew"),
    _k("back", str, "none", "Its back layout; none: no back printed (a double-sided component uses its front "
       "layout with each item's `back` fields).", "my-game/crew-back"),
    _k("double_sided", bool, "false", "Each item has its own back (`back:` fields in the item).", "true"),
    _k("per_player", bool, "false", "The counts are per player (the rulebook multiplies them).", "true"),
    _k("sheet", str, "own", "`own`: its own sheet PDF; `mixed`: shares the game's sheet of small pieces; `spill`: the copies that "
       "fill whole pages on its own sheet, the rest (a part-filled last page) on the small pieces' sheet; any other "
       "name: shares one sheet PDF, `<game>-<name>-...`, with the components of the same size that give that name "
       "(cards, tiles and tokens only).", "mixed"),
    _k("description", str, "''", "What it is for, for the rulebook's components list.", "Your crew."),
    _k("safe", (int, float), "3", "Millimetres inside the trim that text and icons keep clear of (0..20).", "4"),
    _k("designed", str, "none", "A design decision about this component.", "Five suits, not four."),
    _k("fields", dict, "{}", "The fields each item has: see **fields**.", "{rank: int, suit: {type: enum, values: "
       "[gold, red]}}"),
    _k("items", (list, dict), REQUIRED, "Its items: a list of **item** entries, or `{from: crew.csv}` (see "
       "**item**).", "[{id: one, rank: 1}]"),
))
SIZE = Block("size", "A size of one's own, in millimetres: width and height, or a diameter.", (
    _k("width", float, REQUIRED, "Width in mm (0..2000).", "63"),
    _k("height", float, REQUIRED, "Height in mm (0..2000).", "88"),
    _k("diameter", float, "none", "For a round piece instead of width and height.", "25"),
    _k("corner", float, "0", "Corner radius in mm.", "3"),
))
FIELDS = Block("fields", "Keys are field names (lower case identifiers); the value is a type name or a **field** "
               "mapping.", (), open="field names")
FIELD = Block("field", "One field of the component's items.", (
    _k("type", str, REQUIRED, "One of int, number, str, text, enum, bool, list.", "enum"),
    _k("values", list, "none", "The values an enum may take (required for enum).", "[gold, red, blue]"),
    _k("min", float, "none", "Smallest value of a number.", "1"),
    _k("max", float, "none", "Largest value of a number.", "13"),
    _k("required", bool, "true", "Every item must give it (unless it has a default).", "false"),
    _k("default", (str, int, float, bool, list), "none", "The value of items that leave it out.", "0"),
    _k("doc", str, "''", "What it means (shown by `pnp show`).", "The card's rank."),
))
ITEM = Block("item", "One item (a card, a tile...). Every other key is a field value.", (
    _k("id", str, REQUIRED, "Its id; with `generate`, a pattern like `crew-{rank}`.", "crew-1"),
    _k("count", int, "1", "How many copies (0..1000).", "3"),
    _k("back", dict, "none", "Field values of its back (double-sided components only).", "{name: Kraken}"),
    _k("designed", str, "none", "A design decision about this item.", "One more than the rules say."),
    _k("generate", dict, "none", "Make one item per combination: each key a field, each value a list or "
       "`{range: [1, 9], step: 1}` (see **generate**).", "{rank: {range: [1, 9]}, suit: [gold, red]}"),
    _k("from", str, "none", "Instead of the keys above: one item per row of a CSV or XLSX file in the game's "
       "folder (columns are fields).", "crew.csv"),
    _k("sheet", str, "first", "With `from:` an XLSX file, the worksheet to read.", "Crew"),
), open="field values")
GENERATE = Block("generate", "A numeric range for one generated field.", (
    _k("range", list, REQUIRED, "First and last value.", "[1, 9]"),
    _k("step", int, "1", "The step (1 or more).", "2"),
))

DATA_BLOCKS = (FILE, GAME, PLAYERS, PLAY_TIME, CREDIT, CONTENTS, CONDITION, BOUNDS, PLAYER_COUNTS, PLAYER_COUNT,
               REMOVAL, COMPONENT, SIZE, FIELDS, FIELD, ITEM, GENERATE)

# -- face layouts (templates/layouts/<game>/<name>.yaml) ------------------------------------------------------

# Value kinds: num (mm or pt), colour, font, icon, align, valign, fit, bool, ink (a role), text, expr, path.
KIND_DOCS = {
    "num": "number (mm for positions and sizes, points for font sizes and strokes)",
    "colour": "colour: `#rgb`, `#rrggbb` or `none`",
    "font": "font: a shipped font (listed below) or the file stem of a font in the project's `fonts/` or "
            "`data/<game>/fonts/` (TrueType .ttf/.otf)",
    "icon": "an icon's name: an SVG file in `templates/icons/` or the game's `templates/layouts/<game>/icons/` "
            "(listed below)",
    "align": "left, centre (or center), right",
    "valign": "top, middle, bottom",
    "fit": "shrink or none",
    "bool": "true or false",
    "ink": "background or frame",
    "text": "text",
    "expr": "Jinja expression",
    "path": "image file relative to templates/, or for `art/...` not found there, in the project's art/ folder "
            "(PNG, JPEG, GIF or SVG)",
}

LAYOUT = Block("layout", "A face layout: `templates/layouts/<game>/<name>.yaml`. String values may be Jinja "
               "templates over the item (`\"{{ card.rank }}\"`); the templates see `card` (the item's fields, "
               "`id` and `count`), `front`, `side`, `component`, `game`, `theme`, `rules`, `size` (w, h in mm) and "
               "the layout's vars.", (
    _k("extends", "text", "none", "A parent layout (`game/name`): its vars and elements come first; an element "
       "with the same `name` overrides its keys, `remove: true` drops it.", "my-game/base"),
    _k("description", "text", "''", "What the layout is for.", "Crew card front"),
    _k("vars", "expr", "{}", "Named Jinja expressions evaluated per item before the elements, usable in them.",
       "{paper: theme.colours.paper}"),
    _k("elements", "list", REQUIRED, "The elements, drawn in order (later ones on top): see the element types.",
       "[{name: title, type: text, ...}]"),
    _k("waive", "map", "{}", "Rules of the accessibility preflight this layout is excused from (`contrast`, `size`), "
       "each with the written reason `pnp show` lists.", "{contrast: 'the gold rim is decoration'}"),
))
COMMON = Block("every element", "Keys every element type takes.", (
    _k("name", "text", "#n (its position)", "Names it for `extends` overrides and for error messages.", "title"),
    _k("type", "text", REQUIRED, "rect, circle, line, text, textbox, icon, pips, image or track.", "text"),
    _k("when", "expr", "always", "A Jinja expression: the element is drawn only for items where it is true.",
       "card.rank > 5"),
    _k("x", "num", "0", "Left (or centre, for circles, centred text and icons) in mm from the trim's left edge.",
       "5", value=0.0),
    _k("y", "num", "0", "Top (text: baseline; circles and icons: centre) in mm from the trim's top edge.", "8", value=0.0),
    _k("rows", "num", "1", "Repeat the element this many times; each copy sees `row` (from 0) in its templates.",
       "3"),
    _k("cols", "num", "1", "Repeat the element this many times across; each copy sees `col` (from 0).", "4"),
    _k("ink", "ink", "none", "What `--ink-saver` lightens: `background` or `frame`.", "background"),
), open="")


def _t(name: str, doc: str, *keys: Key) -> Block:
    return Block(name, doc, keys)


LAYOUT_TYPES: dict[str, Block] = {
    "rect": _t("rect", "A rectangle. Reaching the trim, its colour runs on into the bleed by itself.",
               _k("w", "num", "face width - 2 x", "Width in mm.", "40"),
               _k("h", "num", "face height - 2 y", "Height in mm.", "10"),
               _k("radius", "num", "0", "Corner radius in mm.", "2", value=0.0),
               _k("fill", "colour", "none", "Fill colour.", "'#f4ead5'", value="none"),
               _k("stroke", "colour", "none", "Outline colour.", "'#1b1b1b'", value="none"),
               _k("stroke_width", "num", "0.5", "Outline width in points.", "1", value=0.5),
               _k("bleed", "bool", "false", "Cover the whole face and its bleed (a background).", "true", value=False),
               _k("mirror", "bool", "false", "Also draw it turned 180 degrees about the face's centre.", "true", value=False),
               _k("frame", "bool", "false", "The frame `pnp validate` keeps text and icons inside.", "true", value=False)),
    "circle": _t("circle", "A circle around (x, y).",
                 _k("r", "num", REQUIRED, "Radius in mm.", "8"),
                 _k("fill", "colour", "none", "Fill colour.", "'#c8962c'", value="none"),
                 _k("stroke", "colour", "none", "Outline colour.", "'#5c4000'", value="none"),
                 _k("stroke_width", "num", "0.5", "Outline width in points.", "0.4", value=0.5),
                 _k("mirror", "bool", "false", "Also draw it turned 180 degrees.", "true", value=False),
                 _k("frame", "bool", "false", "The frame `pnp validate` keeps text and icons inside.", "true", value=False)),
    "line": _t("line", "A straight line from (x, y) to (x2, y2).",
               _k("x2", "num", REQUIRED, "End, mm from the left.", "58"),
               _k("y2", "num", REQUIRED, "End, mm from the top.", "20"),
               _k("stroke", "colour", "none", "Colour (none draws nothing).", "'#1b1b1b'", value="none"),
               _k("stroke_width", "num", "0.5", "Width in points.", "0.75", value=0.5),
               _k("mirror", "bool", "false", "Also draw it turned 180 degrees.", "true", value=False)),
    "text": _t("text", "One line of text; its baseline at y.",
               _k("text", "text", REQUIRED, "What it says (a Jinja template).", "'{{ card.name }}'", value=""),
               _k("font", "font", "Sans", "The font.", "Display", value="Sans"),
               _k("size", "num", "9", "Size in points.", "14", value=9.0),
               _k("min_size", "num", "size", "The smallest size it may shrink to (with `fit: shrink`).", "8"),
               _k("colour", "colour", "'#000000'", "Text colour.", "'#ffffff'", value="#000000"),
               _k("align", "align", "left", "Where x is: the text's left end, centre or right end.", "centre", value="left"),
               _k("max_width", "num", "none", "The width in mm it must fit (shrinks with `fit: shrink`).", "40"),
               _k("rotate", "num", "0", "Degrees clockwise about (x, y).", "90", value=0.0),
               _k("mirror", "bool", "false", "Also draw it turned 180 degrees (a playing card's corner).", "true", value=False),
               _k("fit", "fit", "shrink when min_size is given", "`shrink`: smaller down to min_size to fit; `none`: "
                  "never.", "shrink"),
               _k("fine", "bool", "false", "Fine print: the accessibility preflight allows it down to 6 pt (else 7 pt).", "true", value=False)),
    "textbox": _t("textbox", "Wrapped text in a box, with `**bold**` and inline `:icon:` glyphs.",
                  _k("text", "text", REQUIRED, "What it says (a Jinja template).", "'{{ card.effect }}'", value=""),
                  _k("w", "num", REQUIRED, "Box width in mm.", "53"),
                  _k("h", "num", REQUIRED, "Box height in mm.", "24"),
                  _k("font", "font", "Sans", "The font.", "Serif", value="Sans"),
                  _k("bold_font", "font", "the font's -Bold", "The font of `**bold**` runs: a shipped family's bold face; for a "
                     "project font, `<Stem>-Bold` from beside it, else the font itself.", "Designer-Bold"),
                  _k("size", "num", "9", "Size in points.", "8.5", value=9.0),
                  _k("min_size", "num", "size", "The smallest size it may shrink to.", "6"),
                  _k("leading", "num", "1.2", "Line spacing, in multiples of the size.", "1.15", value=1.2),
                  _k("colour", "colour", "'#000000'", "Text colour.", "'#1b1b1b'", value="#000000"),
                  _k("align", "align", "left", "Horizontal alignment in the box.", "centre", value="left"),
                  _k("valign", "valign", "top", "Vertical alignment in the box.", "middle", value="top"),
                  _k("fit", "fit", "shrink when min_size is given", "`shrink` or `none`.", "shrink"),
                  _k("fine", "bool", "false", "Fine print: the accessibility preflight allows it down to 6 pt (else 7 pt).", "true", value=False)),
    "icon": _t("icon", "An icon (an SVG file, printed in one colour) centred on (x, y).",
               _k("icon", "icon", REQUIRED, "Which icon.", "anchor"),
               _k("size", "num", REQUIRED, "Its side in mm.", "6"),
               _k("colour", "colour", "'#000000'", "Its colour.", "'#1f3b57'", value="#000000"),
               _k("rotate", "num", "0", "Degrees clockwise.", "45", value=0.0),
               _k("mirror", "bool", "false", "Also draw it turned 180 degrees.", "true", value=False)),
    "pips": _t("pips", "`count` icons in a grid filling a box (a card's pips).",
               _k("icon", "icon", REQUIRED, "Which icon.", "coin"),
               _k("count", "num", REQUIRED, "How many.", "'{{ card.rank }}'"),
               _k("w", "num", REQUIRED, "Box width in mm.", "40"),
               _k("h", "num", REQUIRED, "Box height in mm.", "50"),
               _k("size", "num", REQUIRED, "Each pip's side in mm.", "6"),
               _k("colour", "colour", "'#000000'", "Their colour.", "'#c8962c'", value="#000000"),
               _k("columns", "num", "about the square root of count", "Pips per row.", "2", value=0.0)),
    "image": _t("image", "Art in a box, aspect kept and centred. SVG is drawn as vector paths; PNG, JPEG and GIF "
                "are checked by `pnp validate` for 300 dpi at printed size (a warning below 300, an error below "
                "150). A box that reaches the trim is full-bleed art: it covers the bleed too.",
                _k("path", "path", REQUIRED, "The image file.", "art/kraken.svg"),
                _k("w", "num", REQUIRED, "Box width in mm.", "63"),
                _k("h", "num", REQUIRED, "Box height in mm.", "50")),
    "track": _t("track", "A row of numbered boxes `first`..`last` filling `w` (a score track).",
                _k("first", "num", REQUIRED, "The first number.", "0"),
                _k("last", "num", REQUIRED, "The last number.", "10"),
                _k("w", "num", REQUIRED, "Width of the whole row in mm.", "120"),
                _k("h", "num", REQUIRED, "Height in mm.", "8"),
                _k("gap", "num", "1", "Space between boxes in mm.", "0.5", value=1.0),
                _k("radius", "num", "0", "Corner radius of each box in mm.", "1", value=0.0),
                _k("font", "font", "Sans", "The numbers' font.", "Sans-Bold", value="Sans"),
                _k("size", "num", "9", "The numbers' size in points.", "7", value=9.0),
                _k("colour", "colour", "'#000000'", "The numbers' colour.", "'#1b1b1b'", value="#000000"),
                _k("fill", "colour", "none", "Box fill.", "'#f4ead5'", value="none"),
                _k("stroke", "colour", "none", "Box outline.", "'#1b1b1b'", value="none"),
                _k("stroke_width", "num", "0.5", "Outline width in points.", "0.5", value=0.5),
                _k("fine", "bool", "false", "Fine print: the accessibility preflight allows it down to 6 pt (else 7 pt).", "true", value=False)),
}
