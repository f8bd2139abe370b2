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

    def sibling_of(self, other: Name) -> bool:
        """Another member of the same family: the same letters with another number (S3 and S5)."""
        return self.letters == other.letters and self.number != other.number


def names_in(text: str) -> frozenset[Name]:
    """The names `text` gives."""
    return frozenset(Name(m.group(1).lower(), m.group(2).lstrip("0") or "0") for m in _NAME.finditer(text))


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


def place_names(place: Place) -> frozenset[Name]:
    """The names a passage stands under: its text's, its headings' and its document's file name's."""
    return names_in(" ".join((place.text, place.heading, place.section, place.document)))


def about_another(asked: frozenset[Name], place: Place) -> bool:
    """Whether the passage is about a sibling of a name of `asked` instead of it (names_another)."""
    return bool(asked) and names_another(asked, place_names(place))


def names_another(asked: Iterable[Name], held: frozenset[Name]) -> bool:
    """Whether passages holding the names `held` are about a sibling of a name the question asks
    about instead of that one: the question's name is not among them, a sibling's is (the S3's
    manual for a question about the S5: its figures are the S3's)."""
    return any(name not in held and any(other.sibling_of(name) for other in held) for name in asked)
