"""Queueing files through the real widgets and watching what the clerk sees in the task list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.ui.desk import Desk
from desktop_app.ui.dialogs.preview import PreviewDialog
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_model import FAIL, PROCESSED, PROGRESS, STATUS, SUCCESS, TYPE
from tests.gui.conftest import SAMPLES, SlowImport, row_of

CLEAN = SAMPLES / "customers_clean.csv"
ERRORS = SAMPLES / "customers_errors.csv"
TIMEOUT = 30_000


def open_preview(qtbot: Any, window: MainWindow, path: Path, *, validate: bool = False) -> PreviewDialog:
    """Type the path and press Queue (or Validate only), as a clerk would; wait for the preview."""
    panel = window.panel
    panel.path_edit.clear()
    qtbot.keyClicks(panel.path_edit, str(path))
    button = panel.validate_button if validate else panel.queue_button
    qtbot.mouseClick(button, qtbot_left())
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.rows_table.rowCount() > 0, timeout=TIMEOUT)
    assert window.preview is not None
    return window.preview


def qtbot_left() -> Any:
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def queue(qtbot: Any, window: MainWindow, path: Path, *, validate: bool = False) -> None:
    dialog = open_preview(qtbot, window, path, validate=validate)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())


def wait_for_task(qtbot: Any, window: MainWindow, count: int) -> TaskRecord:
    """The newest task, once the list has `count` rows."""
    qtbot.waitUntil(lambda: window.model.rowCount() == count, timeout=TIMEOUT)
    return window.model.record(0)


def wait_status(qtbot: Any, window: MainWindow, task_no: str, *statuses: TaskStatus) -> TaskRecord:
    model = window.model
    qtbot.waitUntil(lambda: model.record(row_of(model, task_no)).status in statuses, timeout=TIMEOUT)
    return model.record(row_of(model, task_no))


def cell(window: MainWindow, task_no: str, column: int) -> Any:
    return window.model.index(row_of(window.model, task_no), column).data()


def test_queue_a_clean_file_by_the_widgets_and_watch_it_succeed(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    panel = window.panel
    dialog = open_preview(qtbot, window, CLEAN)
    assert not panel.queue_button.isEnabled(), "the Queue button cannot submit twice"
    qtbot.mouseClick(panel.queue_button, qtbot_left())
    assert len(window.findChildren(PreviewDialog)) == 1
    assert dialog.encoding_box.currentText() == "Detected: UTF-8 with BOM (Excel)"  # in words, not utf-8-sig
    assert dialog.import_type() == "customers"
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())

    task = wait_for_task(qtbot, window, 1)
    assert task.params["import_type"] == "customers" and not task.params["dry_run"]
    assert window.selected_record() is not None and window.selected_record().id == task.id  # type: ignore[union-attr]
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert cell(window, task.task_no, STATUS) == "Succeeded", done.error_msg
    assert cell(window, task.task_no, PROGRESS) == 100
    assert cell(window, task.task_no, PROCESSED) == "200 / 200"
    assert (cell(window, task.task_no, SUCCESS), cell(window, task.task_no, FAIL)) == ("200", "0")
    assert cell(window, task.task_no, TYPE) == "Customer import"
    assert not window.actions_.open_errors.isEnabled(), "no error CSV, no button"
    qtbot.waitUntil(panel.queue_button.isEnabled)


def test_the_error_csv_button_is_enabled_exactly_when_there_is_one_and_opens_it(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url) or True))
    window = make_desk().window
    queue(qtbot, window, ERRORS)
    task = wait_for_task(qtbot, window, 1)
    if task.status.is_active:
        assert not window.actions_.open_errors.isEnabled()
    done = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.FAILED)
    assert cell(window, task.task_no, STATUS) == "Partially succeeded"
    assert (cell(window, task.task_no, SUCCESS), cell(window, task.task_no, FAIL)) == ("37", "13")
    assert done.error_csv and Path(done.error_csv).is_file()
    assert window.actions_.open_errors.isEnabled()
    window.actions_.open_errors.trigger()
    assert [Path(u.toLocalFile()) for u in opened] == [Path(done.error_csv)]
    window.actions_.open_folder.trigger()
    assert Path(opened[-1].toLocalFile()) == Path(done.error_csv).parent


def test_a_file_already_queued_highlights_its_task_instead_of_adding_one(qtbot: Any, make_desk: Any) -> None:
    handler = SlowImport()
    handler.gate.clear()  # the first task stays running
    window = make_desk([handler]).window
    queue(qtbot, window, CLEAN)
    first = wait_for_task(qtbot, window, 1)
    wait_status(qtbot, window, first.task_no, TaskStatus.RUNNING)
    window.table.clearSelection()
    qtbot.waitUntil(window.panel.queue_button.isEnabled)
    queue(qtbot, window, CLEAN)
    qtbot.waitUntil(lambda: window.model.highlighted_id == first.id, timeout=TIMEOUT)
    assert window.model.rowCount() == 1
    assert window.selected_record() is not None and window.selected_record().id == first.id  # type: ignore[union-attr]
    assert first.task_no in window.last_message


def test_a_file_already_imported_asks_before_importing_it_again(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    queue(qtbot, window, CLEAN)
    first = wait_for_task(qtbot, window, 1)
    wait_status(qtbot, window, first.task_no, TaskStatus.SUCCEEDED)
    qtbot.waitUntil(window.panel.queue_button.isEnabled)
    queue(qtbot, window, CLEAN)
    qtbot.waitUntil(lambda: getattr(window, "question", None) is not None and window.question.isVisible(),
                    timeout=TIMEOUT)  # fmt: skip
    assert first.task_no in window.question.text()
    # kept on one line (seen at 1400x900: "as task T261207-" / "NYJZN0. Import it again?")
    assert window.question.textFormat() == Qt.TextFormat.RichText
    assert f'<span style="white-space:nowrap">{first.task_no}</span>' in window.question.text()
    assert window.model.rowCount() == 1
    qtbot.mouseClick(window.question.button(QMessageBox.StandardButton.Yes), qtbot_left())
    again = wait_for_task(qtbot, window, 2)
    assert again.task_no != first.task_no


def confirm_cancel(qtbot: Any, window: MainWindow, task_no: str) -> None:
    """Answer the question Cancel asks first (issue 11: a cancel is never done without asking)."""
    qtbot.waitUntil(lambda: window.cancel_question is not None and window.cancel_question.isVisible())
    box = window.cancel_question
    assert box is not None and task_no in box.text()
    qtbot.mouseClick(box.cancel_button, qtbot_left())


def test_cancel_a_running_task(qtbot: Any, make_desk: Any) -> None:
    handler = SlowImport()
    handler.gate.clear()
    window = make_desk([handler]).window
    queue(qtbot, window, CLEAN)
    task = wait_for_task(qtbot, window, 1)
    wait_status(qtbot, window, task.task_no, TaskStatus.RUNNING)
    window.select_task(task.id)
    assert window.actions_.cancel.isEnabled() and not window.actions_.retry.isEnabled()
    window.actions_.cancel.trigger()
    confirm_cancel(qtbot, window, task.task_no)
    wait_status(qtbot, window, task.task_no, TaskStatus.CANCELLED)
    assert cell(window, task.task_no, STATUS) == "Cancelled"
    assert not window.actions_.cancel.isEnabled()


def test_cancel_a_pending_task(qtbot: Any, make_desk: Any) -> None:
    handler = SlowImport()
    desk: Desk = make_desk([handler])
    desk.executor.shutdown(5)  # nothing claims: the task stays pending
    window = desk.window
    queue(qtbot, window, CLEAN)
    task = wait_for_task(qtbot, window, 1)
    assert task.status is TaskStatus.PENDING and cell(window, task.task_no, STATUS) == "Pending"
    window.select_task(task.id)
    window.actions_.cancel.trigger()
    confirm_cancel(qtbot, window, task.task_no)
    wait_status(qtbot, window, task.task_no, TaskStatus.CANCELLED)


def test_retry_a_failed_task(qtbot: Any, make_desk: Any) -> None:
    handler = SlowImport(steps=3, pause=0.01)
    handler.fail_next = True
    # not the file's fault: running it again can help. A validation run, as a real import that lost its worker
    # offers "Import the remaining rows" instead (test_window_resume.py)
    handler.fail_code = ErrorCode.WORKER_LOST
    window = make_desk([handler]).window
    queue(qtbot, window, CLEAN, validate=True)
    failed = wait_for_task(qtbot, window, 1)
    failed = wait_status(qtbot, window, failed.task_no, TaskStatus.FAILED)
    assert failed.error_msg
    window.select_task(failed.id)
    assert window.actions_.retry.isEnabled()
    window.actions_.retry.trigger()
    retried = wait_for_task(qtbot, window, 2)
    assert retried.task_no != failed.task_no and retried.params["file"] == failed.params["file"]
    wait_status(qtbot, window, retried.task_no, TaskStatus.SUCCEEDED)
    window.select_task(retried.id)
    assert not window.actions_.retry.isEnabled()


@pytest.mark.parametrize("validate", [False, True])
def test_a_corrupt_file_offers_no_retry(qtbot: Any, make_desk: Any, validate: bool) -> None:
    handler = SlowImport(steps=3, pause=0.01)
    handler.fail_next = True  # fails with corrupt_file: the same file fails the same way again
    window = make_desk([handler]).window
    queue(qtbot, window, CLEAN, validate=validate)
    failed = wait_for_task(qtbot, window, 1)
    failed = wait_status(qtbot, window, failed.task_no, TaskStatus.FAILED)
    assert failed.error_code == ErrorCode.CORRUPT_FILE
    window.select_task(failed.id)
    qtbot.waitUntil(window.actions_.details.isEnabled)
    assert not window.actions_.retry.isEnabled()
    assert not window.actions_.resume.isEnabled()


def test_validate_only_then_import_for_real(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, CLEAN, validate=True)
    assert dialog.dry_run_box.isChecked()
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    check = wait_for_task(qtbot, window, 1)
    assert check.params["dry_run"] is True
    assert cell(window, check.task_no, TYPE) == "Customer import (validate only)"
    wait_status(qtbot, window, check.task_no, TaskStatus.SUCCEEDED)
    window.select_task(check.id)
    assert window.actions_.import_for_real.isEnabled()
    window.actions_.import_for_real.trigger()
    real = wait_for_task(qtbot, window, 2)
    assert real.params["dry_run"] is False
    done = wait_status(qtbot, window, real.task_no, TaskStatus.SUCCEEDED)
    assert done.success_count == 200


def test_reimport_the_fixed_error_csv(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    queue(qtbot, window, ERRORS)
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(done.id)
    assert window.actions_.reimport.isEnabled()
    window.actions_.reimport.trigger()
    # the preview opens (nothing is queued yet), and says the file is as BatchDesk wrote it
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.rows_table.rowCount() > 0, timeout=TIMEOUT)
    dialog = window.preview
    assert dialog is not None and window.model.rowCount() == 1
    assert (
        dialog.notice_label.isVisibleTo(dialog) and "unchanged since BatchDesk wrote it" in dialog.notice_label.text()
    )
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    fix = wait_for_task(qtbot, window, 2)
    assert fix.params["repairs"] == done.task_no
    assert Path(fix.params["file"]) == Path(str(done.error_csv))


def test_the_details_panel_shows_the_fields_and_the_log(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    queue(qtbot, window, ERRORS)
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(done.id)
    window.actions_.details.trigger()
    details = window.details
    assert window.details_dock.isVisible()
    assert details.value("task_no") == done.task_no
    assert details.value("error_csv") == done.error_csv
    assert "37 succeeded, 13 failed" in details.value("counts")
    qtbot.waitUntil(lambda: done.task_no in details.log_view.toPlainText(), timeout=TIMEOUT)


def test_the_queue_button_waits_for_a_file(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    assert not window.panel.queue_button.isEnabled()
    qtbot.keyClicks(window.panel.path_edit, "/nowhere/missing.csv")
    qtbot.mouseClick(window.panel.queue_button, qtbot_left())
    assert "missing.csv" in window.last_message and window.preview is None
    assert window.panel.queue_button.isEnabled()


def test_a_task_that_ends_before_its_submission_is_heard_is_told_as_ended(qtbot: Any, make_desk: Any) -> None:
    """A loaded machine: a short task (a value fix) ran to its end on a worker before the GUI thread heard
    that it was queued. The submission's record, read when it was queued, must not list it as pending
    again, and the clerk is told it ended, as for any task this desk queued."""
    from dataclasses import replace

    from desktop_app.domain.task import SubmitResult

    desk = make_desk()
    service = desk.service
    queued = desk.core.store.submit(task_type="not_run_here", params={"file": "/data/x.csv"},  # no worker claims it
                                    creator="tester").task  # fmt: skip
    ended = replace(queued, status=TaskStatus.SUCCEEDED, total_count=3, success_count=3)
    told: list[Any] = []
    service.task_ended.connect(told.append)
    service._publish(ended)  # the worker's end, heard first
    service._in_flight = 1
    service._on_submitted(SubmitResult(task=queued))  # then the submission's answer
    assert [r.status for r in told] == [TaskStatus.SUCCEEDED]
    row = desk.window.model.row_of(queued.id)
    assert row is not None and desk.window.model.record(row).status is TaskStatus.SUCCEEDED


def test_a_read_older_than_the_listed_row_does_not_bring_an_ended_task_back(qtbot: Any, make_desk: Any) -> None:
    """Reads run off the GUI thread and may arrive late: a refresh that read a task while it ran, heard after
    the worker's news of its end, must not list it as running again, nor make a later read of it (an import
    re-read after its value fix) tell it as ended a second time, over the notice of the task that just ended."""
    import datetime as dt
    from dataclasses import replace

    desk = make_desk()
    service, model = desk.service, desk.window.model
    queued = desk.core.store.submit(task_type="not_run_here", params={"file": "/data/x.csv"},  # no worker claims it
                                    creator="tester").task  # fmt: skip
    assert queued.updated_at is not None
    at = queued.updated_at
    running = replace(queued, status=TaskStatus.RUNNING, updated_at=at + dt.timedelta(seconds=1))
    ended = replace(queued, status=TaskStatus.SUCCEEDED, success_count=3, updated_at=at + dt.timedelta(seconds=2))
    told: list[Any] = []
    service.task_ended.connect(told.append)
    service._publish(running)
    service._publish(ended)  # the worker's end
    service._publish(running)  # a refresh's read of it while it ran, heard late
    row = model.row_of(queued.id)
    assert row is not None and model.record(row).status is TaskStatus.SUCCEEDED
    service._publish(replace(ended, success_count=4, updated_at=at + dt.timedelta(seconds=3)))  # read again later
    assert [r.status for r in told] == [TaskStatus.SUCCEEDED]  # told once
    assert model.record(model.row_of(queued.id) or 0).success_count == 4
    # a desk whose clock was set back: its rows, stamped minutes "earlier", still reach the list
    back = replace(ended, success_count=5, updated_at=at - dt.timedelta(minutes=10))
    service._publish(back)
    assert model.record(model.row_of(queued.id) or 0).success_count == 5
