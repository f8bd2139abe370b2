"""The verdict's values: answered from the documents, partly, not verified, not in the documents."""

from __future__ import annotations

from typing import Literal

# "not_answered" is shown as "not verified" (verdict_text.py): nothing the model wrote could be
# matched to the documents; "not_in_documents" only when the gate or the model said they do not
# cover the question. The judge (judge/judge.py) decides; verdict_text.py words it.
Verdict = Literal["answered", "partly", "not_answered", "not_in_documents"]
