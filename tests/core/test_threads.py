"""The thread policy: cores read from sysfs (SMT siblings counted once), defaults, the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.config import Settings
from app.core.errors import UsageError
from app.core.generate.engine import Engine
from app.core.generate.threads import CpuTopology, cpu_topology, default_batch_threads, default_threads


def fake_sysfs(root: Path, siblings: list[str]) -> Path:
    for cpu, listed in enumerate(siblings):
        topology = root / f"cpu{cpu}" / "topology"
        topology.mkdir(parents=True)
        (topology / "thread_siblings_list").write_text(listed + "\n")
    return root


def test_smt_siblings_count_as_one_core(tmp_path: Path) -> None:
    sysfs = fake_sysfs(tmp_path, ["0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7"])
    topology = cpu_topology(sysfs, cpus=range(8))
    assert topology.physical == 4 and topology.usable == 8


def test_cores_without_smt_all_count(tmp_path: Path) -> None:
    sysfs = fake_sysfs(tmp_path, ["0", "1"])
    assert cpu_topology(sysfs, cpus=[0, 1]).physical == 2


def test_affinity_limits_the_cores(tmp_path: Path) -> None:
    sysfs = fake_sysfs(tmp_path, ["0,2", "1,3", "0,2", "1,3"])
    assert cpu_topology(sysfs, cpus=[0, 2]).physical == 1  # two siblings of one core


def test_without_sysfs_half_the_logical_cores_are_assumed_physical(tmp_path: Path) -> None:
    topology = cpu_topology(tmp_path / "missing", cpus=range(8))
    assert 1 <= topology.physical <= 8


def test_prefill_uses_every_physical_core_and_decode_leaves_one_free_from_three_cores() -> None:
    two_cores = CpuTopology(logical=2, physical=2, usable=2)
    assert (default_threads(two_cores), default_batch_threads(two_cores)) == (2, 2)
    laptop = CpuTopology(logical=8, physical=4, usable=8)  # 4 cores with SMT
    assert (default_threads(laptop), default_batch_threads(laptop)) == (3, 4)
    big = CpuTopology(logical=64, physical=32, usable=64)
    assert (default_threads(big), default_batch_threads(big)) == (8, 8)
    one = CpuTopology(logical=1, physical=1, usable=1)
    assert (default_threads(one), default_batch_threads(one)) == (1, 1)


def test_prompt_threads_setting_is_validated() -> None:
    assert Settings().n_threads_batch == 0
    assert Settings().replace(n_threads_batch=3).n_threads_batch == 3
    with pytest.raises(UsageError, match="prompt threads"):
        Settings().replace(n_threads_batch=-1)


def test_engine_gives_llama_cpp_separate_prefill_and_decode_threads(smollm_path: Path) -> None:
    import llama_cpp

    settings = Settings(model_path=str(smollm_path), n_ctx=1024, n_threads=1, n_threads_batch=2)
    engine = Engine.from_settings(settings)
    try:
        engine.load()
        ctx = engine._llm.ctx
        assert (llama_cpp.llama_n_threads(ctx), llama_cpp.llama_n_threads_batch(ctx)) == (1, 2)
        assert engine.matches(settings)
        assert not engine.matches(settings.replace(n_threads_batch=1))
    finally:
        engine.close()
