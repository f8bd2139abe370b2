"""The one judge of an answer: the measured signals of each sentence, one policy per embedder."""
