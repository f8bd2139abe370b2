"""Which vector index a library of a given size gets: exact flat search, or IVF above a threshold."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# Exact flat search costs one dot product per stored vector, so its time grows with the library;
# IVF (below) searches a fraction of it, with recall@10 1.0 against flat on topic-structured
# vectors. Below the threshold flat stays a minor share of a hybrid search (the keyword legs cost
# more), is exact, and needs no k-means on every rebuild; above it, it would eat a growing part of
# the hybrid search's time budget. The measured times are in benchmarks/README.md ("Figures behind
# the code's constants", "Retrieval at scale"). IVF, not HNSW: FAISS's HNSW cannot remove ids, and
# Folio removes a document's chunks on delete and re-index.
APPROXIMATE_FROM = 200_000
# A library that shrinks goes back to flat only well below the threshold, so a library hovering
# around it is not retrained on every delete and add.
FLAT_BELOW_FRACTION = 0.5
# Inverted lists ~ sqrt(N): 447 at 200k, 1,000 at 1M (k-means time grows with the lists; training
# and rebuild times in benchmarks/README.md). A search visits
# 1/PROBED_SHARE of the lists, ~12 % of the vectors plus the centroids. Recall@10 against flat
# (benchmarks/ann_compare.py), 100k / 1M: 1.0 / 1.0 on topic mixtures (random or real-embedding
# subjects); 0.83 / 0.90 on the "diffuse" mixture; 0.27 / 0.30 on structureless random vectors.
LISTS_PER_SQRT = 1.0
PROBED_SHARE = 8
# k-means is trained on a sample of this many vectors per list (FAISS warns below 39).
TRAINING_POINTS_PER_LIST = 64
# An IVF trained for N vectors is retrained once the library has grown to RETRAIN_GROWTH * N.
RETRAIN_GROWTH = 4


@dataclass(frozen=True)
class IndexLayout:
    """The index kind a library should have, and for IVF its number of lists and probes (a search
    setting, not part of the built index: layouts that differ only in it are equal)."""

    kind: str  # "flat" or "ivf"
    nlist: int = 0
    nprobe: int = field(default=0, compare=False)


def ivf_lists(count: int) -> int:
    return max(1, round(LISTS_PER_SQRT * math.sqrt(count)))


def ivf_layout(count: int) -> IndexLayout:
    return ivf_with_lists(ivf_lists(count))


def ivf_with_lists(nlist: int) -> IndexLayout:
    return IndexLayout("ivf", nlist, max(1, math.ceil(nlist / PROBED_SHARE)))


def wanted_layout(count: int, current: IndexLayout | None, approximate_from: int) -> IndexLayout:
    """The layout for `count` vectors. `current` (the layout in use, None for a new index) keeps
    its kind between FLAT_BELOW_FRACTION * approximate_from and approximate_from, and an IVF keeps
    its lists until the library has grown RETRAIN_GROWTH times past the size they were made for."""
    if current is None or current.kind == "flat":
        return ivf_layout(count) if count >= approximate_from else IndexLayout("flat")
    if count < approximate_from * FLAT_BELOW_FRACTION:
        return IndexLayout("flat")
    if ivf_lists(count) >= current.nlist * math.sqrt(RETRAIN_GROWTH):
        return ivf_layout(count)
    return ivf_with_lists(current.nlist)
