"""The remote engine on recorded replies: vLLM's usage chunk and reasoning_content, Ollama's
reasoning, llama-server's timings, finish reasons, and a clear error for each broken reply."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.answering.pipeline.model_slot import ModelSlot
from app.core.config import Settings, SettingsOwner
from app.core.errors import ServerError, UsageError
from app.core.generate.chat_engine import engine_for
from app.core.generate.engine import Engine
from app.core.generate.model import ChatRequest, Sampling
from app.core.generate.remote import RemoteEngine
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.server_key import keys_file, load_server_key, save_server_key
from tests.core.recorded_server import Recording, Reply, chunk, models, recorded_server, sse
from tests.integration.llama_server import free_port

CHAT = "/v1/chat/completions"
QWEN = "Qwen/Qwen3-8B"
MESSAGES = ChatRequest(({"role": "user", "content": "Why is the sky blue?"},), True)
VLLM_TOKENIZE = Reply(body=json.dumps({"count": 3, "max_model_len": 32768, "tokens": [1, 2, 3]}).encode())


def vllm(chat: Reply) -> Recording:
    """vLLM's /v1/models (with max_model_len) and a tokenize route."""
    return Recording(
        {"/v1/models": models(QWEN, max_model_len=32768), "/tokenize": VLLM_TOKENIZE, CHAT: chat}
    )


@pytest.fixture
def served() -> Iterator[tuple[Recording, str]]:
    recording = Recording()
    with recorded_server(recording) as url:
        yield recording, url


def run(engine: RemoteEngine) -> tuple[list[TokenStep], GenerationEnd]:
    engine.load()
    events = list(engine.stream([1, 2, 3], Sampling(max_tokens=64), chat=MESSAGES))
    steps = [event for event in events if isinstance(event, TokenStep)]
    end = events[-1]
    assert isinstance(end, GenerationEnd) and all(not isinstance(e, GenerationEnd) for e in events[:-1])
    return steps, end


def text_of(steps: list[TokenStep], end: GenerationEnd, channel: str) -> str:
    return "".join(text for step in steps for ch, text in step.pieces if ch == channel) + "".join(
        text for ch, text in end.pieces if ch == channel
    )


def test_vllm_reasoning_and_usage_chunk(served: tuple[Recording, str]) -> None:
    recording, url = served
    body = sse(
        {"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]},
        chunk(reasoning="Light scatters."),
        chunk(reasoning=" Short waves more."),
        chunk(content="Rayleigh scattering [1]."),
        chunk(finish="stop"),
        {"choices": [], "usage": {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52,
                                  "completion_tokens_details": {"reasoning_tokens": 7}}},
        "[DONE]",
    )  # fmt: skip
    recording.replies.update(vllm(Reply(content_type="text/event-stream", body=body)).replies)
    engine = RemoteEngine(url + "/v1", QWEN, "sk-secret", n_ctx=4096)
    steps, end = run(engine)
    assert engine.info() is not None and engine.n_ctx == 32768  # the context comes from the server
    assert text_of(steps, end, "thinking") == "Light scatters. Short waves more."
    assert text_of(steps, end, "answer") == "Rayleigh scattering [1]."
    assert [step.thinking for step in steps] == [True, True, False]
    assert end.finish_reason == "stop" and end.error is None
    assert (end.prompt_tokens, end.completion_tokens, end.thinking_tokens) == (40, 12, 7)
    assert end.counts_from == "server usage"
    path, headers, request = recording.requests[-1]
    assert path == CHAT and headers["Authorization"] == "Bearer sk-secret"
    assert request["chat_template_kwargs"] == {"enable_thinking": True}
    assert request["stream_options"] == {"include_usage": True} and request["model"] == QWEN
    assert "sk-secret" not in repr(engine) + repr(engine.conn) + json.dumps(engine.info().to_json())  # type: ignore[union-attr]


def test_ollama_reasoning_field_and_think_tags_in_content(served: tuple[Recording, str]) -> None:
    recording, url = served
    body = sse(
        chunk(reasoning="Hmm.", key="reasoning"),
        chunk(content="<think>more</think>"),
        chunk(content="Blue."),
        chunk(finish="length"),
        "[DONE]",
    )
    recording.replies.update(
        {"/v1/models": models("qwen3:8b"), CHAT: Reply(content_type="text/event-stream", body=body)}
    )
    steps, end = run(RemoteEngine(url, "qwen3:8b", None, n_ctx=4096))
    assert text_of(steps, end, "thinking") == "Hmm.more"
    assert text_of(steps, end, "answer").strip() == "Blue."
    assert end.finish_reason == "length" and end.counts_from == "counted" and end.completion_tokens == 3


def test_llama_server_timings_give_the_decode_rate_and_cache(served: tuple[Recording, str]) -> None:
    recording, url = served
    timings = {
        "prompt_n": 10,
        "prompt_ms": 50.0,
        "predicted_n": 2,
        "predicted_per_second": 41.5,
        "cache_n": 25,
    }
    body = sse(chunk(content="A"), chunk(content="B"), {**chunk(finish="stop"), "timings": timings}, "[DONE]")
    props = {"default_generation_settings": {"n_ctx": 8192}, "chat_template": "{{ messages[0]['content'] }}"}
    recording.replies.update(
        {
            "/v1/models": models("m"),
            "/props": Reply(body=json.dumps(props).encode()),
            "/tokenize": Reply(body=b'{"tokens": [5, 6]}'),
            CHAT: Reply(content_type="text/event-stream", body=body),
        }
    )
    engine = RemoteEngine(url, "m", None, n_ctx=2048)
    info = engine.load()
    assert info.n_ctx == 8192 and info.chat_template == "server" and "llama-server" in info.tokenizer
    assert engine.render_chat([{"role": "user", "content": "x"}], False) == "x"  # the server's template
    _, end = run(engine)
    assert end.counts_from == "server timings" and end.decode_tokens_per_s == 41.5
    assert end.cached_tokens == 3  # cache_n 25, at most the prompt's 3 tokens


@pytest.mark.parametrize(
    ("status", "kind", "said"),
    [
        (401, "auth", "refused the API key (HTTP 401)"),
        (403, "auth", "refused the API key (HTTP 403)"),
        (404, "model", "does not serve this model (HTTP 404)"),
        (429, "busy", "is busy (HTTP 429)"),
        (503, "loading", "is loading its model or busy (HTTP 503)"),
    ],
)
def test_error_statuses_of_the_chat_say_what_happened(
    served: tuple[Recording, str], status: int, kind: str, said: str
) -> None:
    recording, url = served
    recording.replies.update(vllm(Reply(status, body=b'{"error": {"message": "no luck"}}')).replies)
    steps, end = run(RemoteEngine(url, QWEN, None))
    assert not steps and end.finish_reason == "error"
    assert end.error is not None and said in end.error and end.error.endswith(": no luck")
    with pytest.raises(ServerError) as raised:
        RemoteEngine(url, QWEN).conn.open_stream(CHAT, {})
    assert raised.value.kind == kind and raised.value.status == status


def test_a_busy_server_at_load_is_an_error_of_its_own(served: tuple[Recording, str]) -> None:
    recording, url = served
    recording.replies["/v1/models"] = Reply(503, body=b'{"error": {"message": "Loading model"}}')
    with pytest.raises(ServerError) as raised:
        RemoteEngine(url, QWEN).load()
    assert raised.value.kind == "loading"


@pytest.mark.parametrize(
    ("reply", "error", "kept"),
    [
        (Reply(content_type="text/event-stream", body=sse(chunk(content="Half")) + b"data: {not json\n\n"),
         "sent an event that is not JSON", "Half"),
        (Reply(content_type="text/event-stream", body=sse(chunk(content="Half")), content_length=10_000),
         "broke off mid-answer", "Half"),
        (Reply(content_type="text/event-stream", body=sse(chunk(content="Half"))),
         "broke off mid-answer", "Half"),
        (Reply(content_type="text/event-stream", body=sse(chunk(content="Half"), "[DONE]")),
         "without a finish reason", "Half"),
        (Reply(content_type="text/event-stream", body=sse(chunk(content="Half"), chunk(finish="tool_calls"))),
         "finish reason 'tool_calls'", "Half"),
        (Reply(body=b'{"choices": [{"message": {"content": "whole"}}]}'), "did not stream its answer", ""),
        (Reply(content_type="text/event-stream", body=b"<html>proxy error</html>\n"),
         "not server-sent events", ""),
    ],
)  # fmt: skip
def test_a_broken_stream_is_an_error_with_its_text_kept(
    served: tuple[Recording, str], reply: Reply, error: str, kept: str
) -> None:
    recording, url = served
    recording.replies.update(vllm(reply).replies)
    steps, end = run(RemoteEngine(url, QWEN))
    assert end.finish_reason == "error" and end.error is not None and error in end.error
    assert text_of(steps, end, "answer") == kept


def test_tls_failure_is_named(served: tuple[Recording, str]) -> None:
    _, url = served  # a plain-HTTP server: the TLS handshake fails
    with pytest.raises(ServerError) as raised:
        RemoteEngine(url.replace("http://", "https://"), QWEN).load()
    assert raised.value.kind == "tls" and "the secure connection to https://127.0.0.1" in str(raised.value)


def test_a_server_without_a_tokenizer_budgets_with_a_stated_margin(
    served: tuple[Recording, str], smollm_path: Path
) -> None:
    recording, url = served  # Ollama's OpenAI endpoint: no tokenize route, no context size
    recording.replies["/v1/models"] = models("llama3.2")
    engine = RemoteEngine(url, "llama3.2", None, n_ctx=8192, local_tokenizer=smollm_path)
    info = engine.load()
    assert engine.n_ctx == info.n_ctx == int(8192 * 0.85)
    assert "estimated with SmolLM2" in info.tokenizer and "15% of its context" in info.tokenizer
    assert engine.count_tokens("The KV cache stores keys and values.") > 5
    engine.close()


def test_settings_choose_the_engine_and_nothing_connects(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(engine_for(Settings()), Engine)  # the default install: this computer
    monkeypatch.setenv("FOLIO_API_KEY", "k")
    remote = engine_for(Settings(server_url="http://203.0.113.9:8080/v1", server_model="m"))
    assert isinstance(remote, RemoteEngine) and not remote.loaded  # building it opened no socket
    assert remote.matches(Settings(server_url="http://203.0.113.9:8080", server_model="m"))
    assert not remote.matches(Settings(server_url="http://203.0.113.9:8080", server_model="other"))
    monkeypatch.delenv("FOLIO_API_KEY")
    save_server_key("http://203.0.113.9:8080/v1", "a-new-key")  # the key changed in Settings
    assert not remote.matches(Settings(server_url="http://203.0.113.9:8080/v1", server_model="m"))


@pytest.mark.parametrize(
    ("url", "model", "message"),
    [
        ("ftp://host", "m", "must start with http:// or https://"),
        ("http://user:pw@host", "m", "must not hold a user name or password"),
        ("http://host:8080", " ", "needs the name of its model"),
    ],
)
def test_a_bad_server_setting_is_refused(url: str, model: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        Settings(server_url=url, server_model=model).validate()


def test_the_key_file_is_the_users_alone_and_the_settings_never_hold_it() -> None:
    where = save_server_key("http://127.0.0.1:8080", "sk-1")
    assert where == str(keys_file())
    assert stat.S_IMODE(keys_file().stat().st_mode) == 0o600
    assert load_server_key("http://127.0.0.1:8080") == "sk-1"
    save_server_key("http://127.0.0.1:8080", "")
    assert load_server_key("http://127.0.0.1:8080") is None
    assert "key" not in json.dumps(Settings().to_dict())


def test_a_server_that_cannot_answer_now_stays_chosen() -> None:
    owner = SettingsOwner(Settings())
    slot = ModelSlot(owner)
    chosen = Settings(server_url=f"http://127.0.0.1:{free_port()}", server_model="m")
    assert slot.apply(chosen) is True  # nothing is asked of the server until the model is used
    with pytest.raises(ServerError) as raised:
        slot.load()
    assert raised.value.kind == "unreachable"
    assert owner.current == chosen and isinstance(slot.target(), RemoteEngine)  # not rolled back
    slot.close()


def test_a_key_changed_for_the_same_server_connects_again_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FOLIO_API_KEY", raising=False)
    url = f"http://127.0.0.1:{free_port()}"
    save_server_key(url, "old-key")
    owner = SettingsOwner(Settings())
    slot = ModelSlot(owner)
    chosen = Settings(server_url=url, server_model="m")
    slot.apply(chosen)
    first = slot.target()
    assert isinstance(first, RemoteEngine)
    assert slot.apply(chosen) is True and slot.target() is first  # nothing changed: the same engine
    save_server_key(url, "new-key")  # Settings stored a new key; the settings themselves are equal
    assert slot.apply(chosen) is True
    assert slot.target() is not first and slot.target().matches(chosen)
    slot.close()
