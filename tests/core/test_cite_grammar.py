"""The citation grammar: "[" opens only markers of the prompt's passages; llama.cpp compiles it."""

from __future__ import annotations

import pytest

from app.core.generate.cite_grammar import citation_grammar


def test_the_grammar_names_exactly_the_passages_in_the_prompt() -> None:
    grammar = citation_grammar(3)
    assert 'num ::= "3" | "2" | "1"' in grammar
    assert 'cite ::= "[" num (", " num)* "]"' in grammar
    assert "cite" not in citation_grammar(0)  # no passages: no marker can be written at all
    with pytest.raises(ValueError):
        citation_grammar(-1)


@pytest.mark.parametrize("passages", [0, 1, 12])
def test_llama_cpp_compiles_the_grammar(passages: int) -> None:
    from llama_cpp.llama_grammar import LlamaGrammar

    assert LlamaGrammar.from_string(citation_grammar(passages), verbose=False) is not None
