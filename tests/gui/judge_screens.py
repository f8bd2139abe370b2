"""Screenshots of the one judge in the real app: English questions answered from a Chinese page, and
from an English manual whose bookmarks give each passage its heading path.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.judge_screens docs [--OPTION]
(--reask, --frame or --withdrawn)
The real window, models and embedder over a temporary library of a Chinese article (and an English
note beside it). Each question is asked in a new chat; the script prints every answer with its
verdict and saves the window after each as docs/judge-<n>.png, so a person can read which answers
are right and whether the verdict line says so. `--reask`: with Settings.reask on, the question whose
answer the judge takes for a restatement, saved as docs/judge-reask.png. `--frame`: in the Chinese
interface, over the eval's SQLite limits page, a Chinese question the model first answers by restating
it, continued from its frame (Settings.complete_restated), saved as docs/judge-restatement-completed.png.
`--withdrawn`: over the eval's Qinglan S3 manual (it gives no price), a price question in Chinese and
one in English, whose made-up figure Folio withdraws, saved as docs/judge-withdrawn-<lang>.png.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from app.core.config import Settings
from tests.gui.conftest import make_pdf
from tests.gui.screenshots import ask_in_new_chat, library_window, save, styled_app
from tests.pdfgen import write_outlined_pdf

# A Chinese article on writing RAG answers, three pages.
ARTICLE_ZH = [
    "RAG 回答的写法。检索增强生成（RAG）先从用户的文档里找出相关段落，再让模型根据这些段落作答。"
    "段落的数量受上下文长度限制，一般取最相关的五到八段。",
    "为什么 RAG 的回答要先下结论。在 RAG 里让模型“先总结文档再回答”，等于把输入材料又生成一遍，"
    "成本翻倍且容易引入错误。更好的做法是直接给出结论，并用 [1]、[2] 标明出处。",
    "引用与核对。每个结论都应标明页码，读者点击引用即可看到原文。模型的回答里没有出处的句子，"
    "应当被标记出来，由读者自行核对。首字延迟主要取决于提示词的长度。",
]
NOTE_EN = [
    "Release checklist. Before a release, run the whole test suite on a clean clone, "
    "and update the screenshots of every screen that changed."
]
# An English manual with bookmarks: its passages carry "Purifier manual › Maintenance › …".
MANUAL_EN = [
    ["Purifier manual", "Getting started", "Place the purifier at least 30 cm from the wall."],
    [
        "Maintenance",
        "Filter. The composite filter lasts about 3000 hours in normal use, roughly six months",
        "at eight hours a day. It must not be washed with water: water destroys its carbon layer.",
        "Indicator. Hold the filter key for five seconds to reset the filter indicator.",
    ],
]
MANUAL_OUTLINE = [
    (1, "Purifier manual", 0),
    (2, "Getting started", 0),
    (2, "Maintenance", 1),
    (3, "Filter", 1),
]
QUESTIONS = (
    "Why should a RAG model not summarise the documents before answering?",
    "What does the time to the first word mostly depend on?",
    "How many passages does RAG usually take?",
    "How many hours does the purifier's composite filter last?",
    "Which key resets the filter indicator, and for how long must it be held?",
)


def main(out: Path, reask: bool = False) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-judge-shots-"))
    app = styled_app()  # noqa: F841  (kept alive while the window runs)
    docs = work / "docs"
    docs.mkdir()
    make_pdf(docs / "rag-answers.zh.pdf", ARTICLE_ZH)
    make_pdf(docs / "release-checklist.pdf", NOTE_EN)
    write_outlined_pdf(docs / "purifier-manual.pdf", MANUAL_EN, MANUAL_OUTLINE)
    settings = Settings(temperature=0.0, seed=42, language="en", reask=reask)
    questions = (QUESTIONS[1],) if reask else QUESTIONS
    window = library_window(settings, work, docs)
    for number, question in enumerate(questions, start=1):
        final = ask_in_new_chat(window, question).final
        if final is not None:
            found = [(f.citation.document, f.citation.page, f.citation.heading) for f in final.located]
            print(
                f"[{number}] {question}\n    answer: {final.answer!r}\n    verdict: {final.verdict}\n"
                f"    found: {found}\n    asked again after: {final.reasked_from!r}",
                flush=True,
            )
        save(window, out / ("judge-reask.png" if reask else f"judge-{number}.png"))
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


def one_document(out: Path, document: str, language: str, question: str, shot: str) -> int:
    """The window in `language` over one of the eval's documents after `question` (--frame, --withdrawn)."""
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-one-document-shots-"))
    app = styled_app()  # noqa: F841  (kept alive while the window runs)
    docs = work / "docs"
    docs.mkdir()
    shutil.copy(Path(__file__).resolve().parents[2] / "benchmarks/eval/docs" / document, docs)
    settings = Settings(temperature=0.0, seed=42, language=language)
    window = library_window(settings, work, docs)
    final = ask_in_new_chat(window, question).final
    if final is not None:
        print(f"answer: {final.answer!r}\nverdict: {final.verdict}", flush=True)
        print(f"first: {final.reasked_from!r}\nwithdrawn: {final.withdrawn!r}", flush=True)
    save(window, out / shot)
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    target = Path(arguments[0] if arguments else "docs")
    if "--frame" in sys.argv[1:]:
        raise SystemExit(
            one_document(
                target,
                "sqlite-limits.en.html",
                "zh_CN",
                "SQLite 默认最多允许几个 SELECT？",
                "judge-restatement-completed.png",
            )
        )
    if "--withdrawn" in sys.argv[1:]:
        manual = "qinglan-s3-manual.pdf"  # English first: the Chinese interface stays installed
        one_document(
            target, manual, "en", "How much did the Qinglan S3 cost at launch?", "judge-withdrawn-en.png"
        )
        raise SystemExit(
            one_document(target, manual, "zh_CN", "清岚 S3 的价格是多少元？", "judge-withdrawn-zh.png")
        )
    raise SystemExit(main(target, "--reask" in sys.argv[1:]))
