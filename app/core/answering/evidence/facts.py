"""The facts of a sentence that read the same in every language: numbers, dates, units and code tokens."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.answering.evidence.lexical import normalize
from app.core.answering.evidence.quantities import Quantity, clashes, is_unit, naming_numbers, quantities
from app.core.keywords import content_terms, is_number
from app.core.script import has_cjk

# A code token: an option, a path, a file or package name, an identifier with a digit, an
# underscore, a dot or an inner capital, or a word in capitals ("--purge", "/etc/apt", "dpkg-deb",
# "sources.list", "PM2.5", "HF_HUB_OFFLINE", "CamelCase", "APT").
_CODE = re.compile(
    r"(?<![\w./-])(?:--?[A-Za-z][\w-]*|/[\w.-]+(?:/[\w.-]+)*|"
    r"[A-Za-z][\w]*(?:[._/-][\w]+)+|[A-Za-z]+\d[\w]*|[a-z]+[A-Z][\w]*|[A-Z]{2,}[\w]*)(?![\w/-])"
)
# Words in capitals that are no code: what a sentence starts with or says in passing.
_NOT_CODE = frozenset({"I", "OK", "NOTE", "FAQ", "PDF", "AND", "OR", "NOT"})


@dataclass(frozen=True)
class Facts:
    """The numbers (in Folio's one form), the (number, unit) quantities and the code tokens of a text."""

    numbers: frozenset[str]
    quantities: frozenset[Quantity]
    codes: frozenset[str]

    @property
    def empty(self) -> bool:
        return not self.numbers and not self.codes


def facts_of(text: str) -> Facts:
    """The language-independent facts of `text`: its numbers (spelled or written, dates in one form,
    without the numbers of names and page references: "E7", "p. 4"), its quantities and its code
    tokens (lower-cased)."""
    norm = normalize(text)
    numbers = frozenset(t for t in content_terms(norm) if is_number(t)) - naming_numbers(norm)
    codes = frozenset(
        match.group().lower().strip("-") if match.group().startswith("-") else match.group().lower()
        for match in _CODE.finditer(norm)
        if match.group() not in _NOT_CODE and not is_unit(match.group())
    )
    return Facts(numbers, quantities(norm), codes)


# A word of letters joined by hyphens ("high-speed", "read-only", "cron-apt"): a code when a text
# writes it verbatim, but a Chinese text never writes an English compound that translates it.
_HYPHENATED_WORD = re.compile(r"[a-z]+(?:-[a-z]+)+")


def missing_facts(claimed: Facts, held: Facts, held_text: str) -> int:
    """How many of the claimed facts the holder lacks: a number it does not state, a quantity whose
    unit clashes with its own ("12 minutes" where it says "12 seconds"), a code token absent from
    its text (over Chinese text, a hyphenated English word that is not there translates: no code)."""
    text = normalize(held_text).lower()
    missing = sum(1 for number in claimed.numbers if number not in held.numbers)
    missing += clashes(claimed.quantities, held.quantities)
    chinese = has_cjk(text)
    missing += sum(
        1 for code in claimed.codes if code not in text and not (chinese and _HYPHENATED_WORD.fullmatch(code))
    )
    return missing
