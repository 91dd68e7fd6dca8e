"""What a clerk meets in the window (issue 11): asking before a cancel, opens that fail out loud, notices
where they are seen, open when done, clearing finished tasks, copying rows, help, the keyboard."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress
from desktop_app.ui.desk import Desk
from desktop_app.ui.main_window import MainWindow
from tests.gui.conftest import SlowImport
from tests.gui.test_window_queue import CLEAN, qtbot_left, wait_for_task, wait_status


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
