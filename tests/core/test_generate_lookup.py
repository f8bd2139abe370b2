"""Prompt-lookup decoding: the n-gram drafts, and the real default model writing the same tokens as
plain decoding while it keeps drafts copied from the prompt's passage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core import paths
from app.core.cancel import CancelToken
from app.core.generate.engine import Engine
from app.core.generate.lookup import NgramIndex
from app.core.generate.model import Sampling
from app.core.generate.steps import GenerationEnd, TokenStep

PASSAGE = (
    "[1] harbourton-history.pdf, p. 4: The Harbourton lighthouse was first lit on 12 March 1951. "
    "Its tower is 31 metres tall and its lamp, a third-order Fresnel lens made in Paris, can be seen "
    "from 22 nautical miles in clear weather. The keeper's cottage beside it became the town museum "
    "in 1987, and the fog signal was switched off for good in 2004 after a vote of the harbour board."
)
QUESTION = (
    "Copy the passage's sentences about the lighthouse's tower and lamp word for word, then say "
    "when the keeper's cottage became the museum. Cite [1]."
)


def tokens_of(
    engine: Engine, sampling: Sampling, prompt: list[int], **kwargs: object
) -> tuple[list[int], GenerationEnd]:
    tokens: list[int] = []
    end: GenerationEnd | None = None
    with engine.lock:
        for event in engine.stream(prompt, sampling, **kwargs):  # type: ignore[arg-type]
            if isinstance(event, TokenStep):
                tokens.append(event.token)
            else:
                end = event
    assert end is not None and end.error is None, end
    return tokens, end


@pytest.fixture(scope="module")
def qwen() -> Iterator[Engine]:
    """The default chat model (Qwen2.5-Coder-0.5B), as the app loads it."""
    engine = Engine(paths.models_dir() / paths.DEFAULT_CHAT_MODEL_FILE, n_ctx=2048)
    engine.load()
    yield engine
    engine.close()


def copying_prompt(engine: Engine) -> list[int]:
    messages = [
        {"role": "system", "content": "Answer from the passage only.\n\n" + PASSAGE},
        {"role": "user", "content": QUESTION},
    ]
    return engine.tokenize_prompt(engine.render_chat(messages, enable_thinking=False))


def test_the_draft_is_what_followed_the_latest_earlier_occurrence_of_the_tail() -> None:
    index = NgramIndex()
    index.extend([1, 2, 3, 4, 9, 2, 3, 5, 6, 7, 2, 3])
    assert index.draft(3) == [5, 6, 7]  # "2 3" last came before 5, not before 4
    index.extend([8])
    assert index.draft(3) == []  # "3 8" never occurred, and a lone "8" is no n-gram drafted from
    assert index.draft(0) == []


def test_the_longest_matching_ngram_chooses_the_draft() -> None:
    index = NgramIndex()
    index.extend([1, 2, 3, 10, 11, 5, 2, 3, 20, 21, 1, 2, 3])
    assert index.draft(2) == [10, 11]  # "1 2 3" beats the later "2 3"


@pytest.mark.parametrize(
    "sampling",
    [
        Sampling(temperature=0.0, repeat_penalty=1.0, max_tokens=96),
        Sampling(max_tokens=96),  # the settings' defaults: temperature 0.2, repeat penalty 1.1, seed
    ],
    ids=["greedy", "defaults"],
)
def test_lookup_writes_the_tokens_of_plain_decoding(qwen: Engine, sampling: Sampling) -> None:
    prompt = copying_prompt(qwen)
    qwen.lookup_tokens = 0
    plain, plain_end = tokens_of(qwen, sampling, prompt)
    qwen.lookup_tokens = 10
    looked_up, end = tokens_of(qwen, sampling, prompt)
    assert qwen.detokenize(looked_up) == qwen.detokenize(plain)
    assert looked_up == plain
    assert end.finish_reason == plain_end.finish_reason
    assert end.completion_tokens == plain_end.completion_tokens == len(plain)
    assert end.accepted_tokens >= len(plain) // 4, end  # the copied sentences came from drafts
    assert plain_end.drafted_tokens == 0


def test_a_stopped_lookup_leaves_the_cache_true_to_the_text(qwen: Engine) -> None:
    """Cancelled mid-answer (drafts in flight), the next answer reuses the cached prompt and is the
    same as on a fresh cache."""
    greedy = Sampling(temperature=0.0, repeat_penalty=1.0, max_tokens=40)
    prompt = copying_prompt(qwen)
    qwen.lookup_tokens = 10

    class CancelAfter(CancelToken):
        def __init__(self, checks: int) -> None:
            super().__init__()
            self.left = checks

        @property
        def cancelled(self) -> bool:
            self.left -= 1
            return self.left < 0 or super().cancelled

    first, end = tokens_of(qwen, greedy, prompt, cancel=CancelAfter(20))
    assert end.finish_reason == "cancelled" and 0 < len(first) < 40
    again, again_end = tokens_of(qwen, greedy, prompt + first)
    assert again_end.cached_tokens == len(prompt) + len(first) - 1
    with qwen.lock:
        qwen._require_llm().reset()  # a fresh cache: the whole prompt evaluated again
    fresh, fresh_end = tokens_of(qwen, greedy, prompt + first)
    assert fresh_end.cached_tokens == 0
    assert again == fresh


def test_the_setting_reaches_the_engine(tmp_path: Path) -> None:
    from app.core.config import Settings

    engine = Engine.from_settings(Settings(lookup_tokens=6))
    assert engine.lookup_tokens == 6
    assert engine.matches(Settings(lookup_tokens=6)) and not engine.matches(Settings(lookup_tokens=0))
