#!/usr/bin/env bash
# Build the Linux bundle (PyInstaller, packaging/folio.spec) and dist/folio_<version>_<arch>.deb.
#
# The .deb installs the one-folder bundle to /opt/folio, a /usr/bin/folio symlink, a .desktop entry
# and the icon in the hicolor theme (dpkg triggers refresh the menu and icon caches).
# Usage: packaging/build_deb.sh [--skip-bundle]     (--skip-bundle reuses an existing dist/folio)
# Environment: PYTHON (default .venv/bin/python), DEB_COMPRESSION (zstd|gzip|xz, default zstd),
#              DEB_LEVEL (default 3; figures by level in the README's "Installer" section;
#              use DEB_COMPRESSION=gzip for dpkg older than 1.21.18),
#              DEB_MAINTAINER (the control file's Maintainer field).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
COMPRESSION=${DEB_COMPRESSION:-zstd}
LEVEL=${DEB_LEVEL:-3}
MAINTAINER=${DEB_MAINTAINER:-Folio maintainers <folio@localhost>}
SKIP_BUNDLE=0
for arg in "$@"; do
    case "$arg" in
        --skip-bundle) SKIP_BUNDLE=1 ;;
        *) echo "usage: $0 [--skip-bundle]" >&2; exit 2 ;;
    esac
done

VERSION=$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
ARCH=$(dpkg --print-architecture)
DEB="dist/folio_${VERSION}_${ARCH}.deb"
STAGE="build/deb/folio_${VERSION}_${ARCH}"
started=$SECONDS

if [[ $SKIP_BUNDLE == 0 || ! -x dist/folio/folio ]]; then
    # The Chinese font the bundle carries (fonts/README.md); the build stops when it cannot be had.
    "$PYTHON" packaging/cjk_font.py fonts --required
    # The interface translations (resources/i18n/*.qm, from the .ts in the repo); the spec needs them.
    "$PYTHON" packaging/translations.py release
    echo "== bundle: pyinstaller packaging/folio.spec" >&2
    "$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
        --distpath dist --workpath build/pyinstaller packaging/folio.spec
fi
echo "== bundle ready after $((SECONDS - started)) s: $(du -sh dist/folio | cut -f1)" >&2

echo "== staging $STAGE" >&2
rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
    "$STAGE/usr/share/icons/hicolor" "$STAGE/usr/share/doc/folio"
cp -al dist/folio "$STAGE/opt/folio"  # hard links: no second 1.4 GB copy
# Relative link: works once installed and inside a `dpkg-deb -x` root (the package test runs that).
ln -s ../../opt/folio/folio "$STAGE/usr/bin/folio"
"$PYTHON" packaging/make_icon.py "build/deb/icon" --hicolor "$STAGE/usr/share/icons/hicolor" >/dev/null
install -m 0644 packaging/linux/folio.desktop "$STAGE/usr/share/applications/folio.desktop"
cat > "$STAGE/usr/share/doc/folio/copyright" <<'EOF'
Folio: MIT licence (see the project repository).
Bundled third-party software keeps its own licence; each package's metadata (*.dist-info) sits
in /opt/folio/_internal. Models: Qwen2.5-Coder-0.5B-Instruct (Apache-2.0), Universal Sentence Encoder multilingual v3
(Apache-2.0; the embedder of new libraries), all-MiniLM-L6-v2 (Apache-2.0; the embedder of libraries
written before, until they are re-indexed).
Font: WenQuanYi Micro Hei (/opt/folio/_internal/fonts/wqy-microhei.ttc, from Debian's
fonts-wqy-microhei), Apache-2.0 or GPL-3+ with the font exception; its Debian copyright file is
/opt/folio/_internal/fonts/wqy-microhei.copyright. Folio uses it only when no system font has Chinese.
EOF
# Files 0644, directories and executables 0755, owned by root (--root-owner-group below).
chmod -R u=rwX,go=rX "$STAGE"

INSTALLED_KB=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
# Depends is computed: dpkg-shlibdeps over every ELF file of the bundle, with the bundle's own
# library directories searched first, so only what the bundle takes from the system is declared
# (PyInstaller leaves out libc, OpenGL/EGL and the X/Wayland client libraries on purpose: they must
# match the user's display stack). The build machine must have those libraries installed.
echo "== dpkg-shlibdeps over the bundle" >&2
shlibs_started=$SECONDS
# The control file is written by Python (values substituted verbatim, Depends validated); stdout of
# this step is unused, so nothing apt-get or dpkg-shlibdeps prints can reach a field.
PYTHONPATH="$PWD" "$PYTHON" packaging/debian_control.py "$STAGE" --version "$VERSION" --arch "$ARCH" \
    --installed-kb "$INSTALLED_KB" --maintainer "$MAINTAINER" >&2
echo "== control written after $((SECONDS - shlibs_started)) s" >&2

echo "== dpkg-deb -Z$COMPRESSION -z$LEVEL" >&2
mkdir -p dist
rm -f "$DEB"
dpkg-deb --root-owner-group "-Z$COMPRESSION" "-z$LEVEL" --build "$STAGE" "$DEB" >&2
rm -rf "$STAGE"
echo "== $DEB: $(du -h "$DEB" | cut -f1), installed ${INSTALLED_KB} KiB, $((SECONDS - started)) s in all" >&2
echo "$DEB"
