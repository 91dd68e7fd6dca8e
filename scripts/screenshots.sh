#!/usr/bin/env bash
# The README's screenshots: the window as `batchdesk --demo` shows it, in Chinese and English, under Xvfb.
# Needs: apt-get install -y xvfb xauth libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 \
#        libxcb-shape0 fonts-noto-cjk
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs
if ! fc-list :lang=zh | grep -q .; then
  echo "screenshots: no CJK font (apt-get install -y fonts-noto-cjk); Chinese would show as boxes" >&2
  exit 1
fi
for locale in zh_CN en; do
  LANG="${locale}.UTF-8" QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1760x900x24" \
    .venv/bin/python - "${locale%%_*}" "docs/screenshot-${locale}.png" <<'PY'
"""Render the main window as `batchdesk --demo` shows it, once the demo tasks ended, to a PNG.

Usage: python - LANG OUT.png < this text   (LANG: zh or en; run under Xvfb or offscreen)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))


def main(argv: list[str]) -> int:
    lang, out = argv[0], Path(argv[1])
    from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop_app.app import build_core
    from desktop_app.ui.demo import sample_jobs
    from desktop_app.ui.desk import Desk

    app = QApplication([sys.argv[0]])
    app.setQuitOnLastWindowClosed(False)
    data_dir = tempfile.mkdtemp(prefix="batchdesk-shot-")
    core = build_core(data_dir=data_dir, overrides={"language": lang, "daily_cleanup": False})
    desk = Desk(app, core, QSettings(str(Path(data_dir) / "window.ini"), QSettings.Format.IniFormat))
    desk.start()
    desk.window.resize(1690, 720)
    desk.window.show()
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
    model = desk.window.model
    for row in range(model.rowCount()):
        if model.record(row).fail_count:
            desk.window.select_task(model.record(row).id)
            desk.window.actions_.details.trigger()
            desk.window.resizeDocks([desk.window.details_dock], [400], Qt.Orientation.Horizontal)
            break
    QTimer.singleShot(1500, loop.quit)  # the log lines and a repaint
    loop.exec()
    desk.window.grab().save(str(out))
    desk.window.allow_close = True
    desk.shutdown()
    sys.stdout.write(f"{out}: {len(ended)} of {len(jobs)} demo tasks ended\n")
    return 0 if len(ended) == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
PY
done
