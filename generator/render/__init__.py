"""Drawing: card sheets, documents, previews and exports, through ReportLab."""

from generator.render.deferred_patterns import install as _defer_reportlab_patterns

_defer_reportlab_patterns()  # before any module here imports ReportLab: see deferred_patterns
