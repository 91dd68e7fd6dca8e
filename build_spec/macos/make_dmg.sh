#!/usr/bin/env bash
# Makes dist/BatchDesk-<version>-macos-<arch>.dmg (the app and an Applications link to drag it onto),
# signs it, and notarizes + staples both the app and the dmg, each step only when configured:
#   MACOS_SIGN_IDENTITY                              codesign identity (see sign_app.sh); sign the dmg
#   MACOS_NOTARY_PROFILE                             a `xcrun notarytool store-credentials` keychain profile, or
#   APPLE_ID + APPLE_TEAM_ID + APPLE_APP_PASSWORD    an Apple ID with an app-specific password
# Notarization needs a signed app (hardened runtime), so it is skipped without MACOS_SIGN_IDENTITY.
#   build_spec/macos/make_dmg.sh [dist/BatchDesk.app]
set -euo pipefail
cd "$(dirname "$0")/../.."
APP="${1:-dist/BatchDesk.app}"
[[ -d "$APP" ]] || { echo "dmg: no $APP (build first)" >&2; exit 1; }
version="$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$APP/Contents/Info.plist")"
arch="$(lipo -archs "$APP/Contents/MacOS/BatchDesk" | tr ' ' '-')"
DMG="dist/BatchDesk-$version-macos-$arch.dmg"
ID="${MACOS_SIGN_IDENTITY:-}"

notary_auth=()
if [[ -n "${MACOS_NOTARY_PROFILE:-}" ]]; then
  notary_auth=(--keychain-profile "$MACOS_NOTARY_PROFILE")
elif [[ -n "${APPLE_ID:-}" && -n "${APPLE_TEAM_ID:-}" && -n "${APPLE_APP_PASSWORD:-}" ]]; then
  notary_auth=(--apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" --password "$APPLE_APP_PASSWORD")
fi
notarize=0
[[ -n "$ID" && ${#notary_auth[@]} -gt 0 ]] && notarize=1

notarize_file() {  # $1: a .zip or .dmg; fails unless Apple accepts it, printing Apple's log when not
  local out status sid
  out="$(xcrun notarytool submit "$1" "${notary_auth[@]}" --wait --timeout 30m --output-format json)"
  status="$(plutil -extract status raw - <<<"$out" 2>/dev/null || echo unknown)"
  sid="$(plutil -extract id raw - <<<"$out" 2>/dev/null || echo "")"
  echo "dmg: notarization of $1: $status"
  if [[ "$status" != "Accepted" ]]; then
    [[ -n "$sid" ]] && xcrun notarytool log "$sid" "${notary_auth[@]}" || true
    return 1
  fi
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. Notarize and staple the app itself, so it also opens offline once copied out of the dmg.
if ((notarize)); then
  ditto -c -k --keepParent "$APP" "$work/BatchDesk.zip"
  notarize_file "$work/BatchDesk.zip"
  xcrun stapler staple "$APP"
else
  echo "dmg: notarization not configured (MACOS_SIGN_IDENTITY plus MACOS_NOTARY_PROFILE or APPLE_ID/APPLE_TEAM_ID/APPLE_APP_PASSWORD); skipped"
fi

# 2. The dmg: the app (ditto keeps symlinks, signatures and the stapled ticket) and a link to /Applications.
mkdir "$work/root"
ditto "$APP" "$work/root/BatchDesk.app"
ln -s /Applications "$work/root/Applications"
rm -f "$DMG"
hdiutil create -volname "BatchDesk $version" -srcfolder "$work/root" -fs HFS+ -format UDZO -ov "$DMG"

# 3. Sign, notarize and staple the dmg.
if [[ -n "$ID" ]]; then codesign --force --timestamp --sign "$ID" "$DMG"; fi
if ((notarize)); then
  notarize_file "$DMG"
  xcrun stapler staple "$DMG"
  xcrun stapler validate "$DMG"
  spctl --assess --type open --context context:primary-signature --verbose=2 "$DMG" || true
fi
echo "dmg: $DMG ($(du -h "$DMG" | cut -f1))"
