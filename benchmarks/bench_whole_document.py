"""Whole-document answers: summarise a ~50-page real PDF and ask one across-files question over four
real documents, with the bundled default model; seconds per stage, tokens and the verdict.

Usage: python benchmarks/bench_whole_document.py [--model GGUF] [--pages 50] [--threads 2]
The PDF is the first --pages pages of ../shared/pdf-samples' GeoTopo lecture notes (German, 117
pages), cut with pypdf; the across-files library adds three one-page English samples. Prints each
answer in full (read it: the figures say nothing about whether it is right) and writes
benchmarks/results/whole_document.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.answering.types import Answer, AskOptions, Finished, Progress  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

SAMPLES = ROOT.parent / "shared" / "pdf-samples"
GEOTOPO = SAMPLES / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf"
OTHERS = [
    SAMPLES / "021-pdfa" / "crazyones-pdfa.pdf",
    SAMPLES / "011-google-doc-document" / "google-doc-document.pdf",
    SAMPLES / "026-latex-multicolumn" / "multicolumn.pdf",
]
SUMMARY = "Summarise GeoTopo-50.pdf"
ACROSS = "What does each file say about rules?"


def cut_pdf(source: Path, pages: int, target: Path) -> Path:
    """The first `pages` pages of `source` as a new PDF."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(source).pages[:pages]:
        writer.add_page(page)
    with target.open("wb") as out:
        writer.write(out)
    return target


def timed_answer(folio: Folio, question: str, options: AskOptions) -> tuple[Answer, list[dict[str, Any]]]:
    """The finished answer and its progress steps, each with the seconds since the question."""
    started = time.perf_counter()
    steps: list[dict[str, Any]] = []
    for event in folio.answering.ask_stream(question, options):
        if isinstance(event, Progress):
            at = round(time.perf_counter() - started, 2)
            steps.append(
                {
                    "at_s": at,
                    "step": event.step,
                    "of": event.steps,
                    "document": event.document,
                    "pages": [event.first_page, event.last_page],
                    "passages": event.passages,
                }
            )
            print(
                f"  {at:7.1f} s  step {event.step}/{event.steps}: {event.document} "
                f"pp. {event.first_page}-{event.last_page} of {event.pages}, {event.passages} passages"
            )
        elif isinstance(event, Finished):
            return event.answer, steps
    raise AssertionError("no Finished event")


def report(name: str, answer: Answer, steps: list[dict[str, Any]]) -> dict[str, Any]:
    supported, judged = answer.support_counts()
    spans = {key: round(ms / 1000.0, 2) for key, ms in answer.spans.items()}
    m = answer.metrics
    print(f"\n== {name}: {answer.question}\n{answer.answer}")
    print(
        f"verdict {answer.verdict}; {supported} of {judged} statements supported; "
        f"finish {answer.finish_reason}; total {m.total_ms / 1000:.1f} s"
    )
    print(f"seconds per stage: {spans}")
    print(
        f"tokens: prompt {m.prompt_tokens}, completion {m.completion_tokens}; "
        f"decode {m.tokens_per_s or 0:.1f} tok/s; passages read {len(answer.passages)}"
    )
    for c in answer.citations:
        print(f"  [{c.n}] {c.document} p. {c.page}-{c.page_end} ({c.source})")
    return {
        "question": answer.question,
        "answer": answer.answer,
        "verdict": answer.verdict,
        "supported": supported,
        "judged": judged,
        "finish_reason": answer.finish_reason,
        "total_s": round(m.total_ms / 1000.0, 2),
        "spans_s": spans,
        "prompt_tokens": m.prompt_tokens,
        "completion_tokens": m.completion_tokens,
        "decode_tokens_per_s": m.tokens_per_s,
        "passages_read": len(answer.passages),
        "steps": steps,
        "citations": [
            {"n": c.n, "document": c.document, "page": c.page, "source": c.source} for c in answer.citations
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="GGUF (default: the bundled default model)")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    model = args.model or paths.models_dir() / paths.DEFAULT_CHAT_MODEL_FILE
    settings = Settings(model_path=str(model), n_threads=args.threads, temperature=0.0)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        pdf = cut_pdf(GEOTOPO, args.pages, folder / f"GeoTopo-{args.pages}.pdf")
        folio = build_services(settings, folder / "library")
        try:
            started = time.perf_counter()
            ingest = folio.library.ingest([pdf, *OTHERS])
            ingest_s = time.perf_counter() - started
            docs = folio.library.documents()
            chunks = {d.name: d.chunks for d in docs}
            print(
                f"ingested {len(docs)} documents in {ingest_s:.1f} s: {chunks} (failed: {len(ingest.failed)})"
            )
            started = time.perf_counter()
            info = folio.answering.load_model()
            print(f"model {info.name}, n_ctx {info.n_ctx}, loaded in {time.perf_counter() - started:.1f} s")
            question = SUMMARY.replace("50", str(args.pages))
            print(f"\n{question}")
            summary = report("summary", *timed_answer(folio, question, AskOptions()))
            print(f"\n{ACROSS}")
            across = report("across files", *timed_answer(folio, ACROSS, AskOptions()))
        finally:
            folio.close()
    write_result(
        "whole_document",
        {
            "model": model.name,
            "threads": args.threads,
            "pages": args.pages,
            "chunks": chunks,
            "ingest_s": round(ingest_s, 1),
            "summary": summary,
            "across_files": across,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
