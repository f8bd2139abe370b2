"""The locate stage: the passage sentences that answer the question, found by Folio before the model
runs, so the window can show where the answer is while the conclusion streams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.excerpts import score_sentences, title_terms
from app.core.answering.evidence.scoring import Embed
from app.core.embed.engine import CosineScales
from app.core.names import about_another, names_in
from app.core.passage import Citation, Hit

FOUND_LIMIT = 3  # sentences shown at most
# A sentence is shown when it scores this share of the best sentence's score (and above the floor).
FOUND_SHARE = 0.6
FOUND_FLOOR = 0.2  # question-term coverage (plus scaled cosine) below which nothing is "found"


@dataclass(frozen=True)
class LocatedSentence:
    """A passage sentence that answers the question: the passage (as a citation) and the sentence."""

    citation: Citation
    sentence: str
    score: float

    def to_json(self) -> dict[str, Any]:
        c = self.citation
        return {
            "n": c.n,
            "document": c.document,
            "page": c.page,
            "page_end": c.page_end,
            "section": c.section,
            "chunk_id": c.chunk_id,
            "sentence": self.sentence,
            "score": round(self.score, 3),
        }


def locate(
    question: str,
    hits: Sequence[Hit],
    embed: Embed | None,
    scales: CosineScales | None,
    evidence: Evidence | None = None,
) -> list[LocatedSentence]:
    """The best-scoring passage sentences for the question (the scoring of evidence selection: the
    question's weighted terms, plus the embedder's cosine, weighed more for a sentence in the other
    script than the question's, where no word is shared: excerpts.score_sentences), best first, at most
    FOUND_LIMIT, each from the retrieved passage numbered as in the retrieval list; never a table of
    contents, index or dotted-leader line, nor a sentence of a passage about a sibling of the model
    or version the question names (the S3's manual for a question about the S5: app/core/names.py).
    `evidence`: the hits worked out once (its embeddings are used instead of embedding the sentences
    again)."""
    if not hits:
        return []
    titles = [title_terms(hit) for hit in hits]
    scored = score_sentences(question, [hit.text for hit in hits], embed, scales, evidence, titles)
    asked = names_in(question)
    ranked = sorted(
        (
            (index, sentence)
            for index, row in enumerate(scored)
            if not about_another(asked, hits[index])
            for sentence in row
        ),
        key=lambda item: (-item[1].score, item[0], item[1].sentence.start),
    )
    if not ranked or ranked[0][1].score < FOUND_FLOOR:
        return []
    cut = max(FOUND_FLOOR, FOUND_SHARE * ranked[0][1].score)
    found: list[LocatedSentence] = []
    for index, sentence in ranked:
        if len(found) >= FOUND_LIMIT or sentence.score < cut:
            break
        text = sentence.sentence.text.strip()
        if all(text != f.sentence for f in found):
            citation = Citation.from_hit(index + 1, hits[index], "matched")
            found.append(LocatedSentence(citation, text, sentence.score))
    return found
