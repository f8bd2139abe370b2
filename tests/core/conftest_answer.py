"""Fixtures for the answering tests: the SmolLM2 engine loaded once, and a tiny thinking model.

Register with `pytest_plugins = ["tests.core.conftest_answer"]` (root conftest) so that every
test module shares the same session-scoped engines.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from app.core.config import Settings
from app.core.generate.engine import Engine
from app.core.store.database import open_engine, session_factory

# Qwen3's switch: with enable_thinking false the generation prompt holds an empty think block; with
# it true this variant opens the block, as thinking-only models do, so the model's reply starts in
# the thinking channel and the split can be checked with a model that never learned to think.
THINKING_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}"
    "{%- else %}{{- '<think>\\n' }}{%- endif %}"
    "{%- endif %}"
)
TEST_CTX = 4096
TEST_THREADS = 0  # automatic: the engine's default thread count


def make_thinking_gguf(source: Path, target: Path, template: str = THINKING_TEMPLATE) -> Path:
    """Copy a GGUF's tensors and metadata, replacing tokenizer.chat_template."""
    import gguf

    reader = gguf.GGUFReader(source)
    arch_field = reader.get_field(gguf.Keys.General.ARCHITECTURE)
    assert arch_field is not None
    writer = gguf.GGUFWriter(target, arch=arch_field.contents(), endianess=reader.endianess)
    alignment = reader.get_field(gguf.Keys.General.ALIGNMENT)
    if alignment is not None:
        writer.data_alignment = alignment.contents()
    for field in reader.fields.values():
        if field.name == gguf.Keys.General.ARCHITECTURE or field.name.startswith("GGUF."):
            continue
        if field.name.startswith(gguf.Keys.Tokenizer.CHAT_TEMPLATE):
            continue
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), value_type, sub_type=sub_type)
    writer.add_chat_template(template)
    for tensor in reader.tensors:
        writer.add_tensor_info(
            tensor.name, tensor.data.shape, tensor.data.dtype, tensor.data.nbytes, tensor.tensor_type
        )
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    for tensor in reader.tensors:
        writer.write_tensor_data(tensor.data, tensor_endianess=reader.endianess)
    writer.close()
    return target


@pytest.fixture(scope="session")
def smollm_path(chat_model_path: Path) -> Path:
    """The bundled SmolLM2 GGUF (the root conftest fails the session when it is missing)."""
    return chat_model_path


@pytest.fixture(scope="session")
def chat_engine(smollm_path: Path) -> Iterator[Engine]:
    """SmolLM2 loaded once for the whole session (the suite runs on 2 cores)."""
    engine = Engine(smollm_path, n_ctx=TEST_CTX, n_threads=TEST_THREADS)
    engine.load()
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def thinking_model_path(smollm_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_thinking_gguf(smollm_path, tmp_path_factory.mktemp("models") / "tiny-thinking.gguf")


@pytest.fixture(scope="session")
def thinking_engine(thinking_model_path: Path) -> Iterator[Engine]:
    engine = Engine(thinking_model_path, n_ctx=2048, n_threads=TEST_THREADS)
    engine.load()
    yield engine
    engine.close()


@pytest.fixture
def sessions(tmp_path: Path) -> Iterator[sessionmaker[Session]]:
    """A real SQLite store in tmp_path."""
    engine = open_engine(tmp_path / "library")
    yield session_factory(engine)
    engine.dispose()


@pytest.fixture
def test_settings(smollm_path: Path) -> Settings:
    return Settings(model_path=str(smollm_path), n_ctx=TEST_CTX, n_threads=TEST_THREADS, temperature=0.0)
