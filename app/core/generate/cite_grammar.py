"""Citation-constrained decoding: a GBNF grammar in which "[" opens only a marker of a given passage."""

from __future__ import annotations


def citation_grammar(passages: int) -> str:
    """A grammar for answer text where every "[" starts a citation of passages 1..`passages`
    ("[2]", "[1, 3]"), so an invalid marker can never be written. Full-width brackets are closed
    off too; with no passages, no marker at all can be written."""
    if passages < 0:
        raise ValueError("the number of passages cannot be negative")
    lines = [
        "root ::= piece*",
        r"piece ::= [^\[【［] | cite" if passages else r"piece ::= [^\[【［]",
    ]
    if passages:
        numbers = " | ".join(f'"{n}"' for n in range(passages, 0, -1))
        lines += [
            'cite ::= "[" num (", " num)* "]"',
            f"num ::= {numbers}",
        ]
    return "\n".join(lines) + "\n"
