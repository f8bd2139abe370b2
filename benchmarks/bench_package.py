"""The installed .deb: package and bundle size, launch-to-window time under Xvfb, self-test time.

Usage: .venv/bin/python benchmarks/bench_package.py [--deb PATH] [--build] [--runs N]
`--build` first runs packaging/build_deb.sh (the `make package` script) and times it; otherwise
the existing dist/folio_<version>_<arch>.deb is used. The .deb is extracted with `dpkg-deb -x` into
a temporary root and its binary is started from there with HOME in a temporary folder.
"Window shown" = from starting the process to the first viewable top-level X window titled
"Folio" (polled with xwininfo every 25 ms). Needs Xvfb and x11-utils.
Prints the figures and writes benchmarks/results/package.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
POLL_S = 0.025
WINDOW_TIMEOUT_S = 180.0


def folder_size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.lstat().st_size, p.lstat().st_mtime_ns) for p in root.rglob("*")}


def user_env(home: Path, display: str | None = None) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(home)}
    if display:
        env.update({"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"})
    return env


def default_deb() -> Path:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True)
    return REPO / "dist" / f"folio_{pyproject['project']['version']}_{arch.stdout.strip()}.deb"


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb server on the first free display number, ready to accept clients. -noreset: by
    default the server resets whenever its last client leaves, refusing connections meanwhile."""
    for number in range(90, 120):
        if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
            continue
        display = f":{number}"
        server = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            probe = subprocess.run(["xwininfo", "-root", "-display", display], capture_output=True)
            if probe.returncode == 0:
                return server, display
            if server.poll() is not None:
                break
            time.sleep(0.1)
        server.kill()
        server.wait()
    raise SystemExit("could not start Xvfb")


def folio_window_viewable(display: str) -> bool:
    tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display], capture_output=True, text=True)
    for line in tree.stdout.splitlines():
        parts = line.split()
        if len(parts) > 1 and parts[0].startswith("0x") and '"Folio"' in line:
            info = subprocess.run(
                ["xwininfo", "-id", parts[0], "-display", display], capture_output=True, text=True
            )
            if "Map State: IsViewable" in info.stdout:
                return True
    return False


def time_to_window(binary: Path, home: Path, display: str) -> float:
    """Seconds from starting the app to its main window being viewable; the app is then stopped."""
    log = home / "app-stderr.txt"
    with log.open("wb") as stderr:
        started = time.perf_counter()
        app = subprocess.Popen(
            [str(binary)], env=user_env(home, display), stdout=subprocess.DEVNULL, stderr=stderr
        )
        try:
            while not folio_window_viewable(display):
                if app.poll() is not None:
                    tail = log.read_text(errors="replace")[-2000:]
                    raise SystemExit(f"the app exited with code {app.returncode} before its window: {tail}")
                if time.perf_counter() - started > WINDOW_TIMEOUT_S:
                    raise SystemExit("no window within the time limit")
                time.sleep(POLL_S)
            return time.perf_counter() - started
        finally:
            app.terminate()
            try:
                app.wait(20)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()


def time_self_test(binary: Path, home: Path) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(
        [str(binary), "--self-test"], env=user_env(home), capture_output=True, text=True, timeout=900
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"self-test failed ({result.returncode}): {result.stdout}{result.stderr[-2000:]}")
    return elapsed, result.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deb", type=Path, default=None)
    parser.add_argument("--build", action="store_true", help="run packaging/build_deb.sh first and time it")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, object] = {"cpu_count": os.cpu_count(), "machine": platform.machine()}
    if args.build:
        started = time.perf_counter()
        subprocess.run(
            [str(REPO / "packaging" / "build_deb.sh")], cwd=REPO, check=True, stdout=subprocess.DEVNULL
        )
        results["build_s"] = round(time.perf_counter() - started, 1)
    deb: Path = args.deb or default_deb()
    results["deb"] = deb.name
    results["deb_mb"] = round(deb.stat().st_size / 1e6, 1)
    with tempfile.TemporaryDirectory(prefix="folio-bench-package-") as tmp:
        root = Path(tmp) / "root"
        started = time.perf_counter()
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
        results["extract_s"] = round(time.perf_counter() - started, 1)
        internal = root / "opt" / "folio" / "_internal"
        results["bundle_mb"] = round(folder_size(root / "opt" / "folio") / 1e6, 1)
        parts = {p.name: folder_size(p) for p in internal.iterdir() if p.is_dir()}
        largest = sorted(parts.items(), key=lambda item: -item[1])[:8]
        results["largest_parts_mb"] = {name: round(size / 1e6, 1) for name, size in largest}
        binary = root / "usr" / "bin" / "folio"
        before = tree_state(root)

        self_tests = []
        for run in range(args.runs):
            home = Path(tmp) / f"home-self-test-{run}"
            home.mkdir()
            elapsed, line = time_self_test(binary, home)
            self_tests.append(elapsed)
            print(f"self-test run {run + 1}: {elapsed:.1f} s  {line}")
        results["self_test_s"] = [round(s, 2) for s in self_tests]
        results["self_test_median_s"] = round(statistics.median(self_tests), 2)

        if shutil.which("Xvfb") and shutil.which("xwininfo"):
            server, display = start_xvfb()
            try:
                windows = []
                for run in range(args.runs):
                    home = Path(tmp) / f"home-window-{run}"
                    home.mkdir()
                    windows.append(time_to_window(binary, home, display))
                    print(f"window run {run + 1}: {windows[-1]:.2f} s")
                    written = sorted(
                        str(p.relative_to(home))
                        for p in home.rglob("*")
                        if p.is_file() and p.name != "app-stderr.txt"
                    )
                    results.setdefault("gui_wrote_under_home", written)
            finally:
                server.terminate()
                server.wait(10)
            results["window_shown_s"] = [round(s, 2) for s in windows]
            results["window_shown_median_s"] = round(statistics.median(windows), 2)
        else:
            results["window_shown_s"] = "not measured: Xvfb or xwininfo missing"
        results["install_tree_unchanged"] = tree_state(root) == before

    out = REPO / "benchmarks" / "results" / "package.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    sys.path.insert(0, str(REPO))
    from benchmarks.record_env import write_env

    write_env("package")
    print(json.dumps(results, indent=2))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
