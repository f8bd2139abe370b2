"""Ingestion throughput side by side with the raw engines, per embedder precision, and peak RSS.

Usage: .venv/bin/python benchmarks/bench_ingest.py [PDF ...] [--precisions fp32,auto] [--rounds N]
       [--rss-pages 100,1000] [--embedders all-MiniLM-L6-v2,use-multilingual-v3]

In one run, on the same files:
- raw: pypdf text extraction alone, then raw sentence-transformers float32 encoding (batch 32) of the
  very chunk texts Folio stored: the engines without Folio;
- `Folio.ingest` into a fresh library for each embedder (folders under models/) and, for a
  sentence-transformers one, each precision (fp32, and auto: bf16 on CPUs with native bf16 units;
  the numpy USE encoder has one), alternating over the rounds; pages/s, chunks/s, in-process search
  latency, size;
- the cosine between the fp32 and bf16 vectors of the same chunks;
- peak RSS of a whole `Folio.ingest` process for generated PDFs of 100 and 1,000 pages (each in its
  own process, VmHWM: the process's lifetime peak).
Defaults to the 251-page Chinese book and the 117-page GeoTopo PDF from ../shared/pdf-samples.
Prints the figures and writes benchmarks/results/ingest.json.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from app.core import paths  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.embed.engine import engine_spec  # noqa: E402
from app.core.embed.precision import resolve_precision  # noqa: E402
from app.core.ingest.page import PageContent  # noqa: E402
from app.core.ingest.read_base import ReadOptions  # noqa: E402
from app.core.ingest.readers import read_pages  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.record_env import write_env  # noqa: E402

logging.getLogger("pypdf").setLevel(logging.ERROR)

SAMPLES = REPO.parent / "shared" / "pdf-samples"
DEFAULT_PDFS = [
    SAMPLES / "cjk" / "debian-reference.zh-cn.pdf",
    SAMPLES / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf",
]
QUERIES = [
    "如何制作磁盘映像文件？",
    "Debian 上有哪些桌面环境？",
    "怎样配置网络接口",
    "What is the topology of a metric space?",
    "continuous function definition",
    "How do I pin a package to unstable?",
]
RAW_BATCH = 32


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path, help="PDF files (default: two sample books)")
    parser.add_argument("--precisions", default="fp32,auto", help="embedder precisions to compare")
    parser.add_argument("--rounds", type=int, default=1, help="ingests per precision, alternated")
    parser.add_argument(
        "--rss-pages", default="100,1000", help="page counts for the peak-RSS runs ('' = none)"
    )
    parser.add_argument(
        "--embedders",
        default=f"{paths.ENGLISH_EMBED_MODEL_DIR},{paths.DEFAULT_EMBED_MODEL_DIR}",
        help="embedder folders under models/, compared side by side",
    )
    parser.add_argument("--peak-rss-child", type=int, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def folder_size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def stored_chunks(library: Path) -> list[str]:
    with sqlite3.connect(library / "library.sqlite3") as db:
        return [row[0] for row in db.execute("SELECT text FROM chunks ORDER BY id")]


def raw_encode_s(texts: list[str]) -> tuple[float, np.ndarray[Any, Any]]:
    """sentence-transformers on its own, float32, the way its documentation shows it."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(paths.english_embed_model()), device="cpu", local_files_only=True)
    model.encode(texts[:RAW_BATCH], batch_size=RAW_BATCH)  # warm-up
    started = time.perf_counter()
    vectors = model.encode(texts, batch_size=RAW_BATCH, normalize_embeddings=True, convert_to_numpy=True)
    return time.perf_counter() - started, np.asarray(vectors, dtype=np.float32)


def variant_settings(variant: str) -> Settings:
    """ "FOLDER/PRECISION" as Settings: that embedder folder under models/, that precision."""
    folder, precision = variant.rsplit("/", 1)
    return Settings(embed_model_dir=str(paths.models_dir() / folder), embed_precision=precision)


def variants(embedders: list[str], precisions: list[str]) -> list[str]:
    """Each embedder with each precision; an engine without precisions (engine_spec) once, auto."""
    out: list[str] = []
    for folder in embedders:
        if engine_spec(paths.models_dir() / folder) is not None:
            out.append(f"{folder}/auto")
        else:
            out += [f"{folder}/{precision}" for precision in precisions]
    return out


def ingest_once(pdfs: list[Path], variant: str, tmp: Path, round_no: int) -> dict[str, Any]:
    library = tmp / f"library-{variant.replace('/', '-')}-{round_no}"
    folio = build_services(variant_settings(variant), library)
    folio.library.warm_up()
    started = time.perf_counter()
    report = folio.library.ingest(pdfs)
    seconds = time.perf_counter() - started
    folio.library.search("warm-up query", 5)
    latencies: list[float] = []
    for _ in range(5):
        for query in QUERIES:
            t0 = time.perf_counter()
            folio.library.search(query, 6)
            latencies.append((time.perf_counter() - t0) * 1000)
    folio.close()
    pages = sum(f.pages for f in report.files)
    chunks = sum(f.chunks for f in report.files)
    return {
        "library": library,
        "seconds": seconds,
        "pages": pages,
        "chunks": chunks,
        "search_ms": latencies,
        "bytes": folder_size(library),
    }


def write_long_pdf(path: Path, pages: int) -> Path:
    """A text PDF of `pages` pages, twelve lines each, every page with its own figures."""
    from tests.pdfgen import write_pdf

    line = "Section {p}: the harbour crane lifts {t} tonnes; the tide table for berth {b} is on page {p}."
    return write_pdf(
        path, [[line.format(p=p, t=p % 90 + 10, b=p % 17) for _ in range(12)] for p in range(1, pages + 1)]
    )


def peak_rss_child(pages: int) -> int:
    """In a child process: ingest a generated `pages`-page PDF; print the peak RSS in KiB."""
    with tempfile.TemporaryDirectory(prefix="folio-rss-") as tmp:
        pdf = write_long_pdf(Path(tmp) / "long.pdf", pages)
        folio = build_services(Settings(), Path(tmp) / "library")
        report = folio.library.ingest([pdf])
        folio.close()
        assert report.files[0].status == "added", report.files[0]
    return peak_rss_kib()


def peak_rss_kib() -> int:
    """This process's peak RSS. On Linux VmHWM of /proc/self/status: ru_maxrss would carry the
    parent's peak across fork and exec, so every child would report at least the parent's."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def measure_peak_rss(page_counts: list[int]) -> dict[str, float]:
    peaks: dict[str, float] = {}
    for pages in page_counts:
        run = subprocess.run(
            [sys.executable, __file__, "--peak-rss-child", str(pages)],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        )
        peaks[str(pages)] = round(int(run.stdout.strip().splitlines()[-1]) / 1024, 1)
        print(f"peak RSS, {pages:5} pages     {peaks[str(pages)]} MiB", flush=True)
    return peaks


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.peak_rss_child:
        print(peak_rss_child(args.peak_rss_child))
        return 0
    pdfs = [p for p in (args.pdfs or DEFAULT_PDFS) if p.is_file()]
    if not pdfs:
        print("no PDF to ingest (../shared/pdf-samples is absent?)", file=sys.stderr)
        return 1
    embedders = [e.strip() for e in args.embedders.split(",") if e.strip()]
    precisions = variants(embedders, [p.strip() for p in args.precisions.split(",") if p.strip()])
    results: dict[str, Any] = {
        "files": [str(p) for p in pdfs],
        "cpu_count": os.cpu_count(),
        "precisions": {  # what each variant computes in (an engine with no precisions: its own)
            p: "numpy fp32"
            if engine_spec(paths.models_dir() / p.rsplit("/", 1)[0]) is not None
            else resolve_precision(p.rsplit("/", 1)[1])
            for p in precisions
        },
    }
    parse_started = time.perf_counter()
    text_only = ReadOptions(ocr=False)
    pages_parsed = sum(
        1 for pdf in pdfs for event in read_pages(pdf, text_only) if isinstance(event, PageContent)
    )
    parse_s = time.perf_counter() - parse_started
    runs: dict[str, list[dict[str, Any]]] = {p: [] for p in precisions}
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as tmp:
        for round_no in range(args.rounds):
            order = precisions if round_no % 2 == 0 else precisions[::-1]
            for precision in order:
                run = ingest_once(pdfs, precision, Path(tmp), round_no)
                runs[precision].append(run)
                print(
                    f"ingest {precision:5} round {round_no + 1}: {run['pages']} pages, "
                    f"{run['chunks']} chunks in {run['seconds']:.1f} s",
                    flush=True,
                )
        english = [p for p in precisions if p.startswith(paths.ENGLISH_EMBED_MODEL_DIR + "/")]
        first = runs[(english or precisions)[0]][0]
        texts = stored_chunks(first["library"])
        encode_s, raw_vectors = raw_encode_s(texts)
        libraries = {p: runs[p][0]["library"] for p in english}
        agreement = {}
        for precision, library in libraries.items():
            folio = build_services(variant_settings(precision), library)
            vectors = folio.library.embedder.embed(stored_chunks(library))
            folio.close()
            if vectors.shape == raw_vectors.shape:
                agreement[precision] = round(float(np.median((vectors * raw_vectors).sum(axis=1))), 6)
    raw_pages_per_s = pages_parsed / (parse_s + encode_s)
    results["raw"] = {
        "pages": pages_parsed,
        "parse_s": round(parse_s, 1),
        "encode_s": round(encode_s, 1),
        "chunks": len(texts),
        "pages_per_s": round(raw_pages_per_s, 2),
        "chunks_per_s_encode_only": round(len(texts) / encode_s, 1),
    }
    results["cosine_with_raw_fp32_median"] = agreement
    for precision in precisions:
        seconds = statistics.median(r["seconds"] for r in runs[precision])
        run = runs[precision][0]
        latencies = sorted(ms for r in runs[precision] for ms in r["search_ms"])
        results[precision] = {
            "ingest_s_median": round(seconds, 1),
            "ingest_s_all": [round(r["seconds"], 1) for r in runs[precision]],
            "pages": run["pages"],
            "chunks": run["chunks"],
            "pages_per_s": round(run["pages"] / seconds, 2),
            "chunks_per_s": round(run["chunks"] / seconds, 2),
            "ratio_to_raw_fp32": round(run["pages"] / seconds / raw_pages_per_s, 2),
            "search_ms_median": round(statistics.median(latencies), 1),
            "search_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
            "library_bytes": run["bytes"],
        }
    if len(precisions) > 1:
        base = results[precisions[0]]["pages_per_s"]
        results["speedup"] = {p: round(results[p]["pages_per_s"] / base, 2) for p in precisions[1:]}
    page_counts = [int(n) for n in args.rss_pages.split(",") if n.strip()]
    if page_counts:
        results["peak_rss_mib"] = measure_peak_rss(page_counts)
    print(json.dumps({k: v for k, v in results.items() if k != "files"}, indent=2))
    out = REPO / "benchmarks" / "results" / "ingest.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    write_env("ingest")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
