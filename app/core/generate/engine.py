"""One llama.cpp model behind a lock: exact tokenizer, chat template, prefix-reusing streaming."""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.errors import ModelError
from app.core.generate.kv_cache import DEFAULT_KV_TYPE
from app.core.generate.llama_model import LoadedModel, open_llama
from app.core.generate.lookup import LookupStats, lookup_generate
from app.core.generate.model import ChatRequest, ModelInfo, Sampling, check_model_file
from app.core.generate.rate_store import measure_prefill_rate, rate_key, store_rate, stored_rate
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.generate.template import ChatTemplate
from app.core.generate.textstream import THINKING, ChannelSplitter, Piece, Utf8Stream
from app.core.generate.threads import default_batch_threads, default_threads
from app.core.messages import QT_TRANSLATE_NOOP


class Engine:
    """Owns one `llama_cpp.Llama`. Hold `lock` around `stream()`; loading is once and thread-safe."""

    continues = True  # a prompt may end inside the assistant turn (Continue, a restatement's frame)

    def __init__(
        self,
        model_path: Path,
        n_ctx: int = 4096,
        n_threads: int = 0,
        n_gpu_layers: int = 0,
        n_batch: int = 512,
        n_threads_batch: int = 0,
        kv_cache_type: str = DEFAULT_KV_TYPE,
        lookup_tokens: int = Settings().lookup_tokens,
    ) -> None:
        """`lookup_tokens`: the longest draft of prompt-lookup decoding (generate/lookup.py); 0 = off;
        by default the setting's default, so that every engine runs the loop the app runs."""
        self.model_path = Path(model_path)
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()  # decode
        self.n_threads_batch = n_threads_batch or default_batch_threads()  # prefill
        self.n_gpu_layers = n_gpu_layers
        self.n_batch = n_batch
        self.kv_cache_type = kv_cache_type
        self.lookup_tokens = lookup_tokens
        self.lock = threading.Lock()  # one generation at a time; waiting on it is the queue span
        self._load_lock = threading.Lock()
        self._llm: Any = None
        self._model: LoadedModel | None = None
        self._prefill_rate: float | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Engine:
        return cls(
            settings.chat_model_path(),
            settings.n_ctx,
            settings.n_threads,
            settings.n_gpu_layers,
            n_threads_batch=settings.n_threads_batch,
            kv_cache_type=settings.kv_cache_type,
            lookup_tokens=settings.lookup_tokens,
        )

    @property
    def model_ref(self) -> str:
        """What a trace records as the model: the GGUF file's path."""
        return str(self.model_path)

    @property
    def model_name(self) -> str:
        return self.model_path.name

    def matches(self, settings: Settings) -> bool:
        """True when these settings would load the same model the same way."""
        return (
            not settings.uses_server
            and self.model_path == settings.chat_model_path()
            and self.n_ctx == settings.n_ctx
            and self.n_threads == (settings.n_threads or default_threads())
            and self.n_threads_batch == (settings.n_threads_batch or default_batch_threads())
            and self.n_gpu_layers == settings.n_gpu_layers
            and self.kv_cache_type == settings.kv_cache_type
            and self.lookup_tokens == settings.lookup_tokens
        )

    # loading -----------------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def info(self) -> ModelInfo | None:
        return self._model.info if self._model is not None else None

    def load(self) -> ModelInfo:
        """Load the model once; later calls return the same info. Raises ModelError naming the file."""
        with self._load_lock:
            if self._model is not None:
                return self._model.info
            check_model_file(self.model_path)
            llm = open_llama(
                self.model_path,
                n_ctx=self.n_ctx,
                n_batch=self.n_batch,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads_batch,
                n_gpu_layers=self.n_gpu_layers,
                kv_cache_type=self.kv_cache_type,
            )
            self._llm = llm
            self._model = LoadedModel(llm, self.model_path, self.n_threads, self.kv_cache_type)
            return self._require_info()

    def escape_special(self, text: str) -> str:
        """Break up control-token spellings in document or user text, so that a passage quoting
        "<|im_end|>" cannot end a turn of the prompt (a zero-width space goes after the first character)."""
        self._require_llm()
        assert self._model is not None
        for marker in self._model.control_texts:
            if marker in text:
                text = text.replace(marker, marker[0] + "\u200b" + marker[1:])
        return text

    def _require_info(self) -> ModelInfo:
        if self._model is None:
            raise ModelError(QT_TRANSLATE_NOOP("Core", "the model {0} is not loaded"), self.model_path)
        return self._model.info

    def _require_llm(self) -> Any:
        if self._llm is None:
            self.load()
        return self._llm

    def close(self) -> None:
        with self._load_lock:
            if self._llm is not None:
                self._llm.close()
            self._llm, self._model = None, None

    # tokenizer and template (the PromptModel protocol) -----------------------------------------

    def count_tokens(self, text: str) -> int:
        """Exact token count of plain text (no BOS, special markers not parsed)."""
        return len(self.text_tokens(text)) if text else 0

    def tokenize_prompt(self, prompt: str) -> list[int]:
        """Tokens of a rendered chat prompt: template markers are special; BOS as the model wants."""
        llm = self._require_llm()
        add_bos = bool(llm._model.add_bos_token())
        bos = self._model.template.bos_token if self._model else ""
        if bos and prompt.startswith(bos):
            add_bos = False
        tokens: list[int] = llm.tokenize(prompt.encode("utf-8"), add_bos=add_bos, special=True)
        return tokens

    def render_chat(self, messages: Sequence[dict[str, str]], enable_thinking: bool) -> str:
        self._require_llm()
        assert self._model is not None
        return self._model.template.render(messages, enable_thinking)

    def opens_thinking(self, prompt: str) -> bool:
        return ChatTemplate.opens_thinking(prompt)

    def detokenize(self, tokens: Sequence[int]) -> str:
        return bytes(self._require_llm().detokenize(list(tokens))).decode("utf-8", errors="replace")

    # prefill speed and the KV cache ------------------------------------------------------------

    def cached_prefix(self, tokens: Sequence[int]) -> int:
        """How many leading prompt tokens are already in the KV cache (at most all but the last)."""
        llm = self._require_llm()
        cached = llm._input_ids
        limit = min(len(cached), len(tokens) - 1)
        n = 0
        while n < limit and cached[n] == tokens[n]:
            n += 1
        return n

    def prime(self, tokens: Sequence[int]) -> int:
        """Evaluate the opening of the prompts to come into an empty KV cache (all but its last
        token, whose spelling may join what follows), so that the next prompt that starts with it
        prefills only the rest. A cache that holds anything is left alone. Returns the tokens now
        cached for it (0: nothing done). Call with `lock` held."""
        llm = self._require_llm()
        if llm.n_tokens or len(tokens) < 2:
            return 0
        try:
            self._prefill(llm, list(tokens), 0, None)
        except Exception:  # a llama.cpp failure leaves an empty cache, as before
            llm.reset()
            return 0
        return int(llm.n_tokens)

    @property
    def known_prefill_rate(self) -> float | None:
        """The prefill rate measured so far, without measuring it now."""
        return self._prefill_rate

    def _rate_key(self) -> str | None:
        import llama_cpp

        info = llama_cpp.llama_print_system_info()
        text = info.decode() if isinstance(info, bytes) else str(info)
        return rate_key(self.model_path, self.n_threads_batch, self.n_batch, text)

    def prefill_rate(self) -> float:
        """Prompt tokens per second on this machine: stored by an earlier run (rate_store.py), else
        measured once and stored (call with `lock` held)."""
        if self._prefill_rate is None:
            self._prefill_rate = stored_rate(self._rate_key())
        if self._prefill_rate is None:
            self._prefill_rate = measure_prefill_rate(self._require_llm())
            store_rate(self._rate_key(), self._prefill_rate)
        return self._prefill_rate

    def _note_prefill(self, end: GenerationEnd) -> None:
        rate = end.prefill_tokens_per_s
        if rate and end.prompt_tokens - end.cached_tokens >= 128:
            self._prefill_rate = rate if self._prefill_rate is None else 0.5 * (self._prefill_rate + rate)
            store_rate(self._rate_key(), self._prefill_rate)

    def text_tokens(self, text: str) -> list[int]:
        """The tokens of plain text as it would follow a prompt (no BOS, markers not parsed)."""
        tokens: list[int] = self._require_llm().tokenize(text.encode("utf-8"), add_bos=False, special=False)
        return tokens

    # generation --------------------------------------------------------------------------------

    def _grammar(self, text: str) -> Any:
        """A compiled grammar, fresh for each generation (it holds the parse state)."""
        from llama_cpp.llama_grammar import LlamaGrammar

        return LlamaGrammar.from_string(text, verbose=False)

    def _generator(
        self, llm: Any, prompt: list[int], sampling: Sampling, grammar: Any, drafts: LookupStats
    ) -> Generator[int, Any, None]:
        """The sampled tokens after the prefilled prompt: prompt-lookup decoding when on, else
        llama-cpp-python's own loop; both sample with the same chain (penalties, grammar, greedy)."""
        options = {
            "top_k": sampling.top_k,
            "top_p": sampling.top_p,
            "min_p": sampling.min_p,
            "temp": sampling.temperature,
            "repeat_penalty": sampling.repeat_penalty,
            "grammar": grammar,
        }
        if self.lookup_tokens <= 0:
            tokens: Generator[int, Any, None] = llm.generate(prompt, reset=True, **options)
            return tokens
        llm._sampler = llm._init_sampler(**options)  # kept by the Llama, as generate() keeps it
        return lookup_generate(llm, prompt, llm._sampler, self.lookup_tokens, drafts)

    def stream(
        self,
        tokens: Sequence[int],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        stops: Sequence[str] = (),
        start_thinking: bool = False,
        grammar: str | None = None,
        continuing: bool = False,
        chat: ChatRequest | None = None,
    ) -> Iterator[TokenStep | GenerationEnd]:
        """Prefill (reusing the cached prefix, in batches, cancellable), then decode token by token.

        Yields a TokenStep per sampled token and one GenerationEnd last; never raises for a
        failed generation (finish_reason "error"). The caller holds `lock`. `grammar` (GBNF)
        constrains every sampled token, e.g. to citation markers of the prompt's passages.
        `continuing`: the prompt ends inside an answer's text (Continue), whose spacing the new
        text keeps. `chat` (the messages `tokens` render) is for a server; this engine runs the tokens.
        """
        llm = self._require_llm()
        started = time.perf_counter()
        prompt = list(tokens)
        model = self._model
        assert model is not None
        run = _Run(ChannelSplitter([*model.stops, *stops], start_thinking, continuing), len(prompt), started)
        if not prompt or len(prompt) >= llm.n_ctx():
            run.error = f"the prompt has {len(prompt)} tokens; the context holds {llm.n_ctx()}"
            yield run.end([])
            return
        try:
            run.cached = self.cached_prefix(prompt)
            if not self._prefill(llm, prompt, run.cached, cancel):
                run.reason = "cancelled"
                yield run.end([])
                return
            llm.set_seed(sampling.seed)
            compiled = self._grammar(grammar) if grammar else None
            generator = self._generator(llm, prompt, sampling, compiled, run.drafts)
            try:
                yield from self._decode(llm, model, generator, sampling, cancel, run)
            finally:
                generator.close()
        except Exception as exc:  # a llama.cpp failure ends this answer, not the app
            run.reason, run.error = "error", f"{type(exc).__name__}: {exc}"
            llm.reset()
            yield run.end([])
            return
        result = run.end(run.flushed())
        if run.reason in ("stop", "length"):
            self._note_prefill(result)
        yield result

    def _prefill(self, llm: Any, prompt: list[int], cached: int, cancel: CancelToken | None) -> bool:
        """Evaluate the prompt after its cached prefix in batches, all but its last token (decoding
        evaluates it); False when cancelled before the end."""
        llm.n_tokens = cached
        for start in range(cached, len(prompt) - 1, self.n_batch):
            if cancel is not None and cancel.cancelled:
                return False
            llm.eval(prompt[start : min(start + self.n_batch, len(prompt) - 1)])
        return not (cancel is not None and cancel.cancelled)

    def _decode(
        self,
        llm: Any,
        model: LoadedModel,
        generator: Generator[int, Any, None],
        sampling: Sampling,
        cancel: CancelToken | None,
        run: _Run,
    ) -> Iterator[TokenStep]:
        """A TokenStep per sampled token until a stop, the cancel, or the length limit (`run.reason`)."""
        n_ctx = llm.n_ctx()
        is_eog, vocab, stop_ids, piece = model.is_eog, model.vocab, model.stop_ids, model.piece
        splitter, utf8 = run.splitter, run.utf8
        for token in generator:
            now = time.perf_counter()
            if run.first_at is None:
                run.first_at = now
            if is_eog(vocab, token) or token in stop_ids:
                run.reason = "stop"
                return
            run.last_at = now
            run.completion += 1
            was_thinking = splitter.channel == THINKING
            pieces = splitter.feed(utf8.feed(piece(token)))
            in_thinking = was_thinking or splitter.channel == THINKING
            if in_thinking:
                run.thinking += 1
            yield TokenStep(token, pieces, in_thinking, now)
            if splitter.stopped:
                run.reason = "stop"
                return
            if cancel is not None and cancel.cancelled:
                run.reason = "cancelled"
                return
            if run.completion >= sampling.max_tokens or llm.n_tokens + 1 >= n_ctx:
                run.reason = "length"
                return


@dataclass
class _Run:
    """One generation's state as it streams (Engine.stream), and the GenerationEnd it makes."""

    splitter: ChannelSplitter
    prompt_tokens: int
    started: float
    utf8: Utf8Stream = field(default_factory=Utf8Stream)
    cached: int = 0
    first_at: float | None = None
    last_at: float | None = None
    completion: int = 0
    thinking: int = 0
    drafts: LookupStats = field(default_factory=LookupStats)
    reason: str = "error"  # until the decode loop says why it ended
    error: str | None = None

    def flushed(self) -> list[Piece]:
        """The text still held back when decoding ended (none after a stop string)."""
        return [] if self.splitter.stopped else self.splitter.feed(self.utf8.flush()) + self.splitter.flush()

    def end(self, flushed: list[Piece]) -> GenerationEnd:
        return GenerationEnd(
            finish_reason=self.reason,
            pieces=flushed,
            prompt_tokens=self.prompt_tokens,
            cached_tokens=self.cached,
            prefill_ms=None if self.first_at is None else (self.first_at - self.started) * 1000.0,
            first_token_at=self.first_at,
            last_token_at=self.last_at,
            completion_tokens=self.completion,
            thinking_tokens=self.thinking,
            error=self.error,
            drafted_tokens=self.drafts.drafted,
            accepted_tokens=self.drafts.accepted,
        )
