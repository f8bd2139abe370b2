#!/usr/bin/env bash
# Build dist/Folio.app (PyInstaller, packaging/folio.spec) and dist/Folio-<version>.dmg (hdiutil).
# Run on macOS from any directory, with a Python 3.11 venv that has `.[package]` installed and the
# default models in models/ (`python packaging/install_models.py models`).
# Usage: packaging/macos/build_macos.sh [--skip-bundle]
# Environment: PYTHON (default .venv/bin/python), CODESIGN_IDENTITY (default "-": ad-hoc signing;
# set a "Developer ID Application: ..." identity to sign for distribution, then notarize).
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-.venv/bin/python}
IDENTITY=${CODESIGN_IDENTITY:--}
VERSION=$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
APP=dist/Folio.app
DMG="dist/Folio-${VERSION}.dmg"

if [[ "${1:-}" != "--skip-bundle" || ! -d "$APP" ]]; then
    "$PYTHON" packaging/translations.py release  # resources/i18n/*.qm, which the spec requires
    "$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
        --distpath dist --workpath build/pyinstaller packaging/folio.spec
fi

# Sign the whole bundle. Ad-hoc ("-") is enough to run on the build machine and on Apple Silicon;
# a Developer ID identity gets the hardened runtime (required for notarization) with entitlements
# that let Python load the bundled native libraries.
if [[ "$IDENTITY" == "-" ]]; then
    codesign --force --deep --sign - "$APP"
else
    codesign --force --deep --options runtime --timestamp \
        --entitlements packaging/macos/entitlements.plist --sign "$IDENTITY" "$APP"
fi
codesign --verify --deep --strict "$APP"

# Smoke test of the bundle itself, headless: ingest the sample, search, answer, check the page.
"$APP/Contents/MacOS/folio" --self-test

STAGE=build/dmg
rm -rf "$STAGE"
mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "Folio ${VERSION}" -srcfolder "$STAGE" -fs HFS+ -format UDZO \
    -imagekey zlib-level=1 -ov "$DMG"
hdiutil verify "$DMG"
rm -rf "$STAGE"
echo "$DMG"
