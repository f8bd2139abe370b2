"""`folio --self-test`: ingest the bundled sample, search it, answer from it, print one line, exit 0/1."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core import paths
from app.core.api import Hit, Settings, is_model_folder, translate

if TYPE_CHECKING:  # the answer and ingest types load with the answering code, when the test runs
    from app.core.api import Answer, FileResult, IngestReport

SAMPLE_FILE = "sample.pdf"
# A fact stated on one page of resources/sample.pdf only (packaging/make_sample_pdf.py writes it).
QUESTION = "How often does the Cape Merrow lighthouse flash?"
EXPECTED_PAGE = 3
FACT_WORDS = ("twelve", "12")
MAX_TOKENS = 48
PASSAGES_K = 3
PREFIX = "folio self-test:"


class SelfTestFailed(Exception):
    """A check did not hold; the message says which and what was seen instead."""


@dataclass(frozen=True)
class Outcome:
    """What the self-test observed, for the one-line summary."""

    pages: int
    chunks: int
    ingest_s: float
    top_hit: Hit
    answer_tokens: int
    finish_reason: str
    cited_pages: list[int]
    states_fact: bool
    answer_s: float


def covers(hit: Hit, page: int) -> bool:
    return hit.page <= page <= hit.page_end


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise SelfTestFailed(message)


def _check_installation(settings: Settings) -> Path:
    sample = paths.resources_dir() / SAMPLE_FILE
    _require(sample.is_file(), translate("SelfTest", "sample document missing: {0}").format(sample))
    _require(
        settings.chat_model_path().is_file(),
        translate("SelfTest", "chat model missing: {0}").format(settings.chat_model_path()),
    )
    embed = settings.embed_model_path()
    _require(is_model_folder(embed), translate("SelfTest", "embedding model missing: {0}").format(embed))
    return sample


def _exercise(settings: Settings, sample: Path, library_dir: Path) -> Outcome:
    """Ingest, search and answer in a fresh library; raise SelfTestFailed on the first bad result."""
    from app.core.api import AskOptions
    from app.core.services import build_services

    folio = build_services(settings, library_dir)
    try:
        started = time.perf_counter()
        report = folio.library.ingest([sample])
        ingest_s = time.perf_counter() - started
        result = _check_ingested(report)
        top = _check_search(folio.library.search(QUESTION, PASSAGES_K).hits)
        started = time.perf_counter()
        options = AskOptions(max_tokens=MAX_TOKENS, temperature=0.0, seed=42, passages_k=PASSAGES_K)
        answer = folio.answering.ask(QUESTION, options)
        answer_s = time.perf_counter() - started
        _check_answer(answer)
        text = answer.answer.lower()
        return Outcome(
            pages=result.pages,
            chunks=result.chunks,
            ingest_s=ingest_s,
            top_hit=top,
            answer_tokens=answer.metrics.completion_tokens,
            finish_reason=answer.finish_reason,
            cited_pages=sorted({c.page for c in answer.citations}),
            states_fact=any(word in text for word in FACT_WORDS),
            answer_s=answer_s,
        )
    finally:
        folio.close()


def _check_ingested(report: IngestReport) -> FileResult:
    """The sample was added, whole: its one file result."""
    _require(
        len(report.files) == 1,
        translate("SelfTest", "ingest saw {0} files, expected 1").format(len(report.files)),
    )
    result = report.files[0]
    _require(
        result.status == "added",
        translate("SelfTest", "ingest of {0} {1}: {2}").format(SAMPLE_FILE, result.status, result.error),
    )
    _require(
        result.pages >= EXPECTED_PAGE,
        translate("SelfTest", "{0} has {1} pages").format(SAMPLE_FILE, result.pages),
    )
    _require(result.chunks > 0, translate("SelfTest", "{0} gave no chunks").format(SAMPLE_FILE))
    return result


def _check_search(hits: list[Hit]) -> Hit:
    """The search's best hit is the sample's page that states the fact: that hit."""
    _require(bool(hits), translate("SelfTest", "search found nothing"))
    top = hits[0]
    _require(
        top.document == SAMPLE_FILE and covers(top, EXPECTED_PAGE),
        translate("SelfTest", "top hit is {0} p. {1}-{2}, expected {3} p. {4}").format(
            top.document, top.page, top.page_end, SAMPLE_FILE, EXPECTED_PAGE
        ),
    )
    return top


def _check_answer(answer: Answer) -> None:
    """The answer is complete, grounded, and cites the page that states the fact."""
    _require(answer.error is None, translate("SelfTest", "answer failed: {0}").format(answer.error))
    _require(answer.grounded, translate("SelfTest", "the answer was gated as not covered by the documents"))
    _require(
        answer.finish_reason in ("stop", "length"),
        translate("SelfTest", "answer ended with finish_reason {0}").format(answer.finish_reason),
    )
    _require(
        answer.metrics.completion_tokens > 0 and bool(answer.answer.strip()),
        translate("SelfTest", "the model produced no text"),
    )
    # Folio's own citations (the model's verified markers, or the passage Folio matched to a
    # supported sentence) must include the page that states the fact.
    cited = [f"{c.document} p. {c.page}" for c in answer.citations]
    _require(
        bool(answer.citations),
        translate("SelfTest", "the answer cites no passage: {0!r}").format(answer.answer[:120]),
    )
    _require(
        any(c.document == SAMPLE_FILE and c.page <= EXPECTED_PAGE <= c.page_end for c in answer.citations),
        translate("SelfTest", "the answer cites {0}, expected {1} p. {2}").format(
            ", ".join(cited), SAMPLE_FILE, EXPECTED_PAGE
        ),
    )


def summary(outcome: Outcome, total_s: float) -> str:
    top = outcome.top_hit
    if outcome.cited_pages:
        citations = translate("SelfTest", "cites p. {0}").format(
            ", ".join(str(p) for p in outcome.cited_pages)
        )
    else:
        citations = translate("SelfTest", "no citation markers")
    fact = (
        translate("SelfTest", "states the fact")
        if outcome.states_fact
        else translate("SelfTest", "fact not stated")
    )
    # "folio self-test: PASS" stays as it is in every language: scripts look for it
    details = translate(
        "SelfTest",
        "ingested {0} ({1} pages, {2} chunks) in {3:.1f} s · top hit p. {4} (similarity {5:.2f}) · "
        "[1] = {0} p. {6} · answer {7} tokens ({8}) in {9:.1f} s, {10}, {11} · total {12:.1f} s",
    ).format(
        SAMPLE_FILE,
        outcome.pages,
        outcome.chunks,
        outcome.ingest_s,
        top.page,
        top.similarity,
        EXPECTED_PAGE,
        outcome.answer_tokens,
        outcome.finish_reason,
        outcome.answer_s,
        citations,
        fact,
        total_s,
    )
    return f"{PREFIX} PASS · {details}"


@contextmanager
def _cache_in(folder: Path) -> Iterator[None]:
    """The embedder's load cache in the self-test's temporary folder: the check leaves nothing
    behind in the user's home (and makes and checks the cache as a first start does)."""
    before = os.environ.get("FOLIO_CACHE_DIR")
    os.environ["FOLIO_CACHE_DIR"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("FOLIO_CACHE_DIR", None)
        else:
            os.environ["FOLIO_CACHE_DIR"] = before


def run_self_test() -> int:
    """Headless check of the installed app with its bundled models; prints one line, returns 0 or 1."""
    started = time.perf_counter()
    settings = Settings()  # the bundled defaults, whatever the user has configured
    try:
        sample = _check_installation(settings)
        with tempfile.TemporaryDirectory(prefix="folio-self-test-") as tmp, _cache_in(Path(tmp) / "cache"):
            outcome = _exercise(settings, sample, Path(tmp) / "library")
        line, code = summary(outcome, time.perf_counter() - started), 0
    except SelfTestFailed as exc:
        line, code = f"{PREFIX} FAIL · {exc}", 1
    except Exception as exc:  # report anything, with its type: this is a smoke test of the whole app
        line, code = f"{PREFIX} FAIL · {type(exc).__name__}: {exc}", 1
    print(line.replace("\n", " "), file=sys.stdout, flush=True)
    return code
