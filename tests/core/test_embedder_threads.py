"""The embedder shared by the ingest and answer workers: calls from several threads at once."""

from __future__ import annotations

import threading
from typing import Any, cast

import numpy as np
import pytest

from app.core.embed.embedder import Embedder


def test_tokenize_and_encode_from_several_threads_at_once(embedder: Embedder) -> None:
    text = " ".join(f"word{i} тест 模型 cache" for i in range(400))
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def hammer(job: int) -> None:
        start.wait()
        try:
            for _ in range(8):
                if job % 2:
                    embedder.split_by_tokens(text, 64)
                    embedder.count_tokens([text, text[:100]])
                else:
                    embedder.embed([text[:300], text[300:600]])
        except BaseException as exc:  # "Already borrowed" from the fast tokenizer
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:1]


def test_a_few_texts_run_on_one_thread_and_the_thread_count_comes_back(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    from app.core.embed.embedder import FEW_TEXTS

    model = cast(Any, embedder._load())._model  # the SentenceTransformer of the engine
    seen: list[int] = []
    encode = model.encode

    def recording(*args: Any, **kwargs: Any) -> Any:
        seen.append(torch.get_num_threads())
        return encode(*args, **kwargs)

    monkeypatch.setattr(model, "encode", recording)
    before = torch.get_num_threads()
    texts = [f"Sentence number {n} about the lighthouse." for n in range(FEW_TEXTS + 1)]
    alone = embedder.embed(texts[:1])
    together = embedder.embed(texts)
    assert seen == [1, before]
    assert torch.get_num_threads() == before
    assert float(np.dot(alone[0], together[0])) > 0.999  # the same vector either way
