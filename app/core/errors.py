"""User-facing error types: problems of the user's environment or input, never bugs."""

from __future__ import annotations

# Exit codes of the command line: a complete run, a known failure (FolioError), a usage error.
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class FolioError(Exception):
    """A known problem the user can act on; its message is shown as is. A message marked for
    translation (app/core/messages.py) may be a template: `FolioError(template, *values)` reads
    `template.format(*values)`, and the window shows the template translated with the same values."""

    def __init__(self, message: str = "", *values: object) -> None:
        super().__init__(message.format(*values) if values else message)
        self.template = message
        self.values = values


class UsageError(FolioError):
    """The request itself is invalid (empty question, bad option value)."""


class LibraryError(FolioError):
    """The library on disk cannot be used as asked (wrong embedder, unreadable store)."""


class EmbedderMismatchError(LibraryError):
    """The library was indexed with another embedding model."""


class ModelError(FolioError):
    """A model file is missing, not a model, or failed to load."""


class ServerError(ModelError):
    """A chat server could not answer: `kind` says why (unreachable, tls, auth, model, busy,
    loading, context, protocol, dropped, http), so callers never read the message to decide."""

    def __init__(self, kind: str, message: str, *values: object, status: int | None = None) -> None:
        super().__init__(message, *values)
        self.kind = kind
        self.status = status


class DocumentNotFoundError(FolioError):
    """No document in the library matches the given name, path or id."""


class Cancelled(Exception):
    """The user cancelled the operation; not an error and never reported as one."""
