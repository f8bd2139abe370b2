"""A minimal Debian root, like a fresh machine (mmdebstrap), cached between runs, to install the .deb into.

The root is built once per recipe (the host's release and apt sources, the variant) under
/var/cache/folio-test/ (FOLIO_DEBROOT_CACHE overrides) and copied for every run; the packages apt
downloads inside it are cached there too. Commands run in it through `unshare --mount` + `chroot`,
so the bind mounts vanish with the process. Needs root; `unavailable()` says why not otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

CACHE = Path(os.environ.get("FOLIO_DEBROOT_CACHE", "/var/cache/folio-test"))
VARIANT = "apt"  # Essential packages plus apt: what `apt-get install ./folio_….deb` needs, nothing more
APT_SOURCE_DIRS = (Path("/etc/apt/sources.list"), Path("/etc/apt/sources.list.d"))
# Host apt settings that decide whether the mirror can be reached (proxies, a frozen snapshot).
HOST_APT_OPTION = re.compile(r"^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy|https?::proxy)\b")
BUILD_TIMEOUT_S = 1800


def host_codename() -> str:
    text = Path("/etc/os-release").read_text(encoding="utf-8")
    match = re.search(r"^VERSION_CODENAME=\"?([a-z]+)", text, flags=re.M)
    return match.group(1) if match else ""


def host_sources(codename: str) -> str:
    """The host's enabled apt entries for its own release (deb822 stanzas or one-line entries)."""
    files: list[Path] = []
    for place in APT_SOURCE_DIRS:
        if place.is_file():
            files.append(place)
        elif place.is_dir():
            files += sorted(p for p in place.iterdir() if p.suffix in (".list", ".sources"))
    kept: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                suites = re.search(r"^Suites:(.*)$", stanza, flags=re.M)
                enabled = not re.search(r"^Enabled:\s*no", stanza, flags=re.M | re.I)
                if enabled and suites and any(s.startswith(codename) for s in suites.group(1).split()):
                    kept.append("\n".join(line for line in stanza.splitlines() if not line.startswith("#")))
        else:
            for line in text.splitlines():
                fields = re.sub(r"\[.*?\]", "", line).split()
                if len(fields) > 2 and fields[0] == "deb" and fields[2].startswith(codename):
                    kept.append(line.strip())
    return "\n\n".join(kept) + "\n"


def host_apt_options() -> list[str]:
    dump = subprocess.run(["apt-config", "dump"], capture_output=True, text=True, check=True).stdout
    return [line.rstrip(";") for line in dump.splitlines() if HOST_APT_OPTION.match(line)]


def recipe() -> dict[str, object]:
    codename = host_codename()
    return {
        "suite": codename,
        "variant": VARIANT,
        "sources": host_sources(codename),
        "aptopts": host_apt_options(),
    }


def recipe_key(spec: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]


def unavailable() -> str | None:
    """Why no Debian root can be made here (None when it can); installs mmdebstrap when missing."""
    if not Path("/etc/debian_version").is_file() or shutil.which("apt-get") is None:
        return "not a Debian system: no apt to build a Debian root with"
    if os.geteuid() != 0:
        return "needs root (chroot, mounts and dpkg inside the root)"
    if not host_codename():
        return "/etc/os-release names no release (VERSION_CODENAME)"
    if shutil.which("mmdebstrap") is None:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        command = ["apt-get", "install", "-y", "--no-install-recommends", "mmdebstrap"]
        if subprocess.run(command, env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update"], env=env, capture_output=True)
            subprocess.run(command, env=env, capture_output=True)
    if shutil.which("mmdebstrap") is None:
        return "mmdebstrap is not installed and `apt-get install mmdebstrap` failed"
    if shutil.which("unshare") is None or shutil.which("chroot") is None:
        return "unshare or chroot missing (util-linux, coreutils)"
    return None


def cached_root() -> tuple[Path, float]:
    """The cached root for the current recipe, built first if needed; (path, seconds spent building)."""
    spec = recipe()
    root = CACHE / f"{spec['suite']}-{VARIANT}-{recipe_key(spec)}"
    if (root / "etc" / "debian_version").is_file():
        return root, 0.0
    CACHE.mkdir(parents=True, exist_ok=True)
    building = root.with_name(root.name + ".building")
    shutil.rmtree(building, ignore_errors=True)
    started = time.monotonic()
    command = ["mmdebstrap", "--quiet", f"--variant={VARIANT}", "--mode=root", "--skip=cleanup/apt/lists"]
    command += [f"--aptopt={option}" for option in spec["aptopts"]]  # type: ignore[attr-defined]
    command += [str(spec["suite"]), str(building), "-"]  # the sources come on stdin
    result = subprocess.run(
        command, input=str(spec["sources"]), capture_output=True, text=True, timeout=BUILD_TIMEOUT_S
    )
    if result.returncode != 0:
        shutil.rmtree(building, ignore_errors=True)
        raise RuntimeError(f"mmdebstrap failed:\n{result.stderr[-4000:]}")
    (building / "etc" / "folio-test-recipe.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    building.rename(root)
    return root, time.monotonic() - started


def fresh_copy(cached: Path, target: Path) -> Path:
    """A disposable copy of the cached root (the cache itself is never modified)."""
    subprocess.run(["cp", "-a", "--reflink=auto", f"{cached}/.", str(target)], check=True, timeout=600)
    return target


def run_in_root(
    root: Path,
    command: Sequence[str],
    binds: dict[Path, str] | None = None,
    env: dict[str, str] | None = None,
    **popen: object,
) -> subprocess.Popen[str]:
    """Start `command` chrooted in `root`, with /dev, /proc, apt's download cache and `binds` mounted."""
    archives = CACHE / "apt-archives"
    (archives / "partial").mkdir(parents=True, exist_ok=True)
    mounts = {archives: "/var/cache/apt/archives", **(binds or {})}
    script = [f'mount --rbind /dev "{root}/dev"', f'mount -t proc proc "{root}/proc"']
    for source, inside in mounts.items():
        script.append(f'mkdir -p "{root}{inside}" && mount --bind "{source}" "{root}{inside}"')
    script.append(f'exec chroot "{root}" "$@"')
    base_env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root"}
    return subprocess.Popen(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "--fork",
            "sh",
            "-ec",
            " && ".join(script),
            "sh",
            *command,
        ],
        env={**base_env, **(env or {})},
        text=True,
        **popen,  # type: ignore[arg-type]
    )


def run_to_end(root: Path, command: Sequence[str], timeout_s: float, **kwargs: object) -> tuple[int, str]:
    """Run a command in the root to completion; (exit code, stdout + stderr)."""
    process = run_in_root(root, command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kwargs)  # type: ignore[arg-type]
    output, _ = process.communicate(timeout=timeout_s)
    return process.returncode, output
