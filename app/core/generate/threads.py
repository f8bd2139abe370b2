"""How many threads llama.cpp gets: the machine's cores read from the OS, and the default policy."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MAX_THREADS = 8  # beyond this a small model gains nothing and the rest of the desktop stalls


@dataclass(frozen=True)
class CpuTopology:
    logical: int  # CPUs the OS reports
    physical: int  # distinct cores among the usable CPUs (SMT siblings counted once)
    usable: int  # logical CPUs this process may run on (affinity, containers)


def _usable_cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return list(range(os.cpu_count() or 1))


def _core_of(cpu: int, sys_cpu: Path) -> str | None:
    """A key shared by SMT siblings: the sibling list, else package and core id; None if unknown."""
    topology = sys_cpu / f"cpu{cpu}" / "topology"
    try:
        siblings = (topology / "thread_siblings_list").read_text(encoding="ascii").strip()
        if siblings:
            return siblings
        package = (topology / "physical_package_id").read_text(encoding="ascii").strip()
        core = (topology / "core_id").read_text(encoding="ascii").strip()
        return f"{package}:{core}"
    except OSError:
        return None


def cpu_topology(
    sys_cpu: Path = Path("/sys/devices/system/cpu"), cpus: Sequence[int] | None = None
) -> CpuTopology:
    """Logical, physical and usable cores (`cpus`: the usable CPU numbers, default this process's
    affinity). Without sysfs (macOS, Windows) physical is logical / 2 from 4 logical CPUs up (most
    such machines have SMT), else logical."""
    logical = os.cpu_count() or 1
    usable = list(cpus) if cpus is not None else _usable_cpus()
    cores = {_core_of(cpu, sys_cpu) for cpu in usable}
    if None in cores or not cores:
        physical = logical // 2 if logical >= 4 else logical
        physical = min(physical, len(usable))
    else:
        physical = len(cores)
    return CpuTopology(logical=logical, physical=max(1, physical), usable=max(1, len(usable)))


def default_threads(topology: CpuTopology | None = None) -> int:
    """Decode threads: every physical core on a machine of one or two, else one per physical core
    but one (for the GUI and the token consumer, which run during decode: a preempted llama.cpp
    thread stalls every barrier of the step), at most MAX_THREADS. SMT siblings add nothing. On
    2 quiet cores 2 decode threads beat 1, and the GUI still streams smoothly (benchmarks/README.md,
    "Thread policy")."""
    topology = topology or cpu_topology()
    spare = 1 if topology.physical > 2 else 0
    return max(1, min(MAX_THREADS, topology.physical - spare))


def default_batch_threads(topology: CpuTopology | None = None) -> int:
    """Prefill threads: one per physical core, at most MAX_THREADS. Prefill is compute-bound and
    scales with cores (benchmarks/README.md, "Threads"); nothing else runs while the user waits
    for the first token."""
    topology = topology or cpu_topology()
    return max(1, min(MAX_THREADS, topology.physical))


def prefer_passive_openmp() -> None:
    """Let llama.cpp's idle OpenMP threads sleep instead of spin, unless the user chose otherwise.

    Spinning threads fight for the CPU on a busy machine: under load, spinning decode threads were
    many times slower than passive ones (benchmarks/README.md, "Thread policy"). It only takes
    effect before the OpenMP runtime loads (first llama_cpp or torch import): app.main sets it first.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
