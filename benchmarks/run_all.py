"""`make bench`: run the benchmark set that fits in about 15 minutes on 2 quiet cores, print one table.

Usage: python benchmarks/run_all.py [--full] [--only threads,generate,latency,cli,ingest,determinism,gui,
       retrieval_scale,evidence,cpu_variants,lookup,cold_load] [--table-only]
Retrieval at scale runs at 10k chunks here; 100k and 1M are run by hand (bench_retrieval_scale.py
--chunks 1000000 --keep DIR --ann: ~17 min to build the 1M library once, 12.7 GB of disk).
--full runs more rounds and longer prompts (about 45 minutes on 2 cores). Each script writes
benchmarks/results/NAME.json and NAME.env.json; the table is also written to results/table.md.
Never run by `make test`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from benchmarks.speed_rows import speed_rows  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
SAMPLES = ROOT.parent / "shared" / "pdf-samples"

DEFAULT_SET = (
    "threads,generate,latency,cli,ingest,determinism,gui,retrieval_scale,cpu_variants,lookup,cold_load"
)
QUICK = {
    "threads": ["--rounds", "3", "--prompt-tokens", "2000", "--decode-tokens", "32"],
    "generate": ["--pairs", "5", "--prompt-tokens", "1000", "--tokens", "64", "--ttft-rounds", "2"],
    "latency": ["--runs", "2", "--tokens", "48", "--reuse-rounds", "1"],
    "cli": ["--runs", "3", "--served-runs", "10", "--ask-runs", "1"],
    "ingest": ["--rss-pages", "100"],
    "determinism": [],
    "gui": [],
    "retrieval_scale": ["--chunks", "10000", "--ann"],
    "evidence": ["--questions", "8"],  # not in the default set (about 10 min): --only evidence
    "cpu_variants": ["--rounds", "2", "--prompt-tokens", "256", "--decode-tokens", "16"],
    "lookup": ["--prompts", "6", "--tokens", "96", "--lookup-tokens", "10"],
    "cold_load": ["--rounds", "3"],
}
FULL = {
    "threads": ["--rounds", "7", "--prompt-tokens", "2000", "--decode-tokens", "64"],
    "generate": ["--pairs", "9", "--prompt-tokens", "2000", "--tokens", "128", "--ttft-rounds", "5"],
    "latency": ["--runs", "10", "--tokens", "64", "--reuse-rounds", "4"],
    "cli": ["--runs", "5", "--served-runs", "20", "--ask-runs", "3"],
    "ingest": ["--rounds", "2"],
    "determinism": [
        "--model",
        str(paths.default_chat_model()),
        "--tokens",
        "128",
    ],
    "gui": ["--pages", "300"],
    "retrieval_scale": ["--chunks", "10000", "--ann"],
    "evidence": ["--questions", "16"],
    "cpu_variants": ["--rounds", "3", "--prompt-tokens", "512", "--decode-tokens", "32"],
    "lookup": ["--prompts", "12", "--tokens", "128", "--lookup-tokens", "10"],
    "cold_load": ["--rounds", "5"],
}


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def spread_text(value: dict[str, float] | None, digits: int = 0, unit: str = "") -> str:
    if not value:
        return "-"
    f = f"{{:.{digits}f}}"
    return f"{f.format(value['median'])}{unit} ({f.format(value['min'])}–{f.format(value['max'])})"


def latency_rows(latency: dict[str, Any] | None) -> list[tuple[str, str, str]]:
    """One row per prompt-length bucket (TTFT, TPOT, prefill, TTFT parts) and the prefix-reuse row."""
    if not latency:
        return []
    rows: list[tuple[str, str, str]] = []
    for bucket in latency["buckets"]:
        if not bucket["runs"]:
            continue
        ttft, tpot, rate = bucket["ttft_ms"], bucket["tpot_ms"], bucket["prefill_tokens_per_s"]
        parts = bucket["ttft_parts_p50_ms"]
        tpot_text = f"{tpot['p50']:.0f} / {tpot['p95']:.0f} ms" if tpot else "-"
        rows.append(
            (
                f"cold, {bucket['prompt_tokens_median']:.0f} prompt tokens ({bucket['runs']} runs): "
                "TTFT p50 / p95; TPOT p50 / p95; prefill tok/s; "
                "TTFT p50 parts queue / retrieve / load / assemble / prefill",
                f"{ttft['p50'] / 1000:.1f} / {ttft['p95'] / 1000:.1f} s; {tpot_text}; "
                f"{rate['median'] if rate else '-'}; " + " / ".join(f"{parts[n]:.0f}" for n in parts) + " ms",
                "",
            )
        )
    reuse = latency["prefix_reuse"]
    if reuse.get("follow_up_over_cold") is not None:
        cached = reuse["follow_up_cached_prompt_tokens"]
        total = reuse["follow_up_prompt_tokens"]
        rows.append(
            (
                "TTFT follow-up / cold in one chat (Folio.ask, default passages_k); cached of prompt tokens",
                f"{reuse['follow_up_over_cold']:.2f} "
                f"({min(reuse['ratios']):.2f}–{max(reuse['ratios']):.2f}); "
                + ", ".join(f"{c}/{t}" for c, t in zip(cached, total, strict=True)),
                "≤ 0.3",
            )
        )
        if reuse.get("same_again_over_cold") is not None:
            rows.append(
                (
                    "TTFT of the same question again in the chat / cold (same passages: the most "
                    "today's prompt order reuses)",
                    f"{reuse['same_again_over_cold']:.2f}",
                    "",
                )
            )
    return rows


def evidence_rows(evidence: dict[str, Any] | None) -> list[tuple[str, str, str]]:
    """TTFT and prompt tokens before (whole passages, 1 prompt thread) and after evidence selection."""
    if not evidence:
        return []
    rows: list[tuple[str, str, str]] = []
    for name in ("before", "threads_only", "after"):
        part = evidence[name]
        rows.append(
            (
                f"eval questions, {name.replace('_', ' ')}: TTFT / prompt tokens (median)",
                f"{part['ttft_ms_median']:.0f} ms / {part['prompt_tokens_median']:.0f}",
                "",
            )
        )
    for name, goal in (("threads_only", ""), ("after", "≤ 0.35")):
        ratio = evidence[f"ttft_ratio_{name}_to_before"]
        rows.append((f"TTFT {name.replace('_', ' ')} / before", spread_text(ratio, 3), goal))
    return rows


def table() -> str:
    """One markdown table from the latest results: figure, value (median, range), goal."""
    rows: list[tuple[str, str, str]] = []
    threads = load("threads")
    if threads:
        combos = {(c["n_threads"], c["n_threads_batch"]): c for c in threads["combinations"]}
        for (t, b), c in sorted(combos.items()):
            rows.append(
                (
                    f"prefill / decode tok/s, n_threads={t} n_threads_batch={b}",
                    f"{spread_text(c['prefill_tokens_per_s'])} / {spread_text(c['decode_tokens_per_s'])}",
                    "",
                )
            )
        defaults = threads["defaults"]
        chosen = combos.get((defaults["n_threads"], defaults["n_threads_batch"]))
        today = combos.get((1, 1))
        if chosen and today:
            prefill = chosen["prefill_tokens_per_s"]["median"] / today["prefill_tokens_per_s"]["median"]
            decode = chosen["decode_tokens_per_s"]["median"] / today["decode_tokens_per_s"]["median"]
            rows.append(
                (
                    f"defaults here ({defaults['n_threads']}/{defaults['n_threads_batch']}) vs before (1/1)",
                    f"prefill ×{prefill:.2f}, decode ×{decode:.2f}",
                    "prefill ≥ 1.8×, decode ≥ 1×",
                )
            )
    generate = load("generate")
    if generate:
        pair = generate["ours_vs_raw"]
        rows.append(
            (
                f"Folio / raw decode tok/s ({pair['pairs']} cold pairs)",
                spread_text(pair["decode_ratio_ours_over_raw"], 3),
                "≥ 0.97",
            )
        )
        rows.append(("Folio / raw TTFT", spread_text(pair["ttft_ratio_ours_over_raw"], 3), "≤ 1.03"))
        rows.append(
            (
                f"TTFT cold, {generate['prompt_tokens']}-token prompt (Folio)",
                spread_text(pair["ours"]["ttft_ms"], 0, " ms"),
                "",
            )
        )
        reuse = generate["prefix_reuse"]
        if reuse.get("follow_up_over_cold") is not None:
            rows.append(
                (
                    "TTFT follow-up / cold (prefix reuse)",
                    f"{reuse['follow_up_over_cold']:.2f}",
                    "≤ 0.3",
                )
            )
    rows += latency_rows(load("latency"))
    rows += evidence_rows(load("evidence"))
    cli = load("cli")
    if cli:
        for command in ("search", "first search", "documents", "ask"):
            cold = cli["cold_s"].get("this", {}).get(command)
            served = cli["served_s"].get(command)
            if command == "first search" and not cold:
                continue
            goal = {
                "search": "≤ 1.5 s cold (goal 1.0), ≤ 0.3 s served",
                "first search": "once, before the embedder's load cache exists",
            }.get(command, "")
            rows.append(
                (
                    f"`folio {command}` wall time, cold / through `folio serve`",
                    f"{spread_text(cold, 2, ' s')} / {spread_text(served, 2, ' s')}",
                    goal,
                )
            )
    ingest = load("ingest")
    if ingest and "raw" in ingest:
        raw = ingest["raw"]
        rows.append(
            (
                f"raw pypdf + sentence-transformers fp32, pages/s ({raw['pages']} pages)",
                f"{raw['pages_per_s']}",
                "",
            )
        )
        for precision, resolved in ingest.get("precisions", {}).items():
            run = ingest[precision]
            goal = "≥ 2× raw fp32" if not precision.endswith("/fp32") else ""
            rows.append(
                (
                    f"`Folio.ingest` pages/s, embedder {precision} ({resolved}); × raw",
                    f"{run['pages_per_s']}; ×{run['ratio_to_raw_fp32']}",
                    goal,
                )
            )
        for precision, speedup in ingest.get("speedup", {}).items():
            rows.append((f"ingest speed-up, {precision} over fp32", f"×{speedup}", "≥ ×2"))
        for pages, mib in ingest.get("peak_rss_mib", {}).items():
            rows.append((f"ingest peak RSS, {pages} pages", f"{mib} MiB", "flat"))
    determinism = load("determinism")
    if determinism:
        runs = determinism["runs"]
        same = sum(1 for run in runs if run["identical"])
        rows.append(
            (
                f"temperature 0, {determinism['model']}: runs bit-identical to the first "
                "(3 repeats, n_batch 64/128, threads 1/1 and 2/2)",
                f"{same} of {len(runs)}",
                "all",
            )
        )
    gui = load("gui")
    if gui:
        rows.append(
            (
                "launch → window shown / → ready to answer (model loaded)",
                f"{gui['launch_to_window_s']} s / {gui['launch_to_ready_s']} s",
                "",
            )
        )
        for part in ("ingest", "answer"):
            stall = gui[part]["stalls"]
            what = (
                f"ingesting {gui['ingest']['pages']} pages"
                if part == "ingest"
                else f"streaming an answer ({gui['answer']['completion_tokens']} tokens)"
            )
            rows.append(
                (
                    f"GUI event-loop stall while {what}: worst / p99",
                    f"{stall['worst_ms']} / {stall['p99_ms']} ms",
                    "",
                )
            )
    rows += scale_rows()
    rows += speed_rows(load)
    lines = ["| figure | median (min–max) | goal |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    env_name = next((n for n in ("threads", "generate", "cli", "ingest") if load(n)), None)
    if env_name:
        env = json.loads((RESULTS / f"{env_name}.env.json").read_text(encoding="utf-8"))
        cpu = env["cpu"]
        lines.append("")
        lines.append(
            f"Machine: {cpu['model']}, {cpu['physical_cores']} physical / {cpu['logical_cores']} logical "
            f"cores, {env['memory']['total_mib']} MiB, {env['os']}, Python {env['python']}, "
            f"llama-cpp-python {env['packages'].get('llama-cpp-python')}, "
            f"torch {env['packages'].get('torch')}; "
            f"load average {env['load_average']} at {env['taken_at']} (records: results/*.env.json)."
        )
    return "\n".join(lines)


def scale_rows() -> list[tuple[str, str, str]]:
    """Retrieval at scale, for every size measured (results/retrieval_scale_SIZE.json)."""
    rows: list[tuple[str, str, str]] = []
    found = [p for p in RESULTS.glob("retrieval_scale_*.json") if not p.name.endswith(".env.json")]
    loaded = sorted(
        ((json.loads(p.read_text(encoding="utf-8")), p) for p in found),
        key=lambda s: (s[0]["chunks"], s[1].name),
    )
    for scale, path in loaded:
        size, *variant = path.stem.removeprefix("retrieval_scale_").split("_")
        if variant and variant[0].startswith("embed"):
            size += f", {variant[0].removeprefix('embed')} embed thread(s)"
        elif variant:  # a named run: kwall = the exact keyword ranking (--keyword-budget 0), ...
            size += f", run {'_'.join(variant)}"
        env_path = path.with_name(f"{path.stem}.env.json")
        if env_path.exists():
            taken = json.loads(env_path.read_text(encoding="utf-8")).get("taken_at", "")
            size += f", {taken[:16].replace('T', ' ')}" if taken else ""
        layout = scale.get("index_layout", {})
        kind = layout.get("kind", "?") + (
            f" nlist={layout['nlist']} nprobe={layout['nprobe']}" if layout.get("nlist") else ""
        )
        for lang in ("en", "zh"):
            legs = [
                scale.get(f"{leg}_ms_{lang}")
                for leg in ("hybrid", "embed", "dense", "chunks_terms", "chunks_trigram")
            ]
            if all(legs):
                text = " / ".join(f"{leg['p50']}–{leg['p95']}" for leg in legs if leg)
                goal = "hybrid p95 ≤ 150 ms" if size.startswith("1M") else ""
                rows.append(
                    (
                        f"search p50–p95 ms, {size} ({lang}, {kind}): hybrid/embed/dense/terms/trigram",
                        text,
                        goal,
                    )
                )
        for kind_name, figures in scale.get("flat_against_ivf", {}).items():
            if not isinstance(figures, dict):
                continue
            ivf = figures["ivf"]
            at = figures["ivf_by_nprobe"].get(str(ivf["nprobe"]), {})
            if at:
                rows.append(
                    (
                        f"IVF vs flat, {size}, {kind_name} vectors: recall@10, dense p95 ms ivf / flat",
                        f"{at['recall_at_10']}, {at['dense_ms']['p95']} / {figures['flat_dense_ms']['p95']}",
                        "recall ≥ 0.95 (structured)",
                    )
                )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="more rounds, longer prompts (~45 min)")
    parser.add_argument(
        "--only",
        help="comma-separated subset (default: all but evidence; --full adds evidence)",
    )
    parser.add_argument("--table-only", action="store_true", help="print the table of the last results")
    args = parser.parse_args()
    if not args.table_only:
        plan = FULL if args.full else QUICK
        names = (args.only or DEFAULT_SET).split(",")
        if args.full and not args.only:
            names.append("evidence")
        for name in names:
            script = ROOT / "benchmarks" / f"bench_{name}.py"
            extra = plan[name]
            if name == "ingest" and not SAMPLES.exists():
                print(f"skipping ingest: no sample PDFs in {SAMPLES}")
                continue
            started = time.perf_counter()
            print(f"== {script.name} {' '.join(extra)}", flush=True)
            done = subprocess.run([sys.executable, str(script), *extra], cwd=ROOT, check=False)
            print(f"== {script.name}: exit {done.returncode} in {time.perf_counter() - started:.0f} s")
    text = table()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "table.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
