"""The vectors of recently embedded texts, so that a text checked twice for one answer is embedded once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

EmbedTexts = Callable[[list[str]], npt.ArrayLike]

# An answer's sentences and its passages' sentences: a few hundred texts, a few hundred kB of vectors.
KEEP = 1024


class RecentVectors:
    """`embed` with a memory of its last KEEP texts: the answer check (attribution.py) and the judge
    (judge/signals.py) embed the same answer sentences, and locate and the judge the same passage
    sentences; each distinct text reaches the embedder once. Thread-safe; a drop-in `Embed`."""

    def __init__(self, embed: EmbedTexts, keep: int = KEEP) -> None:
        self._embed = embed
        self._keep = keep
        self._vectors: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.asarray(self._embed(texts), dtype=np.float32)
        with self._lock:
            known = {text: self._vectors[text] for text in texts if text in self._vectors}
            for text in known:
                self._vectors.move_to_end(text)
        missing = list(dict.fromkeys(text for text in texts if text not in known))
        if missing:
            fresh = np.asarray(self._embed(missing), dtype=np.float32)
            if fresh.shape[0] != len(missing):
                raise ValueError(f"embed() returned {fresh.shape[0]} vectors for {len(missing)} texts")
            with self._lock:
                for text, vector in zip(missing, fresh, strict=True):
                    known[text] = self._vectors[text] = vector
                while len(self._vectors) > self._keep:
                    self._vectors.popitem(last=False)
        return np.stack([known[text] for text in texts])

    def __len__(self) -> int:
        with self._lock:
            return len(self._vectors)
