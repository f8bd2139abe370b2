"""A cold load does less: the KV shape from llama.cpp's reading of the header, and the prefill rate
measured by an earlier process instead of a calibration prompt (real models, real cache dir)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import paths
from app.core.generate import rate_store
from app.core.generate.engine import Engine
from app.core.generate.kv_cache import model_kv_shape


def loaded(engine: Engine) -> Engine:
    """`engine` loaded, its input record cleared (llama-cpp-python leaves it uninitialised)."""
    engine.load()
    engine._require_llm().input_ids[:] = 0
    return engine


def tokens_evaluated(engine: Engine) -> int:
    """How many positions of the model's input held a token since `loaded` (eval writes each one)."""
    return int((engine._require_llm().input_ids != 0).sum())


@pytest.mark.parametrize("name", [paths.FAST_CHAT_MODEL_FILE, paths.DEFAULT_CHAT_MODEL_FILE])
def test_the_kv_shape_from_the_loaded_header_is_the_files(models_dir: Path, name: str) -> None:
    engine = Engine(models_dir / name, n_ctx=1024)
    info = engine.load()
    try:
        from_file = model_kv_shape(engine.model_path)
        assert from_file is not None
        assert model_kv_shape(engine.model_path, engine._require_llm().metadata) == from_file
        assert info.kv_cache_bytes == from_file.bytes(info.n_ctx, "f16", "f16")
    finally:
        engine.close()


def test_a_new_process_reuses_the_stored_prefill_rate(
    chat_model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FOLIO_CACHE_DIR", str(tmp_path / "cache"))  # no rate stored by other tests
    first = loaded(Engine(chat_model_path, n_ctx=1024, n_threads_batch=1))
    with first.lock:
        measured = first.prefill_rate()
    assert tokens_evaluated(first) >= 256  # the calibration prompt ran
    first.close()
    assert (paths.cache_dir() / rate_store.FILE_NAME).is_file()

    second = loaded(Engine(chat_model_path, n_ctx=1024, n_threads_batch=1))
    with second.lock:
        assert second.prefill_rate() == pytest.approx(measured, rel=1e-3)
    assert tokens_evaluated(second) == 0  # nothing evaluated to know it
    second.close()

    other_threads = Engine(chat_model_path, n_ctx=1024, n_threads_batch=2)
    other_threads.load()
    assert rate_store.stored_rate(other_threads._rate_key()) is None  # another setting measures again
    other_threads.close()


def test_an_unreadable_rate_file_is_measured_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOLIO_CACHE_DIR", str(tmp_path / "cache"))
    target = paths.cache_dir() / rate_store.FILE_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("{not json", encoding="utf-8")
    assert rate_store.stored_rate("anything") is None
    rate_store.store_rate("key", 91.5)
    assert rate_store.stored_rate("key") == 91.5
