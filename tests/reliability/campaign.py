"""The reliability campaign's tools: its scale, the real CLI as a subprocess, a corpus, figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.pdfgen import write_pdf

REPO = Path(__file__).resolve().parents[2]
BIG = os.environ.get("FOLIO_RELIABILITY_SCALE", "").lower() == "big"
FIGURES_FILE = os.environ.get("FOLIO_RELIABILITY_FIGURES", "")

# Topics with one word no other document uses, so a search for it must find that document.
TOPICS = ("volcano", "glacier", "harbour", "orchard", "lantern", "meteor")


@dataclass(frozen=True)
class Scale:
    """How much the campaign does: `make test` runs the small one, FOLIO_RELIABILITY_SCALE=big
    the full one."""

    kill_trials: int
    ask_kills: int
    writer_rounds: int
    mutations: int
    cancels: int
    long_pdf_pages: int
    pages_per_document: int


SCALE = (
    Scale(
        kill_trials=20,
        ask_kills=5,
        writer_rounds=10,
        mutations=50,
        cancels=100,
        long_pdf_pages=2000,
        pages_per_document=40,
    )
    if BIG
    else Scale(
        kill_trials=2,
        ask_kills=1,
        writer_rounds=1,
        mutations=6,
        cancels=12,
        long_pdf_pages=200,
        pages_per_document=8,
    )
)


def cli(library: Path, *args: str, timeout: float = 300, **popen: Any) -> subprocess.CompletedProcess[str]:
    """Run `python -m app <args> --library <library>` to completion."""
    return subprocess.run(
        [sys.executable, "-m", "app", *args, "--library", str(library)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        **popen,
    )


def cli_json(library: Path, *args: str, timeout: float = 300) -> dict[str, Any]:
    done = cli(library, *args, "--json", timeout=timeout)
    assert done.stdout.strip(), f"no JSON from folio {' '.join(args)}: {done.stderr[-2000:]}"
    data: dict[str, Any] = json.loads(done.stdout)
    data["_returncode"] = done.returncode
    return data


def start_cli(library: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app", *args, "--library", str(library)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )


def topic_page(topic: str, doc: int, page: int) -> list[str]:
    return [
        f"The {topic} report, page {page}.",
        f"Every {topic} measurement on this page was taken by team {doc}.",
        f"Section {page}: the {topic} readings rose and fell with the seasons.",
        f"Notes on {topic} number {page * 7 + doc} follow in the appendix.",
    ]


def write_corpus(folder: Path, topics: tuple[str, ...] = TOPICS, pages: int | None = None) -> list[Path]:
    """One PDF per topic, each `pages` pages long."""
    folder.mkdir(parents=True, exist_ok=True)
    count = pages or SCALE.pages_per_document
    return [
        write_pdf(folder / f"{topic}.pdf", [topic_page(topic, n, p) for p in range(1, count + 1)])
        for n, topic in enumerate(topics)
    ]


def rss_kib(pid: int | str = "self") -> int:
    """Resident memory of a process in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def record(name: str, value: object) -> None:
    """Keep a campaign figure: printed, and added to FOLIO_RELIABILITY_FIGURES when it is set."""
    print(f"[reliability] {name}: {value}")
    if not FIGURES_FILE:
        return
    path = Path(FIGURES_FILE)
    figures = json.loads(path.read_text()) if path.exists() else {}
    figures[name] = value
    path.write_text(json.dumps(figures, indent=2, sort_keys=True))
