"""Answers through a real OpenAI-compatible server (llama-cpp-python's, started here on 127.0.0.1
with the bundled SmolLM2): citations and the check, the exact budget, Stop, a server killed
mid-answer, a wrong key, a model the server does not have, a server that is not there."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli_ask import run_ask
from app.cli_parser import build_parser
from app.core.answering.types import Delta, Finished
from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.errors import ServerError
from app.core.generate.model import ChatRequest, Sampling
from app.core.generate.remote import RemoteEngine
from app.core.generate.steps import GenerationEnd
from app.core.qa import Folio
from app.core.server_key import KEY_ENV
from app.core.services import build_services
from tests.integration.llama_server import MODEL_NAME, LlamaServer, free_port
from tests.pdfgen import write_pdf

pytestmark = pytest.mark.slow

SERVER_CTX = 2048
QUESTION = "At what temperature is black tea steeped?"
KEY = "folio-test-key-7f3a9c"
COUNTING = ChatRequest(
    ({"role": "user", "content": "Count from 1 to 400, one number per line, and nothing else."},), False
)


def write_library_docs(folder: Path) -> Path:
    """A two-page PDF (the fact on page 2) and a note: citations must name the page."""
    folder.mkdir(parents=True, exist_ok=True)
    write_pdf(
        folder / "tea.pdf",
        [
            ["Tea guide.", "Green tea is steeped at 80 degrees Celsius for two minutes."],
            ["Black tea is steeped at 95 degrees Celsius for four minutes.", "Use fresh water."],
        ],
    )
    (folder / "cache.md").write_text(
        "# Inference\n\nThe KV cache stores the keys and values of earlier tokens.\n", encoding="utf-8"
    )
    return folder


@pytest.fixture(scope="module")
def server(smollm_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    running = LlamaServer(smollm_path, tmp_path_factory.mktemp("server") / "server.log", SERVER_CTX).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_library_docs(tmp_path_factory.mktemp("docs"))


def server_folio(library: Path, embedder: Embedder, docs: Path, url: str, **changes: object) -> Folio:
    settings = Settings(
        server_url=url, server_model=MODEL_NAME, n_ctx=SERVER_CTX, temperature=0.0, max_tokens=160
    ).replace(**changes)
    folio = build_services(settings, library, embedder=embedder)
    report = folio.library.ingest([docs])
    assert not report.failed
    return folio


@pytest.fixture
def folio(tmp_path: Path, embedder: Embedder, docs: Path, server: LlamaServer) -> Iterator[Folio]:
    services = server_folio(tmp_path / "library", embedder, docs, server.url)
    yield services
    services.close()


def ask_json(folio: Folio, *argv: str) -> tuple[int, dict[str, object], str]:
    args = build_parser().parse_args(["ask", *argv, "--json"])
    out = io.StringIO()
    code = run_ask(args, folio, out)
    return code, json.loads(out.getvalue()), out.getvalue()


def test_cli_answer_through_the_server_cites_the_page_and_is_checked(
    folio: Folio, server: LlamaServer
) -> None:
    code, data, _ = ask_json(folio, QUESTION, "--server", server.url, "--model", MODEL_NAME)
    assert data["error"] is None, data["error"]
    assert data["finish_reason"] == "stop" and code == 0
    assert data["model"] == MODEL_NAME
    assert "95" in str(data["answer"])
    citations = data["citations"]
    assert isinstance(citations, list) and citations, data["sentences"]
    black = [c for c in citations if c["document"] == "tea.pdf" and "Black tea" in c["text"]]
    assert black and all(c["page"] <= 2 <= c["page_end"] for c in black), citations  # the fact's page
    assert data["sentences"] and data["verdict"] in ("answered", "partly")
    metrics = data["metrics"]
    assert isinstance(metrics, dict)
    assert metrics["counts_from"] == "counted"  # llama-cpp-python streams no usage: chunks counted
    assert metrics["ttft_ms"] is not None and metrics["completion_tokens"] > 0
    assert metrics["tokens_per_s"] is not None


def test_the_budget_counts_the_prompt_exactly_as_the_server_does(server: LlamaServer) -> None:
    engine = RemoteEngine(server.url, MODEL_NAME, None, SERVER_CTX)
    info = engine.load()
    assert info.tokenizer.startswith("exact: the server's tokenizer (llama-cpp-python)")
    messages = [
        {"role": "system", "content": "Answer from the passages.\n\n[1] Black tea: 95 °C, 4 min."},
        {"role": "user", "content": QUESTION},
    ]
    counted = len(engine.tokenize_prompt(engine.render_chat(messages, enable_thinking=False)))
    usage = server.chat({"messages": messages, "max_tokens": 1})["usage"]
    assert isinstance(usage, dict) and usage["prompt_tokens"] == counted


def test_stop_closes_the_stream_and_the_server_stops_generating(server: LlamaServer) -> None:
    engine = RemoteEngine(server.url, MODEL_NAME, None, SERVER_CTX)
    engine.load()
    dropped = server.dropped_streams()
    cancel = CancelToken()
    steps, ends = 0, []
    tokens = engine.tokenize_prompt(engine.render_chat(list(COUNTING.messages), False))
    for event in engine.stream(tokens, Sampling(max_tokens=1500, temperature=0.0), cancel, chat=COUNTING):
        if isinstance(event, GenerationEnd):
            ends.append(event)
        else:
            steps += 1
            if steps == 5:
                cancel.cancel()
    assert [end.finish_reason for end in ends] == ["cancelled"] and 5 <= steps < 40
    # The server drops a stream whose client went away, and says so in its log; had it gone on with
    # the 1,500 tokens, it would end the stream instead. Nothing else is sent meanwhile, so no new
    # request interrupted it (llama-cpp-python's interrupt_requests). The deadline only stops a hang.
    deadline = time.monotonic() + 120
    while server.dropped_streams() == dropped and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.dropped_streams() == dropped + 1
    reply = server.chat({"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1})
    assert isinstance(reply["usage"], dict) and reply["usage"]["completion_tokens"] <= 1  # free again


def test_stop_mid_answer_keeps_the_partial_text_marked_incomplete(folio: Folio) -> None:
    cancel = CancelToken()
    streamed: list[str] = []
    answer = None
    for event in folio.answering.ask_stream(QUESTION, None, None, cancel):
        if isinstance(event, Delta) and event.channel == "answer" and event.text:
            streamed.append(event.text)
            cancel.cancel()
        elif isinstance(event, Finished):
            answer = event.answer
    assert answer is not None and answer.finish_reason == "cancelled" and not answer.complete
    assert streamed and answer.answer.startswith("".join(streamed).strip()[:5])


def test_a_server_killed_mid_answer_ends_as_an_error_with_the_text_kept(
    tmp_path: Path, embedder: Embedder, docs: Path, smollm_path: Path
) -> None:
    doomed = LlamaServer(smollm_path, tmp_path / "doomed.log", SERVER_CTX).start()
    try:
        folio = server_folio(tmp_path / "library", embedder, docs, doomed.url, max_tokens=400)
        streamed: list[str] = []
        answer = None
        for event in folio.answering.ask_stream("Explain everything the documents say about tea, in detail."):
            if isinstance(event, Delta) and event.channel == "answer" and event.text:
                streamed.append(event.text)
                if len(streamed) == 2:
                    doomed.kill()
            elif isinstance(event, Finished):
                answer = event.answer
        folio.close()
    finally:
        doomed.stop()
    assert answer is not None and answer.finish_reason == "error" and not answer.complete
    assert answer.error is not None and "broke off" in answer.error
    assert answer.answer.startswith("".join(streamed[:2]).strip())


def test_a_wrong_key_is_refused_clearly_and_the_key_is_never_written(
    tmp_path: Path, embedder: Embedder, docs: Path, smollm_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = LlamaServer(smollm_path, tmp_path / "locked.log", SERVER_CTX, api_key=KEY).start()
    try:
        monkeypatch.setenv(KEY_ENV, "not-the-key")
        folio = server_folio(tmp_path / "library", embedder, docs, locked.url)
        code, data, _ = ask_json(folio, QUESTION)
        assert code == 1 and data["finish_reason"] == "error"
        assert "refused the API key (HTTP 401)" in str(data["error"])
        folio.close()
        monkeypatch.setenv(KEY_ENV, KEY)
        folio = server_folio(tmp_path / "library-2", embedder, docs, locked.url)
        code, data, stdout = ask_json(folio, QUESTION)
        assert data["error"] is None and data["finish_reason"] in ("stop", "length")
        folio.close()
    finally:
        locked.stop()
    assert KEY not in stdout
    for path in tmp_path.rglob("*"):  # the library (chats, traces), settings, logs
        if path.is_file() and path.suffix != ".log":
            assert KEY.encode() not in path.read_bytes(), path


def test_a_model_the_server_does_not_have_is_named_with_the_ones_it_has(server: LlamaServer) -> None:
    with pytest.raises(ServerError) as raised:
        RemoteEngine(server.url, "qwen3-235b", None, SERVER_CTX).load()
    assert raised.value.kind == "model"
    assert "has no model 'qwen3-235b' (it offers: smollm2)" in str(raised.value)


def test_a_prompt_beyond_the_servers_context_is_an_error_not_an_answer(server: LlamaServer) -> None:
    engine = RemoteEngine(server.url, MODEL_NAME, None, n_ctx=8192)  # the user set more than it has
    engine.load()
    long = ChatRequest(({"role": "user", "content": "tea " * 3000},), False)
    tokens = engine.tokenize_prompt(engine.render_chat(list(long.messages), False))
    assert len(tokens) > SERVER_CTX
    ends = [
        e for e in engine.stream(tokens, Sampling(max_tokens=16), chat=long) if isinstance(e, GenerationEnd)
    ]
    assert ends[-1].finish_reason == "error" and ends[-1].completion_tokens == 0
    assert "may not fit its context" in str(ends[-1].error)


def test_a_server_that_is_not_there_is_said_so(tmp_path: Path, embedder: Embedder, docs: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    folio = server_folio(tmp_path / "library", embedder, docs, url)
    code, data, _ = ask_json(folio, QUESTION)
    folio.close()
    assert code == 1 and data["finish_reason"] == "error"
    assert f"cannot reach the server at {url} (connection refused): is it running?" == data["error"]


def test_loading_a_servers_model_does_no_priming_work_here(
    folio: Folio, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folio.answering.load_model()  # the window's load; the server keeps its own cache
    engine = folio.answering.model_slot.engine
    info = engine.info()
    assert info is not None and info.server

    def no_request(prompt: str) -> list[int]:
        raise AssertionError("the prompt opening was tokenized for a server's model")

    monkeypatch.setattr(engine, "tokenize_prompt", no_request)  # a request to the server
    with caplog.at_level(logging.WARNING, logger="folio.model"):
        assert folio.answering.model_slot.prime() == 0
    assert not caplog.records
