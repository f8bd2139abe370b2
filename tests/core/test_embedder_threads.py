"""The embedder shared by the ingest and answer workers: calls from several threads at once."""

from __future__ import annotations

import threading

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
