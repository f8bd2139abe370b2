"""Constrained decoding: a GBNF grammar in which "[" opens only a marker of a given passage, and
digits (when limited) spell only the figures given."""

from __future__ import annotations

import json
from collections.abc import Sequence

DIGITS = "0-9０-９"  # ASCII and full-width


def citation_grammar(passages: int, figures: Sequence[str] | None = None) -> str:
    """A grammar for answer text where every "[" starts a citation of passages 1..`passages`
    ("[2]", "[1, 3]"), so an invalid marker can never be written. Full-width brackets are closed
    off too; with no passages, no marker at all can be written. `figures` (None: any digits): the
    only numbers the text may write, each as spelled ("1.8", "2025"), so that an answer cannot give
    a figure its sentences do not hold; with none, the text writes no digit at all."""
    if passages < 0:
        raise ValueError("the number of passages cannot be negative")
    closed = r"\[【［" + (DIGITS if figures is not None else "")
    alternatives = ["plain"]
    if passages:
        alternatives.append("cite")
    spelled = sorted({f for f in figures or () if f}, key=lambda f: (-len(f), f))
    if spelled:  # a figure is followed by something other than a digit: no two figures run together,
        # and not by a point or comma and then a digit either ("2025" "." "1.8" reads as 2025.1 and 8)
        alternatives.append("figure after")
    tail = " (figure [.,]?)?" if spelled else ""
    lines = ["root ::= piece*" + tail, "piece ::= " + " | ".join(alternatives)]
    lines.append(f"plain ::= [^{closed}]")
    if spelled:
        cite = " | cite" if passages else ""
        lines.append(f"after ::= [^{closed}.,]{cite} | [.,] ([^{closed}]{cite})")
    if passages:
        numbers = " | ".join(f'"{n}"' for n in range(passages, 0, -1))
        lines += ['cite ::= "[" num (", " num)* "]"', f"num ::= {numbers}"]
    if spelled:
        lines.append("figure ::= " + " | ".join(json.dumps(f, ensure_ascii=False) for f in spelled))
    return "\n".join(lines) + "\n"
