"""The stages of one question and the Answerer that runs them: queue, retrieve, prompt, decode, finish."""
