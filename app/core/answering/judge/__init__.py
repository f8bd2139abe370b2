"""The checking of an answer: each sentence's support and citations, its signals, one verdict."""
