"""The application layer of `pnp build`, `pnp watch` and `pnp serve`: what to draw, in which order, and what to keep.

- `options`: `BuildOptions`, everything a build can be asked, and its options key;
- `plan`: the jobs of a build (component exporters, documents, showcase), each with its static cache key;
- `run`: running jobs, writing their files atomically, recording them, removing what vanished;
- `forked`: forked workers that take pure jobs from a shared counter;
- `cache`: the typed manifest under output/.cache (jobs, games, faces, gallery);
- `session`: `BuildSession`, which loads, validates, plans, runs and keeps the manifest across builds.

It may import validate, render, engine (the registry), load, model and the ground floor. Nothing below it
imports it: render hands the planner specs (`render.documents.document_specs`) and asks for the face cache by
its shape (`render.base.outputs.FaceStore`).
"""
