"""`make bench` table rows for the speed work: CPU variants, prompt-lookup decoding, cold load."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Load = Callable[[str], dict[str, Any] | None]


def _spread(value: dict[str, float] | None, digits: int = 1) -> str:
    if not value:
        return "-"
    f = f"{{:.{digits}f}}"
    return f"{f.format(value['median'])} ({f.format(value['min'])}–{f.format(value['max'])})"


def speed_rows(load: Load) -> list[tuple[str, str, str]]:
    """Rows from results/cpu_variants.json, lookup.json and cold_load.json, when present."""
    rows: list[tuple[str, str, str]] = []
    variants = load("cpu_variants")
    if variants:
        for name, row in variants["variants"].items():
            chosen = " (chosen here)" if name == variants["chosen"] else ""
            ratio = row.get("prefill_tok_s_over_chosen")
            rows.append(
                (
                    f"CPU kernels {name}{chosen}, {variants['model']}, {variants['prompt_tokens']}-token "
                    "prompt: prefill / decode tok/s; prefill × chosen",
                    f"{_spread(row['prefill_tok_s'])} / {_spread(row['decode_tok_s'])}; "
                    + (f"×{ratio:.2f}" if ratio else "-"),
                    "prefill ≥ 1.5× today's build; ≥ 0.98× on AVX2-only",
                )
            )
    lookup = load("lookup")
    if lookup:
        rows.append(
            (
                f"prompt-lookup decode / plain decode tok/s, {lookup['prompts']} eval prompts, "
                f"drafts ≤ {lookup['lookup_tokens']}; identical tokens",
                f"×{_spread(lookup['ratio'], 2)}; {lookup['identical']}/{lookup['prompts']}",
                "≥ 1.5×, all identical",
            )
        )
    cold = load("cold_load")
    if cold:
        median = cold["median"]
        rows.append(
            (
                f"cold process to a known prefill rate ({cold['model']}): stored rate / empty cache",
                f"{median['stored']['wall_s']:.2f} s / {median['empty']['wall_s']:.2f} s; "
                f"×{_spread(cold['wall_ratio_stored_over_empty'], 2)}",
                "cold TTFT at ~1k tokens ≤ 3 s",
            )
        )
    return rows
