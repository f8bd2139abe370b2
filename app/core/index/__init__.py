"""FAISS vector index keyed by chunk id: derived from the store, rebuildable."""
