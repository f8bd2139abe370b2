"""Translation helpers: mark strings for lupdate where they are defined, translate where shown."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Mark `source` for translation in `context`; returns it unchanged (typed, unlike Qt's)."""
    return source
