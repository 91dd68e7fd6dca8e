"""What a clerk meets in the window (issue 11): asking before a cancel, opens that fail out loud, notices
where they are seen, open when done, clearing finished tasks, copying rows, help, the keyboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress
from desktop_app.ui.desk import Desk
from desktop_app.ui.main_window import MainWindow
from tests.gui.conftest import SlowImport
from tests.gui.test_window_queue import CLEAN, ERRORS, qtbot_left, queue, wait_for_task, wait_status


def running_task(qtbot: Any, make_desk: Any, handler: SlowImport | None = None) -> tuple[Desk, Any]:
    """A desk whose one import stays running until its handler's gate opens."""
    handler = handler or SlowImport()
    handler.gate.clear()
    desk: Desk = make_desk([handler])
    desk.service.submit_import(CLEAN, {"import_type": "customers"})
    task = wait_for_task(qtbot, desk.window, 1)
    wait_status(qtbot, desk.window, task.task_no, TaskStatus.RUNNING)
    desk.window.select_task(task.id)
    return desk, task


def tick(desk: Desk, task: Any, done: int, total: int) -> None:
    """A progress tick as the executor sends it."""
    desk.service.progress.emit(Progress(task.id, task.task_no, 100 * done // total, "importing", total, done, 0))


def activate(qtbot: Any, window: MainWindow) -> None:
    """Window shortcuts need the window active (a dialog closed just before may have taken that away)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


# --- 2: Cancel asks first ---------------------------------------------------------------------


def test_del_asks_first_naming_the_task_and_the_rows_in_and_escape_keeps_it_running(qtbot: Any, make_desk: Any) -> None:
    desk, task = running_task(qtbot, make_desk)
    window = desk.window
    tick(desk, task, 1200, 5000)
    activate(qtbot, window)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: window.cancel_question is not None and window.cancel_question.isVisible())
    box = window.cancel_question
    assert box is not None
    assert task.task_no in box.text() and CLEAN.name in box.text()
    assert "1,200 of 5,000 rows are in" in box.informativeText()
    assert box.defaultButton() is box.keep_button, "Enter by habit keeps the task running"
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.cancel_question is None)
    qtbot.wait(100)
    assert desk.core.store.get(task.task_no).status is TaskStatus.RUNNING  # type: ignore[union-attr]
    window.actions_.cancel.trigger()
    qtbot.waitUntil(lambda: window.cancel_question is not None and window.cancel_question.isVisible())
    qtbot.mouseClick(window.cancel_question.cancel_button, qtbot_left())
    wait_status(qtbot, window, task.task_no, TaskStatus.CANCELLED)


# --- 3: an open that fails says so -----------------------------------------------------------------


def test_an_error_file_the_desktop_cannot_open_shows_its_path_copy_and_show_in_folder(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    works = {"files": False, "folders": False}

    def open_url(url: QUrl) -> bool:
        path = Path(url.toLocalFile())
        opened.append(path)
        return works["folders"] if path.is_dir() else works["files"]

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(open_url))
    window = make_desk().window
    queue(qtbot, window, ERRORS)
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(done.id)
    activate(qtbot, window)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)  # Ctrl+E
    qtbot.waitUntil(lambda: window.open_failed_dialog is not None and window.open_failed_dialog.isVisible())
    dialog = window.open_failed_dialog
    assert dialog is not None and dialog.path_edit.text() == done.error_csv
    assert ".csv" in dialog.message.text() and str(done.error_csv) in window.last_message
    qtbot.mouseClick(dialog.copy_button, qtbot_left())
    assert QGuiApplication.clipboard().text() == done.error_csv
    assert dialog.isVisible(), "copying keeps the message up"
    qtbot.mouseClick(dialog.folder_button, qtbot_left())
    assert "either" in dialog.note.text(), "the folder could not be opened either: it says so"
    works["folders"] = True
    qtbot.mouseClick(dialog.folder_button, qtbot_left())
    assert opened[-1] == Path(str(done.error_csv)).parent
    qtbot.waitUntil(lambda: window.open_failed_dialog is None)
