#!/usr/bin/env bash
# The window's screenshots: the main window as `batchdesk --demo` shows it (its tasks ended, Details open),
# maximised under Xvfb with a window manager (openbox), at 1400x900, 1366x768 and 1024x700, in Chinese and
# English: docs/screens/main-WxH-LOCALE.png; the 1400x900 pair is also the README's docs/screenshot-LOCALE.png.
# Needs: apt-get install -y xvfb xauth openbox libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 \
#        libxcb-keysyms1 libxcb-shape0 fonts-noto-cjk
#   scripts/screenshots.sh                  every size and language
#   scripts/screenshots.sh 1024x700 en      one of them
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/screens
if ! fc-list :lang=zh | grep -q .; then
  echo "screenshots: no CJK font (apt-get install -y fonts-noto-cjk); Chinese would show as boxes" >&2
  exit 1
fi
command -v openbox >/dev/null || { echo "screenshots: no window manager (apt-get install -y openbox)" >&2; exit 1; }
harness="$(mktemp --suffix=.py)"
trap 'rm -f "$harness"' EXIT
cat >"$harness" <<'PY'
"""Show the window as `batchdesk --demo` does, maximised, wait for the demo tasks, open the details of the
partly succeeded one, and save the whole screen (the window manager's frame included) to a PNG.

Usage: python HARNESS LANG OUT.png   (LANG: zh or en; run under an X server with a window manager)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))


def main(argv: list[str]) -> int:
    lang, out = argv[0], Path(argv[1])
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop_app.app import build_core
    from desktop_app.domain.status import TaskStatus
    from desktop_app.ui.demo import sample_jobs
    from desktop_app.ui.desk import Desk

    app = QApplication([sys.argv[0]])
    app.setQuitOnLastWindowClosed(False)
    data_dir = tempfile.mkdtemp(prefix="batchdesk-shot-")
    core = build_core(data_dir=data_dir, overrides={"language": lang, "daily_cleanup": False})
    desk = Desk(app, core, QSettings(str(Path(data_dir) / "window.ini"), QSettings.Format.IniFormat))
    desk.start()
    desk.window.showMaximized()
    jobs = sample_jobs(core.settings)
    desk.service.submit_many(jobs)
    ended: list[object] = []
    loop = QEventLoop()

    def one_ended(record: object) -> None:
        ended.append(record)
        if len(ended) == len(jobs):
            loop.quit()

    desk.service.task_ended.connect(one_ended)
    QTimer.singleShot(60_000, loop.quit)
    loop.exec()
    window = desk.window
    partial = next((r for r in window.model.records() if r.status is TaskStatus.PARTIALLY_SUCCEEDED), None)
    if partial is not None:
        window.select_task(partial.id)
        window.actions_.details.trigger()
    window.table.setFocus()
    QTimer.singleShot(2000, loop.quit)  # the log lines, the window manager's maximising, a repaint
    loop.exec()
    app.primaryScreen().grabWindow(0).save(str(out))
    window.allow_close = True
    desk.shutdown()
    shutil.rmtree(data_dir, ignore_errors=True)
    sys.stdout.write(f"{out}: {len(ended)} of {len(jobs)} demo tasks ended\n")
    return 0 if len(ended) == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
PY
sizes="${1:-1400x900 1366x768 1024x700}"
locales="${2:-zh_CN en}"
for size in $sizes; do
  for locale in $locales; do
    out="docs/screens/main-${size}-${locale}.png"
    LANG="${locale}.UTF-8" QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 ${size}x24" \
      bash -c 'openbox >/dev/null 2>&1 & sleep 1; exec "$@"' _ .venv/bin/python "$harness" "${locale%%_*}" "$out"
    if [[ "$size" == "1400x900" ]]; then
      cp "$out" "docs/screenshot-${locale}.png"
    fi
  done
done
