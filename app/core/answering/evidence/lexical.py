"""Lexical judgements for checking: how common a term is, the terms a claim needs, connective sentences."""

from __future__ import annotations

import functools
import re
import unicodedata

from app.core.keywords import CJK_FUNCTION, CJK_LETTER, STOPWORDS, content_terms, is_number, stem, tokens
from app.core.numbers import normalize_dates

_QUOTED = re.compile(r"\"([^\"\n]{2,60})\"|“([^”\n]{1,60})”|「([^」\n]{1,60})」|『([^』\n]{1,60})』")
# a Latin word; a stop between digits stays inside it ("PM2.5", "v3.2")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f](?:[\w\u00c0-\u024f-]|\.(?=\d))*", re.ASCII)
_NAME = re.compile(r"\b[A-Z][\w-]*|\b\w*[A-Z]\w*[A-Z0-9]\w*")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Everyday words that carry little evidence: they weigh less than the passage-specific ones.
_COMMON = _words(
    """
    use used uses using make made makes get got give gives given take takes show shows shown include
    includes including call called known like also well many much several various thing things way ways
    part parts kind type time times new old good large small high low long number numbers first second
    last next other another people place found find see seen say said says state stated mention
    mentioned describe described according approximately about around roughly nearly almost total each
    every both either whether however therefore thus since although though because even still yet
    """
)
# Words a connective sentence ("Here is what I found:", "In summary:") is made of, besides stopwords.
_CONNECTIVE = _words(
    """
    here found find summary summarize summarise summarized summarised following follows answer answers
    conclusion conclude overall below above detail details information info point points key main
    document documents passage passages source sources based according short brief briefly note let look
    quick result results question context text provided given regarding short sum up finally first
    firstly second secondly third lastly additionally moreover furthermore also addition general
    generally okay ok sure certainly course well so let's what's here's following hope help helps
    helpful glad know supported support supports stated states said mentioned shown explained
    described written can could may might be been confirmed confirms indicated indicates
    """
)
_CJK_CONNECTIVE = re.compile(
    "简而言之|综上所述|总的来说|总而言之|如下所示|以下是|总结|综上|总之|以上|如下|以下|根据|文档|文件|资料|内容|"
    "信息|答案|要点|回答|所述|来说|而言|具体|相关|找到|下面|主要|概括|结论|问题|关于|可以|看到|发现|几点|首先|"
    "其次|最后|此外|另外|希望|帮助|我们|我|你|对|是|的|了|有|这些|这|如|下|所示|点|"
    "段落|第|段|中|在|说明|提到|提及|指出|支持|可见|可以看出|参见|见"
)


# A sentence that opens by naming its source ("According to the passage, …", "根据文档内容，…") claims
# only what follows: the lead-in is the model's phrasing, never in a passage.
_LEAD_IN = re.compile(
    r"^\W*(?:according\s+to|based\s+on|as\s+(?:stated|described|explained|mentioned)\s+in|per)\s+"
    r"(?:the\s+)?(?:documents?|passages?|text|sources?|manual|guide|notes|(?:page|passage)\s*\[?\d+\]?)"
    r"[^,.;:]{0,40}[,:]\s*"
    r"|^\W*(?:根据|依据|按照|据)(?:文档|文件|资料|段落|上文|原文|第\s*\d+\s*页)[^，,。：:]{0,12}[，,：:]\s*",
    re.IGNORECASE,
)


def without_lead_in(text: str) -> str:
    """The sentence without an opening clause that only names its source."""
    return _LEAD_IN.sub("", text, count=1)


def normalize(text: str) -> str:
    """NFKC (full-width digits and letters become ASCII), as the passages were normalised at ingest,
    with dates in one form ("31 December 2025" and "2025-12-31" compare equal)."""
    return normalize_dates(unicodedata.normalize("NFKC", text))


@functools.cache
def _common_stems() -> frozenset[str]:
    return frozenset(stem(word) for word in _COMMON)


def background(term: str) -> float:
    """How common a term is in any text, 0 (specific) to 1 (a function word)."""
    if is_number(term):
        return 0.0
    if CJK_LETTER.match(term):
        return sum(char in CJK_FUNCTION for char in term) / len(term)
    return 0.6 if term in _common_stems() else 0.0


def specifics(text: str) -> set[str]:
    """Terms that must occur in a passage for `text` to be supported: numbers, names (capitalised
    words past the first, Latin words in CJK text) and the terms of quoted phrases."""
    found = {term for term in content_terms(text) if is_number(term)}
    words = list(_LATIN_WORD.finditer(text))
    cjk = CJK_LETTER.search(text) is not None
    for index, word in enumerate(words):
        token = word.group()
        name = _NAME.fullmatch(token) is not None
        inner_capital = any(char.isupper() for char in token[1:])
        if cjk or (name and (index > 0 or inner_capital)):
            found.update(content_terms(token))
    for match in _QUOTED.finditer(text):
        quoted = next(group for group in match.groups() if group is not None)
        found.update(content_terms(quoted))
    return found


def is_connective(text: str) -> bool:
    """True for a sentence with no content words ("Here is what I found:", "In summary:", "总结如下：")
    and for a short lead-in before a colon without numbers ("Height:", "The tower has two parts:")."""
    if text.rstrip().endswith((":", "：")):
        words = content_terms(text)
        if not any(map(is_number, words)) and sum(1 for w in words if len(w) != 1 or w.isascii()) <= 4:
            return True
    rest = _CJK_CONNECTIVE.sub("", text)
    for kind, token in tokens(rest):
        token = token.lower()
        if kind != "word" or (token not in STOPWORDS and token not in _CONNECTIVE):
            return False
    return True
