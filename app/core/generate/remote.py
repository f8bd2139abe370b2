"""A chat model on an OpenAI-compatible server, behind the interface of the llama.cpp Engine."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from app.core import paths
from app.core.cancel import CancelToken
from app.core.config import Settings, check_server_url
from app.core.errors import ServerError
from app.core.generate.model import ChatRequest, ModelInfo, Sampling
from app.core.generate.server_http import ServerConnection
from app.core.generate.server_stream import request_body, stream_chat
from app.core.generate.server_tokens import ESTIMATE_MARGIN, LocalTokenizer, ServerTokenizer
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.generate.template import CHATML_STOPS, ChatTemplate
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.server_key import key_for

LIST_TIMEOUT_S = 15.0  # a model list is short: a server that sends none in this time is not answering
# Control-token spellings of the common chat templates: broken up in document text (escape_special)
# since a server does not list its vocabulary's control tokens.
CONTROL_TEXTS = (
    *CHATML_STOPS,
    "<|endoftext|>",
    "<|begin_of_text|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eot_id|>",
    "<start_of_turn>",
    "<end_of_turn>",
    "[INST]",
    "[/INST]",
)


class RemoteEngine:
    """One model on one server. `load()` asks the server what it is (models, context, template,
    tokenizer); `stream()` streams /v1/chat/completions. Hold `lock` around `stream()`."""

    continues = False  # a chat API starts a new assistant turn: nothing to continue from

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        n_ctx: int = 4096,
        local_tokenizer: Path | None = None,
    ) -> None:
        self.conn = ServerConnection(base_url, api_key)
        self._api_key = api_key or None
        self.base_url = self.conn.url
        self.model = model
        self.n_ctx = n_ctx  # the user's value until the server tells its own
        self._user_ctx = n_ctx
        self.lock = threading.Lock()
        self._load_lock = threading.Lock()
        self._info: ModelInfo | None = None
        self._template: ChatTemplate | None = None
        self._server_tokens = ServerTokenizer(self.conn, model)
        self._local = LocalTokenizer(local_tokenizer or paths.default_chat_model())
        self._last_prompt: list[int] = []
        self._prefill_rate: float | None = None

    @classmethod
    def from_settings(cls, settings: Settings, api_key: str | None) -> RemoteEngine:
        return cls(settings.server_url, settings.server_model, api_key, settings.n_ctx)

    def __repr__(self) -> str:
        return f"RemoteEngine({self.base_url!r}, {self.model!r})"

    @property
    def model_ref(self) -> str:
        """What a trace records as the model: the server and the model's name there (no key)."""
        return f"{self.base_url} {self.model}"

    @property
    def model_name(self) -> str:
        return self.model

    def matches(self, settings: Settings) -> bool:
        """True when these settings name this server, model and context, and the key to send is the
        one this engine sends (a key changed in Settings connects again with the new one)."""
        return (
            settings.uses_server
            and ServerConnection(settings.server_url, None).url == self.base_url
            and settings.server_model == self.model
            and settings.n_ctx == self._user_ctx
            and (key_for(settings.server_url) or None) == self._api_key
        )

    # loading: what the server is -------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._info is not None

    def info(self) -> ModelInfo | None:
        return self._info

    def load(self) -> ModelInfo:
        """Ask the server once: its models (the name must be one), its context size and chat template
        (llama-server's /props, vLLM's max_model_len) and its tokenizer. Raises ServerError."""
        with self._load_lock:
            if self._info is not None:
                return self._info
            entry = self._model_entry()
            props = self._props()
            n_ctx, ctx_from = self._context(entry, props)
            source = props.get("chat_template") if isinstance(props.get("chat_template"), str) else None
            bos, eos = str(props.get("bos_token") or ""), str(props.get("eos_token") or "")
            self._template = ChatTemplate(source or None, bos, eos, self.model)
            if self._server_tokens.probe():
                tokenizer = f"exact: the server's tokenizer ({self._server_tokens.kind})"
            else:
                n_ctx = int(n_ctx * (1.0 - ESTIMATE_MARGIN))
                tokenizer = (
                    f"estimated with {self._local.path.name}'s tokenizer: the server has none; "
                    f"{ESTIMATE_MARGIN:.0%} of its context is left as a margin"
                )
            self.n_ctx = n_ctx
            thinking = self._template.thinking
            supported, reason = thinking.supported, thinking.reason
            if source is None:
                supported = True
                reason = QT_TRANSLATE_NOOP(
                    "Core",
                    "the server does not show its chat template: the switch is sent as enable_thinking",
                )
            self._info = ModelInfo(
                name=self.model,
                path=self.model_ref,
                n_ctx=n_ctx,
                n_ctx_train=_int(entry.get("max_model_len")) or n_ctx,
                supports_thinking=supported,
                thinking_reason=reason,
                chat_template="server" if source else "chatml",
                n_threads=0,
                server=self.base_url,
                tokenizer=f"{tokenizer}; context {n_ctx} tokens from {ctx_from}",
            )
            return self._info

    def models(self) -> list[str]:
        """The names of the models the server serves (/v1/models)."""
        return [str(item["id"]) for item in model_entries(self.conn)]

    def _model_entry(self) -> dict[str, Any]:
        entries = model_entries(self.conn)
        for item in entries:
            if item.get("id") == self.model:
                return item
        offered = ", ".join(str(item.get("id")) for item in entries) or "none"
        raise ServerError(
            "model",
            QT_TRANSLATE_NOOP("Core", "the server at {0} has no model {1!r} (it offers: {2})"),
            self.base_url,
            self.model,
            offered,
        )

    def _props(self) -> dict[str, Any]:
        """llama-server's /props; {} from a server without it."""
        try:
            props = self.conn.get_json("/props")
        except ServerError as exc:
            if exc.kind in ("not_found", "http", "protocol"):
                return {}
            raise
        return props if isinstance(props, dict) else {}

    def _context(self, entry: dict[str, Any], props: dict[str, Any]) -> tuple[int, str]:
        settings = props.get("default_generation_settings")
        from_props = _int(settings.get("n_ctx")) if isinstance(settings, dict) else None
        if from_props:
            return from_props, "the server (/props)"
        from_models = _int(entry.get("max_model_len"))
        if from_models:
            return from_models, "the server (/v1/models)"
        return self._user_ctx, "Settings (the server does not say)"

    def close(self) -> None:
        with self._load_lock:
            self._info, self._template = None, None
            self._local.close()

    # tokenizer and template (the PromptModel protocol) ---------------------------------------------

    def _tokens(self, text: str, special: bool) -> list[int]:
        self._require_info()
        if self._server_tokens.kind:
            return self._server_tokens.tokens(text, special)
        return self._local.tokens(text, special)

    def count_tokens(self, text: str) -> int:
        return len(self._tokens(text, special=False)) if text else 0

    def text_tokens(self, text: str) -> list[int]:
        return self._tokens(text, special=False)

    def tokenize_prompt(self, prompt: str) -> list[int]:
        return self._tokens(prompt, special=True)

    def render_chat(self, messages: Sequence[dict[str, str]], enable_thinking: bool) -> str:
        self._require_info()
        assert self._template is not None
        return self._template.render(messages, enable_thinking)

    def opens_thinking(self, prompt: str) -> bool:
        return ChatTemplate.opens_thinking(prompt)

    def escape_special(self, text: str) -> str:
        for marker in CONTROL_TEXTS:
            if marker in text:
                text = text.replace(marker, marker[0] + "\u200b" + marker[1:])
        return text

    def _require_info(self) -> ModelInfo:
        return self._info or self.load()

    # prefill speed and the server's prompt cache ---------------------------------------------------

    def cached_prefix(self, tokens: Sequence[int]) -> int:
        """The prefix shared with the previous prompt, which a llama.cpp server keeps in its cache."""
        limit = min(len(self._last_prompt), len(tokens) - 1)
        n = 0
        while n < limit and self._last_prompt[n] == tokens[n]:
            n += 1
        return n

    def prime(self, tokens: Sequence[int]) -> int:
        """Nothing: a server fills its own cache at its first request."""
        return 0

    @property
    def known_prefill_rate(self) -> float | None:
        return self._prefill_rate

    def prefill_rate(self) -> float | None:
        """Prompt tokens per second as the previous answers measured it (None before the first: a
        server is not calibrated with a request of its own)."""
        return self._prefill_rate

    # generation ------------------------------------------------------------------------------------

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
        """Stream the chat `chat` (whose rendering `tokens` counted) from the server: the same events
        as Engine.stream, never raising for a failed answer. The caller holds `lock`."""
        prompt = list(tokens)
        problem = None
        if chat is None:
            problem = "a server answers chat messages, and this request has none"
        elif continuing:
            problem = "Continue is not available with a server: ask again with a larger answer limit"
        elif not prompt or len(prompt) >= self.n_ctx:
            problem = f"the prompt has {len(prompt)} tokens; the context holds {self.n_ctx}"
        if problem is not None or chat is None:
            yield GenerationEnd("error", [], len(prompt), 0, None, None, None, 0, 0, problem)
            return
        cached = self.cached_prefix(prompt)
        body = request_body(self.model, chat, sampling, stops, grammar)
        end: GenerationEnd | None = None
        for event in stream_chat(self.conn, body, len(prompt), cached, cancel, stops, start_thinking):
            if isinstance(event, GenerationEnd):
                end = event
            yield event
        self._last_prompt = prompt if end is not None and end.finish_reason in ("stop", "length") else []
        if end is not None and end.finish_reason in ("stop", "length"):
            self._note_prefill(end)

    def _note_prefill(self, end: GenerationEnd) -> None:
        rate = end.prefill_tokens_per_s
        if rate and end.prompt_tokens - end.cached_tokens >= 128:
            self._prefill_rate = rate if self._prefill_rate is None else 0.5 * (self._prefill_rate + rate)


def model_entries(conn: ServerConnection) -> list[dict[str, Any]]:
    """The entries of the server's /v1/models that name a model (ServerError when it lists none)."""
    reply = conn.get_json("/v1/models")
    data = reply.get("data") if isinstance(reply, dict) else None
    if not isinstance(data, list):
        raise ServerError(
            "protocol", QT_TRANSLATE_NOOP("Core", "the server at {0} sent no model list"), conn.url
        )
    return [item for item in data if isinstance(item, dict) and item.get("id")]


def list_server_models(base_url: str, api_key: str | None) -> list[str]:
    """The names of the models the server at `base_url` serves: UsageError for an address that is
    not one, ServerError saying why the server did not list them (unreachable, refused key, …)."""
    check_server_url(base_url)
    conn = ServerConnection(base_url, api_key, read_timeout_s=LIST_TIMEOUT_S)
    return [str(item["id"]) for item in model_entries(conn)]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
