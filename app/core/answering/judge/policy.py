"""The judge's one policy per embedder: every threshold of "answered", written by one calibration command."""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from app.core import paths

# resources/judge_policy.json: written by benchmarks/calibrate_judge.py from the calibration half of
# the eval; read here only.
POLICY_NAME = "judge_policy.json"


@dataclass(frozen=True)
class Policy:
    """When a sentence is supported by meaning, when it is about the question, when it only restates
    it, and how much of an answer must be supported and on the question for "answered". The defaults
    judge by words alone (a cosine of 2 is never reached): an embedder nobody calibrated gets them."""

    # cosine of the answer sentence with a passage sentence from which its meaning supports it
    support_cosine: float = 2.0
    # ...and by how much the passage sentence must be closer to it than the question is (a sentence
    # that only rephrases the question is closest to the question)
    support_gain: float = 0.0
    # ...and, for a sentence its words support, by how much its best passage sentence must be closer
    # to it than the question is when both are in one script (-2: not asked): a sentence far closer
    # to the question than to any passage sentence says the question back with a figure put in
    words_gain: float = -2.0
    # cosine of the question with the supporting sentence from which it is about the question
    about_cosine: float = 2.0
    # cosine of the answer sentence with the question from which, adding nothing new, it restates it
    restate_cosine: float = 2.0
    # the share of an answer sentence's terms absent from the question below which it adds nothing
    restate_novelty: float = 0.34
    # the cosine of the question with a passage sentence stating a figure the answer gives, below
    # which that figure is bound to something else than what was asked
    fact_about_cosine: float = -1.0
    # ...or, either being enough, relative to the passage sentence most about the question: how much
    # less about it the sentence stating the figure may be (0: it must be that one; 1: never enough)
    fact_about_gap: float = 1.0
    # ...or the figure being stated by a sentence Folio found for the question before the model ran
    fact_located_enough: bool = False
    # how much more about the question a passage sentence stating another figure of the same kind
    # may be than the sentences stating a figure the answer gives before that figure counts as bound
    # to something else (signals.SentenceSignals.fact_rival; 2.0: never)
    fact_rival_margin: float = 2.0
    # whether a question that asks for a quantity is only "partly" answered when no statement that
    # answers it gives a figure the question does not
    quantity_needs_figure: bool = False
    # whether a sentence whose figures all measure another kind of thing than the question asks for
    # ("300 tonnes" for sales, "3000 hours" for a price) is not about the question
    figure_kind_must_match: bool = False
    # whether a sentence supported by a passage about a sibling of the model or version the question
    # names, and by none about that one (the S3's manual for the S5), is not about the question
    name_must_match: bool = False
    # whether a sentence that gives a figure as its passage's former value, without the value that
    # replaced it ("81%" from "rose from 81% to 93%"), is unsupported
    former_is_unsupported: bool = False
    # the share of factual sentences supported and about the question for "answered" (else "partly")
    answered_share: float = 1.0
    # whether a sentence's meaning can support it in CJK text (an English-only embedder: no)
    meaning_cjk: bool = True
    # the embedder's cosine of unrelated texts and of a text and its translation across Chinese and
    # English (signals.CrossLanguage), measured on translation pairs that are not eval data
    cross_unrelated: float = 0.0
    cross_translation: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Policy:
        known = {f.name for f in fields(cls)}
        return replace(cls(), **{k: v for k, v in data.items() if k in known})


DEFAULT = Policy()


@functools.cache
def _policies(path: Path) -> dict[str, Policy]:
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: Policy.from_json(entry["policy"]) for name, entry in data.get("embedders", {}).items()}


def policy_for(embedder: str, path: Path | None = None) -> Policy:
    """The calibrated policy of the embedder (its model folder's name), else the defaults."""
    return _policies(path or paths.resources_dir() / POLICY_NAME).get(embedder, DEFAULT)
