"""A new task type in the window: docs/EXTENDING.md's example kind is listed, read and offered as it says."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane
from desktop_app.tasks.submit import current_user
from desktop_app.ui.desk import Desk
from desktop_app.ui.task_model import STAGE, STATUS, TYPE
from tests.gui.conftest import row_of
from tests.gui.test_window_queue import TIMEOUT, wait_status
from tests.integration.test_extending_doc import example


def test_the_example_task_type_reads_and_offers_what_its_kind_says(qtbot: Any, make_desk: Any) -> None:
    namespace: dict[str, Any] = {}
    exec(compile(example("task_type.py"), "EXTENDING.md", "exec"), namespace)
    desk: Desk = make_desk([namespace["CountRowsHandler"]()])
    window = desk.window
    task = desk.core.store.submit(task_type="count_rows", params={}, creator=current_user(), lane=Lane.SHORT).task
    ended = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED)
    row = row_of(window.model, ended.task_no)
    shown = [window.model.index(row, c).data(Qt.ItemDataRole.DisplayRole) for c in (TYPE, STATUS, STAGE)]
    assert shown[:2] == ["count_rows", "Succeeded"], shown
    assert window.kinds.of(ended) is namespace["COUNT_ROWS"]  # handed from the registry, not looked up by name
    window.select_task(ended.id)
    actions = window.actions_
    qtbot.waitUntil(lambda: actions.details.isEnabled(), timeout=TIMEOUT)
    offered = [a for a in (actions.cancel, actions.retry, actions.resume, actions.undo, actions.import_for_real,
                           actions.open_errors, actions.open_result, actions.complete_references,
                           actions.open_when_done) if a.isEnabled()]  # fmt: skip
    assert offered == []  # ended: it allowed Cancel only, and only while it ran
