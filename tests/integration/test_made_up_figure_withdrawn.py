"""End to end with the default chat model: an answer that makes up a price no passage states is
withdrawn (answering/judge/invented.py), through folio.answering.ask_stream on a real library built
from one of the eval's documents (a manual that gives no price)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from app.cli_ask import run_ask
from app.cli_parser import build_parser
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.prompt.system import figure_not_found_answer
from app.core.services import build_services
from tests.integration.asked_once import ask_once

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
MANUAL = REPO / "benchmarks" / "eval" / "docs" / "qinglan-s3-manual.pdf"
# The default model first answers with a made-up price ("The Qinglan S3 cost at launch was $1,200.",
# "清岚 S3 的价格是 180 元。": the manual's 180 is cubic metres of air per hour).
ASKED = ["How much did the Qinglan S3 cost at launch?", "清岚 S3 的价格是多少元？"]


@pytest.mark.parametrize("question", ASKED)
def test_an_answer_with_a_figure_no_passage_states_is_withdrawn(
    tmp_path: Path, multilingual_embedder: Embedder, question: str
) -> None:
    settings = Settings(temperature=0.0, ttft_target_s=0.0, max_tokens=96)
    asked = ask_once(settings, tmp_path / "library", multilingual_embedder, MANUAL, question)
    answer, stored, replacements = asked.answer, asked.stored, asked.replaced
    assert len(replacements) == 1, f"the answer was not withdrawn: {answer.answer!r}"
    figures = replacements[0].withdrawn
    assert figures and answer.withdrawn == figures
    # what the model wrote, kept in the trace, gave the figures; the manual states none of them
    assert all(f in replacements[0].first.replace(",", "") for f in figures.split(", "))
    replaced = figure_not_found_answer(question)
    assert asked.streamed(asked.events.index(replacements[0])) == replaced  # what streams after it
    assert answer.answer == replaced and answer.reasked_from == replacements[0].first
    # not verified, never "not in your documents": the figure may be in a passage not retrieved
    assert answer.complete and answer.verdict == "not_answered"
    assert stored.answer == answer.answer and stored.withdrawn == figures
    assert stored.reasked_from == answer.reasked_from


def test_folio_ask_says_on_stderr_that_the_answer_was_withdrawn(
    tmp_path: Path, multilingual_embedder: Embedder, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(temperature=0.0, ttft_target_s=0.0)
    folio = build_services(settings, tmp_path / "library", embedder=multilingual_embedder)
    try:
        assert not folio.library.ingest([MANUAL]).failed
        out = io.StringIO()
        args = build_parser().parse_args(["ask", ASKED[0], "--max-tokens", "96"])
        assert run_ask(args, folio, out) == 0
    finally:
        folio.close()
    assert "no passage states for this question" in capsys.readouterr().err
    # the made-up answer streamed first, then Folio's words after it
    assert figure_not_found_answer(ASKED[0]) in out.getvalue()
