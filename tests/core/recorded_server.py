"""A local HTTP server on 127.0.0.1 that replays recorded replies of chat servers (vLLM, Ollama,
llama-server), to test protocol details the real test server (llama-cpp-python) does not produce."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One recorded reply: status, content type, body, and whether it breaks off (no clean end)."""

    status: int = 200
    content_type: str = "application/json"
    body: bytes = b""
    content_length: int | None = None  # more than len(body): the reply breaks off


@dataclass
class Recording:
    """Replies by path; the requests received (path, headers, JSON body)."""

    replies: dict[str, Reply] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str], Any]] = field(default_factory=list)


def sse(*events: dict[str, Any] | str) -> bytes:
    """A server-sent-events body: each event a `data:` line and a blank line."""
    lines = [f"data: {e if isinstance(e, str) else json.dumps(e)}\n\n" for e in events]
    return "".join(lines).encode("utf-8")


def chunk(
    content: str = "", reasoning: str = "", finish: str | None = None, key: str = "reasoning_content"
) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    if content:
        delta["content"] = content
    if reasoning:
        delta[key] = reasoning
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def models(*names: str, **extra: Any) -> Reply:
    data = [{"id": name, "object": "model", **extra} for name in names]
    return Reply(body=json.dumps({"object": "list", "data": data}).encode())


@contextmanager
def recorded_server(recording: Recording) -> Iterator[str]:
    """Serve `recording` on a free port of 127.0.0.1; yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the body ends when the connection closes

        def _reply(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            recording.requests.append((self.path, dict(self.headers), json.loads(raw) if raw else None))
            reply = recording.replies.get(self.path, Reply(404, body=b'{"detail":"Not Found"}'))
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            if reply.content_length is not None:
                self.send_header("Content-Length", str(reply.content_length))
            self.end_headers()
            self.wfile.write(reply.body)

        do_GET = _reply
        do_POST = _reply

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
