"""Two `folio ingest` processes on overlapping folders (the same paths, and the same bytes under
other paths) while a third process searches: every document once, vectors = chunks, no failed search."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.services import build_services
from tests.reliability.campaign import REPO, SCALE, TOPICS, record, start_cli, write_corpus


def test_two_writers_and_a_searcher(tmp_path: Path, embedder: Embedder) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus / "part", TOPICS[:3])
    write_corpus(corpus, TOPICS[3:])
    copies = tmp_path / "copies"  # the same bytes under other paths
    copies.mkdir()
    for name in ("volcano.pdf", "meteor.pdf"):
        source = corpus / "part" / name if (corpus / "part" / name).exists() else corpus / name
        shutil.copy(source, copies / name)
    searches = 0
    for round_number in range(SCALE.writer_rounds):
        library = tmp_path / f"lib-{round_number}"
        seed = build_services(Settings(), library, embedder=embedder)
        seed.library.ingest([corpus / "part" / "volcano.pdf"])  # something to search from the start
        seed.close()
        stop, result = tmp_path / f"stop-{round_number}", tmp_path / f"searches-{round_number}.json"
        searcher = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.searcher", str(library), str(stop), str(result)],
            cwd=REPO,
        )
        first = start_cli(library, "ingest", str(corpus), "--json")
        second = start_cli(library, "ingest", str(corpus / "part"), str(copies), "--json")
        outputs = [proc.communicate(timeout=600) for proc in (first, second)]
        stop.touch()
        searcher.wait(120)
        for proc, (out, err) in zip((first, second), outputs, strict=True):
            assert proc.returncode == 0, err[-2000:]
            assert not any(f["status"] == "failed" for f in json.loads(out)["files"]), out
        figures = json.loads(result.read_text())
        assert figures["failures"] == 0, figures["errors"]
        searches += figures["searches"]
        folio = build_services(Settings(), library, embedder=embedder)
        try:
            report = folio.library.verify()
            assert report.ok, report.problems
            assert report.vectors == report.chunks
            names = sorted(d.name for d in folio.library.documents())
            assert names == sorted(f"{t}.pdf" for t in TOPICS), names  # each exactly once
            assert not folio.notices, folio.notices  # the saved index held both writers' vectors
        finally:
            folio.close()
        record("two_writer_rounds_done", round_number + 1)
    record("two_writer_rounds", SCALE.writer_rounds)
    record("two_writer_searches_without_failure", searches)
