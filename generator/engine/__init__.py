"""Rules engines: deck composition checks, one state machine per game, bots and the simulator.

Engine code sees only the model (`generator.model`), never the renderer.
"""
