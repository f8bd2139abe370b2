"""Open the vector index and make it agree with the store (the truth), rebuilding when it does not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from app.core.index.vector_index import VectorIndex
from app.core.store.library import LibraryStore


def index_disagreement(index: VectorIndex, store: LibraryStore) -> str | None:
    """Why the index does not match the store's chunks, or None when it does."""
    ids = store.all_chunk_ids()
    if index.count != len(ids):
        return f"it holds {index.count} vectors for {len(ids)} chunks"
    if not np.array_equal(np.sort(index.ids()), ids):
        return "its chunk ids differ from the store's"
    return None


def rebuild_index(store: LibraryStore, dimension: int, index_path: Path) -> VectorIndex:
    """A new index from the embeddings stored with the chunks, saved atomically."""
    index = VectorIndex(dimension)
    for ids, blob in store.iter_embeddings():
        vectors = np.frombuffer(blob, dtype=np.float32).reshape(len(ids), dimension)
        index.add(ids, vectors)
    index.save(index_path)
    return index


def open_vector_index(
    store: LibraryStore, dimension: int, index_path: Path, notify: Callable[[str], None]
) -> VectorIndex:
    """Load the index file; if it is missing, unreadable or disagrees with the store, rebuild it
    and say why through `notify`."""
    reason: str | None
    if not index_path.exists():
        reason = None if store.chunk_count() == 0 else "the index file is missing"
        index = VectorIndex(dimension)
    else:
        try:
            index = VectorIndex.load(index_path, dimension)
            reason = None
        except ValueError as exc:
            index = VectorIndex(dimension)
            reason = str(exc)
    if reason is None:
        mismatch = index_disagreement(index, store)
        reason = f"the index disagrees with the store ({mismatch})" if mismatch else None
    if reason is None:
        return index
    rebuilt = rebuild_index(store, dimension, index_path)
    notify(f"vector index rebuilt from the store: {reason}; now {rebuilt.count} vectors")
    return rebuilt
