"""Which chunks are CJK and which Latin, kept per process, for dense search within one script."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from app.core.script import text_script
from app.core.store.library import LibraryStore

SCRIPTS = ("latin", "cjk")


class ScriptPartition:
    """The ids of the library's CJK chunks (every other chunk is Latin) and a FAISS id selector for
    each script. Chunk ids only grow and a chunk's text never changes, so each refresh reads only
    the chunks added since the last; a removed chunk's id stays in the set, where it does no harm
    (the index no longer holds it)."""

    def __init__(self, store: LibraryStore) -> None:
        self.store = store
        self._last_id = 0
        self._cjk: list[int] = []
        self._selectors: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def refresh(self) -> None:
        """Read the scripts of the chunks added since the last call."""
        with self._lock:
            added = False
            for rows in self.store.iter_texts(self._last_id):
                self._cjk += [cid for cid, text in rows if text_script(text) == "cjk"]
                self._last_id = rows[-1][0]
                added = True
            if added:
                self._selectors = None

    def selector(self, script: str) -> Any:
        """A faiss.IDSelector that admits the chunks of `script` ("latin" or "cjk") only."""
        import faiss

        self.refresh()
        with self._lock:
            if self._selectors is None:
                cjk = faiss.IDSelectorBatch(np.asarray(self._cjk, dtype=np.int64))
                # IDSelectorNot keeps a pointer to `cjk`: hold both for as long as either is used.
                self._selectors = {"cjk": cjk, "latin": faiss.IDSelectorNot(cjk), "_owner": cjk}
            return self._selectors[script]
