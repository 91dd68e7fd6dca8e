#!/bin/sh
# Adds BatchDesk to this user's application menu (no root needed): ./install.sh
# Removes the menu entry again: ./install.sh --uninstall (your data in ~/.local/share/BatchDesk stays).
set -eu
DIR="$(cd "$(dirname "$0")" && pwd)"
APPS="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
ICONS="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
BIN="$HOME/.local/bin"

if [ "${1:-}" = "--uninstall" ]; then
  rm -f "$APPS/batchdesk.desktop" "$ICONS/batchdesk.svg"
  [ -L "$BIN/batchdesk" ] && rm -f "$BIN/batchdesk"
  echo "BatchDesk removed from the menu. Delete $DIR to remove the program;"
  echo "your data stays in ${XDG_DATA_HOME:-$HOME/.local/share}/BatchDesk."
  exit 0
fi

mkdir -p "$APPS" "$ICONS" "$BIN"
cp "$DIR/batchdesk.svg" "$ICONS/batchdesk.svg"
# The entry runs `batchdesk --open %f`: "Open With BatchDesk" on .csv/.xlsx (its MimeType line) opens the window
# with the file ready to queue; started from the menu, %f is dropped and a bare --open just opens the window.
sed -e "s|@EXEC@|\"$DIR/batchdesk\"|" -e "s|@TRYEXEC@|$DIR/batchdesk|" "$DIR/batchdesk.desktop" >"$APPS/batchdesk.desktop"
ln -sf "$DIR/batchdesk" "$BIN/batchdesk"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$APPS" || true
echo "BatchDesk is in your application menu; the command line is $BIN/batchdesk."
