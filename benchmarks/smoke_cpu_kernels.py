"""Which CPU kernels run, and that a model loads and answers with them: one JSON line.

Small enough to run under an emulated older CPU (`qemu-x86_64 -cpu SandyBridge .venv/bin/python
benchmarks/smoke_cpu_kernels.py`: no AVX2, so only the x64 variant may load); FOLIO_CPU_VARIANT=<name>
forces a variant. Imports only the kernels' loader and llama_cpp (no torch, no Qt).

Usage: python benchmarks/smoke_cpu_kernels.py [--model PATH] [--tokens 8]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.cpu_kernels import load_cpu_kernels, new_llama  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path, default=paths.fast_chat_model())
    parser.add_argument("--tokens", type=int, default=8)
    parser.add_argument("--question", default="What is the capital of France?")
    args = parser.parse_args()
    started = time.monotonic()
    kernels = load_cpu_kernels()
    llm = new_llama(model_path=str(args.model), n_ctx=256, n_threads=1, n_threads_batch=1, verbose=False)
    reply = llm.create_chat_completion(
        [{"role": "user", "content": args.question}], max_tokens=args.tokens, temperature=0.0
    )
    llm.close()
    print(
        json.dumps(
            {
                "kernels": kernels.to_json(),
                "model": args.model.name,
                "answer": reply["choices"][0]["message"]["content"],
                "completion_tokens": reply["usage"]["completion_tokens"],
                "seconds": round(time.monotonic() - started, 1),
            },
            ensure_ascii=False,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
