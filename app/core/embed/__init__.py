"""Sentence embeddings from a local sentence-transformers folder, loaded lazily."""
