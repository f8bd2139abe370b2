"""Folio: ask questions about your own documents, offline."""

__version__ = "0.1.0"
