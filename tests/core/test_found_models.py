"""Models other apps keep (LM Studio, GPT4All, Jan, Ollama, a chosen folder) found from their headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.cancel import CancelToken
from app.core.errors import Cancelled
from app.core.generate.found_models import ModelFolder, ModelScan, app_folders, find_models
from app.core.generate.model_facts import FILE_TYPES, quantization_in_name
from tests.core.gguf_files import (
    ALWAYS_THINKS_TEMPLATE,
    PLAIN_TEMPLATE,
    QWEN3_LIKE_TEMPLATE,
    add_ollama_model,
    write_gguf,
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    return home


def scan_home() -> ModelScan:
    return find_models(app_folders(system=()))


def by_name(scan: ModelScan) -> dict[str, object]:
    return {model.name: model for model in scan.models}


def test_every_apps_layout_is_found_with_name_size_quantization_context_and_thinking(
    home: Path, chat_model_path: Path
) -> None:
    lmstudio = home / ".lmstudio/models/HuggingFaceTB/SmolLM2-135M-Instruct-GGUF"
    lmstudio.mkdir(parents=True)
    (lmstudio / chat_model_path.name).symlink_to(chat_model_path)  # the real bundled model
    write_gguf(
        home / ".cache/lm-studio/models/Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf",
        arch="qwen3",
        template=QWEN3_LIKE_TEMPLATE,
        file_type=None,  # the quantization then comes from the file name
        context_length=40960,
    )
    gpt4all = home / ".local/share/nomic.ai/GPT4All"
    write_gguf(gpt4all / "Llama-3.2-1B-Instruct-Q4_0.gguf", file_type=2, context_length=131072)
    write_gguf(gpt4all / "nomic-embed-text-v1.5.f16.gguf", arch="nomic-bert", template=None, pooling=True)
    write_gguf(
        home / "jan/models/deepseek-r1-distill/model.gguf", arch="qwen2", template=ALWAYS_THINKS_TEMPLATE
    )
    write_gguf(home / ".config/Jan/data/models/huggingface.co/org/phi-4-mini-Q5_K_M.gguf", arch="phi3")
    write_gguf(
        home / ".local/share/Jan/data/models/llamacpp/gemma-3-1b/model.gguf", arch="gemma3", file_type=1
    )
    blob = add_ollama_model(
        home / ".ollama/models", "qwen2.5", "0.5b", write_gguf(home / "src.gguf", arch="qwen2", file_type=14)
    )

    scan = scan_home()
    found = {m.name: (m.source, m.quantization, m.context_length, m.can_think) for m in scan.models}
    assert found == {
        "SmolLM2-135M-Instruct.Q4_1": ("LM Studio", "Q4_1", 8192, False),
        "Qwen3-0.6B-Q8_0": ("LM Studio", "Q8_0", 40960, True),
        "Llama-3.2-1B-Instruct-Q4_0": ("GPT4All", "Q4_0", 131072, False),
        "deepseek-r1-distill": ("Jan", "Q4_K_M", 4096, True),
        "phi-4-mini-Q5_K_M": ("Jan", "Q4_K_M", 4096, False),  # the header's file type beats the name
        "gemma-3-1b": ("Jan", "F16", 4096, False),
        "qwen2.5:0.5b": ("Ollama", "Q4_K_S", 4096, False),
    }
    models = {m.name: m for m in scan.models}
    assert models["SmolLM2-135M-Instruct.Q4_1"].size_bytes == chat_model_path.stat().st_size
    assert all(m.size_bytes == m.path.stat().st_size > 0 for m in scan.models)
    assert models["qwen2.5:0.5b"].path == blob  # the blob itself: nothing copied
    assert models["Qwen3-0.6B-Q8_0"].thinking.supported  # a switch: Folio can turn it off
    assert not models["deepseek-r1-distill"].thinking.supported  # always thinks: no switch
    assert [(s.path.name, s.reason) for s in scan.skipped] == [
        ("nomic-embed-text-v1.5.f16.gguf", "an embedding model (nomic-bert), not a chat model")
    ]


def test_unreadable_files_are_skipped_with_a_reason_and_the_scan_goes_on(home: Path) -> None:
    folder = home / ".lmstudio/models/someone/broken"
    folder.mkdir(parents=True)
    good = write_gguf(folder / "good-Q4_K_M.gguf")
    (folder / "truncated.gguf").write_bytes(good.read_bytes()[:40])
    (folder / "not-gguf.gguf").write_bytes(b"PK\x03\x04 a zip file")
    (folder / "dangling.gguf").symlink_to(home / "gone.gguf")
    write_gguf(folder / "mmproj-model-f16.gguf", arch="clip", template=None)
    write_gguf(folder / "vocab-only.gguf", tensors=0)
    scan = scan_home()
    assert [m.name for m in scan.models] == ["good-Q4_K_M"]
    reasons = {s.path.name: s.reason for s in scan.skipped}
    assert set(reasons) == {
        "truncated.gguf",
        "not-gguf.gguf",
        "dangling.gguf",
        "mmproj-model-f16.gguf",
        "vocab-only.gguf",
    }
    assert "ends inside its metadata header" in reasons["truncated.gguf"]
    assert "is not a GGUF file" in reasons["not-gguf.gguf"]
    assert "cannot read" in reasons["dangling.gguf"]
    assert "clip" in reasons["mmproj-model-f16.gguf"]
    assert "no weights" in reasons["vocab-only.gguf"]


def test_ollama_names_its_models_as_ollama_list_does_and_broken_manifests_are_skipped(home: Path) -> None:
    store = home / ".ollama/models"
    src = write_gguf(home / "a.gguf", context_length=2048)
    add_ollama_model(store, "llama3.2", "1b", src)
    add_ollama_model(store, "custom", "latest", write_gguf(home / "b.gguf", name="b"), namespace="someone")
    hf = store / "manifests/hf.co/bartowski/Phi-GGUF/Q4_K_M"
    hf.parent.mkdir(parents=True)
    hf.write_text((store / "manifests/registry.ollama.ai/library/llama3.2/1b").read_text())  # same blob
    (store / "manifests/registry.ollama.ai/library/broken").mkdir(parents=True)
    (store / "manifests/registry.ollama.ai/library/broken/latest").write_text("{not json")
    (store / "manifests/registry.ollama.ai/library/gone").mkdir(parents=True)
    (store / "manifests/registry.ollama.ai/library/gone/latest").write_text(
        '{"layers": [{"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:'
        + "0" * 64
        + '"}]}'
    )
    scan = scan_home()
    # one blob named by two manifests is listed once, by the first name in the walk's order
    assert [m.name for m in scan.models] == ["hf.co/bartowski/Phi-GGUF:Q4_K_M", "someone/custom:latest"]
    reasons = sorted(s.reason for s in scan.skipped)
    assert reasons[0].startswith("the Ollama manifest cannot be read")
    assert reasons[1] == "the model blob of latest is missing"


def test_a_chosen_folder_and_a_split_model_and_the_same_file_twice(home: Path, chat_model_path: Path) -> None:
    chosen = home / "Downloads/models"
    parts = [write_gguf(chosen / f"big-Q6_K-{n:05d}-of-00003.gguf", file_type=18) for n in (1, 2, 3)]
    lmstudio = home / ".lmstudio/models/a/b"
    lmstudio.mkdir(parents=True)
    (lmstudio / "smol.gguf").symlink_to(chat_model_path)
    (chosen / "same-as-lmstudio.gguf").symlink_to(lmstudio / "smol.gguf")
    scan = find_models([*app_folders(system=()), ModelFolder("Downloads/models", chosen)])
    assert sorted((m.name, m.source) for m in scan.models) == [
        ("big-Q6_K", "Downloads/models"),
        ("smol", "LM Studio"),
    ]
    big = next(m for m in scan.models if m.name == "big-Q6_K")
    assert big.size_bytes == sum(p.stat().st_size for p in parts) and big.quantization == "Q6_K"
    assert [f.path for f in scan.searched] == [home / ".lmstudio/models", chosen]


def test_nothing_installed_finds_nothing_and_a_cancelled_scan_stops(home: Path) -> None:
    assert scan_home() == ModelScan((), (), ())
    write_gguf(home / ".lmstudio/models/x/y/m.gguf")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        find_models(app_folders(system=()), token)


def test_jan_and_gpt4all_follow_the_xdg_folders(home: Path, tmp_path: Path) -> None:
    folders = app_folders(
        home,
        {
            "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
            "XDG_DATA_HOME": str(tmp_path / "dat"),
            "OLLAMA_MODELS": str(tmp_path / "ol"),
        },
        system=(),
    )
    paths = {(f.source, f.path) for f in folders}
    assert ("Jan", tmp_path / "cfg/Jan/data/models") in paths
    assert ("GPT4All", tmp_path / "dat/nomic.ai/GPT4All") in paths
    assert ("Ollama", tmp_path / "ol") in paths and ("Ollama", home / ".ollama/models") in paths


def test_the_file_type_names_are_llama_cpps_and_names_give_a_quantization() -> None:
    import gguf

    for member in gguf.LlamaFileType:
        if member.value in FILE_TYPES:
            assert member.name.removeprefix("MOSTLY_").removeprefix("ALL_") == FILE_TYPES[member.value]
    assert quantization_in_name("Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf") == "Q4_K_M"
    assert quantization_in_name("SmolLM2-135M-Instruct.Q4_1.gguf") == "Q4_1"
    assert quantization_in_name("nomic-embed-text-v1.5.f16.gguf") == "F16"
    assert quantization_in_name("Meta-Llama-3-8B-Instruct-IQ3_XXS.gguf") == "IQ3_XXS"
    assert quantization_in_name("qwen2.5:0.5b-instruct-q4_K_M") == "Q4_K_M"
    assert quantization_in_name("model.gguf") is None
    assert PLAIN_TEMPLATE  # the default template of write_gguf has no thinking
