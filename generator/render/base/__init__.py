"""The ground floor of drawing: units and papers (`units.PAPERS`), the shipped and project fonts and their
on-disk cache, the one sandboxed Jinja environment (`sandbox.LimitedEnvironment`) and its compiled-template
cache, PNG bytes from pixels (`pngwrite`), typed outputs (`outputs.OutputFile`, `FileRecord`, the `FaceStore`
protocol) and what a job read of the model (`modelreads`).

It may import the model, load and the ground floor; no other room of render.
"""
