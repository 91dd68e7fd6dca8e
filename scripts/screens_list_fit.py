"""Screenshots of the task list as a clerk's second tryout filled it (an undo whose type names its import,
200,000-row counts, an undone import, an applied check), with no task selected and one selected (run under
an X server with a window manager).
Usage: python scripts/screens_list_fit.py LANG OUT_PREFIX (e.g. zh /tmp/shots-list/zh-1400x900)."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from desktop_app.app import build_core
    from desktop_app.domain.status import TaskStatus
    from desktop_app.ui.demo import sample_jobs
    from desktop_app.ui.task_model import COLUMN_COUNT
    from scripts.screen_window import ShownWindow

    root = Path(tempfile.mkdtemp(prefix="batchdesk-list-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot
    jobs = sample_jobs(core.settings)
    desk.service.submit_many(jobs)
    model = window.model
    for _ in range(120):
        wait(500)
        if model.rowCount() == len(jobs) and all(r.status.is_final for r in model.records()):
            break
    done = next(r for r in model.records() if r.status is TaskStatus.SUCCEEDED)
    now = dt.datetime.now()
    big = replace(done, id=8_001, task_no="T261207-44E10H", total_count=200_000, success_count=199_963,
                  fail_count=37, undone_by="T261207-EZ6GWN", updated_at=now)  # fmt: skip
    model.upsert(big)
    model.upsert(replace(done, id=8_002, task_no="T261207-EZ6GWN", task_type="undo", params={"undoes": big.task_no},
                         total_count=199_963, success_count=199_963, fail_count=0, updated_at=now))  # fmt: skip
    model.upsert(replace(done, id=8_003, task_no="T261207-CXC4XS", applied_by="T261207-2M3G4R", updated_at=now))
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
