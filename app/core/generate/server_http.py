"""HTTP to an OpenAI-compatible server (standard library): JSON calls and an SSE stream, each failure
a ServerError that says what happened (never the API key)."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from app.core.errors import ServerError

CONNECT_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 300.0  # between two bytes of a reply: a big prompt's prefill on a slow server
MAX_REPLY_BYTES = 64 << 20


class ServerConnection:
    """One server's address and key; each call opens its own connection (calls run one at a time)."""

    def __init__(self, base_url: str, api_key: str | None, read_timeout_s: float = READ_TIMEOUT_S) -> None:
        parts = urlsplit(base_url.rstrip("/"))
        self.scheme = parts.scheme
        self.host = parts.hostname or ""
        self.port = parts.port
        root = parts.path.rstrip("/")
        self.root = root[: -len("/v1")] if root.endswith("/v1") else root  # paths below add /v1
        self.url = f"{parts.scheme}://{parts.netloc}{self.root}"
        self._api_key = api_key or None
        self._read_timeout_s = read_timeout_s

    def __repr__(self) -> str:  # never the key
        return f"ServerConnection({self.url!r}, key={'set' if self._api_key else 'none'})"

    @property
    def has_key(self) -> bool:
        return self._api_key is not None

    def _connect(self) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return http.client.HTTPSConnection(
                self.host, self.port, timeout=CONNECT_TIMEOUT_S, context=ssl.create_default_context()
            )
        return http.client.HTTPConnection(self.host, self.port, timeout=CONNECT_TIMEOUT_S)

    def _headers(self, body: bytes | None) -> dict[str, str]:
        headers = {"Accept": "application/json, text/event-stream", "User-Agent": "Folio"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _send(self, method: str, path: str, payload: Any = None) -> tuple[http.client.HTTPConnection, Any]:
        """Connect, send, read the status; the connection and response of a 2xx reply."""
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        conn = self._connect()
        try:
            conn.connect()
            assert conn.sock is not None
            conn.sock.settimeout(self._read_timeout_s)
            conn.request(method, self.root + path, body=body, headers=self._headers(body))
            response = conn.getresponse()
        except ssl.SSLError as exc:
            conn.close()
            reason = _ssl_reason(exc)
            raise ServerError("tls", f"the secure connection to {self.url} failed: {reason}") from exc
        except TimeoutError as exc:
            conn.close()
            raise ServerError("unreachable", f"the server at {self.url} did not reply in time") from exc
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise ServerError(
                "unreachable", f"cannot reach the server at {self.url} ({_os_reason(exc)}): is it running?"
            ) from exc
        if response.status >= 300:
            try:
                detail = response.read(MAX_REPLY_BYTES)
            except (OSError, http.client.HTTPException):
                detail = b""
            finally:
                conn.close()
            raise status_error(self.url, path, response.status, detail)
        return conn, response

    def get_json(self, path: str) -> Any:
        return self._json("GET", path)

    def post_json(self, path: str, payload: Any) -> Any:
        return self._json("POST", path, payload)

    def _json(self, method: str, path: str, payload: Any = None) -> Any:
        conn, response = self._send(method, path, payload)
        try:
            raw = response.read(MAX_REPLY_BYTES)
        except (OSError, http.client.HTTPException) as exc:
            raise ServerError("dropped", f"the server at {self.url} closed the connection mid-reply") from exc
        finally:
            conn.close()
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise ServerError(
                "protocol", f"the server at {self.url} sent a reply to {path} that is not JSON: {_peek(raw)}"
            ) from exc

    def open_stream(self, path: str, payload: Any) -> EventStream:
        conn, response = self._send("POST", path, payload)
        kind = str(response.getheader("Content-Type") or "")
        if not kind.startswith("text/event-stream"):
            try:
                raw = response.read(4096)
            except (OSError, http.client.HTTPException):
                raw = b""
            conn.close()
            raise ServerError(
                "protocol",
                f"the server at {self.url} did not stream its answer ({kind or 'no type'}): {_peek(raw)}",
            )
        return EventStream(self.url, conn, response)


class EventStream:
    """The events of a server-sent-events reply, as parsed JSON; `abort()` (any thread) closes the
    socket, which tells the server to stop generating."""

    def __init__(self, url: str, conn: http.client.HTTPConnection, response: Any) -> None:
        self._url = url
        self._conn = conn
        self._response = response
        self._aborted = threading.Event()
        self.done = False  # the server sent [DONE]

    @property
    def aborted(self) -> bool:
        return self._aborted.is_set()

    def abort(self) -> None:
        if self._aborted.is_set():
            return
        self._aborted.set()
        sock = self._conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes a read blocked in the other thread

    def close(self) -> None:
        self._conn.close()

    def events(self) -> Iterator[dict[str, Any]]:
        """Each `data:` event's JSON object until [DONE] or the end of the reply. A reply that
        breaks off raises ServerError("dropped"), one that is not JSON ServerError("protocol");
        after abort() the events just end."""
        data: list[str] = []
        while not self.done:
            try:
                raw = self._response.readline(1 << 20)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                if self.aborted:
                    return
                raise ServerError(
                    "dropped", f"the connection to the server at {self._url} broke off mid-answer"
                ) from exc
            if self.aborted:
                return
            if not raw:
                if data:
                    yield self._parse("\n".join(data))
                return
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif not line and data:
                event = "\n".join(data)
                data = []
                if event.strip() == "[DONE]":
                    self.done = True
                    return
                yield self._parse(event)
            elif line and not line.startswith(":") and ":" not in line:
                raise ServerError(
                    "protocol",
                    f"the server at {self._url} sent a stream that is not server-sent events: {_peek(raw)}",
                )

    def _parse(self, event: str) -> dict[str, Any]:
        try:
            value = json.loads(event)
        except ValueError as exc:
            raise ServerError(
                "protocol",
                f"the server at {self._url} sent an event that is not JSON: {_peek(event.encode())}",
            ) from exc
        if not isinstance(value, dict):
            raise ServerError("protocol", f"the server at {self._url} sent an event that is not an object")
        return value


def status_error(url: str, path: str, status: int, body: bytes) -> ServerError:
    """The ServerError of an HTTP error status, with the server's own message when it sent one."""
    message, code = _error_detail(body)
    said = f": {message}" if message else ""
    if status in (401, 403):
        return ServerError("auth", f"the server at {url} refused the API key (HTTP {status}){said}", status)
    if status == 404 and path.endswith("/completions"):  # vLLM, Ollama: the model is not served
        return ServerError("model", f"the server at {url} does not serve this model (HTTP 404){said}", status)
    if status == 404:
        return ServerError("not_found", f"the server at {url} has no {path} (HTTP 404){said}", status)
    if status == 429:
        return ServerError("busy", f"the server at {url} is busy (HTTP 429): try again shortly{said}", status)
    if status == 503:
        return ServerError(
            "loading",
            f"the server at {url} is loading its model or busy (HTTP 503): try again shortly{said}",
            status,
        )
    if code == "context_length_exceeded":
        return ServerError("context", f"the prompt does not fit the server's context{said}", status)
    return ServerError("http", f"the server at {url} answered HTTP {status} to {path}{said}", status)


def _error_detail(body: bytes) -> tuple[str, str]:
    """The message and code of an OpenAI-style error body (or FastAPI's "detail")."""
    try:
        data = json.loads(body)
    except ValueError:
        return _peek(body), ""
    if isinstance(data, dict):
        error = data.get("error", data.get("detail", ""))
        if isinstance(error, dict):
            return str(error.get("message", ""))[:300], str(error.get("code") or "")
        return str(error)[:300], ""
    return "", ""


def _peek(raw: bytes) -> str:
    text = raw[:80].decode("utf-8", errors="replace").strip()
    return repr(text) if text else "an empty reply"


def _ssl_reason(exc: ssl.SSLError) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its certificate is not trusted ({exc.verify_message})"
    return exc.reason or str(exc)


def _os_reason(exc: Exception) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.gaierror):
        return "unknown host"
    return str(exc) or type(exc).__name__
