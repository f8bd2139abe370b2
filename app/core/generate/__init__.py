"""llama-cpp-python wrapper: one model, one generation at a time, streaming with metrics."""
