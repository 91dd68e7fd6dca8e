"""Switching the window's language: tasks already in the list, ended ones included, read in the new
language at once (stage, error, details), and the next task's error CSV is headed in it."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.app import build_core
from desktop_app.domain.errors import ErrorCode, Lang, message
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.imports.error_csv import MARKERS
from desktop_app.tasks.context import TaskContext
from desktop_app.ui.desk import Desk
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_model import STAGE, STATUS
from tests.gui.conftest import SAMPLES, SlowImport, row_of
from tests.gui.test_window_queue import TIMEOUT, cell, open_preview, qtbot_left, wait_for_task, wait_status

ERRORS = SAMPLES / "customers_errors.csv"


class Tidy:
    """A task type the list has no words of its own for: its cell shows the task's stage as stored."""

    task_type = "tidy"
    lane = Lane.SHORT

    def run(self, ctx: TaskContext) -> TaskOutcome:
        return TaskOutcome(TaskStatus.SUCCEEDED)


def _switch(qtbot: Any, desk: Desk, lang: str) -> None:
    desk.set_language(lang)
    words = "导出(&X)…" if lang == "zh" else "E&xport…"  # the translator is in: the window speaks it
    qtbot.waitUntil(lambda: desk.window.export_action.text() == words, timeout=TIMEOUT)


def test_switching_the_language_re_renders_ended_tasks_in_the_list_and_the_details(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    core = build_core(data_dir=data_dir, handlers=[], overrides={"daily_cleanup": False})
    failing = core.store.submit(task_type="import", params={"file": str(ERRORS), "import_type": "customers"},
                                creator="t").task  # fmt: skip
    tidy = core.store.submit(task_type="tidy", params={}, creator="t", lane=Lane.SHORT).task
    core.store.engine.dispose()
    importer = SlowImport(steps=2, pause=0.0)
    importer.fail_next = True  # PermanentError(corrupt_file), raised in the desk's language (English)
    desk: Desk = make_desk([importer, Tidy()], data_dir=data_dir)
    window = desk.window
    wait_status(qtbot, window, failing.task_no, TaskStatus.FAILED)
    wait_status(qtbot, window, tidy.task_no, TaskStatus.SUCCEEDED)
    window.select_task(failing.id)
    window.actions_.details.trigger()
    details = window.details

    languages: list[tuple[Lang, Lang, str]] = [("en", "zh", "Done"), ("zh", "en", "已完成"), ("en", "zh", "Done")]
    for number, (lang, other_lang, done) in enumerate(languages):
        if number:  # the desk starts in English
            _switch(qtbot, desk, lang)
        reason, other = message(ErrorCode.CORRUPT_FILE, lang), message(ErrorCode.CORRUPT_FILE, other_lang)
        assert cell(window, tidy.task_no, STAGE) == done
        stage = cell(window, failing.task_no, STAGE)
        assert reason in stage and other not in stage, stage
        tip = window.model.index(row_of(window.model, failing.task_no), STATUS).data(Qt.ItemDataRole.ToolTipRole)
        assert tip == reason
        assert details.value("error") == reason and reason in details.value("stage")
        assert reason in window.summary.plain_text()


def _header(path: str | None) -> list[str]:
    assert path, "the task has an error CSV"
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return next(csv.reader(handle))


def _rows(path: str | None) -> list[list[str]]:
    assert path, "the task has an error CSV"
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))[1:]


def _import(qtbot: Any, window: MainWindow, path: Path, count: int) -> Any:
    dialog = open_preview(qtbot, window, path)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, window, count)
    return wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.FAILED)


def _reimport(qtbot: Any, window: MainWindow, task: Any, count: int) -> Any:
    """Re-import a task's error CSV as the clerk does (unedited: every row fails again, and says so)."""
    window.select_task(task.id)
    window.actions_.reimport.trigger()
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.rows_table.rowCount() > 0, timeout=TIMEOUT)
    assert window.preview is not None
    qtbot.mouseClick(window.preview.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    repair = wait_for_task(qtbot, window, count)
    assert repair.params["repairs"] == task.task_no
    return wait_status(qtbot, window, repair.task_no, TaskStatus.FAILED, TaskStatus.PARTIALLY_SUCCEEDED)


def test_the_error_csv_follows_the_switch_and_a_repair_reads_either_language(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    desk: Desk = make_desk()
    window = desk.window
    original = _header(str(ERRORS))
    english = _import(qtbot, window, ERRORS, 1)
    assert _header(english.error_csv) == [MARKERS["en"][0], *original, *MARKERS["en"][1:]]

    _switch(qtbot, desk, "zh")  # a task started after the switch writes the new language
    other = tmp_path / "customers_errors_2.csv"
    other.write_bytes(ERRORS.read_bytes() + "C299999,王五,139123,,金卡,2022-01-18,1.00,客服部,\r\n".encode())
    chinese = _import(qtbot, window, other, 2)
    assert _header(chinese.error_csv) == [MARKERS["zh"][0], *original, *MARKERS["zh"][1:]]

    # the English error CSV, re-imported by the Chinese desk: read as an error CSV, one row-number column.
    # Unedited, every row fails again but the sample's long one: its stray cell is in the extra-cells
    # column, which a repair ignores like the error CSV's other own columns, so the row fits its header.
    first = _rows(english.error_csv)
    long_rows = [r for r in first if r[-1]]
    assert [(r[-3], r[-1]) for r in long_rows] == [("column_count_mismatch", "多出来的一列")]
    repaired_in_zh = _reimport(qtbot, window, english, 3)
    assert repaired_in_zh.total_count == english.fail_count and repaired_in_zh.success_count == 1
    # no long row left: the columns without the extra cells'
    assert _header(repaired_in_zh.error_csv) == [MARKERS["zh"][0], *original, *MARKERS["zh"][1:3]]
    # and the other way: the Chinese one (a repair's, so a second round), re-imported in English
    _switch(qtbot, desk, "en")
    repaired_in_en = _reimport(qtbot, window, repaired_in_zh, 4)
    assert repaired_in_en.total_count == english.fail_count - 1 and repaired_in_en.success_count == 0
    assert _header(repaired_in_en.error_csv) == [MARKERS["en"][0], *original, *MARKERS["en"][1:3]]
    again = _rows(repaired_in_en.error_csv)
    assert [r[0] for r in again] == [r[0] for r in first if not r[-1]]  # the rows of the clerk's original file


def test_an_undone_import_reads_undone_by_in_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    from sqlalchemy import update

    from desktop_app.store.schema import tasks

    data_dir = tmp_path / "data"
    core = build_core(data_dir=data_dir, handlers=[], overrides={"daily_cleanup": False})
    done = core.store.submit(task_type="import", params={"file": str(ERRORS), "import_type": "customers"},
                             creator="t").task  # fmt: skip
    with core.store.engine.begin() as conn:
        conn.execute(update(tasks).where(tasks.c.id == done.id)
                     .values(status=TaskStatus.SUCCEEDED.value, total_count=60, success_count=60,
                             summary={"inserted_count": 60}, undone_by="T250301-UNDO01"))  # fmt: skip
    core.store.engine.dispose()
    desk: Desk = make_desk([], data_dir=data_dir)
    window = desk.window
    wait_status(qtbot, window, done.task_no, TaskStatus.SUCCEEDED)
    _switch(qtbot, desk, "zh")
    assert cell(window, done.task_no, STAGE) == "已被 T250301-UNDO01 撤销 — 已完成：导入 60 行"
