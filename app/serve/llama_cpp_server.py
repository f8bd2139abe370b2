"""`python -m app.serve.llama_cpp_server ARGS`: llama-cpp-python's server, CPU kernels loaded first."""

from __future__ import annotations


def main() -> None:
    """Load llama.cpp's CPU kernels (a build of loadable variants has none built in, and the server
    never loads them), then run `python -m llama_cpp.server` with this process's arguments."""
    from app.core.generate.cpu_kernels import load_cpu_kernels

    load_cpu_kernels()
    from llama_cpp.server.__main__ import main as serve  # unannotated, hence the ignore below

    serve()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    main()
