"""Screenshots of the task list as a clerk's second tryout filled it (an undo whose type names its import,
200,000-row counts, an undone import, an applied check), with no task selected and one selected (run under
an X server with a window manager).
Usage: python scripts/screens_list_fit.py LANG OUT_PREFIX (e.g. zh /tmp/shots-list/zh-1400x900)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from desktop_app.app import build_core
    from desktop_app.ui.task_model import COLUMN_COUNT
    from scripts.screen_window import ShownWindow
    from tests.support.tryout_rows import the_second_tryouts_list

    root = Path(tempfile.mkdtemp(prefix="batchdesk-list-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot
    shown.sample_tasks()
    big = the_second_tryouts_list(window.model)
    window.table.clearSelection()
    window.details_dock.show()
    wait(1500)
    table = window.table
    print(lang, "viewport", table.viewport().width(), "columns", [table.columnWidth(c) for c in range(COLUMN_COUNT)],
          "hidden", [c for c in range(COLUMN_COUNT) if table.isColumnHidden(c)],
          "sideways", table.horizontalScrollBar().maximum())  # fmt: skip
    shot("list")
    window.select_task(big.id)
    wait(1500)
    print(lang, "selected: viewport", table.viewport().width(), "sideways", table.horizontalScrollBar().maximum())
    shot("list-selected")
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
