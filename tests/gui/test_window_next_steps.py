"""The next step where the clerk reads (issue 11, seen in a real window): a stopped import's and an import's
missing names' buttons in the notice and the details say what the menus say, and the cancel question's
rows-in count keeps up with the running import."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.task_model import STAGE
from tests.gui.test_window_clerk import running_task
from tests.gui.test_window_queue import TIMEOUT, cell, qtbot_left, queue, wait_for_task, wait_status
from tests.gui.test_window_resume import import_new_departments, stopped_import, stopped_window
from tests.support.customers import row, write_csv


def test_the_cancel_question_follows_the_rows_in_while_it_is_open(qtbot: Any, make_desk: Any) -> None:
    from desktop_app.ui.dialogs.confirm_cancel import CancelQuestion

    desk, task = running_task(qtbot, make_desk)
    live = desk.window.model.record(desk.window.model.row_of(task.id) or 0)
    latest = [replace(live, total_count=200_000, success_count=1_000, fail_count=0)]
    box = CancelQuestion(latest[0], desk.window, fresh=lambda: latest[0], kind=desk.kinds.of(live))
    box.open()
    assert box.informativeText().startswith("1,000 of 200,000 rows are in.")
    # the import goes on while the clerk reads: the number they answer to is the list's, not the opening's
    latest[0] = replace(latest[0], success_count=90_000)
    qtbot.waitUntil(lambda: box.informativeText().startswith("90,000 of 200,000 rows are in."), timeout=TIMEOUT)
    # a task that ended meanwhile has nothing left to cancel: the question goes, answered by neither button
    latest[0] = replace(latest[0], status=TaskStatus.SUCCEEDED, success_count=200_000)
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=TIMEOUT)
    assert box.clickedButton() is not box.cancel_button and not box._timer.isActive()


def test_a_notices_remaining_rows_already_continued_says_by_which_task(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen through the frozen app: after the rows were continued from the details, the notice still offered
    # "Import the remaining rows", and its button then only selected the old row, without a word
    window, _path, stopped = stopped_window(qtbot, make_desk, tmp_path)
    window.notices.task_ended(stopped)
    notice = window.notice
    old_button = notice.buttons[0]
    assert old_button.text() == "Import the remaining rows"
    window.select_task(stopped.id)
    qtbot.waitUntil(window.actions_.resume.isEnabled)
    window.actions_.resume.trigger()  # continued elsewhere than the notice
    resumed = wait_for_task(qtbot, window, 2)
    qtbot.waitUntil(lambda: bool((window.model.find(stopped.task_no) or stopped).resumed_by), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: (window.model.find(resumed.task_no) or resumed).status.is_final, timeout=TIMEOUT)
    qtbot.wait(300)  # its own end's notice shown
    window.notices._show_ended(stopped, opened=False)  # the notice as it was shown before (its record of then)
    assert window.notice.buttons[0].text() == "Import the remaining rows"
    qtbot.mouseClick(window.notice.buttons[0], qtbot_left())
    qtbot.waitUntil(lambda: "already" in window.notice.text(), timeout=TIMEOUT)
    assert resumed.task_no in window.notice.text(), window.notice.text()
    assert len([t for t in window.model.records() if t.params.get("resumes") == stopped.task_no]) == 1


def test_a_cancelled_imports_status_reads_cancelled_not_cancel_requested(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen through the frozen app: "Cancelled (cancel requested)" for a task long cancelled
    window, _path, stopped = stopped_window(qtbot, make_desk, tmp_path)
    assert stopped.status is TaskStatus.CANCELLED and stopped.cancel_requested
    window.select_task(stopped.id)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == stopped.id)
    assert details.value("status") == "Cancelled", details.value("status")


def test_a_stopped_import_offers_its_remaining_rows_in_the_menus_words(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    window, _path, stopped = stopped_window(qtbot, make_desk, tmp_path)
    window.select_task(stopped.id)
    actions = window.actions_
    qtbot.waitUntil(actions.resume.isEnabled)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == stopped.id)
    (button,) = [b for b in details.step_buttons if b.defaultAction() is actions.resume]
    # the details' text tells the clerk to choose "Import the remaining rows": the button says just that
    assert button.text() == "Import the remaining rows"
    assert "Import the remaining rows" in details.value("stopped")
    # a notice of its end offers the remaining rows first
    window.notices.task_ended(stopped)
    notice = window.notice
    assert notice.buttons[0].isVisibleTo(notice) and notice.buttons[0].text() == "Import the remaining rows"
    qtbot.mouseClick(notice.buttons[0], qtbot_left())
    resumed = wait_for_task(qtbot, window, 2)
    assert resumed.params["resumes"] == stopped.task_no


def test_an_import_with_names_not_found_says_so_when_it_ends_and_adds_them_from_the_notice(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    desk, ended = import_new_departments(qtbot, make_desk, tmp_path)
    window = desk.window
    notice = window.notice
    qtbot.waitUntil(lambda: ended.task_no in notice.text(), timeout=TIMEOUT)
    # a green "Succeeded" alone would hide that 4 rows wait for their department
    assert "Done: 20 rows imported; 4 rows wait for names (see the details)" in notice.text()
    # and the list's stage, after the notice is closed (seen: "Done: 20 rows imported" alone)
    assert cell(window, ended.task_no, STAGE) == "Done: 20 rows imported; 4 rows wait for names"
    add = notice.buttons[0]
    assert add.isVisibleTo(notice) and add.text() == "Add the missing names and complete"
    # the details' button names no table (the missing names are listed just above it) and no mnemonic
    window.select_task(ended.id)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == ended.id)
    (button,) = [b for b in details.step_buttons if b.defaultAction() is window.actions_.add_references]
    assert button.text() == "Add the missing names and complete"
    qtbot.mouseClick(add, qtbot_left())
    qtbot.waitUntil(lambda: window.add_names_question is not None, timeout=TIMEOUT)  # master data: asked first
    qtbot.mouseClick(window.add_names_question.add_button, qtbot_left())
    model = window.model
    qtbot.waitUntil(lambda: model.record(model.row_of(ended.id) or 0).pending_completion_count == 0, timeout=TIMEOUT)
    with desk.core.store.reading() as conn:
        unresolved = conn.exec_driver_sql("SELECT COUNT(*) FROM customers WHERE department_id IS NULL").scalar_one()
    assert unresolved == 0


def test_the_next_steps_read_in_chinese_without_mnemonics(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    data_dir, _path, stopped = stopped_import(tmp_path)
    window = make_desk(data_dir=data_dir, language="zh").window
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    actions = window.actions_
    # with no names to add, the menu (and the help, which lists it) names no "…" placeholder
    assert actions.add_references.text() == "添加缺少的名称并补全(&A)"
    assert actions.resume.iconText() == "导入其余的行"
    assert actions.add_references.iconText() == "添加缺少的名称并补全"
    # seen in a tryout: "补全关联" beside "添加缺少的名称并补全" read as the same step; it looks the names up again
    assert actions.complete_references.iconText() == "重新查找名称"
    window.notices.task_ended(stopped)
    assert window.notice.buttons[0].text() == "导入其余的行"
    # seen in the frozen app: "这个文件已经在队列中：任务 …。(执行中，29%)", a half-width bracket in Chinese
    window.notices.already_queued(stopped, "这个文件已经在队列中")
    assert window.notice.text() == f"这个文件已经在队列中（已取消，{stopped.progress}%）", window.notice.text()


def test_an_import_failed_by_its_rows_offers_the_error_file_not_a_retry(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # 10 of 20 rows bad: above the 30 % threshold, the import fails with the 10 good rows in
    rows = [row(i, 手机号="bad") if i > 10 else row(i) for i in range(1, 21)]
    path = write_csv(tmp_path / "customers_half_bad.csv", rows)
    window = make_desk().window
    queue(qtbot, window, path)
    task = wait_for_task(qtbot, window, 1)
    failed = wait_status(qtbot, window, task.task_no, TaskStatus.FAILED)
    assert failed.success_count == 10 and failed.fail_count == 10 and not failed.error_code
    window.select_task(failed.id)
    actions = window.actions_
    qtbot.waitUntil(actions.reimport.isEnabled)
    # running the same file again would fail the same 10 rows, and the 10 good ones as already_exists
    assert not actions.retry.isEnabled() and not actions.resume.isEnabled()
    # its bad rows fixed since (a value fix adds them to its counts): every row is in, a retry would fail
    # them all as already_exists (seen in the frozen window: the retry queued a task that did just that)
    fixed = replace(failed, success_count=20, fail_count=0)
    window.service.record_changed.emit(fixed)
    qtbot.waitUntil(lambda: window.selected_record() is not None and window.selected_record().fail_count == 0)
    assert not actions.retry.isEnabled()


def test_a_notice_follows_a_switch_of_language(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    data_dir, _path, stopped = stopped_import(tmp_path)
    desk = make_desk(data_dir=data_dir, language="zh")
    window = desk.window
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    window.notices.task_ended(window.model.record(0))
    notice = window.notice
    assert "已结束" in notice.text() and notice.buttons[0].text() == "导入其余的行"
    # seen in a real window: the English window kept the Chinese notice and its Chinese buttons
    desk.set_language("en")
    qtbot.waitUntil(lambda: "ended" in notice.text())
    assert notice.buttons[0].text() == "Import the remaining rows" and stopped.task_no in notice.text()


def test_the_settings_notice_follows_a_switch_of_language(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "settings.json").write_text('{"max_file_mb": -5}', encoding="utf-8")
    desk = make_desk(data_dir=data_dir)
    notice = desk.window.notice
    qtbot.waitUntil(lambda: "max_file_mb" in notice.text())
    assert "not valid" in notice.text()
    desk.set_language("zh")
    qtbot.waitUntil(lambda: "无效" in notice.text())
    assert "max_file_mb" in notice.text() and "not valid" not in notice.text()


def test_an_import_that_ended_before_its_cancel_could_stop_it_says_so(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen by a clerk: a million-row import ends in seconds, and one cancelled while it ran ended
    # "Done" with nothing saying that the cancel had come too late
    data_dir, _path, stopped = stopped_import(tmp_path)
    window = make_desk(data_dir=data_dir).window
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    late = " (it ended before the cancel could stop it)"
    for status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.FAILED):
        window.notices.task_ended(replace(stopped, status=status, cancel_requested=True))
        assert window.notice.text().endswith(late), window.notice.text()
    window.notices.task_ended(replace(stopped, status=TaskStatus.SUCCEEDED, cancel_requested=False))
    assert late not in window.notice.text()
    window.notices.task_ended(replace(stopped, cancel_requested=True))  # cancelled: the cancel did stop it
    assert stopped.status is TaskStatus.CANCELLED and late not in window.notice.text()
    chinese = make_desk(data_dir=data_dir, language="zh").window
    qtbot.waitUntil(lambda: chinese.model.rowCount() == 1, timeout=TIMEOUT)
    chinese.notices.task_ended(replace(stopped, status=TaskStatus.SUCCEEDED, cancel_requested=True))
    assert chinese.notice.text().endswith("（取消生效之前，任务已经结束）"), chinese.notice.text()


def test_an_import_failed_by_its_levels_offers_fix_values_in_its_notice(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen in a clerk's tryout: 8 of 20 levels misspelt fail the import (above the 30 % threshold), and its
    # notice offered the error file and the task, not the value fix the menus offer for it
    rows = [row(i, 等级="钻石") if i % 5 < 2 else row(i) for i in range(1, 21)]
    path = write_csv(tmp_path / "customers_levels.csv", rows)
    window = make_desk().window
    queue(qtbot, window, path)
    task = wait_for_task(qtbot, window, 1)
    failed = wait_status(qtbot, window, task.task_no, TaskStatus.FAILED)
    assert failed.fail_count == 8 and not failed.error_code
    notice = window.notice
    qtbot.waitUntil(lambda: failed.task_no in notice.text() and notice.buttons[0].text() == "Fix values…",
                    timeout=TIMEOUT)  # fmt: skip
    assert notice.buttons[0].isVisibleTo(notice)
    assert notice.buttons[1].text() == "Open error file"
    window.select_task(failed.id)  # the clerk looked at another task meanwhile: the notice's button still fixes it
    window.table.clearSelection()
    qtbot.mouseClick(notice.buttons[0], qtbot_left())
    qtbot.waitUntil(lambda: window.value_fix_dialog is not None and window.value_fix_dialog.isVisible())
    dialog = window.value_fix_dialog
    assert dialog is not None and dialog.record.task_no == failed.task_no
    assert [(b.value, b.rows) for b in dialog.bad] == [("钻石", 8)]
    dialog.reject()


def test_a_notice_offers_no_value_fix_where_none_applies(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    rows = [row(i, 手机号="bad") if i > 10 else row(i) for i in range(1, 21)]
    window = make_desk().window
    queue(qtbot, window, write_csv(tmp_path / "customers_phones.csv", rows))
    failed = wait_status(qtbot, window, wait_for_task(qtbot, window, 1).task_no, TaskStatus.FAILED)
    notice = window.notice
    qtbot.waitUntil(lambda: failed.task_no in notice.text(), timeout=TIMEOUT)
    window.select_task(failed.id)
    qtbot.waitUntil(lambda: any(k[0] == failed.task_no for k in window.actions_.bad_values), timeout=TIMEOUT)
    qtbot.wait(100)
    assert [b.text() for b in notice.buttons if b.isVisibleTo(notice)] == ["Open error file", "Show the task"]
