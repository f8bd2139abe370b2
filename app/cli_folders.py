"""`folio add-folder`, `folio folders`, `folio remove-folder`, `folio sync`: watched folders for scripts."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from app.core.api import EXIT_FAILED, EXIT_OK, UsageError

if TYPE_CHECKING:
    from app.core.api import DocumentInfo, FolderScan, ProgressCallback
    from app.core.qa import Folio


def add_folder_parsers(
    subparsers: argparse._SubParsersAction,  # type: ignore[type-arg]
    parents: Sequence[argparse.ArgumentParser],
) -> None:
    add = subparsers.add_parser(
        "add-folder",
        parents=parents,
        help="watch a folder: its files are ingested now and kept in step by `folio sync` and the window",
    )
    add.add_argument("folder", type=Path, metavar="DIR")
    subparsers.add_parser("folders", parents=parents, help="list the watched folders (offline ones too)")
    stop = subparsers.add_parser(
        "remove-folder", parents=parents, help="stop watching a folder (its documents stay)"
    )
    stop.add_argument("folder", type=Path, metavar="DIR")
    sync = subparsers.add_parser(
        "sync",
        parents=parents,
        help="bring the library in step with its watched folders: add new files, update changed ones, "
        "follow moved ones; deleted ones per the folder_deletions setting",
    )
    choice = sync.add_mutually_exclusive_group()
    choice.add_argument("--delete", action="store_true", help="remove the documents of deleted files")
    choice.add_argument("--keep", action="store_true", help="keep the documents of deleted files")


def cmd_add_folder(
    args: argparse.Namespace, folio: Folio, out: TextIO, progress: ProgressCallback | None
) -> int:
    folder = folio.library.watch_folder(args.folder)
    return _sync(args, folio, out, [folder.path], progress)


def cmd_folders(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    from app.core.api import folder_states

    states = folder_states(folio.library.watched_folders(), folio.library.documents())
    if args.json:
        _emit(out, {"folders": [state.to_json() for state in states]})
        return EXIT_OK
    for state in states:
        where = "offline" if state.offline else "watched"
        print(f"{where:8} {state.path}  ({state.documents} documents)", file=out)
    print(f"{len(states)} folders", file=out)
    return EXIT_OK


def cmd_remove_folder(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    path = str(args.folder.expanduser().absolute())
    known = {f.path for f in folio.library.watched_folders()}
    resolved = str(args.folder.expanduser().resolve())
    target = path if path in known else resolved
    if not folio.library.unwatch_folder(target):
        raise UsageError(f"{args.folder} is not a watched folder (see `folio folders`)")
    if args.json:
        _emit(out, {"removed": target})
    else:
        print(f"no longer watching {target}; its documents stay in the library", file=out)
    return EXIT_OK


def cmd_sync(args: argparse.Namespace, folio: Folio, out: TextIO, progress: ProgressCallback | None) -> int:
    return _sync(args, folio, out, [f.path for f in folio.library.watched_folders()], progress)


def _sync(
    args: argparse.Namespace,
    folio: Folio,
    out: TextIO,
    folders: list[str],
    progress: ProgressCallback | None,
) -> int:
    scans = [folio.library.scan_folder(folder) for folder in folders]
    report = folio.library.ingest([path for scan in scans for path in scan.to_ingest], progress)
    deleted = [document for scan in scans for document in scan.deleted]
    delete, keep = getattr(args, "delete", False), getattr(args, "keep", False)  # add-folder: neither
    policy = "always" if delete else "never" if keep else folio.settings.folder_deletions
    removed: list[DocumentInfo] = [folio.library.remove(d.id) for d in deleted] if policy == "always" else []
    waiting = deleted if policy == "ask" else []
    if args.json:
        _emit(
            out,
            {
                "folders": [scan.to_json() for scan in scans],
                "ingest": report.to_json(),
                "removed": [d.to_json() for d in removed],
                "awaiting_confirmation": [d.to_json() for d in waiting],
            },
        )
    else:
        _print_sync(scans, removed, waiting, out)
        for item in report.files:
            detail = item.error if item.status == "failed" else f"{item.pages} pages, {item.chunks} chunks"
            print(f"{item.status:9} {item.document}: {detail}", file=out)
    return EXIT_FAILED if report.failed or report.cancelled else EXIT_OK


def _print_sync(
    scans: list[FolderScan], removed: list[DocumentInfo], waiting: list[DocumentInfo], out: TextIO
) -> None:
    for scan in scans:
        if scan.offline:
            print(
                f"offline  {scan.folder}: {scan.offline_reason}; its {scan.documents} documents kept",
                file=out,
            )
            continue
        print(
            f"scanned  {scan.folder}: {len(scan.new)} new, {len(scan.changed)} changed, "
            f"{len(scan.moved)} moved, {len(scan.deleted)} deleted",
            file=out,
        )
        for move in scan.moved:
            print(f"moved    {move.old_path} -> {move.new_path}", file=out)
        for problem in scan.unreadable:
            print(f"unreadable {problem.path}: {problem.reason}", file=out)
    for document in removed:
        print(f"removed  {document.name} (its file was deleted)", file=out)
    for document in waiting:
        print(f"deleted  {document.path}: kept until `folio sync --delete`", file=out)


def _emit(out: TextIO, data: dict[str, Any]) -> None:
    out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    out.flush()


def folder_commands(
    progress_printer: Callable[[TextIO], ProgressCallback],
) -> dict[str, Callable[[argparse.Namespace, Folio, TextIO], int]]:
    """The commands, for cli.COMMANDS (`progress_printer` prints ingestion progress on stderr)."""

    def progress(args: argparse.Namespace) -> ProgressCallback | None:
        return None if args.json else progress_printer(sys.stderr)

    return {
        "add-folder": lambda args, folio, out: cmd_add_folder(args, folio, out, progress(args)),
        "folders": cmd_folders,
        "remove-folder": cmd_remove_folder,
        "sync": lambda args, folio, out: cmd_sync(args, folio, out, progress(args)),
    }
