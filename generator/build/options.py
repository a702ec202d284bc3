"""Everything `pnp build` can be asked (`BuildOptions`) and the key of the options that change output."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from generator.digests import digest
from generator.errors import UsageError
from generator.render.base.units import PAPERS, paper
from generator.render.exports.registry import EXPORTERS, SHEETS, Exporter, preset_exporter
from generator.render.sheets.options import DUPLEX_MODES, PrintChoices

DOCUMENTS = "documents"  # the exporter name of document jobs (rulebooks, sheets, boards)


BOOKLET = "booklet"  # ... and of the booklets, which only --booklet asks for


SHOWCASE = "showcase"  # ... and of the showcase images, which only --showcase asks for


LOOK = "look"  # ... and of the look page's images, made with the gallery (`generator.render.site.look`)


HOW = {"how": True}  # metadata of options that change how a build runs, never a byte of its output


@dataclass(frozen=True)
class BuildOptions:
    """Everything `pnp build` can be asked; defaults are the documented defaults.

    Every field is part of the build's options key (`options_key`) unless its
    metadata marks it as `how` the build runs (processes, a partial build).
    """

    papers: tuple[str, ...] = tuple(PAPERS)
    bleed: float = PrintChoices.bleed  # how things print: the documented defaults (render.sheets.options)
    duplex: str = PrintChoices.duplex
    crop_marks: bool = PrintChoices.crop_marks
    cut_lines: bool = PrintChoices.cut_lines
    back_offset: tuple[float, float] = PrintChoices.back_offset
    exports: tuple[str, ...] = (SHEETS,)  # names from the exporter registry
    booklet: bool = False
    guides: bool = False  # --guides: trim, bleed and safe lines over the faces; files named -guides
    ink_saver: bool = False  # --ink-saver: marked backgrounds white, frames thin; files named -inksaver
    presets: tuple[str, ...] = ()  # print-service presets (generator/render/exports/presets.yaml), one folder each
    colour: str = "rgb"  # cmyk: every PDF (sheets, face PDFs, documents) as CMYK PDF/X (render.exports.cmyk)
    tts_url: str = ""  # base URL of output/ as hosted, for TTS saved objects ("" = bare file names)
    showcase: bool = False  # also draw the showcase images (generator.render.site.showcase)
    jobs: int = field(default=1, metadata=HOW)
    only: tuple[str, ...] = field(default=(), metadata=HOW)

    def check(self) -> None:
        """Refuse impossible options with one clear line each."""
        for name in self.papers:
            paper(name)
        for name in self.exports:
            if name not in EXPORTERS:
                raise UsageError(f"unknown export {name!r} (exports: {', '.join(EXPORTERS)})")
        if not 0 <= self.bleed <= 10:
            raise UsageError(f"--bleed {self.bleed:g} must be between 0 and 10 mm")
        if self.duplex not in DUPLEX_MODES:
            raise UsageError(f"--duplex {self.duplex!r} must be long, short or none")
        if any(abs(v) > 10 for v in self.back_offset):
            raise UsageError("--back-offset must be at most 10 mm each way")
        if self.jobs < 1:
            raise UsageError("--jobs must be at least 1")
        if self.presets:
            from generator.render.exports.presets import preset  # reads presets.yaml: only when one is asked for

            for name in self.presets:
                preset(name)
        if self.colour not in ("rgb", "cmyk"):
            raise UsageError(f"--colour {self.colour!r} must be rgb or cmyk")

    def exporters(self) -> list[Exporter]:
        asked = [EXPORTERS[name] for name in EXPORTERS if name in self.exports]
        if not self.presets:
            return asked  # and the presets module stays unimported
        from generator.render.exports.presets import preset

        return asked + [preset_exporter(preset(name)) for name in self.presets]


def options_key(options: Any) -> str:
    """Every field of the options (a dataclass) that can change output: a field added later is in it by itself."""
    return digest(type(options).__name__, {f.name: getattr(options, f.name) for f in dataclasses.fields(options)
                                           if not f.metadata.get("how")})
