"""What is worked out of the question and its passages before the model runs (used by the judge too)."""
