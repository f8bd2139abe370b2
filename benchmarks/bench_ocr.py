"""OCR quality and speed: character error rate against the text layer, seconds per page, by
rendering resolution and detection size, on a handful of English and Chinese pages.

Pages of digital PDFs from ../shared/pdf-samples are rendered (as a perfect scan would be) and
recognised by the app's OCR engine; the recognised text is compared with the page's own text
layer (both normalised, whitespace removed). Also measures the size the OCR packages add.

Usage: .venv/bin/python benchmarks/bench_ocr.py [--quick]
Prints the figures and writes benchmarks/results/ocr.json. The machine is shared: keep it short.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.ingest.ocr import DET_SIDE_PX, OCR_DPI, OcrEngine, layout_text, render_scale  # noqa: E402
from app.core.normalize import normalize_text  # noqa: E402

logging.getLogger("pypdf").setLevel(logging.ERROR)

SAMPLES = Path(os.environ.get("FOLIO_SHARED", str(REPO.parent / "shared"))) / "pdf-samples"
# (file, 1-based page, language): single-column pages whose text layer is the reference.
PAGES = [
    ("021-pdfa/crazyones-pdfa.pdf", 1, "en"),
    ("011-google-doc-document/google-doc-document.pdf", 1, "en"),
    ("004-pdflatex-4-pages/pdflatex-4-pages.pdf", 2, "en"),
    ("cjk/debian-reference.zh-cn.pdf", 181, "zh"),
    ("cjk/debian-reference.zh-cn.pdf", 96, "zh"),
]
DPIS = (100, 150, 200)
DET_SIDES = (960, 1280, 0)  # 0: detection at the full rendering
# The distributions the OCR feature installs (beyond what Folio already needed).
OCR_DISTRIBUTIONS = (
    "rapidocr",
    "onnxruntime",
    "opencv-python-headless",
    "pypdfium2",
    "pyclipper",
    "shapely",
    "omegaconf",
    "pillow",
    "colorlog",
    "six",
    "flatbuffers",
    "protobuf",
)
OTHER_READER_DISTRIBUTIONS = ("python-docx", "lxml", "selectolax")


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions), two rows at a time."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def squeeze(text: str) -> str:
    return "".join(normalize_text(text).split())


def distribution_bytes(name: str) -> int:
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return 0
    total = 0
    for file in dist.files or []:
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total


def measure(engine: OcrEngine, pdfium_doc: object, page: int, dpi: int, reference: str) -> dict[str, float]:
    doc: list[object] = pdfium_doc  # type: ignore[assignment]
    pdf_page = doc[page - 1]
    width, height = pdf_page.get_size()  # type: ignore[attr-defined]
    scale = render_scale(width, height, dpi)
    image = pdf_page.render(scale=scale, grayscale=True).to_numpy()  # type: ignore[attr-defined]
    started = time.perf_counter()
    text, _ = layout_text(engine.recognise(image), scale)
    seconds = time.perf_counter() - started
    hypothesis = squeeze(text)
    errors = edit_distance(reference, hypothesis)
    cer = errors / max(1, len(reference))
    return {"seconds": round(seconds, 2), "cer": round(cer, 4), "chars": len(reference)}


def main() -> int:
    import pypdf
    import pypdfium2

    quick = "--quick" in sys.argv
    dpis = (OCR_DPI,) if quick else DPIS
    det_sides = (DET_SIDE_PX,) if quick else DET_SIDES
    results: dict[str, object] = {
        "machine": f"{os.cpu_count()} cores, shared with other jobs: timings are upper bounds",
        "chosen": {"dpi": OCR_DPI, "det_side_px": DET_SIDE_PX},
        "load_average_at_start": os.getloadavg()[0],
    }
    engines = {side: OcrEngine(det_side=side) for side in det_sides}
    started = time.perf_counter()
    engines[det_sides[0]]._load()
    results["model_load_s"] = round(time.perf_counter() - started, 2)
    runs: list[dict[str, object]] = []
    for file, page, language in PAGES:
        path = SAMPLES / file
        reference = squeeze(pypdf.PdfReader(path).pages[page - 1].extract_text())
        document = pypdfium2.PdfDocument(str(path))
        # every resolution at the chosen detection size; every detection size at the chosen dpi
        settings = {(dpi, DET_SIDE_PX) for dpi in dpis} | {(OCR_DPI, side) for side in det_sides}
        for dpi, side in sorted(settings):
            figures = measure(engines[side], document, page, dpi, reference)
            run = {"file": file, "page": page, "language": language, "dpi": dpi, "det_side_px": side}
            run.update(figures)
            runs.append(run)
            print(json.dumps(run, ensure_ascii=False), flush=True)
        document.close()
    results["runs"] = runs
    summary: dict[str, dict[str, float]] = {}
    for run in runs:
        key = f"{run['language']} dpi={run['dpi']} det={run['det_side_px'] or 'full'}"
        entry = summary.setdefault(key, {"pages": 0, "seconds": 0.0, "errors": 0.0, "chars": 0})
        entry["pages"] += 1
        entry["seconds"] += float(run["seconds"])  # type: ignore[arg-type]
        entry["errors"] += float(run["cer"]) * int(run["chars"])  # type: ignore[call-overload]
        entry["chars"] += int(run["chars"])  # type: ignore[call-overload]
    results["summary"] = {
        key: {
            "pages": e["pages"],
            "cer": round(e["errors"] / max(1, e["chars"]), 4),
            "seconds_per_page": round(e["seconds"] / e["pages"], 2),
            "pages_per_s": round(e["pages"] / e["seconds"], 3) if e["seconds"] else 0.0,
        }
        for key, e in sorted(summary.items())
    }
    ocr_bytes = {name: distribution_bytes(name) for name in OCR_DISTRIBUTIONS}
    reader_bytes = {name: distribution_bytes(name) for name in OTHER_READER_DISTRIBUTIONS}
    results["installed_mib"] = {
        "ocr_packages": {k: round(v / 1024**2, 1) for k, v in ocr_bytes.items()},
        "ocr_total": round(sum(ocr_bytes.values()) / 1024**2, 1),
        "docx_html_epub_packages": {k: round(v / 1024**2, 1) for k, v in reader_bytes.items()},
        "docx_html_epub_total": round(sum(reader_bytes.values()) / 1024**2, 1),
    }
    results["load_average_at_end"] = os.getloadavg()[0]
    print(json.dumps({k: results[k] for k in ("summary", "installed_mib", "model_load_s")}, indent=2))
    out = REPO / "benchmarks" / "results" / "ocr.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
