"""Ingestion: read files into pages, normalise, chunk page-aware, embed, store."""
