"""The question pipeline: retrieve, gate, budget the prompt, generate, verify the sentences."""
