"""The tokeniser: keyword forms for the search index and its FTS5 queries, content terms for checking."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from app.core.numbers import NUMBER, number_form, spell_numbers
from app.core.script import CJK_CHAR

# Two forms of the same text. Keyword forms (terms_text, query_terms, terms_phrases, trigram_phrases)
# are what the search index stores and matches: lower-cased runs of letters and digits, CJK runs as
# character n-grams. Content terms (content_terms) are what the gate, evidence selection and
# attribution weigh: stemmed words without stopwords, numbers in one form, CJK characters and
# bigrams. They differ on purpose (the index form is stored in each library, see KEYWORDS_VERSION).

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


def terms_phrases(query: str) -> list[str]:
    """The FTS5 phrases (quoted) of a query over the terms index: one per query term."""
    return [_quote(t) for t in query_terms(query)]


def trigram_phrases(query: str) -> list[str]:
    """The FTS5 phrases (quoted) of a query over the trigram index: words of 3+ characters as
    substrings (so partial words match), CJK runs as their character trigrams."""
    seen: list[str] = []
    for run in _runs(query):
        grams = _cjk_ngrams(run, 3) if _CJK_RUN.fullmatch(run) else ([run] if len(run) >= 3 else [])
        for gram in grams:
            if gram not in seen:
                seen.append(gram)
    return [_quote(t) for t in seen]


def any_phrase(phrases: Sequence[str]) -> str | None:
    """The FTS5 expression matching any of `phrases` (bm25 ranks), None for none."""
    return " OR ".join(phrases) if phrases else None


def terms_query(query: str) -> str | None:
    """FTS5 expression over the terms index: any query term (bm25 ranks)."""
    return any_phrase(terms_phrases(query))


def trigram_query(query: str) -> str | None:
    """FTS5 expression over the trigram index: any of trigram_phrases."""
    return any_phrase(trigram_phrases(query))


# CJK letters: the CJK blocks without their punctuation (what NFKC leaves of it is in U+3000–U+303F).
_CJK_LETTERS = rf"(?:(?![\u3000-\u303f\uff00-\uff65])[{CJK_CHAR}])"
CJK_LETTER = re.compile(_CJK_LETTERS)
_TOKEN = re.compile(rf"(?P<cjk>{_CJK_LETTERS}+)|(?P<num>{NUMBER})|(?P<word>(?:(?![{CJK_CHAR}])[^\W\d_])+)")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS = _words(
    """
    a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me more
    most my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves may might must shall upon per via yes one's it's
    """
)
# Characters of Chinese function words: a bigram made of them is weak evidence.
CJK_FUNCTION = frozenset(
    "的了是在和有也就都而及与或这那个们之其为以于把被将对从到很更最并等中上下不没一此该它他她我你"
)
_WORD_SUFFIXES = (("ies", "y"), ("ing", ""), ("ed", ""), ("s", ""))
STEM_LENGTH = 7


@functools.lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light stem: plural and -ing/-ed endings off, a final e off, at most STEM_LENGTH letters."""
    if len(word) > 3:
        for suffix, replacement in _WORD_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                if suffix == "s" and word[-2] in "sui":
                    break
                word = word[: -len(suffix)] + replacement
                break
        if len(word) > 3 and word.endswith("e"):
            word = word[:-1]
    return word[:STEM_LENGTH]


def tokens(text: str) -> Iterator[tuple[str, str]]:
    """(kind, token) of text in order: kind "cjk" (a run of CJK letters), "num" or "word" (letters)."""
    for match in _TOKEN.finditer(text):
        yield str(match.lastgroup), match.group()


def _cjk_terms(run: str) -> list[str]:
    """Characters (the function characters left out) and overlapping bigrams of a CJK run: a
    paraphrase keeps most characters even when it splits the words differently."""
    characters = [char for char in run if char not in CJK_FUNCTION]
    return characters + [run[i : i + 2] for i in range(len(run) - 1)]


def content_terms(text: str) -> list[str]:
    """Content terms of normalised text in order: stemmed Latin words without stopwords (one-letter
    words only when written as capitals, e.g. "R"), numbers ("4,095" → "4095", "thirty-one" → "31",
    "三十一" → "31"), CJK characters and bigrams."""
    out: list[str] = []
    for kind, token in tokens(spell_numbers(text)):
        if kind == "cjk":
            out.extend(_cjk_terms(token))
        elif kind == "num":
            out.append(number_form(token))
        else:
            lower = token.lower()
            if lower in STOPWORDS or (len(token) == 1 and not token.isupper()):
                continue
            out.append(stem(lower))
    return out


def is_number(term: str) -> bool:
    """True for a content term that is a number."""
    return term[:1].isdigit()
