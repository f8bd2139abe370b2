"""Ingestion throughput (pages/s, chunks/s), search latency and library size per 1,000 chunks.

Usage: .venv/bin/python benchmarks/bench_ingest.py [PDF ...]
Defaults to the 251-page Chinese book and the 117-page GeoTopo PDF from ../shared/pdf-samples.
Prints the figures and writes benchmarks/results/ingest.json.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.config import Settings  # noqa: E402
from app.core.ingest.page import PageContent  # noqa: E402
from app.core.ingest.readers import ReadOptions, read_pages  # noqa: E402
from app.core.qa import build_services  # noqa: E402
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


def folder_size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def main() -> int:
    pdfs = [Path(p) for p in sys.argv[1:]] or DEFAULT_PDFS
    results: dict[str, object] = {"files": [str(p) for p in pdfs], "cpu_count": os.cpu_count()}
    parse_started = time.perf_counter()
    text_only = ReadOptions(ocr=False)
    pages_parsed = sum(
        1 for pdf in pdfs for event in read_pages(pdf, text_only) if isinstance(event, PageContent)
    )
    parse_s = time.perf_counter() - parse_started
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as tmp:
        library = Path(tmp) / "library"
        folio = build_services(Settings(), library)
        load_started = time.perf_counter()
        folio.warm_up()
        load_s = time.perf_counter() - load_started
        started = time.perf_counter()
        report = folio.ingest(pdfs)
        ingest_s = time.perf_counter() - started
        pages = sum(f.pages for f in report.files)
        chunks = sum(f.chunks for f in report.files)
        folio.search("warm-up query", 5)
        latencies: list[float] = []
        for _ in range(5):
            for query in QUERIES:
                t0 = time.perf_counter()
                folio.search(query, 6)
                latencies.append((time.perf_counter() - t0) * 1000)
        folio.close()
        size = folder_size(library)
    results.update(
        {
            "pages": pages,
            "chunks": chunks,
            "embedder_load_s": round(load_s, 2),
            "parse_only_pages_per_s": round(pages_parsed / parse_s, 1),
            "ingest_s": round(ingest_s, 1),
            "pages_per_s": round(pages / ingest_s, 2),
            "chunks_per_s": round(chunks / ingest_s, 2),
            "search_ms_median": round(statistics.median(latencies), 1),
            "search_ms_p90": round(sorted(latencies)[int(0.9 * len(latencies))], 1),
            "library_bytes": size,
            "bytes_per_1000_chunks": round(size / chunks * 1000),
        }
    )
    for key, value in results.items():
        print(f"{key:24} {value}")
    out = REPO / "benchmarks" / "results" / "ingest.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    write_env("ingest")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
