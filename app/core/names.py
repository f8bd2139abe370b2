"""The model and version names a question gives ("KX-60", "S5", "LP-07") and the passages that name a
sibling of one instead (the KX-40's manual for a question about the KX-60)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

# A name: a short run of Latin letters and a number, joined or by a hyphen ("KX-60", "S5", "LP07",
# "IPv6", "E7"), not inside a longer word or number; in text, in a file name ("qinglan-s5-quick-start.pdf")
# and in a heading alike. Letters after the digits are a unit ("12s", "5km") and never start one.
_NAME = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{1,5})[-_]?(\d+)(?![\d.,]?\d)(?![A-Za-z])")


@dataclass(frozen=True)
class Name:
    """A name as it compares: its letters lower-cased and its number ("kx", "60")."""

    letters: str
    number: str

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
    return (_name_of(m) for m in _NAME.finditer(text))


def _name_of(match: re.Match[str]) -> Name:
    return Name(match.group(1).lower(), match.group(2).lstrip("0") or "0")


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


@dataclass(frozen=True)
class PlaceNames:
    """The names a passage stands under: its title's (the file name, the heading path) and its text's."""

    title: frozenset[Name]
    text: frozenset[Name]

    def members(self, name: Name) -> frozenset[Name]:
        """The members of `name`'s family the passage is about: those its title names, else those
        its text names (the KX-60's quick reference that mentions "the smaller KX-40" in passing is
        about the KX-60)."""
        titled = frozenset(n for n in self.title if n.letters == name.letters)
        return titled or frozenset(n for n in self.text if n.letters == name.letters)

    def about_another(self, asked: Iterable[Name]) -> bool:
        """Whether the passage is about a sibling of a name the question asks about, not that one
        (the S3's manual for a question about the S5: its figures are the S3's)."""
        return any((members := self.members(name)) and name not in members for name in asked)

    def about_asked(self, asked: Iterable[Name]) -> bool:
        """Whether the passage is about a name the question asks about."""
        return any(name in self.members(name) for name in asked)


def place_names(place: Place) -> PlaceNames:
    """The names of a passage's title and of its text."""
    return PlaceNames(names_in(title_of(place)), names_in(place.text))


def is_name_term(term: str) -> bool:
    """Whether a term is a name's (name_terms): no word or number term holds a hyphen."""
    return "-" in term


def named(text: str) -> list[tuple[Name, str]]:
    """Each name `text` gives, with its spelling there ((kx, 40), "KX-40")."""
    return [(_name_of(m), m.group(0)) for m in _NAME.finditer(text)]


def name_texts(text: str) -> list[str]:
    """The names `text` gives, as written there ("kx60" in "aurelia-kx60-quick-reference.pdf")."""
    return [m.group(0) for m in _NAME.finditer(text)]


def without_names(text: str) -> str:
    """`text` with its names blanked: the digits of "E7" are no figure."""
    return _NAME.sub(" ", text)


def title_of(place: Place) -> str:
    """A passage's title: its heading path and its file name."""
    return " ".join((place.heading, place.section, place.document))


def about_another(asked: frozenset[Name], place: Place) -> bool:
    """Whether the passage is about a sibling of a name of `asked` instead of it (PlaceNames)."""
    return bool(asked) and place_names(place).about_another(asked)
