"""A llama.cpp model opened for Folio, and what is read off it once: template, stops, control tokens."""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.errors import ModelError
from app.core.generate.cpu_kernels import new_llama
from app.core.generate.kv_cache import llama_kv_options, llama_kv_types, model_kv_shape
from app.core.generate.model import ModelInfo
from app.core.generate.template import CHATML_STOPS, ChatTemplate
from app.core.generate.threads import prefer_passive_openmp
from app.core.messages import QT_TRANSLATE_NOOP


def open_llama(
    model_path: Path,
    *,
    n_ctx: int,
    n_batch: int,
    n_threads: int,
    n_threads_batch: int,
    n_gpu_layers: int,
    kv_cache_type: str,
) -> Any:
    """A `llama_cpp.Llama` of the file; ModelError naming the file when it cannot load."""
    prefer_passive_openmp()
    if kv_cache_type not in llama_kv_types():
        raise ModelError(f"this llama.cpp does not take a {kv_cache_type} KV cache")
    try:
        return new_llama(
            model_path=str(model_path),
            n_ctx=n_ctx,
            n_batch=n_batch,
            n_threads=n_threads,
            n_threads_batch=n_threads_batch,
            n_gpu_layers=n_gpu_layers,
            verbose=False,
            **llama_kv_options(kv_cache_type),
        )
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelError(
            QT_TRANSLATE_NOOP("Core", "cannot load the model {0}: {1}"), model_path, exc
        ) from exc


class LoadedModel:
    """What the engine reads once off a loaded `Llama`: its chat template, the tokens and texts that
    end a turn, the control tokens' spellings, the vocabulary's pieces, and the ModelInfo."""

    def __init__(self, llm: Any, model_path: Path, n_threads: int, kv_cache_type: str) -> None:
        import llama_cpp

        model = llm._model
        bos_id, eos_id = llm.token_bos(), llm.token_eos()
        bos = model.token_get_text(bos_id) if bos_id >= 0 else ""
        eos = model.token_get_text(eos_id) if eos_id >= 0 else ""
        source = llm.metadata.get("tokenizer.chat_template") or None
        self.template = ChatTemplate(source, bos, eos, model_path.name)
        self.stops: tuple[str, ...] = CHATML_STOPS if self.template.is_fallback else ()
        # End-of-turn markers that are single special tokens stop generation even if the vocab
        # does not flag them as end-of-generation.
        self.stop_ids: set[int] = set()
        for marker in CHATML_STOPS[:1]:
            ids = llm.tokenize(marker.encode(), add_bos=False, special=True)
            if len(ids) == 1:
                self.stop_ids.add(ids[0])
        self.vocab: Any = model.vocab
        self.control_texts = find_control_texts(llm)
        self.is_eog: Callable[[Any, int], bool] = llama_cpp.llama_vocab_is_eog
        self._token_to_piece = llama_cpp.llama_token_to_piece
        self._piece_buffer = ctypes.create_string_buffer(256)
        shape, kv_type = model_kv_shape(model_path, llm.metadata), kv_cache_type
        self.info = ModelInfo(
            name=model_path.name,
            path=str(model_path),
            n_ctx=llm.n_ctx(),
            n_ctx_train=model.n_ctx_train(),
            supports_thinking=self.template.thinking.supported,
            thinking_reason=self.template.thinking.reason,
            chat_template="chatml" if self.template.is_fallback else "gguf",
            n_threads=n_threads,
            kv_cache_type=kv_type,
            kv_cache_bytes=shape.bytes(llm.n_ctx(), kv_type, kv_type) if shape else None,
            kv_cache_types=tuple(t for t in llama_kv_types() if shape is None or shape.fits(t)),
        )

    def piece(self, token: int) -> bytes:
        """The bytes of one token as it appears in generated text."""
        buffer = self._piece_buffer
        n = self._token_to_piece(self.vocab, token, buffer, len(buffer), 0, False)
        if n < 0:
            buffer = ctypes.create_string_buffer(-n)
            n = self._token_to_piece(self.vocab, token, buffer, len(buffer), 0, False)
        return buffer.raw[:n]


def find_control_texts(llm: Any) -> list[str]:
    """The text of every control token (<|im_start|>, <|im_end|>, ...) that could be spelled in text."""
    import llama_cpp

    vocab = llm._model.vocab
    texts: set[str] = set()
    for token in range(llama_cpp.llama_vocab_n_tokens(vocab)):
        if llama_cpp.llama_vocab_get_attr(vocab, token) & llama_cpp.LLAMA_TOKEN_ATTR_CONTROL:
            text = llm._model.token_get_text(token)
            if len(text) > 1:
                texts.add(text)
    return sorted(texts, key=len, reverse=True)
