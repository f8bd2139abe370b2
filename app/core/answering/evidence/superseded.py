"""Figures a text states as former values ("rose from 81% to 93%", "port 8420, instead of 8080",
"从 5 年延长到 8 年"): the old figure with the one that replaced it, so an answer that gives the old as
the current value can be told from one that gives the change."""

from __future__ import annotations

import re

from app.core.answering.evidence.lexical import normalize
from app.core.numbers import NUMBER, number_form, spell_numbers

# A change of value: a verb of change, "from" the old figure, "to" the new one, within a clause.
_CHANGE_VERB = (
    r"(?:rose|rises|risen|rise|fell|falls|fallen|fall|dropped|drops|drop|increased|increases|increase|"
    r"decreased|decreases|decrease|grew|grows|grown|went\s+up|went\s+down|goes\s+up|goes\s+down|"
    r"improved|improves|reduced|reduces|raised|raises|lowered|lowers|changed|changes|cut|climbed|"
    r"jumped|shrank|shrunk|moved|extended|shortened|bumped|upgraded|downgraded)"
)
_LATIN_CHANGE = re.compile(
    rf"\b{_CHANGE_VERB}\s+from\s+(?:about\s+|around\s+|roughly\s+)?[$€£¥￥]?\s?(?P<old>{NUMBER})(?:[^.;!?]|\.(?=\d)){{0,40}}?"
    rf"\s+to\s+(?:about\s+|around\s+|roughly\s+)?[$€£¥￥]?\s?(?P<new>{NUMBER})",
    re.IGNORECASE,
)
_CJK_CHANGE = re.compile(
    rf"[从由]\s*(?P<old>{NUMBER})[^，。；！？,;]{{0,12}}?"
    r"(?:提高|提升|增加|增长|增至|上升|升高|升|降低|下降|降|减少|减|缩短|延长|扩大|缩小|调整|改|涨|跌)"
    rf"(?:到|至|为|成)?\s*(?P<new>{NUMBER})"
)
# A replaced value named after its replacement ("8420, instead of 8080", "38 ms, down from 55 ms"):
# the new figure is the nearest one before the marker in the same sentence.
_REPLACED = re.compile(
    rf"(?:\b(?:instead\s+of|rather\s+than|down\s+from|up\s+from|replacing|replaces|previously|formerly)|"
    rf"而不是|而非|取代了?|代替了?|替代了?|原为|原来为|原来是|此前为|以前为)\s*(?:the\s+)?(?:old\s+)?"
    rf"(?:about\s+|around\s+)?(?P<old>{NUMBER})",
    re.IGNORECASE,
)
_NUMBER = re.compile(rf"(?<![\w.,]){NUMBER}")
# A question about the former value: "before the upgrade", "the old port", "原来的端口".
_ASKS_FORMER = re.compile(
    r"\b(?:before|previous|previously|old|older|earlier|originally|original|formerly|former|prior|"
    r"used\s+to|from\s+what)\b|以前|之前|原来|原先|此前|旧|过去|升级前|改版前|更新前",
    re.IGNORECASE,
)

Replacement = tuple[str, str | None]  # (the former figure, the figure that replaced it or None)


def replaced_figures(text: str) -> frozenset[Replacement]:
    """The figures `text` states as former values, each with the figure that replaced it when the
    text gives one, in Folio's one number form ("from 1,500 to 2,000" gives ("1500", "2000"))."""
    norm = spell_numbers(normalize(text))
    found: set[Replacement] = set()
    for pattern in (_LATIN_CHANGE, _CJK_CHANGE):
        for match in pattern.finditer(norm):
            found.add((number_form(match.group("old")), number_form(match.group("new"))))
    for match in _REPLACED.finditer(norm):
        before = [m.group() for m in _NUMBER.finditer(_clause_before(norm, match.start()))]
        found.add((number_form(match.group("old")), number_form(before[-1]) if before else None))
    return frozenset(found)


def asks_former_value(question: str) -> bool:
    """True when the question asks about a value as it was before ("the old default port")."""
    return bool(_ASKS_FORMER.search(normalize(question)))


def states_former(numbers: frozenset[str], replaced: frozenset[Replacement]) -> bool:
    """Whether `numbers` (one sentence's) hold a former figure of `replaced` without the figure that
    replaced it: the old value given as if it were the current one."""
    return any(old in numbers and (new is None or new not in numbers) for old, new in replaced)


def _clause_before(text: str, end: int) -> str:
    """The text of the sentence before `end` (back to the last sentence end)."""
    start = max(text.rfind(mark, 0, end) for mark in (". ", "。", "; ", "；", "! ", "? ", "！", "？"))
    return text[start + 1 : end] if start >= 0 else text[:end]
