"""Inner-product FAISS index (IndexIDMap2 over a flat index) keyed by chunk id, saved atomically."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

INDEX_FILE = "vectors.faiss"


class VectorIndex:
    """Exact cosine search over normalised vectors. Removal by id never shifts other ids."""

    def __init__(self, dimension: int, index: Any = None) -> None:
        import faiss

        self.dimension = dimension
        self._index: Any = index if index is not None else faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
        self.lock = threading.RLock()
        # The store's index generation this copy reflects; -1: unknown (compare with the store).
        self.generation = -1

    @classmethod
    def load(cls, path: Path, dimension: int) -> VectorIndex:
        """Read an index file; raises ValueError when it is unreadable or of another dimension."""
        import faiss

        try:
            index = faiss.read_index(str(path))
        except RuntimeError as exc:
            raise ValueError(f"unreadable index file: {exc}") from exc
        if index.d != dimension or not isinstance(index, faiss.IndexIDMap2):
            raise ValueError(f"index file has dimension {index.d}, expected {dimension}")
        return cls(dimension, index)

    @property
    def count(self) -> int:
        return int(self._index.ntotal)

    def ids(self) -> npt.NDArray[np.int64]:
        import faiss

        with self.lock:
            return np.asarray(faiss.vector_to_array(self._index.id_map), dtype=np.int64)

    def add(self, ids: npt.NDArray[np.int64], vectors: npt.NDArray[np.float32]) -> None:
        if len(ids) == 0:
            return
        with self.lock:
            self._index.add_with_ids(
                np.ascontiguousarray(vectors, dtype=np.float32), np.ascontiguousarray(ids, dtype=np.int64)
            )

    def remove(self, ids: npt.NDArray[np.int64]) -> int:
        if len(ids) == 0:
            return 0
        with self.lock:
            return int(self._index.remove_ids(np.ascontiguousarray(ids, dtype=np.int64)))

    def search(self, query: npt.NDArray[np.float32], k: int) -> list[tuple[int, float]]:
        """(chunk id, cosine similarity) pairs, best first."""
        with self.lock:
            if self.count == 0 or k <= 0:
                return []
            scores, ids = self._index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def save(self, path: Path) -> None:
        """Write to a temp file in the same folder, fsync, then rename over the old file."""
        import faiss

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".vectors-", suffix=".tmp", dir=path.parent)
        os.close(fd)
        try:
            with self.lock:
                faiss.write_index(self._index, tmp)
            with open(tmp, "rb") as handle:
                os.fsync(handle.fileno())
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
