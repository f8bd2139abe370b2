"""The core's user-facing texts, marked for translation without Qt; the window translates them where shown."""

from __future__ import annotations

# The .ts context of every text marked here: the window looks them up in it (app/gui/core_text.py).
CONTEXT = "Core"


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # the name lupdate reads
    """Mark `source` (a message or a template with {0}, {1}...) for lupdate; returns it unchanged."""
    return source
