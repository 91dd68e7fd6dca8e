"""A clerk's words, not a developer's (issue 11): how a task ended, system tasks, encodings, settings,
technical details, and the toolbar."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import Qt

from desktop_app.domain.notes import Note, NoteCode
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.options import ImportOptions
from desktop_app.ui.desk import Desk
from desktop_app.ui.encodings import encoding_words
from desktop_app.ui.outcomes import Tone
from desktop_app.ui.task_model import STAGE, STATUS, ToneRole
from tests.gui.conftest import SAMPLES
from tests.gui.test_task_model import loaded_model
from tests.gui.test_window_queue import CLEAN, TIMEOUT, wait_for_task, wait_status

GBK = SAMPLES / "customers_gbk.csv"
THRESHOLD_MSG = "10 rows failed (50.0%, above 30%): the import counts as failed; the 10 rows that went in stay"


# --- 4: "Failed" when rows went in --------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "counts", "dry_run", "error", "expected"),
    [
        (TaskStatus.FAILED, (20, 10, 10), False, THRESHOLD_MSG, "Failed: 10 of 20 imported, 10 rows with errors"),
        (TaskStatus.FAILED, (20, 0, 20), False, THRESHOLD_MSG, "Failed: nothing imported, 20 rows with errors"),
        (TaskStatus.FAILED, (0, 0, 0), False, "The file is empty", "Failed: The file is empty"),
        (TaskStatus.FAILED, (900, 400, 0), False, "File changed", "Failed after 400 rows were imported: File changed"),
        (TaskStatus.FAILED, (20, 10, 10), True, None, "Checked: 10 rows would import, 10 would fail"),
        (TaskStatus.PARTIALLY_SUCCEEDED, (50, 37, 13), False, None, "Done: 37 of 50 imported, 13 rows with errors"),
        (TaskStatus.PARTIALLY_SUCCEEDED, (5, 4, 1), False, None, "Done: 4 of 5 imported, 1 row with errors"),
        (TaskStatus.PARTIALLY_SUCCEEDED, (5, 4, 1), True, None, "Checked: 4 rows would import, 1 would fail"),
        (TaskStatus.FAILED, (1, 0, 1), False, THRESHOLD_MSG, "Failed: nothing imported, 1 row with errors"),
        (TaskStatus.SUCCEEDED, (200, 200, 0), False, None, "Done: 200 rows imported"),
        (TaskStatus.SUCCEEDED, (200, 200, 0), True, None, "Checked: all 200 rows would import"),
        (TaskStatus.SUCCEEDED, (1, 1, 0), False, None, "Done: 1 row imported"),
        (TaskStatus.SUCCEEDED, (1, 1, 0), True, None, "Checked: the 1 row would import"),
        (TaskStatus.CANCELLED, (200_000, 56_000, 0), False, None, "Cancelled: 56,000 of 200,000 imported; they stay"),
        (TaskStatus.CANCELLED, (0, 0, 0), False, None, "Cancelled before any row was imported"),
    ],
)
def test_the_list_says_how_an_import_ended_in_words(
    status: TaskStatus, counts: tuple[int, int, int], dry_run: bool, error: str | None, expected: str
) -> None:
    model, _ = loaded_model(1)
    total, ok, bad = counts
    record = model.record(0)
    model.upsert(replace(record, status=status, total_count=total, success_count=ok, fail_count=bad, error_msg=error,
                         params={**record.params, "dry_run": dry_run}))  # fmt: skip
    assert model.index(0, STAGE).data() == expected


def test_a_cancelled_delete_says_its_rows_stay_deleted() -> None:
    """A delete cancelled midway read "Cancelled: 56,000 of 200,000 imported; they stay": those rows are gone."""
    model, _ = loaded_model(2)
    for row, (total, ok) in enumerate(((200_000, 56_000), (0, 3))):
        record = model.record(row)
        model.upsert(replace(record, status=TaskStatus.CANCELLED, total_count=total, success_count=ok, fail_count=0,
                             params={**record.params, "mode": "delete"}))  # fmt: skip
    assert model.index(0, STAGE).data() == "Cancelled: 56,000 of 200,000 deleted; they stay deleted"
    assert model.index(1, STAGE).data() == "Cancelled: 3 deleted; they stay deleted"


def test_an_export_no_row_passed_says_its_filters_matched_none() -> None:
    """Seen by a clerk: a department filter of part of a name exported nothing and read "Done: 0 rows exported",
    with no word of why; a filter compares the whole value."""
    model, _ = loaded_model(2)
    for row, filters in enumerate(({"department": "客服"}, {})):
        record = model.record(row)
        model.upsert(replace(record, task_type="export", status=TaskStatus.SUCCEEDED, total_count=0, success_count=0,
                             fail_count=0, params={"export": "customers", "filters": filters}))  # fmt: skip
    assert model.index(0, STAGE).data() == "Done: no row matches the filters (a text must match the whole value)"
    assert model.index(1, STAGE).data() == "Done: 0 rows exported"


def test_the_reason_of_a_failure_is_under_the_list_without_hovering(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    task = desk.core.store.submit(task_type="import", params={"file": str(CLEAN), "import_type": "customers"},
                                  creator="t", host="another-desk").task  # fmt: skip
    failed = replace(task, status=TaskStatus.FAILED, total_count=20, success_count=10, fail_count=10,
                     error_msg=THRESHOLD_MSG)  # fmt: skip
    desk.service.record_changed.emit(failed)
    window.select_task(task.id)
    line = window.summary.plain_text()
    assert "Failed: 10 of 20 imported, 10 rows with errors" in line and THRESHOLD_MSG in line
    assert window.summary.isVisible()


# --- 5: developer words -----------------------------------------------------------------------------


def test_system_tasks_are_hidden_unless_asked_for(qtbot: Any, make_desk: Any, tmp_path: Any) -> None:
    desk: Desk = make_desk()
    store = desk.core.store
    store.submit(task_type="cleanup", params={"retention_days": 7}, creator="BatchDesk")
    store.submit(task_type="complete_references", params={"task_no": "T1"}, creator="t")
    store.submit(task_type="import", params={"file": "/x/a.csv", "import_type": "customers"}, creator="t",
                 host="another-desk")  # fmt: skip
    window = make_desk(data_dir=tmp_path / "data").window
    qtbot.waitUntil(lambda: window.model.rowCount() == 3, timeout=TIMEOUT)
    # a completion is always a clerk's request (listed: tests/gui/test_window_add_names.py); the clean-up is not
    assert window.proxy.rowCount() == 2, "the clean-up is not the clerk's"
    window.menus.system_action.setChecked(True)
    assert window.proxy.rowCount() == 3


def test_a_completion_that_completed_nothing_does_not_look_like_success() -> None:
    model, _ = loaded_model(2)
    nothing = replace(model.record(0), task_type="complete_references", status=TaskStatus.SUCCEEDED, total_count=4,
                      success_count=0, params={"task_no": "T1"})  # fmt: skip
    some = replace(model.record(1), task_type="complete_references", status=TaskStatus.SUCCEEDED, total_count=4,
                   success_count=3, params={"task_no": "T1"})  # fmt: skip
    model.upsert(nothing)
    model.upsert(some)
    assert model.index(0, STATUS).data() == "Nothing completed"
    assert model.index(0, STATUS).data(ToneRole) == Tone.WARNING.value, "amber, not green"
    assert model.index(0, STAGE).data() == "Nothing completed: 4 references are still not found"
    assert model.index(1, STATUS).data() == "Succeeded" and model.index(1, STATUS).data(ToneRole) == Tone.GOOD.value
    assert model.index(1, STAGE).data() == "Completed 3 of 4 references"


def test_encodings_are_named_in_words() -> None:
    assert encoding_words("gb18030") == "Chinese (GBK) - Excel on Chinese Windows"
    assert encoding_words("GBK") == encoding_words("cp936") == encoding_words("gb2312") == encoding_words("gb18030")
    assert encoding_words("utf-8") == "Unicode (UTF-8)"
    assert encoding_words("utf-8-sig") == "UTF-8 with BOM (Excel)"
    assert encoding_words("cp1252") == "Western (Windows-1252) - Excel on English Windows"
    assert encoding_words("latin-1") == "Western (Latin-1)"
    assert encoding_words("utf-16") == 'Unicode (UTF-16) - Excel\'s "Unicode text"'
    assert encoding_words("koi8-r") == "koi8-r", "one it does not know keeps its name"


def test_details_name_the_detected_encoding_in_words_and_fold_the_technical_ones(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    desk.service.submit_import(ImportOptions(file=GBK, import_type="customers"))
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED)
    window.select_task(done.id)
    window.actions_.details.trigger()
    details = window.details
    assert details.value("encoding") == "Detected: Chinese (GBK) - Excel on Chinese Windows"
    assert details.value("type") == "Customer import", "no raw task type"
    technical = [details._labels[key] for key in ("owner", "params", "task_type")] + [details.log_view]
    assert all(not w.isVisible() for w in technical), "Run by, parameters and log lines are folded away"
    assert details.value("owner") and details.value("params").startswith("{")
    details.technical.set_expanded(True)
    assert all(w.isVisible() for w in technical)
    qtbot.waitUntil(lambda: done.task_no in details.log_view.toPlainText(), timeout=TIMEOUT)


def test_the_settings_put_the_database_and_the_batch_size_under_advanced(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    for everyday in (dialog.language_box, dialog.file_mb_box, dialog.rows_box, dialog.retention_box):
        assert everyday.isVisible()
    technical = (dialog.db_edit, dialog.password_edit, dialog.workers_box, dialog.batch_box)
    assert not any(w.isVisible() for w in technical)
    dialog.advanced.set_expanded(True)
    assert all(w.isVisible() for w in technical)
    dialog.reject()


# --- 8: the toolbar -------------------------------------------------------------------------------------


def toolbar_buttons(window: Any) -> list[Any]:
    return [a for a in window.toolbar.actions() if not a.isSeparator()]


def test_the_toolbar_holds_a_clerks_few_actions_with_icons_and_words(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    actions = toolbar_buttons(window)
    assert 5 <= len(actions) <= 8
    assert window.toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    for action in actions:
        assert not action.icon().isNull() and action.iconText() and "&" not in action.iconText(), action.text()
    names = {a.iconText() for a in actions}
    assert {"Open file", "Export", "Error file", "Re-import", "Retry", "Cancel", "Details"} == names
    for rest in (window.actions_.open_folder, window.actions_.import_for_real, window.actions_.complete_references,
                 window.actions_.open_when_done):  # fmt: skip
        assert rest not in actions
        assert rest in window.context_menu.actions() and rest in window.menus.task_menu.actions()
    desk.set_language("zh")
    qtbot.waitUntil(lambda: window.export_action.text() == "导出(&X)…")
    chinese = [a.iconText() for a in toolbar_buttons(window)]
    assert chinese == ["打开文件", "导出", "错误文件", "重新导入", "重试", "取消", "详情"]
    assert not any("(" in text for text in chinese), "no mnemonic on the toolbar"


# --- a validation is a check, not an import; rows waiting for names are said in the list ------------------


def _ended_import(desk: Desk, **changes: Any) -> Any:
    """An import of another desk's, ended as `changes` say, shown in the list."""
    task = desk.core.store.submit(task_type="import", params={"file": str(CLEAN), "import_type": "customers"},
                                  creator="t", host="another-desk").task  # fmt: skip
    ended = replace(task, **{**changes, "params": {**task.params, **changes.get("params", {})}})
    desk.service.record_changed.emit(ended)
    return ended


def test_a_validation_with_failing_rows_reads_checked_in_the_list_and_the_details(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    check = _ended_import(desk, status=TaskStatus.PARTIALLY_SUCCEEDED, total_count=1000, success_count=995,
                          fail_count=5, params={"dry_run": True})  # fmt: skip
    over = _ended_import(desk, status=TaskStatus.FAILED, total_count=20, success_count=5, fail_count=15,
                         error_msg=THRESHOLD_MSG, params={"dry_run": True})  # fmt: skip
    model = window.model
    for task, stage in ((check, "Checked: 995 rows would import, 5 would fail"),
                        (over, "Checked: 5 rows would import, 15 would fail")):  # fmt: skip
        row = model.row_of(task.id)
        assert row is not None
        # seen: "Partially succeeded" and a red "Failed" for a validation that wrote nothing
        assert model.index(row, STATUS).data() == "Checked"
        assert model.index(row, STATUS).data(ToneRole) == Tone.WARNING.value, "amber: rows would fail"
        assert model.index(row, STAGE).data() == stage
    window.select_task(check.id)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == check.id)
    assert details.value("status") == "Checked"
    assert details.value("stage") == "Checked: 995 rows would import, 5 would fail"
    desk.set_language("zh")
    qtbot.waitUntil(lambda: details.value("status") == "已校验", timeout=TIMEOUT)
    assert details.value("stage") == "已校验：995 行可导入，5 行会失败"
    row = model.row_of(check.id)
    assert model.index(row, STATUS).data() == "已校验"
    assert model.index(row, STAGE).data() == "已校验：995 行可导入，5 行会失败"


def test_a_validation_says_its_waiting_rows_and_the_limit_it_went_over(qtbot: Any, make_desk: Any) -> None:
    """Seen in a tryout: "Checked: 9 rows would import, 1 would fail" where the real import then said "2 rows
    wait for names"; and a validation over the limit read "Checked" beside "the import counts as failed;
    nothing was written". The list's Stage, the Details' stage and reason say what the import would do."""
    desk: Desk = make_desk()
    window = desk.window
    waiting = _ended_import(desk, status=TaskStatus.PARTIALLY_SUCCEEDED, total_count=10, success_count=9,
                            fail_count=1, params={"dry_run": True},
                            summary={"pending_completion_count": 2})  # fmt: skip
    note = Note(NoteCode.TOO_MANY_FAILED_NOTHING_WRITTEN, {"fail": 5, "share": "55.6", "limit": "30%", "success": 4})
    error = note.text("en")
    over = _ended_import(desk, status=TaskStatus.FAILED, total_count=9, success_count=4, fail_count=5,
                         error_msg=error, error_phrase=error.stored(), params={"dry_run": True})  # fmt: skip
    model = window.model

    def stage(task: Any) -> Any:
        return model.index(model.row_of(task.id), STAGE).data()

    assert stage(waiting) == "Checked: 9 rows would import (2 would wait for names), 1 would fail"
    over_en = "Checked: 4 rows would import, 5 would fail — more than 30% fail, so the import would count as failed"
    assert stage(over) == over_en
    assert model.index(model.row_of(over.id), STATUS).data() == "Checked"
    window.select_task(over.id)
    window.actions_.details.trigger()
    details = window.details
    qtbot.waitUntil(lambda: details.record is not None and details.record.id == over.id)
    assert details.value("stage") == over_en
    assert details.value("error") == ("5 rows would fail (55.6%, above 30%): the import would count as failed; "
                                      "the 4 rows that go in would stay")  # fmt: skip
    desk.set_language("zh")
    qtbot.waitUntil(lambda: details.value("status") == "已校验", timeout=TIMEOUT)
    assert details.value("stage") == "已校验：4 行可导入，5 行会失败——失败超过 30%，导入会判定为失败"
    assert details.value("error") == "会失败 5 行，占 55.6%，超过 30%，导入会判定为失败；可导入的 4 行导入后仍会保留"
    assert stage(waiting) == "已校验：9 行可导入（其中 2 行会等待补充名称），1 行会失败"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_line_under_the_list_says_a_checks_limit_once(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen in a second tryout: the line under the list read "… so the import would count as failed — 5 rows
    would fail (50.0%, above 30%): the import would count as failed; …" (zh alike). The stage says it once."""
    desk: Desk = make_desk()
    window = desk.window
    note = Note(NoteCode.TOO_MANY_FAILED, {"fail": 5, "share": "50.0", "limit": "30%", "success": 5})
    error = note.text("en")
    over = _ended_import(desk, status=TaskStatus.FAILED, total_count=10, success_count=5, fail_count=5,
                         error_msg=error, error_phrase=error.stored(), params={"dry_run": True})  # fmt: skip
    if lang != "en":
        desk.set_language(lang)
    window.select_task(over.id)
    said = {"en": "would count as failed", "zh": "导入会判定为失败"}[lang]
    qtbot.waitUntil(lambda: said in window.summary.plain_text(), timeout=TIMEOUT)
    line = window.summary.plain_text()
    assert line.count(said) == 1, line
    assert line.endswith({"en": "more than 30% fail, so the import would count as failed",
                          "zh": "失败超过 30%，导入会判定为失败"}[lang]), line  # fmt: skip


def test_an_import_with_rows_waiting_for_names_says_so_in_its_stage(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    model = desk.window.model
    waiting = _ended_import(desk, status=TaskStatus.SUCCEEDED, total_count=1000, success_count=1000,
                            summary={"pending_completion_count": 10})  # fmt: skip
    one = _ended_import(desk, status=TaskStatus.PARTIALLY_SUCCEEDED, total_count=1000, success_count=990,
                        fail_count=10, summary={"pending_completion_count": 1})  # fmt: skip
    done = _ended_import(desk, status=TaskStatus.SUCCEEDED, total_count=1000, success_count=1000)

    def stage(task: Any) -> Any:
        return model.index(model.row_of(task.id), STAGE).data()

    assert stage(waiting) == "Done: 1,000 rows imported; 10 rows wait for names"
    assert stage(one) == "Done: 990 of 1,000 imported, 10 rows with errors; 1 row waits for names"
    assert stage(done) == "Done: 1,000 rows imported"
    desk.set_language("zh")
    qtbot.waitUntil(lambda: stage(done) == "已完成：导入 1,000 行", timeout=TIMEOUT)
    assert stage(waiting) == "已完成：导入 1,000 行；10 行等待补充名称"


@pytest.mark.parametrize("kind", ["import", "workbook"])
def test_a_validation_that_failed_with_an_error_after_bad_rows_says_nothing_was_imported(kind: str) -> None:
    # a validate-only run that stopped on its file (or a workbook's whose sheet failed) after some rows failed:
    # it wrote nothing, so no "590 of 600 imported" (the window read so; the command line said "Failed" and why)
    model, _ = loaded_model(1)
    record = model.record(0)
    error = "File changed" if kind == "import" else "1 sheet failed: prices (T250301-000009)"
    code = "file_changed" if kind == "import" else "workbook_sheets_failed"
    model.upsert(replace(record, task_type=kind, status=TaskStatus.FAILED, total_count=600, success_count=590,
                         fail_count=10, error_code=code, error_msg=error,
                         params={**record.params, "dry_run": True}))  # fmt: skip
    assert model.index(0, STATUS).data() == "Failed"
    stage = model.index(0, STAGE).data()
    assert "imported" not in stage and stage == f"Failed: {model.record(0).error_in('en')}", stage
