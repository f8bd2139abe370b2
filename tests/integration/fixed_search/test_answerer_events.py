"""The Answerer with the real SmolLM2 over a fixed search and the word-only check: events, JSON
contract, persistence, stops, gate (not end to end: the real library and the default embedder's judge
are test_judged_answers.py and test_cited_answers.py; follow-ups, the model slot and chats are the
other test_answerer_*.py here)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.answering.pipeline.pipeline import Answerer
from app.core.answering.presentation.verdict_text import UNVERIFIED_NOTICE_EN
from app.core.answering.types import (
    AnswerEvent,
    AskOptions,
    Delta,
    Finished,
    Located,
    Metrics,
    Retrieved,
)
from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.errors import UsageError
from tests.answering_kit import ask, make_answerer
from tests.core.answer_helpers import fixed_search, make_hit
from tests.integration.fixed_search.passages import HITS

METRIC_KEYS = {
    "queue_ms",
    "retrieval_ms",
    "assemble_ms",
    "prompt_tokens",
    "ttft_ms",
    "prefill_tokens_per_s",
    "completion_tokens",
    "thinking_tokens",
    "tpot_ms",
    "tokens_per_s",
    "total_ms",
    "evidence_ms",
    "counts_from",  # "engine" here; a server's answer says whose counts (server usage / timings / counted)
}


def collect(events: Iterator[AnswerEvent]) -> list[AnswerEvent]:
    return list(events)


def test_events_come_in_order_and_the_json_contract_holds(answerer: Answerer) -> None:
    events = collect(answerer.ask_stream("What decides the time to first token?", AskOptions(max_tokens=80)))
    assert isinstance(events[0], Retrieved) and len(events[0].hits) == 3
    # the sentences Folio located come before the model's first token
    assert isinstance(events[1], Located) and events[1].evidence_ms > 0
    assert isinstance(events[-1], Finished)
    assert sum(isinstance(e, Finished) for e in events) == 1
    assert all(isinstance(e, Delta | Metrics) for e in events[2:-1])
    answer = events[-1].answer
    deltas = [e for e in events if isinstance(e, Delta)]
    assert "".join(d.text for d in deltas if d.channel == "answer").strip() == answer.answer
    assert sum(d.tokens for d in deltas) == answer.metrics.completion_tokens

    data = answer.to_json()
    assert {
        "answer",
        "thinking",
        "citations",
        "invalid_citations",
        "finish_reason",
        "model",
        "budget",
        "metrics",
    } <= set(data)
    assert {"grounded", "chat_id", "message_id", "complete", "spans"} <= set(data)
    assert set(data["metrics"]) == METRIC_KEYS
    assert data["metrics"]["counts_from"] == "engine"  # this process counted the tokens
    assert data["model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert data["grounded"] is True
    assert data["complete"] is (data["finish_reason"] == "stop")
    assert data["finish_reason"] in ("stop", "length")
    # every sentence checked, with offsets into the answer; citation correctness is held to the
    # default model in tests/integration/test_cited_answers.py (this fast model is often wrong)
    assert data["sentences"] and {"support_rate", "wrong_citations", "gate_score", "verdict"} <= set(data)
    assert data["verdict"] in ("answered", "partly", "not_answered", "not_in_documents")
    assert data["located"] and all(found["document"] and found["sentence"] for found in data["located"])
    # the figure the answer records is the Located event's (the order of events above shows it came first)
    assert answer.metrics.evidence_ms is not None and answer.metrics.evidence_ms == pytest.approx(
        events[1].evidence_ms
    )
    for sentence in data["sentences"]:
        assert data["answer"][sentence["start"] : sentence["end"]] == sentence["text"]
        assert sentence["source"] in ("model", "matched", "none")
        assert set(sentence["citations"]) <= {1, 2, 3}
        assert (sentence["supported"] is True) == bool(sentence["citations"])
    assert all(n < 1 or n > 3 for n in data["invalid_citations"])

    metrics = answer.metrics
    assert metrics.completion_tokens > 1
    assert metrics.ttft_ms is not None and metrics.ttft_ms > 0
    assert metrics.tokens_per_s is not None and metrics.tokens_per_s > 0
    assert metrics.tpot_ms is not None and metrics.tokens_per_s == pytest.approx(1000.0 / metrics.tpot_ms)
    assert metrics.prompt_tokens == answer.budget.prompt_tokens if answer.budget else False
    assert metrics.total_ms >= metrics.ttft_ms
    assert metrics.retrieval_ms == 1.5
    assert set(answer.spans) >= {"queue", "retrieve", "assemble", "prefill", "decode", "parse"}
    budget = data["budget"]
    assert budget["passages_used"] == [1, 2, 3]
    assert budget["prompt_tokens"] + budget["answer_reserve"] <= budget["n_ctx"]
    assert budget["predicted_ttft_ms"] is not None and budget["measured_ttft_ms"] == round(metrics.ttft_ms, 1)


def test_answer_question_and_trace_are_persisted(answerer: Answerer) -> None:
    answer = ask(answerer, "What is the default chat model?", AskOptions(max_tokens=40))
    assert answer.chat_id is not None and answer.message_id is not None
    messages = answerer.conversations.messages(answer.chat_id)
    assert [m.role for m in messages] == ["user", "assistant"]
    assert messages[0].content == "What is the default chat model?"
    reply = messages[1]
    assert reply.id == answer.message_id
    assert reply.content == answer.answer and reply.finish_reason == answer.finish_reason
    assert [c.n for c in reply.citations] == [c.n for c in answer.citations]
    trace = reply.trace
    assert trace is not None
    assert trace["metrics"]["completion_tokens"] == answer.metrics.completion_tokens
    assert trace["sampling"]["seed"] == 42 and trace["sampling"]["temperature"] == 0.0
    assert trace["budget"]["n_ctx"] == 4096
    assert set(trace["spans"]) >= {"queue", "retrieve", "assemble", "prefill", "decode", "parse"}
    summaries = answerer.conversations.summaries()
    assert summaries[0].id == answer.chat_id and summaries[0].messages == 2
    assert summaries[0].title == "What is the default chat model?"


def test_tiny_max_tokens_gives_length_and_an_incomplete_answer(answerer: Answerer) -> None:
    answer = ask(answerer, "Explain prefill and decode in detail.", AskOptions(max_tokens=3))
    assert answer.finish_reason == "length"
    assert not answer.complete and answer.to_json()["complete"] is False
    assert answer.metrics.completion_tokens == 3
    assert answer.chat_id is not None
    stored = answerer.conversations.messages(answer.chat_id)[-1]
    assert stored.finish_reason == "length" and not stored.complete


def test_a_cut_off_answer_can_be_continued_where_it_stopped(answerer: Answerer) -> None:
    question = "Explain what decides the time to first token and the tokens per second."
    first = ask(answerer, question, AskOptions(max_tokens=6, temperature=0.0))
    assert first.finish_reason == "length" and first.answer
    events = collect(answerer.ask_stream(question, AskOptions(max_tokens=24, continue_from=first.answer)))
    final = events[-1]
    assert isinstance(final, Finished)
    resumed = final.answer
    streamed = "".join(e.text for e in events if isinstance(e, Delta) and e.channel == "answer")
    assert resumed.answer == first.answer + streamed  # the old text is kept, the new text follows it
    assert streamed and resumed.metrics.completion_tokens > 0
    assert resumed.finish_reason in ("stop", "length")


def test_cancel_from_another_thread_stops_within_a_token(answerer: Answerer) -> None:
    cancel = CancelToken()
    streamed = 0
    at_cancel: list[int] = []
    started = threading.Event()

    def press_stop() -> None:
        started.wait(60)
        at_cancel.append(streamed)
        cancel.cancel()

    stopper = threading.Thread(target=press_stop)
    stopper.start()
    answer = None
    for event in answerer.ask_stream(
        "Write a long essay about prefill.", AskOptions(max_tokens=400), cancel=cancel
    ):
        if isinstance(event, Delta):
            streamed += event.tokens
            if streamed >= 3 and not started.is_set():
                started.set()
                stopper.join()
        elif isinstance(event, Finished):
            answer = event.answer
    assert answer is not None and answer.finish_reason == "cancelled"
    assert answer.metrics.completion_tokens <= at_cancel[0] + 1
    assert answer.chat_id is not None
    assert answerer.conversations.messages(answer.chat_id)[-1].finish_reason == "cancelled"


def test_cancel_before_the_model_runs_still_finishes_cleanly(answerer: Answerer) -> None:
    cancel = CancelToken()
    cancel.cancel()
    events = collect(answerer.ask_stream("Anything?", cancel=cancel))
    assert isinstance(events[0], Retrieved) and isinstance(events[-1], Finished)
    assert events[-1].answer.finish_reason == "cancelled"


def test_unanswerable_question_is_gated_without_calling_the_model(tmp_path: Path) -> None:
    settings = Settings(model_path=str(tmp_path / "absent.gguf"))  # loading it would fail
    weak = [make_hit(1, "Unrelated text about gardening.", similarity=0.05)]
    answerer = make_answerer(settings, tmp_path / "library", fixed_search(weak))
    answer = ask(answerer, "What is the boiling point of mercury?")
    assert answer.finish_reason == "stop" and answer.complete
    assert answer.grounded is False and answer.to_json()["grounded"] is False
    assert answer.answer == "The documents in your library do not cover this question."
    assert answer.metrics.completion_tokens == 0 and answer.citations == []
    assert answer.budget is not None
    assert [d.reason for d in answer.budget.passages_dropped] == ["below_grounding_threshold"]
    assert answerer.slot.info() is None  # never loaded
    assert answer.chat_id is not None
    assert answerer.conversations.messages(answer.chat_id)[-1].trace["grounded"] is False  # type: ignore[index]


def test_no_hits_at_all_is_gated_in_the_question_language(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    empty = make_answerer(test_settings, tmp_path / "library", fixed_search([]), engine=answerer.slot.engine)
    answer = ask(empty, "缓存是什么？")
    assert answer.grounded is False and answer.answer == "文档中没有涉及这个问题的内容。"


def test_missing_model_gives_an_error_answer_naming_the_file(
    tmp_path: Path,
) -> None:
    answerer = make_answerer(
        Settings(model_path=str(tmp_path / "gone.gguf")), tmp_path / "library", fixed_search(HITS)
    )
    answer = ask(answerer, "What decides the time to first token?")
    assert answer.finish_reason == "error" and not answer.complete
    assert answer.error is not None and "gone.gguf" in answer.error
    assert answer.chat_id is not None
    assert answerer.conversations.messages(answer.chat_id)[-1].finish_reason == "error"


def test_chinese_question_streams_intact_chinese(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    hits = [make_hit(1, "北京是中国的首都，有三千多年的历史。", document="城市.md")]
    chinese = make_answerer(
        test_settings, tmp_path / "library", fixed_search(hits), engine=answerer.slot.engine
    )
    deltas: list[Delta] = []
    answer = ask(
        chinese, "北京是哪个国家的首都？请用中文回答。", AskOptions(max_tokens=40), on_delta=deltas.append
    )
    streamed = "".join(d.text for d in deltas if d.channel == "answer")
    assert streamed.strip() == answer.answer
    assert all("\ufffd" not in d.text for d in deltas)
    assert sum(1 for char in answer.answer if "\u4e00" <= char <= "\u9fff") >= 2


def test_long_passages_never_push_the_prompt_past_the_context(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    long_hits = [make_hit(i, "Prefill is slow on long prompts. " * 80, page=i) for i in range(1, 11)]
    # whole passages: evidence selection would cut these to a few sentences each
    settings = test_settings.replace(ttft_target_s=0.0, evidence_selection=False)
    wide = make_answerer(settings, tmp_path / "library", fixed_search(long_hits), engine=answerer.slot.engine)
    cancel = CancelToken()  # a large answer reserve leaves room for one passage; stop after a token
    answer = None
    for event in wide.ask_stream(
        "Why is prefill slow?", AskOptions(max_tokens=3200, passages_k=10), cancel=cancel
    ):
        if isinstance(event, Delta):
            cancel.cancel()
        elif isinstance(event, Finished):
            answer = event.answer
    assert answer is not None and answer.budget is not None
    assert answer.budget.prompt_tokens + 3200 <= 4096
    assert answer.metrics.prompt_tokens == answer.budget.prompt_tokens
    assert len(answer.budget.passages_used) == 1 and len(answer.budget.passages_dropped) == 9


def test_evidence_selection_shortens_the_prompt_but_citations_quote_the_whole_passage(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    filler = " ".join(f"Room {n} of the museum shows tools of the {n}th century." for n in range(10, 19))
    text = f"{filler} The Skerry Point lighthouse tower is 31 metres tall. {filler}"
    hits = [make_hit(1, text, document="lighthouse.pdf", page=3)]
    answers = {}
    for on in (False, True):
        settings = test_settings.replace(evidence_selection=on)
        selecting = make_answerer(
            settings, tmp_path / "library", fixed_search(hits), engine=answerer.slot.engine
        )
        question = "How tall is the Skerry Point lighthouse tower?"
        answers[on] = ask(selecting, question, AskOptions(max_tokens=40))
    whole, cut = answers[False].budget, answers[True].budget
    assert whole is not None and cut is not None
    assert whole.evidence_saved_tokens == 0
    assert cut.passages_tokens < whole.passages_tokens / 3
    assert cut.evidence_saved_tokens >= whole.passages_tokens - cut.passages_tokens - 8
    assert cut.prompt_tokens < whole.prompt_tokens
    # the answer's passages (what citations quote and the checker reads) are the stored text
    assert [hit.text for hit in answers[True].passages] == [text]
    assert all(citation.text == text for citation in answers[True].citations)


def test_an_answer_folio_cannot_verify_says_so_and_never_that_the_documents_do_not_answer(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    tea = [make_hit(1, "Green tea is steeped at 80 degrees Celsius for two minutes.", similarity=0.5)]
    off = make_answerer(test_settings, tmp_path / "library", fixed_search(tea), engine=answerer.slot.engine)
    answer = ask(off, "What is the capital city of France?", AskOptions(max_tokens=40, temperature=0.0))
    if answer.complete and answer.verdict == "not_answered":
        assert answer.citations == [] and not any(s.supported for s in answer.sentences)
        assert answer.answer.endswith(UNVERIFIED_NOTICE_EN)
    else:  # the model refused by itself, or wrote something the passage supports
        assert UNVERIFIED_NOTICE_EN not in answer.answer
    assert "the documents do not answer this question" not in answer.answer


def test_constrained_citations_can_only_name_passages_in_the_prompt(answerer: Answerer) -> None:
    options = AskOptions(max_tokens=48, temperature=0.0, cite_mode="constrained")
    answer = ask(answerer, "What decides the time to first token? Cite the passage.", options)
    assert answer.finish_reason in ("stop", "length") and answer.error is None
    assert answer.invalid_citations == []  # the grammar never lets a marker name passage 4 or more
    assert "【" not in answer.answer and "［" not in answer.answer
    with pytest.raises(UsageError, match="citation mode"):
        answerer.ask_stream("Hi?", AskOptions(cite_mode="loose"))
