"""A server's own tokenizer (llama-server, llama-cpp-python, vLLM), or a stated estimate without one."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.errors import ServerError
from app.core.generate.cpu_kernels import new_llama
from app.core.generate.server_http import ServerConnection
from app.core.messages import QT_TRANSLATE_NOOP

# Without the server's tokenizer the budget counts with a local one of a related model and leaves
# this share of the server's context unused, for the tokens the two tokenizers count differently.
ESTIMATE_MARGIN = 0.15


class ServerTokenizer:
    """Tokenize through the endpoint the server offers, found once by `probe`.

    `tokens(text, special)`: `special` True for a rendered chat prompt (template markers are
    special tokens, BOS as the model adds it: what the server does to the chat it renders).
    """

    def __init__(self, conn: ServerConnection, model: str) -> None:
        self._conn = conn
        self._model = model
        self.kind = ""  # "llama-server", "llama-cpp-python" or "vllm"

    def probe(self) -> bool:
        """Find the server's tokenize endpoint; False when it has none. Auth and connection
        failures raise (ServerError): they are not "no tokenizer"."""
        for kind in ("llama-server", "llama-cpp-python", "vllm"):
            self.kind = kind
            try:
                if self.tokens("Folio", special=False):
                    return True
            except ServerError as exc:
                if exc.kind in ("unreachable", "tls", "auth", "dropped", "busy", "loading"):
                    raise
        self.kind = ""
        return False

    def tokens(self, text: str, special: bool) -> list[int]:
        if self.kind == "llama-server":
            reply = self._conn.post_json("/tokenize", {"content": text, "add_special": special})
        elif self.kind == "llama-cpp-python":  # parses special tokens always; BOS as the model wants
            reply = self._conn.post_json("/extras/tokenize", {"input": text, "model": self._model})
        elif self.kind == "vllm":
            reply = self._conn.post_json(
                "/tokenize", {"model": self._model, "prompt": text, "add_special_tokens": special}
            )
        else:
            raise ServerError(
                "protocol", QT_TRANSLATE_NOOP("Core", "the server at {0} offers no tokenizer"), self._conn.url
            )
        return _token_list(reply, self._conn.url)


def _token_list(reply: Any, url: str) -> list[int]:
    tokens = reply.get("tokens") if isinstance(reply, dict) else None
    if not isinstance(tokens, list):
        raise ServerError(
            "protocol",
            QT_TRANSLATE_NOOP("Core", "the tokenizer of the server at {0} sent no token list"),
            url,
        )
    # llama-server's with_pieces form: [{"id": 1, "piece": "..."}]
    return [int(t["id"]) if isinstance(t, dict) else int(t) for t in tokens]


class LocalTokenizer:
    """The tokenizer of a local GGUF (vocabulary only, no weights loaded): a stated estimate of
    another model's counts, used with ESTIMATE_MARGIN."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._llm: Any = None
        self._lock = threading.Lock()

    def tokens(self, text: str, special: bool) -> list[int]:
        with self._lock:
            if self._llm is None:
                self._llm = new_llama(model_path=str(self.path), vocab_only=True, verbose=False)
            result: list[int] = self._llm.tokenize(text.encode("utf-8"), add_bos=special, special=special)
        return result

    def close(self) -> None:
        with self._lock:
            if self._llm is not None:
                self._llm.close()
            self._llm = None


Tokens = Callable[[str, bool], list[int]]
