"""The API keys of chat servers: in the platform's keyring when there is one, else a 0600 file."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from app.core import paths
from app.core.errors import UsageError
from app.core.messages import QT_TRANSLATE_NOOP

KEYRING_SERVICE = "folio-server"
KEY_ENV = "FOLIO_API_KEY"  # the command line's key for `--server` (never an argument: `ps` shows those)


def keys_file() -> Path:
    return paths.config_dir() / "server-keys.json"


def _keyring() -> Any:
    """The keyring module when it is installed and has a real backend, else None."""
    try:
        import keyring  # type: ignore[import-not-found,unused-ignore]
        from keyring.backends import fail  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    try:
        if isinstance(keyring.get_keyring(), fail.Keyring):
            return None
    except Exception:  # a broken keyring set-up: fall back to the file
        return None
    return keyring


def _read_file(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "cannot read the server keys file {0}: {1}"), path, exc
        ) from exc
    if not isinstance(data, dict):
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "the server keys file {0} does not hold a JSON object"), path
        )
    return {str(url): str(key) for url, key in data.items()}


def _write_file(path: Path, keys: dict[str, str]) -> None:
    """Atomically, readable and writable by the user only (0600) from its first byte."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".server-keys-", suffix=".json", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(keys, handle, indent=2, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_server_key(url: str) -> str | None:
    """The stored key of the server at `url`, None when it has none."""
    ring = _keyring()
    if ring is not None:
        key = ring.get_password(KEYRING_SERVICE, url)
        if key:
            return str(key)
    return _read_file(keys_file()).get(url) or None


def save_server_key(url: str, key: str | None) -> str:
    """Store (or, with an empty key, forget) the key of `url`; returns where it went."""
    ring = _keyring()
    keys = _read_file(keys_file())
    if ring is not None:
        if key:
            ring.set_password(KEYRING_SERVICE, url, key)
        else:
            with contextlib.suppress(Exception):  # nothing stored there
                ring.delete_password(KEYRING_SERVICE, url)
        if url in keys:  # a key stored in the file before the keyring existed
            keys.pop(url)
            _write_file(keys_file(), keys)
        return "keyring"
    if key:
        keys[url] = key
    else:
        keys.pop(url, None)
    _write_file(keys_file(), keys)
    return str(keys_file())


def key_for(url: str) -> str | None:
    """The key to send to `url`: FOLIO_API_KEY when set, else the stored one."""
    return os.environ.get(KEY_ENV) or load_server_key(url)
