"""The decoding grammar: markers of the prompt's passages only, digits only as the figures allowed."""

from __future__ import annotations

import pytest

from app.core.generate.cite_grammar import citation_grammar
from app.core.generate.engine import Engine
from app.core.generate.model import Sampling


def test_the_grammar_names_exactly_the_passages_in_the_prompt() -> None:
    grammar = citation_grammar(3)
    assert 'num ::= "3" | "2" | "1"' in grammar
    assert 'cite ::= "[" num (", " num)* "]"' in grammar
    assert "cite" not in citation_grammar(0)  # no passages: no marker can be written at all
    with pytest.raises(ValueError):
        citation_grammar(-1)


@pytest.mark.parametrize("passages", [0, 1, 12])
@pytest.mark.parametrize("figures", [None, ["1.8", "2025"]])
def test_llama_cpp_compiles_the_grammar(passages: int, figures: list[str] | None) -> None:
    from llama_cpp.llama_grammar import LlamaGrammar

    assert LlamaGrammar.from_string(citation_grammar(passages, figures), verbose=False) is not None


def test_a_figure_is_never_glued_to_the_next_by_a_point_or_comma() -> None:
    grammar = citation_grammar(2, ["1.8", "2025"])
    # after a figure: no digit, and a point or comma only before something else than a digit
    assert "after ::= [^\\[【［0-9０-９.,] | cite | [.,] ([^\\[【［0-9０-９] | cite)" in grammar
    assert "root ::= piece* (figure [.,]?)?" in grammar  # "… in 2025." may end the answer


def test_limited_figures_are_the_only_digits_the_model_can_write(chat_engine: Engine) -> None:
    """SmolLM2, asked to count, under a grammar that allows the figures 1.8 and 2025 only."""
    import re

    grammar = citation_grammar(2, ["1.8", "2025"])
    assert 'figure ::= "2025" | "1.8"' in grammar
    messages = [{"role": "user", "content": "Count from 1 to 20, then write the year 1999 and cite [1]."}]
    tokens = chat_engine.tokenize_prompt(chat_engine.render_chat(messages, enable_thinking=False))
    text = ""
    with chat_engine.lock:
        for event in chat_engine.stream(tokens, Sampling(temperature=0.0, max_tokens=60), grammar=grammar):
            text += "".join(piece for _, piece in event.pieces)
    without_markers = re.sub(r"\[[12](?:, [12])*\]", "", text)
    assert set(re.findall(r"[0-9]+(?:\.[0-9]+)?", without_markers)) <= {"1.8", "2025"}, text


def test_found_figures_are_spelled_as_the_sentences_and_the_question_spell_them() -> None:
    from app.core.answering.evidence.focus import found_figures
    from app.core.answering.evidence.locate import LocatedSentence
    from app.core.passage import Citation

    citation = Citation(1, 1, "manual.pdf", "/m.pdf", 2, 2, 0, 10, "The tank holds 1.8 L.")
    found = [LocatedSentence(citation, "The tank holds 1.8 L; the tray 0,6 L at 10:30.", 1.0)]
    assert found_figures("How much does the KX-40 hold?", found) == ["0,6", "1.8", "10:30", "40"]
    assert found_figures("何时？", []) == []
