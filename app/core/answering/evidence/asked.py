"""What a question asks for: a quantity ("how many", "which year", 多少, 几) or something else."""

from __future__ import annotations

import re

from app.core.answering.evidence.lexical import normalize
from app.core.keywords import content_terms, is_number

_LATIN_QUANTITY = re.compile(
    r"\bhow\s+(?:many|much|long|old|tall|high|big|large|wide|deep|far|soon|often|heavy|fast|hot|cold|loud)\b"
    r"|\b(?:what|which)\s+(?:year|date|day|month|time|age|size|height|length|width|depth|weight|"
    r"temperature|speed|percentage|percent|number|port|version|capacity|volume|voltage|power|"
    r"frequency|distance|price|cost|limit|level|value|rate|interval)\b"
    r"|\bin\s+(?:which|what)\s+year\b|\bwhen\b|\bup\s+to\s+what\b",
    re.IGNORECASE,
)
_CJK_QUANTITY = re.compile("多少|多久|多长|多大|多高|多重|多远|多深|多宽|几|哪一年|哪年|何时|什么时候|第几")


def asks_quantity(question: str) -> bool:
    """True when the question asks for a number, a measure or a date."""
    text = normalize(question)
    return bool(_LATIN_QUANTITY.search(text) or _CJK_QUANTITY.search(text))


def named_numbers(question: str) -> frozenset[str]:
    """The numbers the question names itself ("E7", "3.2"), as content terms write them."""
    return frozenset(term for term in content_terms(normalize(question)) if is_number(term))


def new_numbers(terms: set[str] | frozenset[str], named: frozenset[str]) -> bool:
    """True when `terms` hold a number that is not among the question's own (`named_numbers`)."""
    return any(is_number(term) and term not in named for term in terms)
