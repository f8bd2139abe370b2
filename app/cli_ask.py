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
    KV_CACHE_TYPES,
    QT_TRANSLATE_NOOP,
    CancelToken,
    FolioError,
    Progress,
    UsageError,
    count_words,
    error_message,
    message_text,
    shown_heading,
    translate,
    verdict_words,
)

if TYPE_CHECKING:  # the answer types load when an answer is asked for, not for `folio search`
    from app.core.api import Answer
    from app.core.qa import Folio

MARKS = {
    "length": QT_TRANSLATE_NOOP("Cli", "[cut off: the answer reached the maximum number of tokens]"),
    "cancelled": QT_TRANSLATE_NOOP("Cli", "[stopped: the answer was cancelled and is incomplete]"),
    "error": QT_TRANSLATE_NOOP("Cli", "[failed: the answer could not be completed]"),
}


def add_ask_parser(
    subparsers: argparse._SubParsersAction,  # type: ignore[type-arg]
    parents: Sequence[argparse.ArgumentParser] = (),
) -> None:
    """Register `ask`; `parents` may already provide the common --json/--library options."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ask",
        parents=list(parents),
        help=translate("Cli", "answer a question from your documents, with citations"),
        description=translate(
            "Cli", "Answer QUESTION from the library's passages with a local model, citing pages."
        ),
    )
    parser.add_argument("question", help=translate("Cli", "the question to answer"))
    _add_sampling_options(parser)
    _add_model_options(parser)
    parser.add_argument(
        "--cite-mode",
        choices=CITE_MODES,
        help=translate(
            "Cli",
            "free: markers checked after the answer; constrained: '[' can only open a marker of a "
            "passage in the prompt (default: settings)",
        ),
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
        parser.add_argument(
            "--json", action="store_true", help=translate("Cli", "print one JSON document on stdout")
        )


def _add_sampling_options(parser: argparse.ArgumentParser) -> None:
    """`ask`'s thinking switch and sampling options (unset: the settings')."""
    parser.add_argument(
        "--thinking",
        action=argparse.BooleanOptionalAction,
        default=False,
        help=translate("Cli", "let a thinking model reason before answering (default: off)"),
    )
    parser.add_argument(
        "--max-tokens", type=int, metavar="N", help=translate("Cli", "answer length limit in tokens")
    )
    parser.add_argument(
        "--temperature", type=float, metavar="T", help=translate("Cli", "sampling temperature (0 = greedy)")
    )
    parser.add_argument("--top-k", type=int, metavar="K", help=translate("Cli", "top-k sampling (0 = off)"))
    parser.add_argument(
        "--top-p", type=float, metavar="P", help=translate("Cli", "nucleus sampling threshold")
    )
    parser.add_argument("--min-p", type=float, metavar="P", help=translate("Cli", "min-p sampling threshold"))
    parser.add_argument(
        "--seed", type=int, metavar="S", help=translate("Cli", "sampling seed (reproducible runs)")
    )


def _add_model_options(parser: argparse.ArgumentParser) -> None:
    """`ask`'s model (a file, or a server's), context, KV cache and the chat it continues."""
    parser.add_argument(
        "--model",
        metavar="PATH|NAME",
        help=translate(
            "Cli", "GGUF chat model to use instead of the setting; with --server, the server's model name"
        ),
    )
    parser.add_argument(
        "--server",
        metavar="URL",
        help=translate(
            "Cli",
            "answer with a model on an OpenAI-compatible server (llama-server, vLLM, Ollama) at URL; "
            "its API key comes from FOLIO_API_KEY or the key saved in Settings",
        ),
    )
    parser.add_argument("--ctx", type=int, metavar="N", help=translate("Cli", "context size in tokens"))
    parser.add_argument(
        "--chat", type=int, metavar="ID", help=translate("Cli", "continue this chat (follow-up question)")
    )
    parser.add_argument(
        "--kv-cache",
        choices=KV_CACHE_TYPES,
        help=translate(
            "Cli", "the local model's KV cache elements: f16, or q8_0 (about half the memory; README)"
        ),
    )


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
    ttft = translate("Cli", "ttft {0:.0f} ms").format(m.ttft_ms) if m.ttft_ms is not None else "ttft –"
    rate = (
        translate("Cli", "{0:.1f} tok/s").format(m.tokens_per_s) if m.tokens_per_s is not None else "– tok/s"
    )
    source = "" if m.counts_from == "engine" else f" ({m.counts_from})"
    tokens = translate("Cli", "{0} tokens").format(m.completion_tokens)
    return f"{ttft} · {rate} · {tokens}{source} · {answer.finish_reason}"


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


def _print_plain_tail(answer: Answer, out: TextIO, err: TextIO) -> None:
    out.write("\n")
    if answer.finish_reason in MARKS:
        out.write(translate("Cli", MARKS[answer.finish_reason]) + "\n")
    if answer.error:
        err.write(_error_line(message_text(answer.error, translate)))
    verdict = verdict_words(answer.verdict, translate)
    if verdict:
        out.write(f"\n{verdict}.\n")
    if answer.support_rate is not None:
        supported, judged = answer.support_counts()
        gap = "" if verdict else "\n"
        out.write(gap + count_words(supported, judged, translate) + ".\n")
        for sentence in answer.sentences:
            if sentence.supported is False:
                line = translate("Cli", "not found in the passages: {0}")
                out.write("  " + line.format(sentence.text.strip()) + "\n")
            elif sentence.supported and sentence.on_question is False:
                line = translate("Cli", "in the passages, but not about the question: {0}")
                out.write("  " + line.format(sentence.text.strip()) + "\n")
    if answer.citations:
        out.write("\n" + translate("Cli", "Sources:") + "\n")
        for citation in answer.citations:
            pages = translate("Cli", "p. {0}").format(citation.page)
            if citation.page_end > citation.page:
                pages = translate("Cli", "pp. {0}–{1}").format(citation.page, citation.page_end)
            if heading := shown_heading(citation):
                pages = f"{pages} · {heading}"
            found = "" if citation.source == "model" else "  " + translate("Cli", "(matched by Folio)")
            out.write(f"  [{citation.n}] {citation.document}, {pages}{found}\n")
    if answer.invalid_citations:
        listed = ", ".join(str(n) for n in answer.invalid_citations)
        out.write(translate("Cli", "(markers that match no passage: {0})").format(listed) + "\n")
    out.write(format_metrics_line(answer) + "\n")


def _error_line(message: str) -> str:
    return translate("Cli", "error: {0}").format(message) + "\n"


def run_ask(args: argparse.Namespace, folio: Folio, out: TextIO | None = None) -> int:
    """Run `folio ask`; 0 for a complete answer, 1 otherwise, 2 for a usage error.

    `out` is where the answer or the JSON document goes (the CLI's real stdout); messages go to stderr.
    """
    out, err = out or sys.stdout, sys.stderr
    try:
        _apply_ask_settings(args, folio)
        answer = _stream_answer(args, folio, out, err)
    except UsageError as exc:
        err.write(_error_line(error_message(exc, translate)))
        return EXIT_USAGE
    except FolioError as exc:
        err.write(_error_line(error_message(exc, translate)))
        if args.json:  # stdout still holds one JSON document
            out.write(json.dumps({"error": str(exc), "finish_reason": "error"}, ensure_ascii=False) + "\n")
        return EXIT_FAILED
    if answer is None:
        err.write(_error_line(translate("Cli", "the answer ended without a result")))
        return EXIT_FAILED
    if args.json:
        out.write(json.dumps(answer.to_json(), ensure_ascii=False, indent=2) + "\n")
        if answer.error:
            err.write(_error_line(message_text(answer.error, translate)))
    else:
        _print_plain_tail(answer, out, err)
    out.flush()
    return EXIT_OK if answer.complete else EXIT_FAILED


def _apply_ask_settings(args: argparse.Namespace, folio: Folio) -> None:
    """Apply the settings `folio ask` names (--model, --server, --ctx, --kv-cache), if any."""
    server = getattr(args, "server", None)
    kv_cache = getattr(args, "kv_cache", None)
    if args.model is None and args.ctx is None and server is None and kv_cache is None:
        return
    changes: dict[str, object] = {}
    if server is not None:
        if not args.model:
            raise UsageError(
                QT_TRANSLATE_NOOP(
                    "Core", "--server needs --model NAME: the name of one of the server's models"
                )
            )
        changes.update(server_url=server, server_model=args.model)
    elif args.model is not None:
        changes.update(model_path=args.model, server_url="", server_model="")
    if args.ctx is not None:
        changes["n_ctx"] = args.ctx
    if kv_cache is not None:
        changes["kv_cache_type"] = kv_cache
    folio.apply_settings(folio.settings.replace(**changes))


def _stream_answer(args: argparse.Namespace, folio: Folio, out: TextIO, err: TextIO) -> Answer | None:
    """Ask, printing the streamed text (and thinking, re-asks, progress on `err`) unless --json;
    the finished Answer, None when the stream ended without one. Ctrl+C cancels."""
    from app.core.api import AskOptions, Delta, Finished, Replaced

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
        events = folio.answering.ask_stream(args.question, options, getattr(args, "chat", None), cancel)
        text = _TextWriter(out, err)
        for event in events:
            if isinstance(event, Delta) and not args.json:
                text.write(event.text, thinking=event.channel == "thinking")
            elif isinstance(event, Replaced) and not args.json:
                out.write("\n")
                withdrawn = translate(
                    "Cli", "(that gave a figure no passage states for this question: {0}; withdrawn)"
                )
                note = (
                    withdrawn.format(event.withdrawn)
                    if event.withdrawn
                    else translate("Cli", "(that only repeated the question; asking the model again)")
                )
                err.write(note + "\n")
                err.flush()
            elif isinstance(event, Progress) and not args.json:
                err.write(progress_line(event) + "\n")
                err.flush()
            elif isinstance(event, Finished):
                answer = event.answer
    return answer


class _TextWriter:
    """The answer's streamed text on `out`, its thinking on `err` after a "thinking: " label."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self._out, self._err = out, err
        self._thinking_open = False

    def write(self, text: str, *, thinking: bool) -> None:
        if thinking:
            if not self._thinking_open:
                self._err.write(translate("Cli", "thinking: "))
                self._thinking_open = True
            self._err.write(text)
            self._err.flush()
            return
        if self._thinking_open:
            self._err.write("\n")
            self._thinking_open = False
        self._out.write(text)
        self._out.flush()
