"""llama-cpp-python's OpenAI-compatible server (`python -m llama_cpp.server` through
`app.serve.llama_cpp_server`, which loads the CPU kernels of a variant build first), started on 127.0.0.1
(one thread for the tests; benchmarks/bench_server.py gives it more) and stopped by its own pid."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

MODEL_NAME = "smollm2"
START_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LlamaServer:
    """One server process; `url` is its base URL once `start()` returned."""

    def __init__(
        self,
        model: Path,
        log: Path,
        n_ctx: int = 2048,
        api_key: str | None = None,
        threads: int = 1,
        alias: str = MODEL_NAME,
    ) -> None:
        self.model, self.log, self.n_ctx, self.api_key, self.threads = model, log, n_ctx, api_key, threads
        self.alias = alias  # the model's name in /v1/models
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> LlamaServer:
        command = [
            sys.executable, "-m", "app.serve.llama_cpp_server",
            "--model", str(self.model), "--model_alias", self.alias,
            "--host", "127.0.0.1", "--port", str(self.port),
            "--n_threads", str(self.threads), "--n_threads_batch", str(self.threads),
            "--n_ctx", str(self.n_ctx),
            "--logits_all", "false",  # its default computes every prompt token's logits: a slower prefill
        ]  # fmt: skip
        if self.api_key:
            command += ["--api_key", self.api_key]
        with self.log.open("wb") as log:
            # unbuffered: what the server prints is in the log at once (`dropped_streams`)
            environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text(errors='replace')[-2000:]}")
            if self._answers():
                return self
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"the server did not start in {START_TIMEOUT_S:.0f} s")

    def _answers(self) -> bool:
        request = urllib.request.Request(self.url + "/v1/models")
        if self.api_key:
            request.add_header("Authorization", f"Bearer {self.api_key}")
        try:
            with urllib.request.urlopen(request, timeout=2) as reply:
                return reply.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def chat(self, body: dict[str, object]) -> dict[str, object]:
        """One non-streamed chat completion (to compare the server's own counts)."""
        request = urllib.request.Request(
            self.url + "/v1/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=120) as reply:
            result: dict[str, object] = json.load(reply)
        return result

    def dropped_streams(self) -> int:
        """How many streamed answers the server dropped before their end, their client gone or a new
        request come: the "disconnected" lines its event publisher prints (llama_cpp/server/app.py)."""
        return sum(
            line.strip() == "disconnected" for line in self.log.read_text(errors="replace").splitlines()
        )

    def kill(self) -> None:
        """SIGKILL: the server dies mid-answer, as a crashed or unplugged server does."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
