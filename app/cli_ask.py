"""`folio ask`: stream a cited answer (or print it as JSON) with its metrics line."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from app.core.api import (
    CITE_MODES,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    Answer,
    AskOptions,
    CancelToken,
    Delta,
    Finished,
    FolioError,
    Progress,
    UsageError,
)

if TYPE_CHECKING:
    from app.core.qa import Folio

MARKS = {
    "length": "[cut off: the answer reached the maximum number of tokens]",
    "cancelled": "[stopped: the answer was cancelled and is incomplete]",
    "error": "[failed: the answer could not be completed]",
}


def add_ask_parser(
    subparsers: argparse._SubParsersAction,  # type: ignore[type-arg]
    parents: Sequence[argparse.ArgumentParser] = (),
) -> None:
    """Register `ask`; `parents` may already provide the common --json/--library options."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ask",
        parents=list(parents),
        help="answer a question from your documents, with citations",
        description="Answer QUESTION from the library's passages with a local model, citing pages.",
    )
    parser.add_argument("question", help="the question to answer")
    parser.add_argument(
        "--thinking",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="let a thinking model reason before answering (default: off)",
    )
    parser.add_argument("--max-tokens", type=int, metavar="N", help="answer length limit in tokens")
    parser.add_argument("--temperature", type=float, metavar="T", help="sampling temperature (0 = greedy)")
    parser.add_argument("--top-k", type=int, metavar="K", help="top-k sampling (0 = off)")
    parser.add_argument("--top-p", type=float, metavar="P", help="nucleus sampling threshold")
    parser.add_argument("--min-p", type=float, metavar="P", help="min-p sampling threshold")
    parser.add_argument("--seed", type=int, metavar="S", help="sampling seed (reproducible runs)")
    parser.add_argument(
        "--model",
        metavar="PATH|NAME",
        help="GGUF chat model to use instead of the setting; with --server, the server's model name",
    )
    parser.add_argument(
        "--server",
        metavar="URL",
        help="answer with a model on an OpenAI-compatible server (llama-server, vLLM, Ollama) at URL; "
        "its API key comes from FOLIO_API_KEY or the key saved in Settings",
    )
    parser.add_argument("--ctx", type=int, metavar="N", help="context size in tokens")
    parser.add_argument("--chat", type=int, metavar="ID", help="continue this chat (follow-up question)")
    parser.add_argument(
        "--cite-mode",
        choices=CITE_MODES,
        help="free: markers checked after the answer; constrained: '[' can only open a marker of a "
        "passage in the prompt (default: settings)",
    )
    parser.add_argument(
        "--scope",
        default="auto",
        metavar="SCOPE",
        help="where the answer reads: auto (from the question: 'summarise report.pdf', 'what does "
        "each file say about X'), passages (a few passages, as usual), document:NAME (the whole "
        "document, in a few cited points), each-file (one passage of each document)",
    )
    provided = {
        option for parent in parents for action in parent._actions for option in action.option_strings
    }
    if "--json" not in provided:
        parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")


@contextmanager
def _ctrl_c_cancels(cancel: CancelToken) -> Iterator[None]:
    """The first Ctrl+C cancels the answer cleanly; a second one interrupts as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(_signum: int, _frame: FrameType | None) -> None:
        cancel.cancel()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def format_metrics_line(answer: Answer) -> str:
    """`ttft 412 ms · 38.2 tok/s · 96 tokens · stop`."""
    m = answer.metrics
    ttft = f"ttft {m.ttft_ms:.0f} ms" if m.ttft_ms is not None else "ttft –"
    rate = f"{m.tokens_per_s:.1f} tok/s" if m.tokens_per_s is not None else "– tok/s"
    source = "" if m.counts_from == "engine" else f" ({m.counts_from})"
    return f"{ttft} · {rate} · {m.completion_tokens} tokens{source} · {answer.finish_reason}"


def progress_line(event: Progress) -> str:
    """`step 2 of 6: reading pp. 9-17 of 50 of report.pdf (4 passages)`."""
    pages = (
        f"p. {event.first_page}"
        if event.last_page <= event.first_page
        else (f"pp. {event.first_page}-{event.last_page}")
    )
    return (
        f"step {event.step} of {event.steps}: reading {pages} of {event.pages} of {event.document} "
        f"({event.passages} passage{'s' if event.passages != 1 else ''})"
    )


VERDICT_LINES = {
    "answered": "Answered from your documents.",
    "partly": "Partly answered from your documents: check the statements below.",
    "not_answered": "Not answered: nothing here is both in your documents and about the question.",
    "not_in_documents": "Your documents do not answer this question.",
}


def _print_plain_tail(answer: Answer, out: TextIO, err: TextIO) -> None:
    out.write("\n")
    if answer.finish_reason in MARKS:
        out.write(MARKS[answer.finish_reason] + "\n")
    if answer.error:
        err.write(f"error: {answer.error}\n")
    verdict = VERDICT_LINES.get(answer.verdict or "")
    if verdict:
        out.write(f"\n{verdict}\n")
    if answer.support_rate is not None:
        supported, judged = answer.support_counts()
        gap = "" if verdict else "\n"
        out.write(f"{gap}{supported} of {judged} statements are supported by your documents.\n")
        for sentence in answer.sentences:
            if sentence.supported is False:
                out.write(f"  not found in the passages: {sentence.text.strip()}\n")
            elif sentence.supported and sentence.on_question is False:
                out.write(f"  in the passages, but not about the question: {sentence.text.strip()}\n")
    if answer.citations:
        out.write("\nSources:\n")
        for citation in answer.citations:
            pages = f"p. {citation.page}"
            if citation.page_end > citation.page:
                pages = f"pp. {citation.page}–{citation.page_end}"
            found = "" if citation.source == "model" else "  (matched by Folio)"
            out.write(f"  [{citation.n}] {citation.document}, {pages}{found}\n")
    if answer.invalid_citations:
        listed = ", ".join(str(n) for n in answer.invalid_citations)
        out.write(f"(markers that match no passage: {listed})\n")
    out.write(format_metrics_line(answer) + "\n")


def run_ask(args: argparse.Namespace, folio: Folio, out: TextIO | None = None) -> int:
    """Run `folio ask`; 0 for a complete answer, 1 otherwise, 2 for a usage error.

    `out` is where the answer or the JSON document goes (the CLI's real stdout); messages go to stderr.
    """
    out, err = out or sys.stdout, sys.stderr
    try:
        server = getattr(args, "server", None)
        if args.model is not None or args.ctx is not None or server is not None:
            changes: dict[str, object] = {}
            if server is not None:
                if not args.model:
                    raise UsageError("--server needs --model NAME: the name of one of the server's models")
                changes.update(server_url=server, server_model=args.model)
            elif args.model is not None:
                changes.update(model_path=args.model, server_url="", server_model="")
            if args.ctx is not None:
                changes["n_ctx"] = args.ctx
            folio.apply_settings(folio.settings.replace(**changes))
        options = AskOptions(
            thinking=bool(args.thinking),
            max_tokens=args.max_tokens,
            temperature=args.temperature,
            top_k=args.top_k,
            top_p=args.top_p,
            min_p=args.min_p,
            seed=args.seed,
            cite_mode=args.cite_mode,
            scope=getattr(args, "scope", "auto") or "auto",
        )
        cancel = CancelToken()
        answer: Answer | None = None
        with _ctrl_c_cancels(cancel):
            events = folio.ask_stream(args.question, options, getattr(args, "chat", None), cancel)
            thinking_open = False
            for event in events:
                if isinstance(event, Delta) and not args.json:
                    if event.channel == "thinking":
                        if not thinking_open:
                            err.write("thinking: ")
                            thinking_open = True
                        err.write(event.text)
                        err.flush()
                    else:
                        if thinking_open:
                            err.write("\n")
                            thinking_open = False
                        out.write(event.text)
                        out.flush()
                elif isinstance(event, Progress) and not args.json:
                    err.write(progress_line(event) + "\n")
                    err.flush()
                elif isinstance(event, Finished):
                    answer = event.answer
    except UsageError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    except FolioError as exc:
        err.write(f"error: {exc}\n")
        if args.json:  # stdout still holds one JSON document
            out.write(json.dumps({"error": str(exc), "finish_reason": "error"}, ensure_ascii=False) + "\n")
        return EXIT_FAILED
    if answer is None:
        err.write("error: the answer ended without a result\n")
        return EXIT_FAILED
    if args.json:
        out.write(json.dumps(answer.to_json(), ensure_ascii=False, indent=2) + "\n")
        if answer.error:
            err.write(f"error: {answer.error}\n")
    else:
        _print_plain_tail(answer, out, err)
    out.flush()
    return EXIT_OK if answer.complete else EXIT_FAILED
