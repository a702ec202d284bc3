"""Faces: a layout resolved for one item (`layout.LayoutLibrary`, `Face`, `FaceMemo`) and drawn (`draw`,
`renderer.FaceRenderer`) with text, glyphs, icons, raster and vector art (`images`, `vector`); styles over
faces (`style`: --guides, --ink-saver, the -guides/-inksaver/-cmyk names); the checks `pnp validate` runs on
faces (`fit`, `preflight`, and the accessibility preflight `access` with its colour science in `vision`);
and face-form replay (`stamps.FormStore`, speed machinery: `generator.speed`).

It may import render.base, load (layout YAML), model and the ground floor.
"""
