"""The library's commands: ingest, search, documents, remove, reread, verify, export-chat, reindex-library."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from app.core.api import (
    EXIT_FAILED,
    EXIT_OK,
    QT_TRANSLATE_NOOP,
    FolioError,
    UsageError,
    message_text,
    shown_heading,
    translate,
)

if TYPE_CHECKING:  # imported when a command runs: `folio documents` never loads torch or llama.cpp
    from app.core.api import IngestProgress, IngestReport
    from app.core.qa import Folio

# what happened to each file of an ingest (FileResult.status), as the human-readable report says it
FILE_STATUS = {
    "added": QT_TRANSLATE_NOOP("Cli", "added"),
    "updated": QT_TRANSLATE_NOOP("Cli", "updated"),
    "unchanged": QT_TRANSLATE_NOOP("Cli", "unchanged"),
    "failed": QT_TRANSLATE_NOOP("Cli", "failed"),
}


def emit_json(out: TextIO, data: dict[str, Any]) -> None:
    """One JSON document on `out` (--json)."""
    out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    out.flush()


def progress_printer(out: TextIO) -> Callable[[IngestProgress], None]:
    """A progress callback printing a file's pages to `out` (every 25th page while parsing)."""

    def show(progress: IngestProgress) -> None:
        if (
            progress.stage == "parsing"
            and progress.pages_done % 25
            and progress.pages_done != progress.pages_total
        ):
            return
        name = Path(progress.path).name
        where = f"[{progress.file_index + 1}/{progress.file_count}]"
        page = translate("Cli", "page {0}/{1}").format(progress.pages_done, progress.pages_total)
        print(f"{where} {name}: {page}", file=out)

    return show


def cmd_ingest(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    report = folio.library.ingest(args.paths, progress=None if args.json else progress_printer(sys.stderr))
    return print_report(report, args.json, out)


def print_report(report: IngestReport, as_json: bool, out: TextIO) -> int:
    """An ingest's report, as JSON or one line per file; the exit code it means."""
    if as_json:
        emit_json(out, report.to_json())
    else:
        for item in report.files:
            detail = (
                message_text(item.error or "", translate)
                if item.status == "failed"
                else translate("Cli", "{0} pages, {1} chunks").format(item.pages, item.chunks)
            )
            status = translate("Cli", FILE_STATUS.get(item.status, item.status))
            print(f"{status:9} {item.document}: {detail}", file=out)
        print(
            translate("Cli", "{0} files in {1:.1f} s, {2} failed").format(
                len(report.files), report.elapsed_ms / 1000, len(report.failed)
            ),
            file=out,
        )
    if report.cancelled:
        return EXIT_FAILED
    return EXIT_FAILED if report.failed else EXIT_OK


def cmd_search(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    if not args.question.strip():
        raise UsageError(QT_TRANSLATE_NOOP("Core", "the question is empty"))
    result = folio.library.search(args.question, args.k)
    if args.json:
        emit_json(out, result.to_json())
        return EXIT_OK
    for n, hit in enumerate(result.hits, start=1):
        pages = (
            translate("Cli", "p. {0}").format(hit.page)
            if hit.page == hit.page_end
            else translate("Cli", "pp. {0}-{1}").format(hit.page, hit.page_end)
        )
        snippet = hit.text if len(hit.text) <= 240 else hit.text[:237] + "..."
        if heading := shown_heading(hit):
            pages = f"{pages} · {heading}"
        print(
            f"{n}. {hit.document}, {pages}  "
            + translate("Cli", "(score {0:.4f}, similarity {1:.2f})").format(hit.score, hit.similarity),
            file=out,
        )
        print(f"   {snippet}", file=out)
    if not result.hits:
        print(translate("Cli", "no passages found"), file=out)
    print(translate("Cli", "retrieval {0:.0f} ms").format(result.retrieval_ms), file=out)
    return EXIT_OK


def cmd_documents(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    docs = folio.library.documents()
    if args.json:
        emit_json(out, {"documents": [d.to_json() for d in docs]})
        return EXIT_OK
    advice = folio.library.reread_advice()
    outdated = set(advice.documents) if advice is not None else set()
    for doc in docs:
        size = translate("Cli", "({0} pages, {1} chunks)").format(doc.pages, doc.chunks)
        mark = translate("Cli", "  [read by an earlier Folio]") if doc.id in outdated else ""
        print(f"{doc.id:5}  {doc.name}  {size}  {doc.path}{mark}", file=out)
    print(translate("Cli", "{0} documents").format(len(docs)), file=out)
    if advice is not None:
        print(
            translate(
                "Cli", "{0} read by an earlier version of Folio: `folio reread` reads them again"
            ).format(len(advice.documents)),
            file=out,
        )
    return EXIT_OK


def cmd_reread(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    """The documents named, else those an earlier version of Folio read; each keeps its passages
    until its new ones are stored."""
    documents: list[str | int] = list(args.documents)
    if not documents:
        advice = folio.library.reread_advice()
        if advice is None:
            if args.json:
                emit_json(out, {"files": [], "elapsed_ms": 0.0, "cancelled": False})  # as an IngestReport
            else:
                print(translate("Cli", "every document was read by this version of Folio"), file=out)
            return EXIT_OK
        documents = list(advice.documents)
    progress = None if args.json else progress_printer(sys.stderr)
    report = folio.library.reindex(*documents, progress=progress)
    return print_report(report, args.json, out)


def cmd_remove(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    info = folio.library.remove(args.document)
    if args.json:
        emit_json(out, {"removed": info.to_json()})
    else:
        print(translate("Cli", "removed {0} ({1} chunks)").format(info.name, info.chunks), file=out)
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    report = folio.library.verify(repair=args.repair)
    if args.json:
        emit_json(out, report.to_json())
    else:
        state = translate("Cli", "ok") if report.ok else translate("Cli", "PROBLEMS")
        counts = translate("Cli", "{0} documents, {1} chunks, {2} vectors").format(
            report.documents, report.chunks, report.vectors
        )
        print(f"{state}: {counts}", file=out)
        for problem in report.problems:
            print("  " + translate("Cli", "problem: {0}").format(message_text(problem, translate)), file=out)
        for fix in report.repaired:
            print("  " + translate("Cli", "repaired: {0}").format(message_text(fix, translate)), file=out)
    return EXIT_OK if report.ok else EXIT_FAILED


def cmd_export_chat(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    text = folio.chats.export(args.chat_id, args.format, translate)
    if args.out is None:
        if args.json:
            emit_json(out, {"chat_id": args.chat_id, "format": args.format, "text": text})
        else:
            out.write(text)
        return EXIT_OK
    target = Path(args.out).expanduser()
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise FolioError(f"cannot write {target}: {exc.strerror or exc}") from exc
    if args.json:
        emit_json(out, {"chat_id": args.chat_id, "format": args.format, "path": str(target)})
    else:
        print(f"wrote chat {args.chat_id} to {target}", file=sys.stderr)
    return EXIT_OK


def cmd_reindex_library(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    """The old library is only read; vectors of two models never meet in one library."""
    from app.core.embed.embedder import Embedder

    embedder = (
        Embedder(args.embedder.expanduser(), precision=folio.settings.embed_precision)
        if args.embedder
        else None
    )
    progress = None if args.json else progress_printer(sys.stderr)
    report = folio.library.reindex_library(Path(args.into).expanduser(), progress, embedder=embedder)
    return print_report(report, args.json, out)
