"""Recognise the text of a rendered page, Chinese and English, with a box for every line.

RapidOCR with the PP-OCRv6 "small" detection and recognition models that ship inside its wheel
(one recogniser for Chinese and Latin script), run by onnxruntime on the CPU. Models are loaded
from the package folder by path, so nothing is ever downloaded. Runs in the extraction worker
only: onnxruntime, OpenCV and the models are imported there, never in the app process.
"""

from __future__ import annotations

import dataclasses
import logging
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.ingest.chunker import join_texts
from app.core.ingest.page import TextBox
from app.core.normalize import normalize_text

# Rendering resolution for OCR, chosen by benchmarks/bench_ocr.py (character error rate against
# the text layer, and seconds per page, at 100 / 150 / 200 / 300 dpi).
OCR_DPI = 150
# The longest side of a rendered page, in pixels: a poster-sized page is rendered smaller
# instead of filling the worker's memory.
MAX_SIDE_PX = 2600
# A page whose rendering has fewer dark pixels than this share is blank: it is not recognised.
BLANK_INK_SHARE = 0.0005
DARK_LEVEL = 160  # 0-255 grey level below which a pixel counts as ink
MIN_LINE_SCORE = 0.5  # recognition confidence below which a line is dropped
# Text detection runs on the page scaled down to this longest side (recognition still reads the
# lines at the full rendering): detection is most of the time, and DB detection finds 10 pt text
# at this size (benchmarks/bench_ocr.py). 0 = detect at the full rendering.
DET_SIDE_PX = 1280

MODEL_FILES = {
    "det": "PP-OCRv6_det_small.onnx",
    "cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
    "rec": "PP-OCRv6_rec_small.onnx",
}


class OcrUnavailable(Exception):
    """The OCR engine or its models are not installed; the message says what is missing."""


@dataclass(frozen=True)
class OcrLine:
    """One recognised line: its text, confidence, and box in image pixels."""

    text: str
    score: float
    x0: float
    y0: float
    x1: float
    y1: float


def model_paths() -> dict[str, Path]:
    """The model files inside the installed rapidocr package (raises OcrUnavailable if absent)."""
    try:
        import rapidocr
    except ImportError as exc:
        raise OcrUnavailable(f"the OCR engine is not installed ({exc})") from exc
    folder = Path(rapidocr.__file__).resolve().parent / "models"
    paths = {task: folder / name for task, name in MODEL_FILES.items()}
    missing = [str(path) for path in paths.values() if not path.is_file()]
    if missing:
        raise OcrUnavailable(f"the OCR models are missing: {', '.join(missing)}")
    return paths


class OcrEngine:
    """Loads the models on first use; one engine serves every page the worker reads."""

    def __init__(self, det_side: int = DET_SIDE_PX) -> None:
        self.det_side = det_side
        self._engine: Any = None

    def _load(self) -> Any:
        if self._engine is None:
            paths = model_paths()
            from rapidocr import RapidOCR

            logging.getLogger("RapidOCR").setLevel(logging.ERROR)
            params: dict[str, Any] = {
                "Global.log_level": "error",
                "Global.use_cls": False,  # upright pages: the angle classifier costs time
                "Global.max_side_len": MAX_SIDE_PX,
                "Global.text_score": MIN_LINE_SCORE,
                "Det.model_path": str(paths["det"]),
                "Cls.model_path": str(paths["cls"]),
                "Rec.model_path": str(paths["rec"]),
            }
            if self.det_side:
                params.update({"Det.limit_type": "max", "Det.limit_side_len": self.det_side})
            self._engine = RapidOCR(params=params)
        return self._engine

    def recognise(self, image: npt.NDArray[np.uint8]) -> list[OcrLine]:
        """Lines of an RGB (or grey) image, in the engine's reading order."""
        engine = self._load()
        if image.ndim == 2:
            image = np.repeat(image[:, :, None], 3, axis=2)
        result = engine(np.ascontiguousarray(image[:, :, :3]))
        if result.boxes is None or result.txts is None:
            return []
        lines: list[OcrLine] = []
        for box, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
            xs = [float(point[0]) for point in box]
            ys = [float(point[1]) for point in box]
            lines.append(OcrLine(str(text), float(score), min(xs), min(ys), max(xs), max(ys)))
        return lines


def is_blank(image: npt.NDArray[np.uint8]) -> bool:
    """True when the page holds (almost) no ink: nothing to recognise."""
    grey = image if image.ndim == 2 else image[:, :, :3].min(axis=2)
    return float(np.count_nonzero(grey < DARK_LEVEL)) < BLANK_INK_SHARE * grey.size


def render_scale(width_pt: float, height_pt: float, dpi: int = OCR_DPI) -> float:
    """Pixels per PDF point for rendering a page: `dpi`, unless that exceeds MAX_SIDE_PX."""
    scale = dpi / 72.0
    longest = max(width_pt, height_pt, 1.0)
    return min(scale, MAX_SIDE_PX / longest)


def _hyphen_joined(left: str, right: str) -> bool:
    """A word hyphenated at a line end: "inter-" then "national" (as normalize_text joins them)."""
    return (
        len(left) >= 2
        and left[-1] in "-\u00ad\u2010"
        and unicodedata.category(left[-2]).startswith("L")
        and right[:1].islower()
    )


def layout_text(lines: list[OcrLine], scale: float) -> tuple[str, tuple[TextBox, ...]]:
    """The page's normalised text from its lines, and each line's [start, end) and box in
    points. Lines are joined as normalize_text would join wrapped lines (hyphenation undone,
    no space between CJK characters), so the offsets are exact in the stored page text."""
    text = ""
    boxes: list[TextBox] = []
    for line in lines:
        piece = normalize_text(line.text)
        if not piece:
            continue
        if text and _hyphen_joined(text, piece):
            text = text[:-1]
            if boxes:  # the previous line lost its hyphen
                boxes[-1] = dataclasses.replace(boxes[-1], end=len(text))
            start = len(text)
            text += piece
        else:
            joined = join_texts(text, piece)
            start = len(joined) - len(piece)
            text = joined
        boxes.append(
            TextBox(
                start,
                len(text),
                round(line.x0 / scale, 2),
                round(line.y0 / scale, 2),
                round(line.x1 / scale, 2),
                round(line.y1 / scale, 2),
            )
        )
    return text, tuple(boxes)
