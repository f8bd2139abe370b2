"""Which writing system text is in: the one CJK test the whole core shares."""

from __future__ import annotations

import re

# Ideographs, kana, hangul and CJK punctuation: scripts written without spaces between words.
CJK_CHAR = (
    r"\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
    r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
)
_CJK = re.compile(f"[{CJK_CHAR}]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")


def is_cjk(char: str) -> bool:
    """True for one ideograph, kana, hangul or CJK punctuation character."""
    return bool(_CJK.match(char))


def has_cjk(text: str) -> bool:
    """True when any character of `text` is CJK."""
    return _CJK.search(text) is not None


def cjk_language(text: str) -> str | None:
    """The CJK language of `text`: "ja" (kana), "ko" (hangul), "zh" (other CJK), or None."""
    if not has_cjk(text):
        return None
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    return "zh"


def text_script(text: str) -> str:
    """ "cjk" when the text has at least a quarter as many CJK characters as Latin words, else
    "latin": a Chinese passage quoting commands is Chinese, an English one naming a Chinese town is
    English."""
    cjk = len(_CJK.findall(text))
    return "cjk" if cjk and cjk * 4 >= len(_LATIN_WORD.findall(text)) else "latin"
