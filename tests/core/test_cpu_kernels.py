"""Choosing llama.cpp's CPU kernels: the best supported variant, never AMX by itself, a forced one
only when the CPU runs it; the set-up's build (one built-in kernel set) loads nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.errors import ModelError
from app.core.generate.cpu_kernels import (
    choose,
    llama_lib_dir,
    load_cpu_kernels,
    mapped_libggml,
    variant_files,
)

SCORES = {"x64": 1, "sse42": 5, "haswell": 64, "skylakex": 0, "sapphirerapids": 4000}


def test_the_best_scored_variant_is_chosen_but_never_amx_by_itself() -> None:
    assert choose(SCORES, None) == "haswell"
    assert choose({"x64": 1, "sse42": 5}, None) == "sse42"


def test_a_forced_variant_runs_only_where_the_cpu_supports_it() -> None:
    assert choose(SCORES, "x64") == "x64"
    assert choose(SCORES, "sapphirerapids") == "sapphirerapids"  # asked for by name: allowed
    with pytest.raises(ModelError, match="skylakex cannot run"):
        choose(SCORES, "skylakex")
    with pytest.raises(ModelError, match="zen4 cannot run"):
        choose(SCORES, "zen4")


def test_no_runnable_variant_is_a_model_error() -> None:
    with pytest.raises(ModelError, match=r"none of llama\.cpp's CPU kernels"):
        choose({"skylakex": 0, "sapphirerapids": 4000}, None)


def test_the_installed_build_reports_what_runs() -> None:
    """The set-up's build (GGML_NATIVE=OFF) has its kernels built in; a variant build loads one."""
    kernels = load_cpu_kernels()
    files = variant_files(llama_lib_dir())
    if files:
        assert kernels.variant in files
    else:
        assert kernels.variant is None and kernels.to_json()["variant"] == "built-in"


def test_the_libggml_reopened_is_the_one_mapped_into_the_process() -> None:
    """Not libggml-base nor a variant: the libggml that libllama's process has mapped."""
    site = "/venv/lib/python3.11/site-packages"
    maps = (
        f"7f00-7f01 r--p 00000000 08:01 11 {site}/llama_cpp/lib/libggml-base.so.0.25.3\n"
        f"7f02-7f03 r--p 00000000 08:01 12 {site}/lib/libggml.so.0.25.3\n"
        f"7f04-7f05 r--p 00000000 08:01 13 {site}/llama_cpp/lib/libggml-cpu-zen4.so\n"
        "7f06-7f07 rw-p 00000000 00:00 0 \n"
    )
    assert mapped_libggml(maps) == Path(f"{site}/lib/libggml.so.0.25.3")
    assert mapped_libggml(maps.splitlines()[0]) is None
