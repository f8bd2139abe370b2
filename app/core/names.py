"""The model and version names a question gives ("KX-60", "S5", "LP-07", "Tessel 3.2") and the passages
that name a sibling of one instead (the KX-40's manual for a question about the KX-60)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

# A name: a short run of Latin letters and a number, joined or by a hyphen ("KX-60", "S5", "LP07",
# "IPv6", "E7"), not inside a longer word or number; in text, in a file name ("qinglan-s5-quick-start.pdf")
# and in a heading alike. Letters after the digits are a unit ("12s", "5km") and never start one.
_NAME = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{1,5})[-_]?(\d+)(?![\d.,]?\d)(?![A-Za-z])")
# A version: a capitalised word (or one with an inner capital) and a number, after a space or not
# ("Tessel 3.2", "Debian 12", "macOS 14", "Linux2.6.30"), or a lower-case word joined to it in a file name
# ("tessel-3.1-release-notes.pdf"); not a year ("Harbourton 1862"), a share ("SQLite 100%"), a date
# ("June 30") or a word that numbers a part of a text or a count ("Section 4.1", "About 30").
_VERSION = re.compile(
    r"(?<![\w.-])(?:([A-Z][a-z]+[A-Za-z]*|[a-z]+[A-Z][A-Za-z]*) ?|([a-z]{2,})[-_])"
    r"(\d+(?:\.\d+)*)(?![\w%]|[.,-]\d)"
)
# A release number in a text: dotted ("3.1", "2.6.30"), or a series ("2.x" gives "2").
_RELEASE = re.compile(r"(?<![\w.])(?:\d+(?:\.\d+)+(?![\w%]|\.\d)|\d+(?=\.x\b))")
_NOT_PRODUCTS = frozenset(
    """about above after around at below by chapter class day days edition example exercise fig figure
    for from grade in item level line lines minute minutes month months no note number of on only or over
    page pages part phase question round rule section series since stage step table than the to top type
    under until up version week weeks year years january february march april may june july august
    september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday
    wednesday thursday friday saturday sunday""".split()  # noqa: SIM905 (a list of words)
)


@dataclass(frozen=True)
class Name:
    """A name as it compares: its letters lower-cased and its number ("kx", "60")."""

    letters: str
    number: str
    # a release of a product ("Tessel 3.2"): its siblings' pages speak of it ("down from 55 ms in 3.1")
    version: bool = field(default=False, compare=False)

    @property
    def term(self) -> str:
        """The name as one search term ("kx-60", "e-5"): never a word's or a number's term."""
        return f"{self.letters}-{self.number}"

    def sibling_of(self, other: Name) -> bool:
        """Another member of the same family: the same letters with another number (S3 and S5)."""
        return self.letters == other.letters and self.number != other.number


def names_in(text: str) -> frozenset[Name]:
    """The names `text` gives."""
    return frozenset(_names(text))


def name_terms(text: str) -> list[str]:
    """The names `text` gives as whole terms, in order ("E5" is "e-5"): word terms split a code
    into "e" and "5", which every error line and every "five" hold."""
    return list(dict.fromkeys(name.term for name in _names(text)))


def _names(text: str) -> Iterable[Name]:
    return (name for name, _, _ in _found(text))


def _found(text: str) -> list[tuple[Name, str, tuple[int, int]]]:
    """Each name in `text` with its spelling and span, in order: codes, then versions where no code is."""
    codes = [
        (Name(m.group(1).lower(), m.group(2).lstrip("0") or "0"), m.group(0), m.span())
        for m in _NAME.finditer(text)
    ]
    versions = [
        (Name(word.lower(), number, version=True), m.group(0), m.span())
        for m in _VERSION.finditer(text)
        if (word := m.group(1) or m.group(2)).lower() not in _NOT_PRODUCTS
        and not _is_year(number := m.group(3))
        and not any(a < m.end() and m.start() < b for _, _, (a, b) in codes)
    ]
    return sorted(codes + versions, key=lambda found: found[2])


def _is_year(number: str) -> bool:
    return number.isdigit() and len(number) == 4 and 1000 <= int(number) <= 2099


class Place(Protocol):
    """A passage where it stands (passage.Hit, store.records.ChunkRow)."""

    @property
    def text(self) -> str: ...
    @property
    def heading(self) -> str: ...
    @property
    def section(self) -> str: ...
    @property
    def document(self) -> str: ...


class PlaceNames:
    """The names a passage stands under: its title's (the file name, the heading path) and its text's
    (read from the text only when a question needs them: most passages' titles decide)."""

    def __init__(self, title: frozenset[Name], body: str) -> None:
        self.title = title
        self._body = body

    @cached_property
    def _lower(self) -> str:
        return self._body.lower()

    @cached_property
    def text(self) -> frozenset[Name]:
        return names_in(self._body)

    @cached_property
    def releases(self) -> frozenset[str]:
        """The release numbers its text gives ("3.1", "2.6.30"; "2.x" gives "2")."""
        return frozenset(_RELEASE.findall(self._body))

    def members(self, name: Name) -> frozenset[Name]:
        """The members of `name`'s family the passage is about: those its title names, else those
        its text names (the KX-60's quick reference that mentions "the smaller KX-40" in passing is
        about the KX-60)."""
        titled = frozenset(n for n in self.title if n.letters == name.letters)
        if titled or name.letters not in self._lower:  # a text without the letters names none
            return titled
        return frozenset(n for n in self.text if n.letters == name.letters)

    def about_another(self, asked: Iterable[Name]) -> bool:
        """Whether the passage is about a sibling of a name the question asks about, not that one
        (the S3's manual for a question about the S5: its figures are the S3's). A release's notes
        that name the asked release in their text speak of it ("fixes for 3.1 end in June")."""
        return any(
            (members := self.members(name))
            and name not in members
            and not (name.version and (name in self.text or name.number in self.releases))
            for name in asked
        )

    def silent_on(self, name: Name) -> bool:
        """Whether the passage names no member of `name`'s family, in its title or its text (the
        Debian guide's "E3" video card, for a question about the KX-40's E3)."""
        return not self.members(name)

    def about_asked(self, asked: Iterable[Name]) -> bool:
        """Whether the passage is about a name the question asks about."""
        return any(name in self.members(name) for name in asked)


def place_names(place: Place) -> PlaceNames:
    """The names of a passage's title and of its text."""
    return PlaceNames(names_in(title_of(place)), place.text)


def is_name_term(term: str) -> bool:
    """Whether a term is a name's (name_terms): no word or number term holds a hyphen."""
    return "-" in term


def named(text: str) -> list[tuple[Name, str]]:
    """Each name `text` gives, with its spelling there ((kx, 40), "KX-40")."""
    return [(name, spelled) for name, spelled, _ in _found(text)]


def name_texts(text: str) -> list[str]:
    """The names `text` gives, as written there ("kx60" in "aurelia-kx60-quick-reference.pdf")."""
    return [spelled for _, spelled, _ in _found(text)]


def without_names(text: str) -> str:
    """`text` with its names blanked: the digits of "E7" and of "Tessel 3.2" are no figure."""
    kept, last = [], 0
    for _, _, (start, end) in _found(text):
        kept += [text[last:start], " "]
        last = end
    return "".join([*kept, text[last:]])


def title_of(place: Place) -> str:
    """A passage's title: its heading path and its file name."""
    return " ".join((place.heading, place.section, place.document))


def about_another(asked: frozenset[Name], place: Place) -> bool:
    """Whether the passage is about a sibling of a name of `asked` instead of it (PlaceNames)."""
    return bool(asked) and place_names(place).about_another(asked)
