"""Keyword forms of text: CJK character bigrams and single characters plus words, and FTS5 queries."""

from __future__ import annotations

import re

from app.core.script import CJK_CHAR

# Stored in each library; when it differs from the library's, the library's terms index is rebuilt
# from the chunk texts on open. 1: CJK bigrams only. 2: CJK bigrams and single characters.
KEYWORDS_VERSION = "2"

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
    character bigrams (so two-character Chinese words such as 模型 or 缓存 are whole terms) and as
    single characters (so a one-character query term such as 猫 can match)."""
    out: list[str] = []
    for run in _runs(text):
        if _CJK_RUN.fullmatch(run):
            out.extend(_cjk_ngrams(run, 2))
            if len(run) > 1:
                out.extend(run)
        else:
            out.append(run)
    return " ".join(out)


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def query_terms(query: str) -> list[str]:
    """The distinct terms of a query, in order: words, CJK bigrams, and one-character CJK runs."""
    seen: list[str] = []
    for run in _runs(query):
        for term in _cjk_ngrams(run, 2) if _CJK_RUN.fullmatch(run) else [run]:
            if term not in seen:
                seen.append(term)
    return seen


def terms_query(query: str) -> str | None:
    """FTS5 expression over the terms index: any query term (bm25 ranks)."""
    terms = query_terms(query)
    return " OR ".join(_quote(t) for t in terms) if terms else None


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
