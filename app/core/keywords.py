"""Keyword forms of text: CJK bigrams plus words for the terms index, and FTS5 query expressions."""

from __future__ import annotations

import re

from app.core.script import CJK_CHAR

_RUNS = re.compile(rf"[{CJK_CHAR}]+|[^\W_]+", re.UNICODE)
_CJK_RUN = re.compile(rf"[{CJK_CHAR}]+")
# Punctuation inside the CJK blocks is not a word character.
_CJK_PUNCT = re.compile(r"[\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+")


def _runs(text: str) -> list[str]:
    return [r for r in _RUNS.findall(_CJK_PUNCT.sub(" ", text.lower())) if r]


def _cjk_ngrams(run: str, n: int) -> list[str]:
    if len(run) < n:
        return [run] if n == 2 else []
    return [run[i : i + n] for i in range(len(run) - n + 1)]


def terms_text(text: str) -> str:
    """What the terms index stores: Latin/other words as they are, CJK runs as overlapping
    character bigrams (so two-character Chinese words such as 模型 or 缓存 are whole terms)."""
    out: list[str] = []
    for run in _runs(text):
        if _CJK_RUN.fullmatch(run):
            out.extend(_cjk_ngrams(run, 2))
        else:
            out.append(run)
    return " ".join(out)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def terms_query(query: str) -> str | None:
    """FTS5 expression over the terms index: any query word or CJK bigram (bm25 ranks)."""
    seen: list[str] = []
    for term in terms_text(query).split():
        if term not in seen:
            seen.append(term)
    return " OR ".join(_quote(t) for t in seen) if seen else None


def trigram_query(query: str) -> str | None:
    """FTS5 expression over the trigram index: words of 3+ characters as substrings (so partial
    words match), CJK runs as their character trigrams."""
    seen: list[str] = []
    for run in _runs(query):
        grams = _cjk_ngrams(run, 3) if _CJK_RUN.fullmatch(run) else ([run] if len(run) >= 3 else [])
        for gram in grams:
            if gram not in seen:
                seen.append(gram)
    return " OR ".join(_quote(t) for t in seen) if seen else None
