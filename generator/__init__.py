"""Pirate Press: print-and-play files, rules engines and simulations from YAML."""

__version__ = "0.1.0"
