"""The exporters: what `pnp build` can make of a printable component, in one registry.

Each `Exporter` names a drawing (sheets to print, 300 dpi PNGs, Tabletop
Simulator decks, gallery previews), the folder it writes to under
`output/<game>/`, whether it runs once per paper, the `pnp build` flag that
asks for it, and the settings dataclass its drawing receives. The settings
are filled from the build options of the same field names (and the paper),
so what a job receives is also exactly what its cache key covers: an option
a drawing does not receive cannot change its output, and a new option it
does receive changes its key by itself.

Print-service presets (issue 14) plug in as data: a preset is an existing
drawing with its own name and folder and some settings pinned
(`Exporter.preset("mpc", "png", folder="mpc", fixed={"bleed": 3.175})`), so
a YAML entry per service maps onto one call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.errors import DataError, Location, PnpError, UsageError
from generator.model import Component, Game
from generator.render.base.outputs import FaceStore, FileKind, OutputFile
from generator.render.base.units import DPI, Paper
from generator.render.sheets.options import SheetOptions, sheet_file_name

if TYPE_CHECKING:
    from generator.render.exports.raster import Part, Workers
    from generator.render.faces.renderer import FaceRenderer


@dataclass(frozen=True)
class ExportInput:
    """What every drawing gets besides its settings."""

    faces: FaceRenderer
    game: Game
    component: Component
    workers: Workers
    cache: FaceStore | None = None


@dataclass(frozen=True)
class PrintSheetOptions(SheetOptions):
    """The sheets exporter's settings: how to impose, and the colour of the file (rgb, or cmyk PDF/X)."""

    colour: str = "rgb"


@dataclass(frozen=True)
class PngSettings:
    bleed: float = 3.0
    dpi: int = DPI
    guides: bool = False
    ink_saver: bool = False
    colour: str = "rgb"  # the single-face PDF beside the PNGs follows --colour; PNGs stay RGB


@dataclass(frozen=True)
class TtsSettings:
    """Tabletop Simulator sheets have fixed limits (see `raster.export_tts`); `tts_url` is the images' base URL."""

    tts_url: str = ""


@dataclass(frozen=True)
class PreviewSettings:
    dpi: int = 96


Draw = Callable[[ExportInput, Any], list[OutputFile]]
Split = Callable[[ExportInput, Any], "list[Part]"]


@dataclass(frozen=True)
class Exporter:
    """One kind of export; see the module doc."""

    name: str
    folder: str  # under output/<game>/ ("" for the game's folder itself)
    settings: type  # a frozen dataclass; its fields are filled from the options of the same name
    draw: Draw
    per_paper: bool = False
    flag: str = ""  # the `pnp build` flag that asks for it; "" when the build decides (sheets, previews)
    help: str = ""
    fixed: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))  # settings a preset pins
    pure: bool = False  # only returns bytes (no build cache, no worker pool): may run in a forked worker
    # the same drawing as pure slices (`raster.Part`), for forked workers; together they make `draw`'s files
    parts: Split | None = None

    def settings_for(self, options: Any, paper: Paper | None = None) -> Any:
        """The settings this exporter's drawing receives for one build (and paper)."""
        values: dict[str, Any] = {}
        for setting in dataclasses.fields(self.settings):
            if setting.name in self.fixed:
                values[setting.name] = self.fixed[setting.name]
            elif setting.name == "paper":
                values["paper"] = paper
            elif hasattr(options, setting.name):
                values[setting.name] = getattr(options, setting.name)
        return self.settings(**values)

    @classmethod
    def preset(cls, name: str, base: str, *, folder: str, fixed: Mapping[str, Any],
               where: Location | None = None, registry: Mapping[str, Exporter] | None = None) -> Exporter:
        """A named variant of a registered drawing with some settings pinned (a print service's needs)."""
        known = registry if registry is not None else EXPORTERS
        if base not in known:
            raise DataError(f"preset {name!r}: unknown exporter {base!r} (exporters: {', '.join(known)})", where)
        parent = known[base]
        names = {f.name for f in dataclasses.fields(parent.settings)}
        for key in fixed:
            if key not in names:
                raise DataError(f"preset {name!r}: {base} has no setting {key!r} "
                                f"(settings: {', '.join(sorted(names)) or 'none'})", where)
        return dataclasses.replace(parent, name=name, folder=folder, flag="", fixed=MappingProxyType(dict(fixed)))


def _in_colour(pdf: bytes, colour: str, title: str, faces: FaceRenderer | None = None, game: Game | None = None,
               components: Sequence[Component] = ()) -> bytes:
    """The PDF as asked by --colour: unchanged for rgb, CMYK PDF/X through the shipped profile for cmyk. A refused
    transparent image is named by its file and the card that draws it (looked up only then)."""
    if colour != "cmyk":
        return pdf
    from generator.render.exports.cmyk import PROFILE_INK_LIMIT, to_pdfx

    try:
        return to_pdfx(pdf, PROFILE_INK_LIMIT, title)
    except UsageError as exc:
        found = _transparent_image(faces, game, components) if faces is not None and game is not None else None
        if found is None:
            raise
        raise UsageError(f"{found}: {exc.message}") from None


def _transparent_image(faces: FaceRenderer, game: Game, components: Sequence[Component]) -> str | None:
    """'art/x.png (card port-royal front)': the first image with see-through pixels the faces draw."""
    from generator.render.exports.cmyk import has_transparency

    for component in components:
        for item in component.items:
            for side in ("front", "back"):
                try:
                    face = faces.face(game, component, item, side)
                except PnpError:
                    continue
                for element in face.elements:
                    picture = element.get("path") if element.type == "image" else None
                    # SVG art is vector paths, never a raster with see-through pixels (nor a file PIL can read)
                    if picture is not None and not picture.vector and has_transparency(picture.data):
                        return f"{picture.path} (image '{element.name}' on {item.key} {side})"
    return None


def _sheets(given: ExportInput, settings: PrintSheetOptions) -> list[OutputFile]:
    from generator.render.faces.style import styled, variant_name
    from generator.render.sheets.imposition import impose_shared

    result = impose_shared(styled(given.faces, settings), given.game, [given.component], settings)
    if not result.faces:  # `sheet: spill` with too few copies to fill a page: all on the mixed sheet
        return []
    paper = settings.paper.name
    name = variant_name(sheet_file_name(given.game.id, given.component.id, paper, result.mode), settings)
    pdf = _in_colour(result.pdf, settings.colour, f"{given.game.title}: {given.component.plural}", given.faces,
                     given.game, (given.component,))
    return [OutputFile(name, FileKind.SHEET, pdf, given.component.id, paper=paper, sheets=result.sheets)]


def mixed_sheet(faces: FaceRenderer, game: Game, components: list[Component],
                settings: PrintSheetOptions) -> list[OutputFile]:
    """The game's mixed sheet of small pieces (`sheet: mixed`) on one paper, styled, coloured and named like
    every other sheet."""
    from generator.render.faces.style import styled, variant_name
    from generator.render.sheets.imposition import MIXED, impose_mixed

    result = impose_mixed(styled(faces, settings), game, components, settings)
    paper = settings.paper.name
    name = variant_name(sheet_file_name(game.id, MIXED, paper, result.mode), settings)
    pdf = _in_colour(result.pdf, settings.colour, f"{game.title}: {MIXED}", faces, game, components)
    return [OutputFile(name, FileKind.SHEET, pdf, MIXED, paper=paper, sheets=result.sheets)]


def shared_sheet(faces: FaceRenderer, game: Game, name: str, components: list[Component],
                 settings: PrintSheetOptions) -> list[OutputFile]:
    """A sheet shared by components of one size (`sheet: <name>`), one pile after the other in one grid, on one
    paper: styled, coloured and named like a component's own sheet, after the sheet's name."""
    from generator.render.faces.style import styled, variant_name
    from generator.render.sheets.imposition import impose_shared

    result = impose_shared(styled(faces, settings), game, components, settings)
    paper = settings.paper.name
    file = variant_name(sheet_file_name(game.id, name, paper, result.mode), settings)
    title = f"{game.title}: {', '.join(c.plural for c in components)}"
    pdf = _in_colour(result.pdf, settings.colour, title, faces, game, components)
    return [OutputFile(file, FileKind.SHEET, pdf, name, paper=paper, sheets=result.sheets)]


def _png(given: ExportInput, settings: PngSettings) -> list[OutputFile]:
    from generator.render.exports.raster import export_pngs
    from generator.render.faces.style import styled, variant_name

    files = export_pngs(styled(given.faces, settings), given.game, given.component, settings.bleed, given.workers,
                        settings.dpi, cache=given.cache)
    title = f"{given.game.title}: {given.component.plural}"
    return [dataclasses.replace(f, name=variant_name(f.name, settings),
                                data=_in_colour(f.data, settings.colour, title, given.faces, given.game,
                                                (given.component,)) if f.kind is FileKind.FACES_PDF
                                else f.data) for f in files]


def _tts(given: ExportInput, settings: TtsSettings) -> list[OutputFile]:
    """The component's TTS images and saved object; the game's first printable component also brings the whole
    table, boards and sheets included (`generator.render.exports.tts_table`)."""
    from generator.render.exports.hosted import depend_on_game_data, is_host
    from generator.render.exports.raster import export_tts
    from generator.render.exports.tts_table import export_tts_table

    base = f"{settings.tts_url.rstrip('/')}/{given.game.id}/tts/" if settings.tts_url else ""
    files = export_tts(given.faces, given.game, given.component, given.workers, base)
    if is_host(given.game, given.component):
        depend_on_game_data(given.faces.project, given.game)
        files += export_tts_table(given.faces, given.game, given.workers, base)
    return files


def _service(given: ExportInput, settings: Any) -> list[OutputFile]:
    """What a print service asks for of the component; the game's first printable component also brings the
    boards the service takes (the build makes no job for a board: `generator.render.exports.hosted`)."""
    from generator.render.exports.hosted import depend_on_game_data, is_host
    from generator.render.exports.service import export_preset

    preset = settings.preset
    if preset is None:
        return []
    files = export_preset(given.faces, given.game, given.component, preset, given.workers)
    boards = [c for c in given.game.components if c.kind == "board" and preset.skip_reason(c) is None]
    if boards and is_host(given.game, given.component):
        depend_on_game_data(given.faces.project, given.game)
        for board in boards:
            files += export_preset(given.faces, given.game, board, preset, given.workers)
    return files


def preset_exporter(preset: Any) -> Exporter:
    """The exporter of one print-service preset (`generator.render.exports.presets`): output/<game>/<preset name>/."""
    from generator.render.exports.service import PresetSettings

    base = Exporter("preset", "", PresetSettings, _service)
    return Exporter.preset(f"preset:{preset.name}", "preset", folder=preset.name, fixed={"preset": preset},
                           registry={"preset": base})


def _preview(given: ExportInput, settings: PreviewSettings) -> list[OutputFile]:
    from generator.render.exports.raster import export_previews

    return export_previews(given.faces, given.game, given.component, given.workers, settings.dpi, cache=given.cache)


def _preview_parts(given: ExportInput, settings: PreviewSettings) -> list[Part]:
    from generator.render.exports.raster import preview_parts

    return preview_parts(given.faces, given.game, given.component, settings.dpi, given.cache)


SHEETS = "sheets"
PREVIEW = "preview"

EXPORTERS: Mapping[str, Exporter] = MappingProxyType({e.name: e for e in (
    Exporter(SHEETS, "", PrintSheetOptions, _sheets, per_paper=True, pure=True),
    Exporter("png", "png", PngSettings, _png, flag="--png",
             help="Also export every face as a 300 dpi PNG (with bleed)."),
    Exporter("tts", "tts", TtsSettings, _tts, flag="--tts", help="Also export Tabletop Simulator deck sheets."),
    Exporter(PREVIEW, "preview", PreviewSettings, _preview, parts=_preview_parts),
)})
