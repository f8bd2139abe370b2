"""The answer-quality and retrieval eval: question set, scoring and report (benchmarks/eval_answers.py)."""
