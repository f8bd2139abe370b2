"""The one judge of an answer: the evidence worked out once, the measured signals, one policy per embedder."""
