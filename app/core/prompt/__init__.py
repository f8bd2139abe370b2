"""The cited-answer prompt: system text, passage labels, token budget and citation parsing."""
