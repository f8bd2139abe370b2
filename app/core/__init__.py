"""Qt-free core of Folio: ingest, store, index, retrieve, prompt, generate."""
