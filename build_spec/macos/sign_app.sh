#!/usr/bin/env bash
# Signs BatchDesk.app for distribution outside the App Store: hardened runtime, secure timestamp, every
# Mach-O file inside first, then each framework, then the app itself. Not `codesign --deep`: Apple advises
# against it for signing (it applies one set of options to everything and skips code in odd places).
#   MACOS_SIGN_IDENTITY="Developer ID Application: Name (TEAMID)" build_spec/macos/sign_app.sh [dist/BatchDesk.app]
# Without MACOS_SIGN_IDENTITY nothing is done (PyInstaller's ad-hoc signature stays: fine for local use).
set -euo pipefail
APP="${1:-dist/BatchDesk.app}"
ID="${MACOS_SIGN_IDENTITY:-}"
if [[ -z "$ID" ]]; then
  echo "sign: MACOS_SIGN_IDENTITY is not set; $APP keeps its ad-hoc signature"
  exit 0
fi
ENTITLEMENTS="$(dirname "$0")/entitlements.plist"
sign() { codesign --force --timestamp --options runtime --sign "$ID" "$@"; }

# 1. Every Mach-O file (libraries, extension modules, the executables in Contents/MacOS), symlinks skipped.
count=0
while IFS= read -r -d '' file; do
  if file -b "$file" | grep -q 'Mach-O'; then sign "$file"; count=$((count + 1)); fi
done < <(find "$APP/Contents" -type f -print0)
# 2. Framework bundles (the Qt ones), so each one's seal covers its resources.
while IFS= read -r -d '' framework; do
  sign "$framework"
done < <(find "$APP/Contents" -type d -name '*.framework' -print0)
# 3. The app: seals Contents and signs the main executable with the app's entitlements.
sign --entitlements "$ENTITLEMENTS" "$APP"
codesign --verify --strict --verbose=2 "$APP"
echo "sign: signed $count Mach-O files and $APP as $ID"
