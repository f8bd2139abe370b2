"""Inner-product FAISS index keyed by chunk id (exact flat, or IVF for big libraries), saved atomically."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.index.layout import APPROXIMATE_FROM, IndexLayout, ivf_with_lists

INDEX_FILE = "vectors.faiss"
# OpenMP threads for one query. A flat search of one query was faster on one thread than on two
# when the cores were busy (ingestion, other processes: OpenMP threads wait on each other); IVF is
# the same either way (one query searches on one thread). Training and adding keep every thread.
# Figures: benchmarks/README.md ("Retrieval at scale").
SEARCH_THREADS = 1


class VectorIndex:
    """Cosine search over normalised vectors, by chunk id. Two layouts: exact search over every
    vector (IndexIDMap2 over IndexFlatIP), or an inverted-file index (IndexIVFFlat, inner
    product) that searches only the `nprobe` lists nearest the query (approximate). Both add and
    remove by id without shifting other ids. `approximate_from`: the size from which a rebuild
    chooses IVF (layout.py)."""

    def __init__(self, dimension: int, index: Any = None, approximate_from: int = APPROXIMATE_FROM) -> None:
        import faiss

        self.dimension = dimension
        self._index: Any = index if index is not None else faiss.IndexIDMap2(faiss.IndexFlatIP(dimension))
        self.lock = threading.RLock()
        # The store's index generation this copy reflects; -1: unknown (compare with the store).
        self.generation = -1
        self.approximate_from = approximate_from

    @classmethod
    def empty(
        cls,
        dimension: int,
        layout: IndexLayout,
        training: npt.NDArray[np.float32] | None = None,
        approximate_from: int = APPROXIMATE_FROM,
    ) -> VectorIndex:
        """An index with no vectors in `layout`; an IVF is trained (k-means) on `training` first."""
        import faiss

        if layout.kind == "flat":
            return cls(dimension, approximate_from=approximate_from)
        if training is None or len(training) < layout.nlist:
            raise ValueError(f"an IVF of {layout.nlist} lists needs at least as many training vectors")
        quantizer = faiss.IndexFlatIP(dimension)
        ivf = faiss.IndexIVFFlat(quantizer, dimension, layout.nlist, faiss.METRIC_INNER_PRODUCT)
        ivf.cp.spherical = True  # centroids normalised: cosine clusters
        ivf.cp.max_points_per_centroid = max(1, len(training) // layout.nlist)
        ivf.train(np.ascontiguousarray(training, dtype=np.float32))
        ivf.nprobe = layout.nprobe
        return cls(dimension, ivf, approximate_from)  # faiss's wrapper keeps `quantizer` alive

    @classmethod
    def load(cls, path: Path, dimension: int, approximate_from: int = APPROXIMATE_FROM) -> VectorIndex:
        """Read an index file (flat or IVF); raises ValueError when it is unreadable, of another
        dimension or of a kind Folio does not write."""
        import faiss

        try:
            index = faiss.read_index(str(path))
        except RuntimeError as exc:
            raise ValueError(f"unreadable index file: {exc}") from exc
        if index.d != dimension:
            raise ValueError(f"index file has dimension {index.d}, expected {dimension}")
        if isinstance(index, faiss.IndexIDMap2):
            inner = faiss.downcast_index(index.index)
            if not isinstance(inner, faiss.IndexFlatIP):
                raise ValueError(f"index file holds an id map over {type(inner).__name__}, not a flat index")
        elif isinstance(index, faiss.IndexIVFFlat):
            if index.metric_type != faiss.METRIC_INNER_PRODUCT or not index.is_trained:
                raise ValueError("index file holds an IVF index that is untrained or not inner-product")
            index.nprobe = ivf_with_lists(int(index.nlist)).nprobe  # today's setting, not the file's
        else:
            raise ValueError(f"index file holds a {type(index).__name__}, not a flat or IVF index")
        return cls(dimension, index, approximate_from)

    @property
    def layout(self) -> IndexLayout:
        import faiss

        if isinstance(self._index, faiss.IndexIVFFlat):
            return IndexLayout("ivf", int(self._index.nlist), int(self._index.nprobe))
        return IndexLayout("flat")

    def take_over(self, other: VectorIndex) -> None:
        """Hold `other`'s vectors and layout from now on (everyone holding this object sees it)."""
        with self.lock:
            self._index = other._index

    @property
    def count(self) -> int:
        return int(self._index.ntotal)

    def ids(self) -> npt.NDArray[np.int64]:
        """Every chunk id held (in no particular order)."""
        import faiss

        with self.lock:
            if not isinstance(self._index, faiss.IndexIVFFlat):
                return np.asarray(faiss.vector_to_array(self._index.id_map), dtype=np.int64)
            lists: Any = self._index.invlists
            parts = [
                faiss.rev_swig_ptr(lists.get_ids(n), lists.list_size(n)).copy()
                for n in range(self._index.nlist)
                if lists.list_size(n)
            ]
            return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)

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

    def search(self, query: npt.NDArray[np.float32], k: int, among: Any = None) -> list[tuple[int, float]]:
        """(chunk id, cosine similarity) pairs, best first; with `among` (a faiss.IDSelector), only
        of the chunks it admits. One query runs on one OpenMP thread (SEARCH_THREADS); the calling
        thread's setting is put back afterwards."""
        import faiss

        with self.lock:
            if self.count == 0 or k <= 0:
                return []
            params: Any = None
            if among is not None:
                ivf = self.layout.kind == "ivf"
                params = faiss.SearchParametersIVF() if ivf else faiss.SearchParameters()
                params.sel = among
                if ivf:
                    params.nprobe = self._index.nprobe
            threads = faiss.omp_get_max_threads()
            faiss.omp_set_num_threads(SEARCH_THREADS)
            try:
                scores, ids = self._index.search(
                    np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), k, params=params
                )
            finally:
                faiss.omp_set_num_threads(threads)
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
