"""Translation helpers: mark strings for lupdate where they are defined, translate where shown."""

from __future__ import annotations

from app.core.api import QT_TRANSLATE_NOOP

__all__ = ["QT_TRANSLATE_NOOP"]
