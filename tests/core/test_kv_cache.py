"""The KV cache's size from the GGUF header, against what llama.cpp itself allocates for the real models."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from app.core import paths
from app.core.answering.run import AnswerRun
from app.core.config import Settings, load_settings, model_fields_changed, save_settings
from app.core.errors import UsageError
from app.core.generate.cpu_kernels import new_llama
from app.core.generate.engine import Engine
from app.core.generate.gguf_header import GgufHeader, read_gguf_header
from app.core.generate.kv_cache import (
    KvCacheUse,
    KvShape,
    KvShapeUnknown,
    kv_shape,
    llama_kv_options,
    llama_kv_types,
)
from app.core.generate.model import ModelInfo, Sampling
from app.core.generate.steps import GenerationEnd

# llama.cpp's own line at context creation (src/llama-kv-cache.cpp)
KV_LOG = re.compile(
    r"llama_kv_cache: size = +([\d.]+) MiB \( *(\d+) cells, +(\d+) layers.*?K \((\w+)\): +([\d.]+) MiB, "
    r"V \((\w+)\): +([\d.]+) MiB"
)
MIB = 1 << 20
TEST_CTX = 2048


def header(**metadata: object) -> GgufHeader:
    return GgufHeader(3, 1, {"general.architecture": "llama", **metadata})  # type: ignore[dict-item]


def test_head_size_falls_back_to_embedding_over_heads() -> None:
    shape = kv_shape(
        header(
            **{
                "llama.block_count": 30,
                "llama.embedding_length": 576,
                "llama.attention.head_count": 9,
                "llama.attention.head_count_kv": 3,
            }
        )
    )
    assert shape == KvShape(30, (3,) * 30, 64, 64)
    # 30 layers x 3 heads x (64 + 64) x 2 bytes per f16 element, per token
    assert shape.bytes(1) == 30 * 3 * 128 * 2
    assert shape.bytes(4096) == 4096 * 30 * 3 * 128 * 2


def test_explicit_key_and_value_lengths_and_per_layer_heads() -> None:
    shape = kv_shape(
        header(
            **{
                "llama.block_count": 2,
                "llama.attention.head_count": 8,
                "llama.attention.head_count_kv": [2, 4],
                "llama.attention.key_length": 192,
                "llama.attention.value_length": 128,
            }
        )
    )
    assert shape.kv_heads == (2, 4) and (shape.key_length, shape.value_length) == (192, 128)
    # q8_0: 34 bytes per block of 32 elements; f16 values
    per_token = (2 * 192 // 32 * 34 + 2 * 128 * 2) + (4 * 192 // 32 * 34 + 4 * 128 * 2)
    assert shape.bytes(10, "q8_0", "f16") == 10 * per_token
    assert shape.bytes(10, "q4_0", "q4_0") == 10 * ((2 + 4) * (192 + 128) // 32 * 18)


def test_rows_that_are_not_whole_blocks_do_not_fit_a_block_type() -> None:
    shape = KvShape(1, (1,), 48, 48)
    assert shape.fits("f16") and not shape.fits("q8_0")


@pytest.mark.parametrize(
    "metadata",
    [
        {},
        {"llama.block_count": 4},
        {"llama.block_count": 4, "llama.attention.head_count": 4},
        {"llama.block_count": 4, "llama.attention.head_count": 4, "llama.attention.head_count_kv": [1]},
    ],
)
def test_a_header_that_does_not_say_is_refused(metadata: dict[str, object]) -> None:
    with pytest.raises(KvShapeUnknown):
        kv_shape(header(**metadata))


def test_kv_cache_use_round_trips_and_keeps_unknowns_null() -> None:
    server = KvCacheUse(None, None, None, None, 12, 300)
    assert KvCacheUse.from_json(server.to_json()) == server
    nothing = KvCacheUse(None, None, None, None, None, None)
    assert KvCacheUse.from_json({"bytes": "48 MiB", "type_k": 8}) == nothing
    assert KvCacheUse.from_json(None) is None


def test_the_setting_round_trips_and_reloads_the_model(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(kv_cache_type="q8_0"), path)
    loaded = load_settings(path)
    assert loaded.kv_cache_type == "q8_0"
    assert model_fields_changed(Settings(), loaded)
    with pytest.raises(UsageError, match="KV cache type"):
        Settings().replace(kv_cache_type="q4")
    assert Settings().kv_cache_type == "f16"


def llama_kv_log(model: Path, kv_type: str, **extra: object) -> tuple[str, int]:
    """llama.cpp's verbose log of loading `model` with this KV cache type, and its n_ctx."""
    log = io.StringIO()
    with contextlib.redirect_stderr(log):
        llm = new_llama(
            model_path=str(model),
            n_ctx=TEST_CTX,
            n_threads=1,
            verbose=True,
            **{**llama_kv_options(kv_type), **extra},
        )
        n_ctx = llm.n_ctx()
        llm.close()
    return log.getvalue(), n_ctx


@pytest.mark.slow
@pytest.mark.parametrize("model_file", [paths.DEFAULT_CHAT_MODEL_FILE, paths.FAST_CHAT_MODEL_FILE])
@pytest.mark.parametrize("kv_type", ["f16", "q8_0"])
def test_the_formula_is_what_llama_cpp_allocates(models_dir: Path, model_file: str, kv_type: str) -> None:
    model = models_dir / model_file
    shape = kv_shape(read_gguf_header(model))
    text, n_ctx = llama_kv_log(model, kv_type)
    match = KV_LOG.search(text)
    assert match is not None, text[-2000:]
    size, cells, layers, type_k, k_mib, type_v, v_mib = match.groups()
    assert (int(cells), int(layers), type_k, type_v) == (n_ctx, shape.n_layers, kv_type, kv_type)
    # llama.cpp prints MiB with two decimals: agree within that rounding
    assert abs(shape.bytes(n_ctx, kv_type, kv_type) / MIB - float(size)) <= 0.005
    layers_ = range(shape.n_layers)
    keys = n_ctx * sum(shape.row_bytes(layer, kv_type, shape.key_length) for layer in layers_)
    values = n_ctx * sum(shape.row_bytes(layer, kv_type, shape.value_length) for layer in layers_)
    assert abs(keys / MIB - float(k_mib)) <= 0.005 and abs(values / MIB - float(v_mib)) <= 0.005


@pytest.mark.slow
def test_a_quantized_v_cache_needs_flash_attention(chat_model_path: Path) -> None:
    """Why llama_kv_options turns flash attention on for q8_0: llama.cpp refuses without it."""
    with pytest.raises(ValueError):
        llama_kv_log(chat_model_path, "q8_0", flash_attn=False)


@pytest.mark.slow
@pytest.mark.parametrize("kv_type", ["f16", "q8_0"])
def test_every_kv_cache_type_runs_flash_attention(chat_model_path: Path, kv_type: str) -> None:
    """Flash attention is on for the default f16 cache too (prefill 1.18-1.27x as fast at 1k-4k
    tokens, benchmarks/bench_flash_attention.py): llama.cpp says so when it makes the context."""
    text, _ = llama_kv_log(chat_model_path, kv_type)
    assert re.search(r"llama_context: flash_attn += enabled", text), text[-2000:]


@pytest.mark.slow
def test_the_engine_loads_q8_0_and_says_so(chat_model_path: Path) -> None:
    """The probe behind Settings: this llama.cpp takes a q8_0 KV cache for the fast model."""
    assert "q8_0" in llama_kv_types()
    engine = Engine(chat_model_path, n_ctx=TEST_CTX, n_threads=1, kv_cache_type="q8_0")
    try:
        info = engine.load()
        shape = kv_shape(read_gguf_header(chat_model_path))
        assert info.kv_cache_type == "q8_0" and info.kv_cache_types == ("f16", "q8_0")
        assert info.kv_cache_bytes == shape.bytes(info.n_ctx, "q8_0", "q8_0")
        assert info.kv_cache_bytes < shape.bytes(info.n_ctx) * 0.6
        same = Settings(model_path=str(chat_model_path), n_ctx=TEST_CTX, n_threads=1, kv_cache_type="q8_0")
        assert engine.matches(same) and not engine.matches(same.replace(kv_cache_type="f16"))
    finally:
        engine.close()


def ended(counts_from: str = "engine", first_at: float | None = 1.0) -> GenerationEnd:
    return GenerationEnd("stop", [], 300, 200, 50.0, first_at, 2.0, 10, 0, counts_from=counts_from)


@pytest.mark.parametrize(
    ("server", "end", "expected"),
    [
        ("", ended(), KvCacheUse("q8_0", "q8_0", 26_738_688, 4096, 200, 100)),
        ("", ended(first_at=None), KvCacheUse("q8_0", "q8_0", 26_738_688, 4096, None, None)),
        ("http://s:8080", ended("server timings"), KvCacheUse(None, None, None, None, 200, 100)),
        ("http://s:8080", ended("server usage"), KvCacheUse(None, None, None, None, None, None)),
    ],
)
def test_an_answer_states_what_its_engine_knows(
    server: str, end: GenerationEnd, expected: KvCacheUse
) -> None:
    """This computer's engine knows its cache; a server only what it reported (llama-server's cache_n)."""
    local = not server
    info = ModelInfo(
        "m.gguf",
        "/m.gguf",
        4096,
        8192,
        False,
        "",
        "gguf",
        2,
        server=server,
        kv_cache_type="q8_0" if local else None,
        kv_cache_bytes=26_738_688 if local else None,
        kv_cache_types=("f16", "q8_0") if local else (),
    )
    run = AnswerRun("q", Sampling(), "/m.gguf")
    assert run.kv_cache() is None  # the model was not called
    run.info, run.end = info, end
    assert run.kv_cache() == expected
