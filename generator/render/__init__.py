"""Drawing: the model turned into pages and pixels, in rooms by concern.

base <- faces <- sheets <- documents <- exports <- site | reports: a room imports only rooms below it
(import-linter's "Rooms inside render"). Render may import load (layout YAML), model and the ground floor;
never engine, validate, build or cli. The build asks render for specs (`documents.document_specs`) and hands
it the face cache by its shape (`base.outputs.FaceStore`).
"""
