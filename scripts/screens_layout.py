"""Screenshots of the main window's layout on a small screen (run under an X server with a window manager):
the Details panel with no task selected, the task list with a running task and an undone one, the Details of
a partly succeeded import, and the Feeds view with two feeds.
Usage: python scripts/screens_layout.py LANG OUT_PREFIX (e.g. zh /tmp/shots-layout/zh-1024x700)."""

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
    from desktop_app.domain.feeds import FeedSpec
    from desktop_app.domain.status import TaskStatus
    from desktop_app.domain.task import Progress
    from desktop_app.tasks.submit import current_user
    from scripts.screen_window import ShownWindow

    root = Path(tempfile.mkdtemp(prefix="batchdesk-layout-"))
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    for name in ("bank", "east"):
        (root / name).mkdir()
    user = current_user()
    core.feeds().add(FeedSpec(name="Bank", folder=str(root / "bank"), import_type="customers", settle=0), user=user)
    core.feeds().add(FeedSpec(name="East branch", folder=str(root / "east"), import_type="customers", settle=0),
                     user=user)  # fmt: skip
    shown = ShownWindow(core, root, prefix)
    desk, window, wait, shot = shown.desk, shown.window, shown.wait, shown.shot
    model = window.model
    shown.sample_tasks()
    window.table.clearSelection()
    window.details_dock.show()
    wait(1500)
    shot("no-selection")
    # an undone import (its Stage reads "Undone by T…") and a running one, as the list shows them
    done = next(r for r in model.records() if r.status is TaskStatus.SUCCEEDED)
    model.upsert(replace(done, undone_by="T261206-K7Q2ZD", updated_at=dt.datetime.now()))
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    started = now - dt.timedelta(seconds=40)
    running = replace(done, id=9_001, task_no="T261207-RUN001", status=TaskStatus.RUNNING, undone_by=None,
                      started_at=started, ended_at=None, progress=40, updated_at=now)  # fmt: skip
    model.upsert(running)
    model.apply_progress(Progress(running.id, running.task_no, 40, "Importing row 120,001 of 300,000", 120_000,
                                  119_990, 10, rows_in_file=300_000))  # fmt: skip
    wait(1500)
    shot("running")
    partial = next(r for r in model.records() if r.status is TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(partial.id)
    window.actions_.details.trigger()
    wait(2000)
    shot("details")
    bar = window.details.scroll_area.verticalScrollBar()
    bar.setValue(bar.maximum())  # the panel's end: its buttons
    wait(500)
    shot("details-end")
    desk.open_feeds()
    wait(3000)
    shot("feeds")
    desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
