"""Screenshots of the tryout's fixes (run under an X server with a window manager): the Details pane with a task,
then with none selected (Ctrl+click, a Find text matching nothing); the Feeds view with a row selected; the
preview of a GBK file and of rows that fail beside rows that wait for a department.
Usage: python scripts/screens_details_feeds_preview.py LANG OUT_PREFIX (e.g. zh /tmp/shots/zh-1024x700)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SAMPLES = Path(__file__).resolve().parents[1] / "resources" / "samples"


def main(argv: list[str]) -> int:
    lang, prefix = argv[0], argv[1]
    from PySide6.QtCore import QItemSelectionModel

    from desktop_app.app import build_core
    from desktop_app.domain.feeds import FeedSpec
    from desktop_app.domain.status import TaskStatus
    from desktop_app.tasks.submit import current_user
    from desktop_app.ui.demo import sample_jobs
    from scripts.screen_window import ShownWindow
    from scripts.screens_preview import customer, write

    root = Path(tempfile.mkdtemp(prefix="batchdesk-dfp-"))
    inbox = root / "inbox"
    inbox.mkdir()
    core = build_core(data_dir=root / "data", overrides={"language": lang, "daily_cleanup": False})
    core.feeds().add(FeedSpec(name="bank-statements-daily", folder=str(inbox), import_type="customers", settle=0),
                     user=current_user())  # fmt: skip
    shown = ShownWindow(core, root, prefix)
    window = shown.window
    shown.desk.service.submit_many(sample_jobs(core.settings))
    shown.wait(6000)
    partial = next(r for r in window.model.records() if r.status is TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(partial.id)
    window.actions_.details.trigger()
    shown.shot("1-details-task")
    index = window.table.selectionModel().currentIndex()  # as Ctrl+click on the selected row
    window.table.selectionModel().select(index, QItemSelectionModel.SelectionFlag.Deselect
                                         | QItemSelectionModel.SelectionFlag.Rows)  # fmt: skip
    shown.shot("2-details-deselected")
    window.select_task(partial.id)
    shown.wait(500)
    window.filters.text_edit.setText("zzzz")
    shown.shot("3-details-find-nothing")
    window.filters.text_edit.clear()

    window.menus.feeds_action.trigger()
    shown.wait(2500)
    feeds = shown.desk.feeds_window
    assert feeds is not None
    feeds.select("bank-statements-daily")
    shown.shot("4-feeds-selected")
    feeds.close()

    window.open_preview(SAMPLES / "customers_gbk.csv", "customers", False)
    shown.wait(2500)
    dialog = window.preview
    assert dialog is not None
    shown.shot("5-preview-gbk")
    dialog.reject()
    shown.wait(500)
    rows = [customer(i) for i in range(1, 10)]
    rows[1] = customer(2, 部门="华东销售部")
    rows[4] = customer(5, 部门="华东销售部")
    rows[6] = customer(7, 手机号="139 1234 567")
    window.open_preview(write(root / "waiting.csv", rows), "customers", False)
    shown.wait(3000)
    shown.shot("6-preview-waiting")
    dialog = window.preview
    if dialog is not None:
        dialog.reject()
    shown.desk.shutdown(20)
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
