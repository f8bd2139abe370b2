"""The installer: build the bundle and the .deb, extract it with `dpkg-deb -x`, self-test it offline,
check its computed Depends, and install it with apt into a clean Debian root where its window opens.

The package tests run only with FOLIO_TEST_PACKAGE=1 (they build a 1.4 GB bundle: minutes).
FOLIO_PACKAGE_PREBUILT=1 reuses an existing dist/folio_<version>_<arch>.deb (CI builds it in an
earlier step). FOLIO_INSTALLED_SCREENSHOT=PATH saves a PNG of the installed app's window.
The source self-test runs in the normal suite.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core import paths
from app.platform_check import Resolver, read_elf
from tests.integration import debroot
from tests.integration.xserver import wait_for_window, xvfb

REPO = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = REPO / "packaging" / "build_deb.sh"
PASS_PREFIX = "folio self-test: PASS"
FONTS_PASS = "folio fonts: PASS · platform xcb"
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
# An address that refuses connections at once: where no-network falls back to proxies.
DEAD_PROXY = "http://127.0.0.1:9"
# The first package test builds the bundle and the .deb in its fixture (minutes on two cores).
BUILD_TIMEOUT_S = 2400

package = pytest.mark.skipif(
    os.environ.get("FOLIO_TEST_PACKAGE") != "1", reason="set FOLIO_TEST_PACKAGE=1 to build and test the .deb"
)


def _arch() -> str:
    return subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()


def no_network_prefix() -> list[str]:
    """`unshare -n` (root) or `unshare -rn` (user namespace): a process with no network at all.
    [] when neither is allowed here; the caller then points every proxy at a dead address."""
    if shutil.which("unshare") is None:
        return []
    for prefix in (["unshare", "-n"], ["unshare", "-rn"]):
        probe = subprocess.run([*prefix, "true"], capture_output=True)
        if probe.returncode == 0:
            return prefix
    return []


def offline_env(home: Path) -> dict[str, str]:
    """A bare environment: HOME and XDG dirs in `home`, no FOLIO_* overrides, no proxies but dead ones."""
    env = {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "TMPDIR": str(home.parent / "tmp"),
    }
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
        env[name] = DEAD_PROXY
    env["no_proxy"] = env["NO_PROXY"] = ""
    return env


def tree_state(root: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of every file and link under root, to prove nothing was written there."""
    state: dict[str, tuple[int, int]] = {}
    for path in root.rglob("*"):
        info = path.lstat()
        state[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
    return state


@pytest.fixture(scope="module")
def deb_file() -> Path:
    expected = REPO / "dist" / f"folio_{VERSION}_{_arch()}.deb"
    if os.environ.get("FOLIO_PACKAGE_PREBUILT") == "1" and expected.is_file():
        return expected
    # The same script `make package` runs; it prints the path of the .deb on its last line.
    result = subprocess.run(
        [str(BUILD_SCRIPT)], cwd=REPO, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S
    )
    assert result.returncode == 0, result.stderr[-4000:]
    built = REPO / result.stdout.strip().splitlines()[-1]
    assert built == expected
    return built


@pytest.fixture(scope="module")
def installed_root(deb_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("deb-root")
    subprocess.run(["dpkg-deb", "-x", str(deb_file), str(root)], check=True, timeout=600)
    yield root
    shutil.rmtree(root, ignore_errors=True)  # 1.4 GB: do not keep it around


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_deb_metadata(deb_file: Path) -> None:
    fields = subprocess.run(
        ["dpkg-deb", "-f", str(deb_file), "Package", "Version", "Architecture", "Depends", "Installed-Size"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Package: folio\n" in fields
    assert f"Version: {VERSION}\n" in fields
    assert f"Architecture: {_arch()}\n" in fields
    depends = depends_packages(fields.split("Depends:")[1].splitlines()[0])
    # Computed by dpkg-shlibdeps: the C library and the xcb plugin's libraries are among them.
    assert {"libc6", "libxcb1", "libxcb-icccm4", "libxcb-keysyms1"} <= depends, depends
    installed_kib = int(fields.split("Installed-Size:")[1].split()[0])
    assert installed_kib > 100_000  # the bundle with both models, not an empty shell


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_deb_layout(installed_root: Path) -> None:
    app = installed_root / "opt" / "folio"
    internal = app / "_internal"
    assert os.access(app / "folio", os.X_OK)
    link = installed_root / "usr" / "bin" / "folio"
    assert link.is_symlink() and os.readlink(link) == "../../opt/folio/folio"
    assert link.resolve() == (app / "folio").resolve()
    desktop = (installed_root / "usr" / "share" / "applications" / "folio.desktop").read_text()
    assert "\nExec=/opt/folio/folio\n" in desktop and "\nIcon=folio\n" in desktop
    for size in (16, 32, 48, 128, 256, 512):
        icon = (
            installed_root / "usr" / "share" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "folio.png"
        )
        assert icon.read_bytes().startswith(b"\x89PNG")
    assert (internal / "models" / paths.DEFAULT_CHAT_MODEL_FILE).stat().st_size > 400_000_000
    assert (internal / "models" / paths.DEFAULT_EMBED_MODEL_DIR / "weights.npz").is_file()
    assert (internal / "models" / paths.ENGLISH_EMBED_MODEL_DIR / "model.safetensors").is_file()
    assert (internal / "resources" / "sample.pdf").is_file()
    assert (internal / "llama_cpp" / "lib" / "libllama.so").exists()
    # the Chinese font the window loads when the system has none, with its licence
    assert (internal / "fonts" / "wqy-microhei.ttc").stat().st_size > 5_000_000
    assert "Apache-2.0" in (internal / "fonts" / "wqy-microhei.copyright").read_text(encoding="utf-8")


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_deb_excludes_what_is_not_needed(installed_root: Path) -> None:
    internal = installed_root / "opt" / "folio" / "_internal"
    names = {str(p.relative_to(internal)) for p in internal.rglob("*")}
    assert not any(n == "tests" or n.startswith("tests/") or "/tests/" in n for n in names)
    forbidden = ("tkinter", "_tkinter", "libcuda", "libcudnn", "libnccl", "nvidia/", "torch/test/")
    forbidden += ("torch/include/", "libQt6WebEngine", "libQt6Quick", "libQt6Qml", "libQt6Multimedia")
    forbidden += ("libQt63D", "PySide6/QtWebEngine", "libqgtk3", "libgtk-3", "pytest", "mypy", "PyInstaller")
    found = sorted(n for n in names if any(bad in n for bad in forbidden))
    assert found == []
    dangling = [p for p in internal.rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_installed_binary_self_test_offline(installed_root: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "tmp").mkdir()
    prefix = no_network_prefix()
    print(f"no network via: {' '.join(prefix) if prefix else 'proxies at ' + DEAD_PROXY}")
    before = tree_state(installed_root)
    result = subprocess.run(
        [*prefix, str(installed_root / "usr" / "bin" / "folio"), "--self-test"],
        env=offline_env(home),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    lines = result.stdout.splitlines()
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr[-4000:]}"
    assert len(lines) == 1 and lines[0].startswith(PASS_PREFIX), result.stdout
    assert "top hit p. 3" in lines[0]
    assert tree_state(installed_root) == before  # nothing written into the install tree
    assert sorted(home.rglob("*")) == []  # the self-test library is temporary: the home stays empty
    # The temporary library is removed (torch may leave its own empty cache folder in TMPDIR).
    assert sorted((tmp_path / "tmp").glob("folio-self-test-*")) == []


def depends_packages(depends: str) -> set[str]:
    """Package names of a Depends value, alternatives included, versions dropped."""
    return {re.split(r"[\s(:]", alt.strip())[0] for item in depends.split(",") for alt in item.split("|")}


def installed_package_of(path: Path) -> set[str]:
    """The installed packages that ship `path` (tried as given, resolved, and across the /usr merge)."""
    resolved = path.resolve()
    candidates = {str(path), str(resolved)}
    candidates |= {c.removeprefix("/usr") if c.startswith("/usr/") else "/usr" + c for c in list(candidates)}
    for candidate in sorted(candidates):
        result = subprocess.run(["dpkg-query", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            return {line.split(":")[0] for line in result.stdout.splitlines() if ": " in line}
    return set()


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_qt_plugins_needs_are_bundled_or_in_depends(deb_file: Path, installed_root: Path) -> None:
    """Every NEEDED soname of the bundle's Qt plugins is in the bundle or shipped by a package in Depends."""
    depends_line = subprocess.run(
        ["dpkg-deb", "-f", str(deb_file), "Depends"], capture_output=True, text=True, check=True
    ).stdout
    depends = depends_packages(depends_line)
    internal = installed_root / "opt" / "folio" / "_internal"
    bundled = {p.name for p in internal.rglob("*.so*")}
    plugins = sorted((internal / "PySide6" / "Qt" / "plugins").rglob("*.so"))
    assert any(p.name == "libqxcb.so" for p in plugins)
    resolver = Resolver()
    problems = []
    for plugin in plugins:
        info = read_elf(plugin)
        assert info is not None, plugin
        for soname in info.needed:
            if soname in bundled:
                continue
            found = resolver.find(soname, plugin, info)
            owners = installed_package_of(found) if found else set()
            if not owners & depends:
                where = f"{found} from {sorted(owners) or 'no package'}" if found else "not installed here"
                problems.append(f"{plugin.relative_to(internal)} needs {soname} ({where}), not in Depends")
    assert problems == [], "\n".join(problems)


@pytest.fixture(scope="module")
def clean_root(deb_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A minimal Debian root (cached, copied) with the .deb installed by apt, Depends resolved."""
    reason = debroot.unavailable()
    if reason:
        print(f"SKIP clean Debian root install tests: {reason}")
        pytest.skip(f"clean Debian root install tests: {reason}")
    started = time.monotonic()
    cached, built_s = debroot.cached_root()
    root = debroot.fresh_copy(cached, tmp_path_factory.mktemp("clean-root") / "root")
    how = f"built in {built_s:.0f} s" if built_s else "cached"
    print(f"\ndebian root {cached.name}: {how}, ready after {time.monotonic() - started:.1f} s")
    try:
        installing = time.monotonic()
        code, output = debroot.run_to_end(
            root,
            ["apt-get", "install", "-y", f"/mnt/dist/{deb_file.name}"],
            binds={deb_file.parent: "/mnt/dist"},
            env={"DEBIAN_FRONTEND": "noninteractive"},
            timeout_s=1200,
        )
        assert code == 0, output[-4000:]
        print(f"apt-get install ./{deb_file.name}: {time.monotonic() - installing:.1f} s")
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)  # 1.5 GB installed: do not keep it


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_apt_installs_the_deb_in_a_clean_debian_root(clean_root: Path) -> None:
    status = (clean_root / "var" / "lib" / "dpkg" / "status").read_text(encoding="utf-8")
    assert "Package: folio\nStatus: install ok installed\n" in status
    assert "Package: libxcb-icccm4\nStatus: install ok installed\n" in status  # pulled in by Depends
    assert os.access(clean_root / "opt" / "folio" / "folio", os.X_OK)


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_installed_self_test_in_a_clean_debian_root(clean_root: Path) -> None:
    started = time.monotonic()
    code, output = debroot.run_to_end(clean_root, ["folio", "--self-test"], timeout_s=900)
    print(f"self-test in the clean root: {time.monotonic() - started:.1f} s")
    assert code == 0 and output.strip().splitlines()[-1].startswith(PASS_PREFIX), output[-4000:]


@package
@pytest.mark.package
@pytest.mark.timeout(BUILD_TIMEOUT_S)
def test_installed_window_opens_on_xcb_in_a_clean_debian_root(clean_root: Path) -> None:
    """`folio` from the clean root shows its window on a real X server (Xvfb, xcb platform), and
    `folio --check-fonts` there draws Chinese without a box."""
    home = clean_root / "tmp" / "home"
    home.mkdir(exist_ok=True)
    with xvfb("1280x800x24") as display:
        started = time.monotonic()
        app = debroot.run_in_root(
            clean_root,
            ["folio"],
            binds={Path("/tmp/.X11-unix"): "/tmp/.X11-unix"},
            env={"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "HOME": "/tmp/home"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            shown = wait_for_window(display, "Folio", app, timeout_s=120)
            print(f"window shown after {time.monotonic() - started:.1f} s")
            screenshot = os.environ.get("FOLIO_INSTALLED_SCREENSHOT")
            if shown and screenshot:
                time.sleep(3)  # let the first frame and the "Loading model…" state paint
                subprocess.run(["import", "-display", display, "-window", "root", screenshot], check=True)
        finally:
            if app.poll() is None:
                os.killpg(app.pid, signal.SIGTERM)
            output, _ = app.communicate(timeout=60)
        # the window's font set-up, then a Chinese sample drawn in a window on the same X server
        fonts_code, fonts_output = debroot.run_to_end(
            clean_root,
            ["folio", "--check-fonts"],
            binds={Path("/tmp/.X11-unix"): "/tmp/.X11-unix"},
            env={"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "HOME": "/tmp/home"},
            timeout_s=300,
        )
        fonts_line = next((ln for ln in fonts_output.splitlines() if ln.startswith("folio fonts:")), "")
        print(f"check-fonts in the clean root (exit {fonts_code}): {fonts_line}")
    assert shown, f"no window titled Folio on {display} (xcb):\n{output[-4000:]}"
    # The clean root has no CJK font (the .deb only suggests one): the window's font set-up must
    # register the bundled font, and a Chinese sample drawn on xcb must have no box.
    assert fonts_line.startswith(FONTS_PASS), f"{fonts_line}\n{fonts_output[-4000:]}"
    assert "(bundled: /opt/folio/_internal/fonts/wqy-microhei.ttc)" in fonts_line, fonts_line
    assert "· 0 boxes" in fonts_line, fonts_line


def test_self_test_from_source(tmp_path: Path) -> None:
    """`python -m app --self-test` from the checkout: the same check, with the models in models/."""
    env = dict(os.environ)
    env.update({"HOME": str(tmp_path), "FOLIO_LIBRARY": str(tmp_path / "unused-library")})
    result = subprocess.run(
        [sys.executable, "-m", "app", "--self-test"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr[-4000:]}"
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PASS_PREFIX), result.stdout
    assert not (tmp_path / "unused-library").exists()
