"""What `pnp build` makes of a component besides its sheets: the exporter registry (`registry.EXPORTERS`;
presets run as exporters), rasterizing (`raster`: PNGs, previews in parts, TTS sheets), Tabletop Simulator
saved objects (`tts`, and the whole table with boards and sheets in `tts_table`), the CMYK PDF/X post-pass
(`cmyk`, profile in `icc/`), and print-service presets (`presets.yaml` read by `presets`, drawn by
`service`; game-wide work rides on a host job in `hosted`).

It may import render.documents, sheets, faces and base, load (the presets' YAML reader), model and the
ground floor.
"""
