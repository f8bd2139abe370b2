"""Small real GGUF files for the model-finding tests, written with the `gguf` package."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

QWEN3_LIKE_TEMPLATE = (
    "{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] }}"
    "{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}"
    "{%- endif %}{%- endif %}"
)
ALWAYS_THINKS_TEMPLATE = "{{- '<|im_start|>assistant\\n<think>\\n' }}"
PLAIN_TEMPLATE = "{%- for message in messages %}{{- message['content'] }}{%- endfor %}"


def write_gguf(
    target: Path,
    arch: str = "llama",
    template: str | None = PLAIN_TEMPLATE,
    file_type: int | None = 15,
    context_length: int | None = 4096,
    pooling: bool = False,
    name: str = "Tiny Test Model",
    tensors: int = 1,
) -> Path:
    """A GGUF with the metadata a converter writes and `tensors` tiny f32 tensors."""
    import gguf
    import numpy as np

    target.parent.mkdir(parents=True, exist_ok=True)
    writer = gguf.GGUFWriter(target, arch=arch)
    writer.add_name(name)
    if file_type is not None:
        writer.add_file_type(file_type)
    if context_length is not None:
        writer.add_context_length(context_length)
    if pooling:
        writer.add_pooling_type(gguf.PoolingType.MEAN)
    if template is not None:
        writer.add_chat_template(template)
    for number in range(tensors):
        writer.add_tensor(f"blk.{number}.weight", np.ones((4, 4), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return target


def add_ollama_model(root: Path, name: str, tag: str, model: Path, namespace: str = "library") -> Path:
    """Put `model` in an Ollama store under `root` as Ollama does: a blob named by its SHA-256 and
    a manifest at manifests/registry.ollama.ai/NAMESPACE/NAME/TAG naming it. Returns the blob."""
    data = model.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    blob = root / "blobs" / f"sha256-{digest}"
    blob.parent.mkdir(parents=True, exist_ok=True)
    blob.write_bytes(data)
    config = b"{}"
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
        "config": {
            "mediaType": "application/vnd.docker.container.image.v1+json",
            "digest": "sha256:" + hashlib.sha256(config).hexdigest(),
            "size": len(config),
        },
        "layers": [
            {
                "mediaType": "application/vnd.ollama.image.template",
                "digest": "sha256:" + "1" * 64,
                "size": 10,
            },
            {
                "mediaType": "application/vnd.ollama.image.model",
                "digest": f"sha256:{digest}",
                "size": len(data),
            },
        ],
    }
    path = root / "manifests" / "registry.ollama.ai" / namespace / name / tag
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return blob
