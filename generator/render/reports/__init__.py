"""The simulation report and the sweep plot as PDFs (`simulation.build_report`, `build_sweep_report`), drawn
from the typed summary on the ground floor (`generator.simulation`), never from the engine.

It may import render.base, model and the ground floor; not site.
"""
