"""Bind a library to its embedder by identity, upgrading libraries that recorded only a folder name."""

from __future__ import annotations

import numpy as np

from app.core.embed.embedder import Embedder
from app.core.passage import with_heading
from app.core.store.library import LibraryStore

# Vectors of the same model on the same text agree to float rounding; another model's do not.
SAME_VECTOR_COSINE = 0.999
_PROBE_CHUNKS = 3


def reproduces_stored_vectors(store: LibraryStore, embedder: Embedder) -> bool:
    """True when the embedder gives the stored vectors of a few chunks again (or there are none)."""
    ids = [int(i) for i in store.all_chunk_ids()[:_PROBE_CHUNKS]]
    rows = store.chunks(ids)
    if not rows:
        return True
    stored = np.stack([np.frombuffer(rows[i].embedding, dtype=np.float32) for i in ids if i in rows])
    if stored.shape[1] != embedder.dimension:
        return False
    fresh = embedder.embed([with_heading(rows[i].heading, rows[i].text) for i in ids if i in rows])
    return bool(np.min(np.sum(stored * fresh, axis=1)) >= SAME_VECTOR_COSINE)


def bind_library_embedder(store: LibraryStore, embedder: Embedder) -> None:
    """Record the embedder in a new library, or check that it is the library's own (same weights
    and config, whatever its folder is called); raises EmbedderMismatchError otherwise."""
    store.bind_embedder(
        embedder.name,
        embedder.dimension,
        embedder.identity,
        same_as_legacy=lambda: reproduces_stored_vectors(store, embedder),
    )
