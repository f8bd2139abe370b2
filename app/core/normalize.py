"""Normalise extracted text (NFKC, joined hyphenation, collapsed whitespace) for pages and queries."""

from __future__ import annotations

import re
import unicodedata

from app.core.script import CJK_CHAR

_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010]\s*\n\s*(?=[a-zà-ÿ])")
_SOFT_HYPHEN = re.compile("\u00ad")
_CJK_GAP = re.compile(rf"(?<=[{CJK_CHAR}])\s+(?=[{CJK_CHAR}])")
_SPACES = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def normalize_text(text: str) -> str:
    """NFKC; join words hyphenated across line ends; drop whitespace between CJK characters
    (line wrapping inside Chinese text); collapse other whitespace runs to one space."""
    text = unicodedata.normalize("NFKC", text)
    text = _CONTROL.sub(" ", text)
    text = _HYPHEN_BREAK.sub("", text)
    text = _SOFT_HYPHEN.sub("", text)
    text = _CJK_GAP.sub("", text)
    return _SPACES.sub(" ", text).strip()
