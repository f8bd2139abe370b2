"""The generation engine on the real SmolLM2 GGUF: loading, streaming, stops, cancel, cache reuse."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.core.cancel import CancelToken
from app.core.errors import ModelError
from app.core.generate.engine import Engine
from app.core.generate.model import Sampling
from app.core.generate.steps import GenerationEnd, TokenStep
from benchmarks.evaluation.probe import next_token_logprobs

GREEDY = Sampling(temperature=0.0, max_tokens=48)


def run(
    engine: Engine, tokens: list[int], sampling: Sampling = GREEDY, **kwargs: object
) -> tuple[list[TokenStep], GenerationEnd]:
    steps: list[TokenStep] = []
    end: GenerationEnd | None = None
    with engine.lock:
        for event in engine.stream(tokens, sampling, **kwargs):  # type: ignore[arg-type]
            if isinstance(event, TokenStep):
                steps.append(event)
            else:
                end = event
    assert end is not None
    return steps, end


def prompt(engine: Engine, question: str, system: str = "You answer briefly.") -> list[int]:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    return engine.tokenize_prompt(engine.render_chat(messages, enable_thinking=False))


def text_of(steps: list[TokenStep], end: GenerationEnd) -> str:
    return "".join(text for step in steps for _, text in step.pieces) + "".join(t for _, t in end.pieces)


class CancelAfterChecks(CancelToken):
    """A real cancel token that a (simulated) user sets after the worker checked it n times."""

    def __init__(self, checks: int) -> None:
        super().__init__()
        self.left = checks

    @property
    def cancelled(self) -> bool:
        self.left -= 1
        if self.left < 0:
            self.cancel()
        return super().cancelled


def test_missing_model_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    with pytest.raises(ModelError, match=r"nope\.gguf"):
        Engine(missing).load()


def test_file_that_is_not_gguf_is_named(tmp_path: Path) -> None:
    fake = tmp_path / "notes.gguf"
    fake.write_text("hello, I am text")
    with pytest.raises(ModelError, match=r"not a GGUF model file: .*notes\.gguf"):
        Engine(fake).load()


def test_corrupt_gguf_fails_with_a_clear_error(tmp_path: Path, smollm_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(smollm_path.read_bytes()[:4096])
    with pytest.raises(ModelError, match=r"cannot load the model .*broken\.gguf"):
        Engine(broken).load()


def test_model_loads_once_and_reports_its_template(chat_engine: Engine) -> None:
    info = chat_engine.load()
    assert chat_engine.load() is info
    assert info.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert info.chat_template == "gguf"
    assert info.n_ctx == 4096 and info.n_ctx_train >= info.n_ctx
    assert not info.supports_thinking and "enable_thinking" in info.thinking_reason


def test_concurrent_loads_give_one_model(smollm_path: Path) -> None:
    engine = Engine(smollm_path, n_ctx=512, n_threads=1)
    infos: list[object] = []
    threads = [threading.Thread(target=lambda: infos.append(engine.load())) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(infos) == 3 and infos[0] is infos[1] is infos[2]
    engine.close()


def test_token_counts_are_exact(chat_engine: Engine) -> None:
    text = "Prefill decides the time to first token."
    assert chat_engine.count_tokens(text) == len(chat_engine._llm.tokenize(text.encode(), add_bos=False))
    rendered = chat_engine.render_chat([{"role": "user", "content": "Hi"}], enable_thinking=False)
    tokens = chat_engine.tokenize_prompt(rendered)
    assert "<|im_start|>user\nHi<|im_end|>" in rendered
    im_start = chat_engine._llm.tokenize(b"<|im_start|>", add_bos=False, special=True)
    assert len(im_start) == 1 and im_start[0] in tokens  # template markers are special tokens


def test_greedy_stream_stops_at_end_of_turn(chat_engine: Engine) -> None:
    steps, end = run(chat_engine, prompt(chat_engine, "What is the capital of France?"))
    assert end.finish_reason == "stop"
    assert end.completion_tokens == len(steps) > 0
    assert text_of(steps, end).strip()
    assert end.prefill_ms is not None and end.prefill_ms > 0


def test_max_tokens_ends_with_length(chat_engine: Engine) -> None:
    steps, end = run(
        chat_engine, prompt(chat_engine, "Write a long story about a cat."), Sampling(max_tokens=5)
    )
    assert end.finish_reason == "length"
    assert end.completion_tokens == len(steps) == 5


def test_stop_string_ends_the_answer_without_its_text(chat_engine: Engine) -> None:
    tokens = prompt(chat_engine, "What is the capital of France?")
    steps, end = run(chat_engine, tokens, stops=["capital"])
    assert end.finish_reason == "stop"
    assert "capital" not in text_of(steps, end)


def test_streamed_text_equals_one_shot_decoding_for_chinese(chat_engine: Engine) -> None:
    tokens = prompt(chat_engine, "你好！请介绍一下北京。", system="Always answer in Chinese.")
    steps, end = run(chat_engine, tokens, Sampling(temperature=0.0, max_tokens=40))
    streamed = text_of(steps, end)
    whole = bytes(chat_engine._llm.detokenize([step.token for step in steps])).decode(
        "utf-8", errors="replace"
    )
    assert streamed == whole.strip() or streamed == whole.lstrip()
    assert "\ufffd" not in streamed
    assert sum(1 for char in streamed if "\u4e00" <= char <= "\u9fff") >= 5


def test_follow_up_prompt_reuses_the_cached_prefix(chat_engine: Engine) -> None:
    system = "You answer briefly. " + "Passage: the KV cache stores keys and values. " * 30
    first = prompt(chat_engine, "What does the cache store?", system=system)
    second = prompt(chat_engine, "Why does it matter?", system=system)
    shared = next(i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b)
    assert shared > 300
    _, end_first = run(chat_engine, first, Sampling(temperature=0.0, max_tokens=4))
    _, end_second = run(chat_engine, second, Sampling(temperature=0.0, max_tokens=4))
    assert end_second.cached_tokens >= shared
    assert end_second.prompt_tokens == len(second)
    assert end_first.finish_reason in ("stop", "length") and end_second.finish_reason in ("stop", "length")


def test_cancel_between_tokens_stops_within_one_token(chat_engine: Engine) -> None:
    cancel = CancelToken()
    seen = threading.Event()
    counts: dict[str, int] = {}
    steps: list[TokenStep] = []
    end: GenerationEnd | None = None

    def canceller() -> None:
        seen.wait(30)
        counts["at_cancel"] = len(steps)
        cancel.cancel()

    thread = threading.Thread(target=canceller)
    thread.start()
    with chat_engine.lock:
        for event in chat_engine.stream(
            prompt(chat_engine, "Write a long story."), Sampling(max_tokens=400), cancel
        ):
            if isinstance(event, TokenStep):
                steps.append(event)
                if len(steps) == 3:
                    seen.set()
                    thread.join()
            else:
                end = event
    assert end is not None and end.finish_reason == "cancelled"
    assert end.completion_tokens <= counts["at_cancel"] + 1


def test_cancel_during_prefill_does_not_wait_for_the_whole_prompt(chat_engine: Engine) -> None:
    long_system = "Folio reads long passages before answering. " * 250
    tokens = prompt(chat_engine, "Summarise?", system=long_system)
    assert len(tokens) > 3 * chat_engine.n_batch
    with chat_engine.lock:
        chat_engine._llm.reset()  # cold: nothing cached
    cancel = CancelAfterChecks(1)  # the user presses Stop while the first batch is evaluated
    steps, end = run(chat_engine, tokens, Sampling(max_tokens=10), cancel=cancel)
    assert end.finish_reason == "cancelled"
    assert steps == [] and end.first_token_at is None
    assert chat_engine._llm.n_tokens <= chat_engine.n_batch  # one batch evaluated, not the prompt


def test_prompt_longer_than_the_context_is_an_error_not_a_crash(chat_engine: Engine) -> None:
    steps, end = run(chat_engine, [1] * 5000)
    assert end.finish_reason == "error" and "context" in (end.error or "")
    assert steps == []


def test_prefill_rate_is_measured_once(chat_engine: Engine) -> None:
    with chat_engine.lock:
        rate = chat_engine.prefill_rate()
    assert rate > 0
    assert chat_engine._prefill_rate is not None


def test_next_token_logprobs_are_the_distribution_greedy_decoding_picks_from(chat_engine: Engine) -> None:
    import numpy as np

    tokens = prompt(chat_engine, "What is the capital of France?")
    with chat_engine.lock:
        logprobs = next_token_logprobs(chat_engine, tokens)
    assert logprobs is not None
    assert abs(float(np.exp(logprobs).sum()) - 1.0) < 1e-6
    steps, _ = run(chat_engine, tokens, Sampling(temperature=0.0, max_tokens=1))
    assert steps[0].token == int(np.argmax(logprobs))  # the same forward pass greedy decoding samples
    with chat_engine.lock:
        again = next_token_logprobs(chat_engine, tokens)  # all but the last token come from the cache
        assert chat_engine.cached_prefix(tokens) == len(tokens) - 1
        cancelled = CancelToken()
        cancelled.cancel()
        assert next_token_logprobs(chat_engine, prompt(chat_engine, "Another question?"), cancelled) is None
    assert again is not None and int(np.argmax(again)) == int(np.argmax(logprobs))
    # batch shapes differ: the same distribution, not the same bits (the zen4 kernels moved one
    # probability by 0.025 between the two shapes, the AVX2 ones by less than 0.02)
    likely = np.argsort(-logprobs)[:10]
    assert np.allclose(np.exp(again[likely]), np.exp(logprobs[likely]), atol=0.04)
    with pytest.raises(ModelError, match="context holds"):
        next_token_logprobs(chat_engine, tokens * 200)
