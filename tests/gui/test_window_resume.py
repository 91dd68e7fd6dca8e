"""Import the remaining rows in the window (issue 11): a stopped import says where it stopped, offers its
remaining rows in the context menu, the details and when its file is queued again, and finishes the file."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from desktop_app.app import build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.options import ImportOptions
from desktop_app.tasks.runner import run_task
from desktop_app.tasks.submit import current_user
from desktop_app.ui.details import DetailsPanel
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_model import PROCESSED
from tests.gui.conftest import row_of
from tests.gui.test_window_queue import TIMEOUT, cell, qtbot_left, queue, wait_for_task, wait_status
from tests.support.customers import row, write_csv

ROWS = 1_000
BAD = 10  # rows 100, 200, ...


def stopped_import(tmp_path: Path) -> tuple[Path, Path, TaskRecord]:
    """A 1,000-row file whose import was cancelled after a few batches, on a data folder of its own."""
    data_dir = tmp_path / "data"
    rows = [row(i, 手机号="bad") if i % 100 == 0 else row(i) for i in range(1, ROWS + 1)]
    path = write_csv(tmp_path / "customers_big.csv", rows)
    core = build_core(data_dir=data_dir, overrides={"daily_cleanup": False})
    try:
        options = ImportOptions(file=path, import_type="customers", batch_size=100)
        task = core.submitter().submit_import(options, user=current_user()).task
        (claimed,) = core.store.claim("test:1:1:aa", 1, only_ids=[task.id])

        def listener(progress: Any) -> None:
            if progress.success_count >= 300:
                core.store.cancel(task.task_no)

        run_task(claimed, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                 stop_event=threading.Event(), listener=listener, lang="en")  # fmt: skip
        stopped = core.store.get(task.task_no)
    finally:
        core.store.engine.dispose()
    assert stopped is not None and stopped.status is TaskStatus.CANCELLED
    return data_dir, path, stopped


def stopped_window(qtbot: Any, make_desk: Any, tmp_path: Path) -> tuple[MainWindow, Path, TaskRecord]:
    """A window on a data folder holding a stopped import (listed): the window, the file, the import."""
    data_dir, path, stopped = stopped_import(tmp_path)
    window = make_desk(data_dir=data_dir).window
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    return window, path, stopped


def test_a_stopped_import_shows_where_it_stopped_and_offers_its_remaining_rows(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    data_dir, path, stopped = stopped_import(tmp_path)
    done = stopped.success_count + stopped.fail_count
    window = make_desk(data_dir=data_dir).window
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    # the list reads processed / the file's rows as they were when it stopped
    assert cell(window, stopped.task_no, PROCESSED) == f"{done:,} / {ROWS:,}"
    window.select_task(stopped.id)
    actions = window.actions_
    qtbot.waitUntil(actions.resume.isEnabled)
    assert actions.resume in window.menus.context_menu.actions()
    assert not actions.retry.isEnabled(), "a forced re-run would fail the rows already in"
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == stopped.id)
    assert details.value("stopped").startswith(f"Stopped at {done:,} of {ROWS:,} rows.")
    (button,) = [b for b in details.step_buttons if b.defaultAction() is actions.resume]
    assert button.isVisibleTo(details)
    # the other next steps stay hidden: there is nothing to complete
    assert [b for b in details.step_buttons if b.isVisibleTo(details)] == [button]
    # queueing its file again asks about the remaining rows, not about importing it all again
    queue(qtbot, window, path)
    qtbot.waitUntil(lambda: window.question is not None and window.question.isVisible(), timeout=TIMEOUT)
    box = window.question
    assert stopped.task_no in box.text() and f"cancelled at {done:,} of {ROWS:,} rows" in box.text()
    assert f'<span style="white-space:nowrap">{stopped.task_no}</span>' in box.text()  # never split at its hyphen
    assert box.defaultButton() is box.resume_button  # type: ignore[attr-defined]
    qtbot.mouseClick(box.resume_button, qtbot_left())  # type: ignore[attr-defined]
    resumed = wait_for_task(qtbot, window, 2)
    assert resumed.params["resumes"] == stopped.task_no
    ended = wait_status(qtbot, window, resumed.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    assert (ended.total_count, ended.success_count, ended.fail_count) == (ROWS, ROWS - BAD, BAD)
    assert cell(window, ended.task_no, PROCESSED) == f"{ROWS:,} / {ROWS:,}"
    # the stopped task now names the one that finished it; its action is gone, the button hidden
    model = window.model
    qtbot.waitUntil(lambda: model.record(row_of(model, stopped.task_no)).resumed_by == ended.task_no,
                    timeout=TIMEOUT)  # fmt: skip
    window.select_task(stopped.id)
    qtbot.waitUntil(lambda: not actions.resume.isEnabled())
    assert not button.isVisibleTo(details)
    assert f"imported by task {ended.task_no}" in details.value("continues")


def import_new_departments(qtbot: Any, make_desk: Any, tmp_path: Path) -> tuple[Any, TaskRecord]:
    """A desk that imported 20 customers, 4 of them in a department the table does not have (华东销售部)."""
    rows = [row(i, 部门="华东销售部") if i % 5 == 0 else row(i) for i in range(1, 21)]
    path = write_csv(tmp_path / "customers_new_departments.csv", rows)
    desk = make_desk()
    window = desk.window
    queue(qtbot, window, path)
    task = wait_for_task(qtbot, window, 1)
    return desk, wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED)


def test_missing_references_read_in_words_and_are_added_from_the_details(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    desk, ended = import_new_departments(qtbot, make_desk, tmp_path)
    window = desk.window
    assert ended.pending_completion_count == 4
    window.select_task(ended.id)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == ended.id)
    assert details.value("missing") == "Department not found: 华东销售部 (4 rows)"
    add = window.actions_.add_references
    assert add.isEnabled() and add.text() == "&Add the missing names and complete"
    assert add in window.menus.context_menu.actions()
    (button,) = [b for b in details.step_buttons if b.defaultAction() is add]
    assert button.isVisibleTo(details)
    qtbot.mouseClick(button, qtbot_left())
    qtbot.waitUntil(lambda: window.add_names_question is not None, timeout=TIMEOUT)  # master data: asked first
    qtbot.mouseClick(window.add_names_question.add_button, qtbot_left())
    model = window.model
    qtbot.waitUntil(lambda: model.record(row_of(model, ended.task_no)).pending_completion_count == 0, timeout=TIMEOUT)
    after = model.record(row_of(model, ended.task_no))
    assert after.summary["missing_references"] == []
    with desk.core.store.reading() as conn:
        unresolved = conn.exec_driver_sql("SELECT COUNT(*) FROM customers WHERE department_id IS NULL").scalar_one()
    assert unresolved == 0
    window.select_task(after.id)
    qtbot.waitUntil(lambda: not add.isEnabled())
    assert not button.isVisibleTo(details) and not details.shows("missing")


def details_of_the_one_task(qtbot: Any, window: MainWindow, task: TaskRecord) -> DetailsPanel:
    """The details panel of the list's only task, once it shows that task."""
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    window.select_task(task.id)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == task.id)
    return details


def test_missing_references_follow_the_desks_language(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    from tests.support.imports import run_type_import

    data_dir = tmp_path / "data"
    core = build_core(data_dir=data_dir, overrides={"daily_cleanup": False})
    try:
        path = write_csv(tmp_path / "c.csv", [row(1, 部门="华东销售部"), row(2)])
        task = run_type_import(core, path, "customers", user=current_user())
    finally:
        core.store.engine.dispose()
    window = make_desk(data_dir=data_dir, language="zh").window
    details = details_of_the_one_task(qtbot, window, task)
    assert details.value("missing") == "找不到部门：华东销售部（1 行）"
    assert window.actions_.add_references.text() == "添加缺少的名称并补全(&A)"


def test_the_details_of_a_stopped_import_say_how_far_it_got(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    # seen: a cancelled 200,000-row import's details read "行数：共 132,000 行", taken for the file's size
    data_dir, _path, stopped = stopped_import(tmp_path)
    done = stopped.success_count + stopped.fail_count
    assert 0 < done < ROWS
    details = details_of_the_one_task(qtbot, make_desk(data_dir=data_dir, language="zh").window, stopped)
    assert details.value("counts") == (
        f"已处理 {done:,} 行（共 {ROWS:,} 行），成功 {stopped.success_count:,}，失败 {stopped.fail_count:,}"
    )
    assert details.value("progress") == f"{100 * done // ROWS}%"


def test_after_import_the_remaining_rows_from_the_details_the_focus_is_on_the_new_tasks_row(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen in a clerk's tryout: the button pressed hides (the new task has no remaining rows), and the focus
    # fell on the Details pane's close button, where Space or Enter closes the pane
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    window, _path, stopped = stopped_window(qtbot, make_desk, tmp_path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.select_task(stopped.id)
    actions = window.actions_
    qtbot.waitUntil(actions.resume.isEnabled)
    actions.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == stopped.id)
    (button,) = [b for b in details.step_buttons if b.defaultAction() is actions.resume]
    button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is button)
    qtbot.keyClick(button, Qt.Key.Key_Space)
    resumed = wait_for_task(qtbot, window, 2)
    qtbot.waitUntil(lambda: window.selected_record() is not None and window.selected_record().id == resumed.id,
                    timeout=TIMEOUT)  # fmt: skip
    qtbot.wait(100)
    assert QApplication.focusWidget() is window.table, QApplication.focusWidget()
    assert window.table.currentIndex().row() == window.proxy.mapFromSource(
        window.model.index(window.model.row_of(resumed.id) or 0, 0)).row()  # fmt: skip
    assert window.details_dock.isVisible()
