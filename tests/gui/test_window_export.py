"""Exports, retries and completions through the real widgets: what the clerk asks and what the list shows."""

from __future__ import annotations

import csv
import datetime as dt
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QComboBox, QDateEdit, QDialogButtonBox, QLineEdit
from sqlalchemy import text, update

from desktop_app.domain.errors import ErrorCode, TransientError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, SubmitResult, TaskOutcome, TaskRecord
from desktop_app.exports.task import ExportHandler
from desktop_app.imports.import_type import builtin_import_types_dir
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.store.schema import tasks
from desktop_app.tasks.context import TaskContext
from desktop_app.ui.demo import sample_request
from desktop_app.ui.desk import Desk
from desktop_app.ui.dialogs.export import ExportDialog
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_model import FILE, GREYED, STAGE, TYPE
from tests.gui.conftest import SlowImport, row_of
from tests.gui.test_window_queue import CLEAN, TIMEOUT, cell, qtbot_left, wait_status
from tests.support.customers import row, write_csv

ROOT = Path(__file__).resolve().parents[2]


def local_hhmm(stamp: dt.datetime) -> str:
    return stamp.replace(tzinfo=dt.UTC).astimezone().strftime("%H:%M")


def import_and_wait(qtbot: Any, desk: Desk, path: Path, status: TaskStatus = TaskStatus.SUCCEEDED) -> TaskRecord:
    with qtbot.waitSignal(desk.service.submitted, timeout=TIMEOUT) as sent:
        assert desk.service.submit_import(sample_request(path, desk.core.settings))
    result: SubmitResult = sent.args[0]
    return wait_status(qtbot, desk.window, result.task.task_no, status)


def open_export(qtbot: Any, window: MainWindow) -> ExportDialog:
    qtbot.waitUntil(window.export_action.isEnabled, timeout=TIMEOUT)
    window.export_action.trigger()
    dialog = window.export_dialog
    assert dialog is not None and dialog.isVisible()
    assert not window.export_action.isEnabled(), "one export dialog at a time"
    return dialog


def press_export(qtbot: Any, window: MainWindow, dialog: ExportDialog) -> SubmitResult:
    """Press Export; returns the submission's answer, checking the row is in the list when it comes."""
    with qtbot.waitSignal(window.service.submitted, timeout=TIMEOUT) as sent:
        qtbot.mouseClick(dialog.export_button, qtbot_left())
    result: SubmitResult = sent.args[0]
    assert window.model.row_of(result.task.id) is not None, "the row is there as soon as the export is accepted"
    assert window.export_dialog is None
    return result


def choose(box: QComboBox, value: str) -> None:
    index = box.findData(value)
    assert index >= 0, value
    box.setCurrentIndex(index)


def read_csv(path: Path, encoding: str = "utf-8-sig") -> list[list[str]]:
    with path.open(encoding=encoding, newline="") as handle:
        return list(csv.reader(handle))


def test_export_from_the_dialog_with_filters_then_open_the_file(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []

    def open_url(url: QUrl) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(open_url))
    desk: Desk = make_desk()
    window = desk.window
    imported = import_and_wait(qtbot, desk, CLEAN)
    window.select_task(imported.id)

    dialog = open_export(qtbot, window)
    assert dialog.definition_box.currentText() == "Customer export"
    assert dialog.format_box.currentData() == "csv" and dialog.encoding_box.currentData() == "utf-8-sig"
    assert dialog.encoding_box.currentText() == "UTF-8 with BOM (Excel)"
    imported_by = dialog.filter_field("imported_by")
    # never filled in (a clerk who missed it exported a subset): offered, and taken at a click
    assert isinstance(imported_by, QLineEdit) and imported_by.text() == "", "not prefilled"
    assert imported.task_no in dialog.selected_import_button.text() and not dialog.selected_import_button.isHidden()
    qtbot.mouseClick(dialog.selected_import_button, Qt.MouseButton.LeftButton)
    assert imported_by.text() == imported.task_no
    level = dialog.filter_field("level")
    assert isinstance(level, QComboBox)
    assert [level.itemText(i) for i in range(level.count())] == ["(any)", "Standard", "Silver", "Gold"]
    choose(level, "gold")
    department = dialog.filter_field("department")
    assert isinstance(department, QLineEdit)
    department.insert("销售部")  # as an input method commits it (QTest cannot type Chinese)
    opened_to = dialog.filter_field("opened_to")
    assert isinstance(opened_to, QDateEdit) and not opened_to.isEnabled(), "a date is not set until checked"
    for widget in (level, department, imported_by, opened_to, dialog.format_box, dialog.encoding_box):
        assert widget.accessibleName(), widget
    assert dialog.filters() == {"department": "销售部", "imported_by": imported.task_no, "level": "gold"}

    shown = Path(dialog.save_edit.text()).name
    result = press_export(qtbot, window, dialog)
    task = result.task
    assert task.task_type == "export" and result.duplicate_of is None
    assert task.params["filters"] == {"department": "销售部", "imported_by": imported.task_no, "level": "gold"}
    assert window.selected_record() is not None and window.selected_record().id == task.id  # type: ignore[union-attr]
    assert cell(window, task.task_no, TYPE) == "Customer export (CSV)"

    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    assert done.result_path and Path(done.result_path).is_file()
    assert cell(window, task.task_no, FILE) == Path(done.result_path).name
    # "Save to" showed the name's form, the time and the task number (neither known before the export runs)
    # as words: no value in it that the file will not have (seen: the time the dialog opened, 10 s off)
    stamp = re.compile(r"\d{8}-\d{6}")
    written = stamp.sub("<date-time>", Path(done.result_path).name).replace(task.task_no, "<task number>")
    assert shown == written == "customers-<date-time>-<task number>.csv"
    window.select_task(done.id)
    assert window.actions_.open_result.isEnabled() and window.actions_.open_folder.isEnabled()
    window.actions_.open_result.trigger()
    assert [Path(u.toLocalFile()) for u in opened] == [Path(done.result_path)]
    window.actions_.open_folder.trigger()
    assert Path(opened[-1].toLocalFile()) == Path(done.result_path).parent

    rows = read_csv(Path(done.result_path))
    expected = [r for r in read_csv(CLEAN)[1:] if r[4] == "金卡" and r[7] == "销售部"]
    assert rows[0][0] == "客户编号"
    assert sorted(r[0] for r in rows[1:]) == sorted(r[0] for r in expected) and len(expected) == 7
    assert done.success_count == 7

    window.actions_.details.trigger()
    details = window.details
    assert details.value("export_filters") == (f"Department: 销售部, Imported by task: {imported.task_no}, "
                                               "Level: Gold")  # fmt: skip
    assert details.value("export_format") == "CSV, UTF-8 with BOM (Excel)"
    assert details.shows("export_filters") and not details.shows("file") and not details.shows("error_csv")


def test_a_bad_filter_is_said_in_the_dialog_and_nothing_is_queued(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    dialog = open_export(qtbot, window)
    dialog.filter_switch("opened_from").setChecked(True)
    dialog.filter_switch("opened_to").setChecked(True)
    from_edit, to_edit = dialog.filter_field("opened_from"), dialog.filter_field("opened_to")
    assert isinstance(from_edit, QDateEdit) and isinstance(to_edit, QDateEdit) and from_edit.isEnabled()
    from_edit.setDate(to_edit.date().addDays(1))
    qtbot.mouseClick(dialog.export_button, qtbot_left())
    assert dialog.isVisible() and dialog.error_label.isVisible()
    assert dialog.error_label.text() == "“Opened from” is after “Opened until”."
    from_edit.setDate(to_edit.date())
    assert dialog.filters()["opened_from"] == dialog.filters()["opened_to"] == to_edit.date().toString("yyyy-MM-dd")
    dialog.clear_filters()
    assert dialog.filters() == {}
    dialog.reject()
    qtbot.waitUntil(lambda: window.export_dialog is None)
    assert window.model.rowCount() == 0


def test_a_second_identical_export_replaces_the_first(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    import_and_wait(qtbot, desk, CLEAN)
    window.table.clearSelection()
    window.table.selectionModel().clearCurrentIndex()
    finished: list[TaskRecord] = []
    for _ in range(2):
        dialog = open_export(qtbot, window)
        assert dialog.filter_field("imported_by").property("text") == "", "no import selected: nothing prefilled"
        choose(dialog.format_box, "xlsx")
        assert not dialog.encoding_box.isEnabled(), "an encoding only for CSV"
        result = press_export(qtbot, window, dialog)
        assert result.duplicate_of is None
        done = wait_status(qtbot, window, result.task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
        assert done.status is TaskStatus.SUCCEEDED, done.error_msg
        assert done.result_path and done.result_path.endswith(".xlsx")
        finished.append(done)
    first, second = finished
    assert second.summary["replaces"] == [first.task_no]
    assert first.result_path and not Path(first.result_path).exists(), "one file per export"
    model = window.model
    qtbot.waitUntil(lambda: model.record(row_of(model, first.task_no)).summary.get("expired") is True,
                    timeout=TIMEOUT)  # fmt: skip
    row = row_of(model, first.task_no)
    assert model.index(row, STAGE).data() == f"Replaced by {second.task_no}"
    assert model.index(row, FILE).data(Qt.ItemDataRole.ForegroundRole) == GREYED
    assert second.task_no in model.index(row, FILE).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(row_of(model, second.task_no), STAGE).data() != f"Replaced by {second.task_no}"
    window.select_task(first.id)
    assert not window.actions_.open_result.isEnabled() and not window.actions_.open_folder.isEnabled()
    window.actions_.details.trigger()
    assert second.task_no in window.details.value("replaced")
    # the replaced file is gone: its details name no path (a dead link), they say what became of it
    assert window.details.value("result_path") == f"Replaced by {second.task_no}"
    window.select_task(second.id)
    assert window.details.value("result_path") == second.result_path
    assert window.actions_.open_result.isEnabled()
    assert first.task_no in window.details.value("replaced")


def test_the_same_export_while_still_pending_highlights_its_row(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    desk.executor.shutdown(5)  # nothing runs: the first export stays pending
    window = desk.window
    dialog = open_export(qtbot, window)
    choose(dialog.filter_field("level"), "silver")  # type: ignore[arg-type]
    first = press_export(qtbot, window, dialog).task
    assert first.status is TaskStatus.PENDING and cell(window, first.task_no, STAGE) == ""
    window.table.clearSelection()
    dialog = open_export(qtbot, window)
    choose(dialog.filter_field("level"), "silver")  # type: ignore[arg-type]
    again = press_export(qtbot, window, dialog)
    assert again.duplicate_of == first.task_no
    assert window.model.rowCount() == 1 and window.model.highlighted_id == first.id
    assert window.selected_record() is not None and window.selected_record().id == first.id  # type: ignore[union-attr]
    assert window.last_message == f"The same export is already queued as task {first.task_no}."


class FlakyImport(SlowImport):
    """An import whose database is always busy: a transient error, retried later."""

    def run(self, ctx: TaskContext) -> TaskOutcome:
        raise TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail="the database is busy")


def test_a_task_waiting_for_a_retry_says_which_and_when(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk([FlakyImport()])
    window = desk.window
    with qtbot.waitSignal(desk.service.submitted, timeout=TIMEOUT) as sent:
        desk.service.submit_import(ImportOptions(file=CLEAN, import_type="customers"))
    task_no = sent.args[0].task.task_no
    model = window.model
    qtbot.waitUntil(lambda: model.record(row_of(model, task_no)).retries == 1, timeout=TIMEOUT)
    waiting = model.record(row_of(model, task_no))
    assert waiting.status is TaskStatus.PENDING and waiting.next_run_at is not None
    assert waiting.next_run_at > waiting.updated_at + dt.timedelta(seconds=29)  # type: ignore[operator]
    stage = model.index(row_of(model, task_no), STAGE)
    assert stage.data() == f"Retry 1 of 3 at {local_hhmm(waiting.next_run_at)}"
    assert "busy" in stage.data(Qt.ItemDataRole.ToolTipRole), "the reason, on the stage's tooltip"
    window.select_task(waiting.id)
    window.actions_.details.trigger()
    assert window.details.value("attempts") == "attempt 1, retries 1 of 3, recoveries 0"
    assert window.details.value("next_run_at").startswith(f"Retry 1 of 3 at {local_hhmm(waiting.next_run_at)} (")


def test_complete_the_references_an_import_left_pending(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk: Desk = make_desk()
    window = desk.window
    source = write_csv(tmp_path / "mars.csv", [row(1, 部门="火星部"), row(2, 部门="火星部"), row(3)])
    imported = import_and_wait(qtbot, desk, source)
    assert imported.pending_completion_count == 2
    window.select_task(imported.id)
    action = window.actions_.complete_references
    assert action.isEnabled()
    window.actions_.details.trigger()
    assert window.details.value("pending_completion") == "2"
    with desk.core.store.engine.begin() as conn:
        conn.execute(text("INSERT INTO departments (name) VALUES ('火星部')"))

    with qtbot.waitSignal(desk.service.submitted, timeout=TIMEOUT) as sent:
        action.trigger()
    completion = sent.args[0].task
    assert completion.task_type == "complete_references" and completion.lane is Lane.SHORT
    assert completion.params == {"task_no": imported.task_no, "add": False}  # complete only, add no names
    assert cell(window, completion.task_no, TYPE) == "Complete references"
    done = wait_status(qtbot, window, completion.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED and done.success_count == 2, done.error_msg
    model = window.model
    qtbot.waitUntil(lambda: model.record(row_of(model, imported.task_no)).pending_completion_count == 0,
                    timeout=TIMEOUT)  # fmt: skip
    window.select_task(imported.id)
    assert not action.isEnabled(), "nothing left to complete"
    assert window.details.value("pending_completion") == "0"


@pytest.fixture
def shanghai_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The local time zone is UTC+8 (then a UTC stamp shown unconverted would be caught)."""
    if not hasattr(time, "tzset"):
        pytest.skip("no time.tzset on this platform")
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_new_texts_in_chinese(qtbot: Any, shanghai_time: None, make_desk: Any, tmp_path: Path) -> None:
    from desktop_app.app import build_core

    core = build_core(data_dir=tmp_path / "data", handlers=[], overrides={"daily_cleanup": False})
    store = core.store
    waiting = store.submit(task_type="import", params={"file": "/x/a.csv", "import_type": "customers"},
                           creator="t").task  # fmt: skip
    with store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == waiting.id)
                     .values(retries=2, next_run_at=dt.datetime(2099, 3, 1, 6, 5)))  # fmt: skip
    store.submit(task_type="cleanup", params={}, creator="BatchDesk", lane=Lane.SHORT)
    store.submit(task_type="complete_references", params={"task_no": waiting.task_no}, creator="t",
                 lane=Lane.SHORT)  # fmt: skip
    core.store.engine.dispose()
    export = ExportHandler.from_resources(TypeCatalog(builtin_import_types_dir()))
    desk: Desk = make_desk([SlowImport(), export])
    desk.executor.shutdown(5)
    window = desk.window
    qtbot.waitUntil(lambda: window.model.rowCount() == 3, timeout=TIMEOUT)
    desk.set_language("zh")
    qtbot.waitUntil(lambda: window.export_action.text() == "导出(&X)…")
    model = window.model
    assert model.index(row_of(model, waiting.task_no), STAGE).data() == "第 2 次重试（共 3 次），14:05"
    types = sorted(model.index(r, TYPE).data() for r in range(model.rowCount()))
    assert types == sorted(["客户导入", "每日清理", "补全关联"])
    assert window.actions_.open_result.text() == "打开导出文件(&O)"
    assert window.actions_.complete_references.text() == "重新查找名称(&N)"
    dialog = open_export(qtbot, window)
    assert dialog.windowTitle() == "导出" and dialog.export_button.text() == "导出(&E)"
    assert dialog.definition_box.currentText() == "客户导出"
    level = dialog.filter_field("level")
    assert isinstance(level, QComboBox)
    assert [level.itemText(i) for i in range(level.count())] == ["（不限）", "普通", "银卡", "金卡"]
    assert dialog.encoding_box.currentText() == "UTF-8 带 BOM（Excel）"
    dialog.reject()


def test_both_translations_list_every_text_and_chinese_translates_them() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "fill_zh_translations.py"), "--check"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_every_window_shortcut_is_unique(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    shortcuts = [a.shortcut().toString() for a in window.findChildren(QAction) if not a.shortcut().isEmpty()]
    assert len(shortcuts) == len(set(shortcuts)), sorted(shortcuts)
    assert window.export_action.shortcut().toString() == "Ctrl+Shift+X"
    assert window.export_action in window.toolbar.actions() and window.export_action in window.file_menu.actions()


def test_enter_in_the_export_dialog_exports(qtbot: Any, make_desk: Any) -> None:
    """Enter presses Export, the dialog's default button (seen under Xvfb: Enter pressed Cancel, the first
    button, as the default had been set before the button was in the dialog)."""
    desk: Desk = make_desk()
    window = desk.window
    dialog = open_export(qtbot, window)
    assert dialog.export_button.isDefault()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).isDefault()
    with qtbot.waitSignal(window.service.submitted, timeout=TIMEOUT) as sent:
        qtbot.keyClick(dialog, Qt.Key.Key_Return)
    result = sent.args[0] if sent.args else None
    assert result is not None and window.export_dialog is None
