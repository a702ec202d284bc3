"""Pirate Press: print-and-play files, rules engines and simulations from YAML."""

from generator.deferred_patterns import install as _defer_import_time_patterns

__version__ = "0.1.0"

_defer_import_time_patterns()  # before PyYAML or ReportLab is imported: see deferred_patterns
