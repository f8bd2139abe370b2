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
from app.core.messages import QT_TRANSLATE_NOOP

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
            raise ServerError(
                "tls", QT_TRANSLATE_NOOP("Core", "the secure connection to {0} failed: {1}"), self.url, reason
            ) from exc
        except TimeoutError as exc:
            conn.close()
            raise ServerError(
                "unreachable", QT_TRANSLATE_NOOP("Core", "the server at {0} did not reply in time"), self.url
            ) from exc
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise ServerError(
                "unreachable",
                QT_TRANSLATE_NOOP("Core", "cannot reach the server at {0} ({1}): is it running?"),
                self.url,
                _os_reason(exc),
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
            raise ServerError(
                "dropped",
                QT_TRANSLATE_NOOP("Core", "the server at {0} closed the connection mid-reply"),
                self.url,
            ) from exc
        finally:
            conn.close()
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise ServerError(
                "protocol",
                QT_TRANSLATE_NOOP("Core", "the server at {0} sent a reply to {1} that is not JSON: {2}"),
                self.url,
                path,
                _peek(raw),
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
                QT_TRANSLATE_NOOP("Core", "the server at {0} did not stream its answer ({1}): {2}"),
                self.url,
                kind or "no type",
                _peek(raw),
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
                    "dropped",
                    QT_TRANSLATE_NOOP("Core", "the connection to the server at {0} broke off mid-answer"),
                    self._url,
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
                    QT_TRANSLATE_NOOP(
                        "Core", "the server at {0} sent a stream that is not server-sent events: {1}"
                    ),
                    self._url,
                    _peek(raw),
                )

    def _parse(self, event: str) -> dict[str, Any]:
        try:
            value = json.loads(event)
        except ValueError as exc:
            raise ServerError(
                "protocol",
                QT_TRANSLATE_NOOP("Core", "the server at {0} sent an event that is not JSON: {1}"),
                self._url,
                _peek(event.encode()),
            ) from exc
        if not isinstance(value, dict):
            raise ServerError(
                "protocol",
                QT_TRANSLATE_NOOP("Core", "the server at {0} sent an event that is not an object"),
                self._url,
            )
        return value


# Over 60 lines, left whole: one flat table of statuses, each one ServerError; split, it would read worse.
def status_error(url: str, path: str, status: int, body: bytes) -> ServerError:
    """The ServerError of an HTTP error status, with the server's own message when it sent one."""
    message, code = _error_detail(body)
    said = f": {message}" if message else ""
    if status in (401, 403):
        return ServerError(
            "auth",
            QT_TRANSLATE_NOOP("Core", "the server at {0} refused the API key (HTTP {1}){2}"),
            url,
            status,
            said,
            status=status,
        )
    if status == 404 and path.endswith("/completions"):  # vLLM, Ollama: the model is not served
        return ServerError(
            "model",
            QT_TRANSLATE_NOOP("Core", "the server at {0} does not serve this model (HTTP 404){1}"),
            url,
            said,
            status=status,
        )
    if status == 404:
        return ServerError(
            "not_found",
            QT_TRANSLATE_NOOP("Core", "the server at {0} has no {1} (HTTP 404){2}"),
            url,
            path,
            said,
            status=status,
        )
    if status == 429:
        return ServerError(
            "busy",
            QT_TRANSLATE_NOOP("Core", "the server at {0} is busy (HTTP 429): try again shortly{1}"),
            url,
            said,
            status=status,
        )
    if status == 503:
        return ServerError(
            "loading",
            QT_TRANSLATE_NOOP(
                "Core", "the server at {0} is loading its model or busy (HTTP 503): try again shortly{1}"
            ),
            url,
            said,
            status=status,
        )
    if code == "context_length_exceeded":
        return ServerError(
            "context",
            QT_TRANSLATE_NOOP("Core", "the prompt does not fit the server's context{0}"),
            said,
            status=status,
        )
    return ServerError(
        "http",
        QT_TRANSLATE_NOOP("Core", "the server at {0} answered HTTP {1} to {2}{3}"),
        url,
        status,
        path,
        said,
        status=status,
    )


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
