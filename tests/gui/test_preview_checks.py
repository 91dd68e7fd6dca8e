"""The preview as a clerk uses it: rows checked by the import's own rules with the bad cells marked, rows
already in the table said for the chosen mode, the row count, sheets, separator, the day/month question,
decimal comma, the size limit, an empty file, two headers for one column, encodings in words."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QColor, QHelpEvent
from PySide6.QtWidgets import QApplication, QComboBox, QDialogButtonBox, QLabel, QStyleFactory, QToolTip

from desktop_app.domain.status import TaskStatus
from desktop_app.imports import file_preview
from desktop_app.ui.dialogs.preview import PreviewDialog
from desktop_app.ui.dialogs.preview_table import AMBER, BAD, BLUE, GREY, RED, WAIT
from desktop_app.ui.full_text_tip import NarrowCombo, is_cut
from tests.gui.conftest import SAMPLES
from tests.gui.test_window_queue import ERRORS, TIMEOUT, open_preview, qtbot_left, wait_for_task, wait_status
from tests.support import hostile_files as hostile
from tests.support.customers import HEADER, codes_by_row, row, write_csv


def ok(dialog: PreviewDialog) -> Any:
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def wait_counted(qtbot: Any, dialog: PreviewDialog) -> None:
    qtbot.waitUntil(lambda: "Counting" not in dialog.count_label.text(), timeout=TIMEOUT)


def delimited(path: Path, rows: list[list[str]], delimiter: str = ",", *, first: str = "") -> Path:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([HEADER, *rows])
    path.write_text(first + out.getvalue(), encoding="utf-8")
    return path


def test_bad_cells_are_marked_with_their_reason(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, ERRORS)
    wait_counted(qtbot, dialog)
    table = dialog.rows_table
    marked = [(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())
              if table.item(r, c).background().color() == BAD]  # fmt: skip
    assert marked, "the sample's errors show in the first rows"
    r, c = marked[0]
    assert table.item(r, c).toolTip(), "the reason is the tooltip"
    assert "would fail: hover a red cell" in dialog.problems_label.text()
    assert dialog.count_label.text().startswith("50 rows · ")
    assert ok(dialog).isEnabled(), "rows that fail go to the error file; the file can be queued"


def test_a_large_file_says_about(qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0, "xls": 0})
    path = write_csv(tmp_path / "big.csv", [row(i) for i in range(1, 1501)])
    dialog = open_preview(qtbot, make_desk().window, path)
    wait_counted(qtbot, dialog)
    assert dialog.count_label.text().startswith("About 1,500 rows")


def test_a_workbooks_sheets_can_be_chosen(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    book = Workbook()
    book.active.title = "说明"
    book.active.append(["填写说明"])
    book.active.append(["请填写第二张表"])
    data = book.create_sheet("客户")
    data.append(HEADER)
    data.append(row(1))
    path = tmp_path / "two.xlsx"
    book.save(path)
    window = make_desk().window
    dialog = open_preview(qtbot, window, path)
    assert not dialog.sheet_box.isHidden() and [dialog.sheet_box.itemText(i) for i in range(2)] == ["说明", "客户"]
    assert not ok(dialog).isEnabled() and dialog.encoding_box.isHidden(), "no encoding for a workbook"
    with qtbot.waitSignal(dialog.loaded, timeout=TIMEOUT):
        dialog.sheet_box.setCurrentIndex(1)
        dialog.sheet_box.activated.emit(1)
    dialog.type_box.setCurrentIndex(dialog.type_box.findData("customers"))
    assert dialog.rows_table.horizontalHeaderItem(0).text() == "客户编号" and ok(dialog).isEnabled()
    qtbot.mouseClick(ok(dialog), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.params["sheet"] == "客户"
    assert wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED).success_count == 1


def test_the_separator_is_detected_and_can_be_overridden(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    path = delimited(tmp_path / "semi.csv", [row(1), row(2)], ";")
    dialog = open_preview(qtbot, make_desk().window, path)
    assert dialog.delimiter_box.currentText() == "Detected: Semicolon (;)"
    assert dialog.rows_table.columnCount() == len(HEADER)
    with qtbot.waitSignal(dialog.loaded, timeout=TIMEOUT):
        dialog.delimiter_box.setCurrentIndex(dialog.delimiter_box.findData(","))
        dialog.delimiter_box.activated.emit(dialog.delimiter_box.currentIndex())
    assert dialog.rows_table.columnCount() == 1 and dialog.options().delimiter == ","
    assert not ok(dialog).isEnabled()


def test_the_sep_line_is_named(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    path = delimited(tmp_path / "sep.csv", [row(1)], ";", first="sep=;\r\n")
    dialog = open_preview(qtbot, make_desk().window, path)
    assert dialog.delimiter_box.currentText() == "As the file's sep= line says: Semicolon (;)"
    assert dialog.rows_table.verticalHeaderItem(0).text() == "2", "the sep= line is no row"


def test_ambiguous_dates_ask_once_for_the_file(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    window = make_desk().window
    path = write_csv(tmp_path / "dates.csv", [row(1, 开户日期="03/05/2024"), row(2, 开户日期="04/06/2024")])
    dialog = open_preview(qtbot, window, path)
    box = dialog.date_order_box
    assert not box.isHidden() and box.currentData() is None
    assert [box.itemText(i) for i in range(box.count())] == [
        "Choose: the file does not say",
        "Day first: 03/05/2024 is 2024-05-03",
        "Month first: 03/05/2024 is 2024-03-05",
    ]
    assert not ok(dialog).isEnabled() and "day first or month first" in dialog.missing_label.text()
    assert "Row 2 has the date 03/05/2024" in dialog.date_note.text()
    assert "could be 2024-05-03 (day first)" in dialog.rows_table.item(0, 5).toolTip()
    box.setCurrentIndex(box.findData("dmy"))
    box.activated.emit(box.currentIndex())
    assert ok(dialog).isEnabled() and dialog.rows_table.item(0, 5).background().color() != BAD
    qtbot.mouseClick(ok(dialog), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.params["date_order"] == "dmy"
    assert wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED).success_count == 2


def test_an_order_the_file_shows_is_taken_and_said(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "dates.csv", [row(1, 开户日期="03/05/2024"), row(2, 开户日期="25/05/2024")])
    dialog = open_preview(qtbot, make_desk().window, path)
    assert dialog.date_order_box.currentData() == "dmy" and ok(dialog).isEnabled()
    assert dialog.date_note.text() == "Dates such as 03/05/2024 are read day first, as row 3 (25/05/2024) shows."
    assert dialog.options().date_order == "dmy"


def test_a_decimal_comma(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    path = delimited(tmp_path / "eu.csv", [row(1, 信用额度="1 234,50")], ";")
    dialog = open_preview(qtbot, make_desk().window, path)
    assert dialog.rows_table.item(0, 6).background().color() == BAD
    dialog.decimal_comma_box.setChecked(True)
    assert dialog.rows_table.item(0, 6).background().color() != BAD
    assert dialog.options().decimal_comma is True


@pytest.mark.parametrize("text", ["", ",".join(HEADER) + "\r\n"])
def test_an_empty_file_says_why_it_cannot_queue(qtbot: Any, make_desk: Any, tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(text, encoding="utf-8")
    window = make_desk().window
    window.panel.path_edit.setText(str(path))
    qtbot.mouseClick(window.panel.queue_button, qtbot_left())
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.missing_label.text() != "", timeout=TIMEOUT)
    dialog = window.preview
    assert dialog is not None
    assert dialog.missing_label.text() == "Cannot queue: The file is empty: it has no data rows"
    assert not ok(dialog).isEnabled()
    wait_counted(qtbot, dialog)
    size = len(text.encode("utf-8"))  # its size in bytes, not "1 KB" (seen by a clerk on an empty file)
    assert dialog.count_label.text().endswith(f" · {size} bytes"), dialog.count_label.text()


def test_a_file_over_the_size_limit_offers_to_raise_it(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    window = make_desk(max_file_mb=1).window
    path = write_csv(tmp_path / "big.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    dialog = open_preview(qtbot, window, path)
    assert not ok(dialog).isEnabled()
    assert dialog.missing_label.text().startswith("Cannot queue: The file is too large: 1.")
    assert not dialog.raise_limit_box.isHidden()
    assert dialog.raise_limit_box.text() == "Raise the size &limit to 2 MB for this file"
    # the hint names the box by the words it shows (the first and last of its label)
    hint = dialog.missing_label.text().split("\n")[-1]
    assert "“Raise the size limit … for this file”" in hint
    dialog.raise_limit_box.setChecked(True)
    assert ok(dialog).isEnabled() and dialog.options().max_file_mb == 2
    qtbot.mouseClick(ok(dialog), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.params["max_file_mb"] == 2
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED and done.success_count == 7000


# --- the row limit (seen in a clerk's tryout: "About 2,500,000 rows" previewed nothing of the limit of 1,000,000,
# the task queued failed at once on it) -------------------------------------------------------------------------


def test_an_estimate_clearly_over_the_row_limit_says_so_and_offers_to_raise_it(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0, "xls": 0})
    window = make_desk(max_rows=1000).window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "big.csv", [row(i) for i in range(1, 1501)]))
    wait_counted(qtbot, dialog)
    assert dialog.count_label.text().startswith("About 1,500 rows")
    assert dialog.missing_label.text().split("\n") == [
        "Cannot queue: about 1,500 rows, more than the limit of 1,000 rows.",
        "Split the file, or tick “Raise the row limit … for this import” below.",
    ]
    assert not ok(dialog).isEnabled()
    assert not dialog.raise_rows_box.isHidden()
    assert dialog.raise_rows_box.text() == "Raise the ro&w limit to 1,500 rows for this import"
    dialog.raise_rows_box.setChecked(True)
    assert dialog.missing_label.isHidden() and ok(dialog).isEnabled()
    assert dialog.options().max_rows == 1500
    qtbot.mouseClick(ok(dialog), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.params["max_rows"] == 1500
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED and done.success_count == 1500


def test_an_estimate_near_the_row_limit_is_left_to_the_task(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0, "xls": 0})
    dialog = open_preview(qtbot, make_desk(max_rows=1000).window,
                          write_csv(tmp_path / "near.csv", [row(i) for i in range(1, 1051)]))  # fmt: skip
    wait_counted(qtbot, dialog)
    assert dialog.count_label.text().startswith("About 1,050 rows")
    assert dialog.raise_rows_box.isHidden() and dialog.missing_label.isHidden() and ok(dialog).isEnabled()


def test_a_large_csv_whose_notes_hold_line_breaks_can_be_queued_within_the_row_limit(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # its line breaks (3,000) are far over the limit, its records (1,000) within: the import takes it, so the
    # preview lets it be queued (it counts the file as the import does before it says "Cannot queue")
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0, "xls": 0})
    path = write_csv(tmp_path / "notes.csv", [row(i, 备注="line one\nline two\nline three") for i in range(1, 1001)])
    dialog = open_preview(qtbot, make_desk(max_rows=1500).window, path)
    wait_counted(qtbot, dialog)
    assert dialog.count_label.text().startswith("1,000 rows"), dialog.count_label.text()
    assert dialog.raise_rows_box.isHidden() and dialog.missing_label.isHidden() and ok(dialog).isEnabled()


def test_a_count_over_the_row_limit_says_its_rows_and_the_size_too(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    # the clerk's file was over both limits: both said at once, both boxes offered
    window = make_desk(max_file_mb=1, max_rows=5000).window
    path = write_csv(tmp_path / "big.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    dialog = open_preview(qtbot, window, path)
    wait_counted(qtbot, dialog)
    lines = dialog.missing_label.text().split("\n")
    assert lines[0].startswith("Cannot queue: The file is too large: 1.")
    assert lines[2:] == [
        "Cannot queue: 7,000 rows, more than the limit of 5,000 rows.",
        "Split the file, or tick “Raise the row limit … for this import” below.",
    ]
    assert not dialog.raise_limit_box.isHidden() and not dialog.raise_rows_box.isHidden()
    dialog.raise_limit_box.setChecked(True)
    assert not ok(dialog).isEnabled()
    assert dialog.missing_label.text().startswith("Cannot queue: 7,000 rows, more than the limit of 5,000 rows.")
    dialog.raise_rows_box.setChecked(True)
    assert ok(dialog).isEnabled() and dialog.options().max_rows == 7000 and dialog.options().max_file_mb == 2


def test_the_row_limit_reads_in_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk(max_rows=1000)
    desk.set_language("zh")
    dialog = open_preview(qtbot, desk.window, write_csv(tmp_path / "big.csv", [row(i) for i in range(1, 1201)]))
    qtbot.waitUntil(lambda: "1,200" in dialog.missing_label.text(), timeout=TIMEOUT)
    box = dialog.raise_rows_box.text().replace("(&W)", "")
    assert box == "仅对这次导入把行数上限提高到 1,200 行"
    assert dialog.missing_label.text().split("\n") == [
        "无法排队导入：共 1,200 行，超过上限 1,000 行。",
        "请拆分文件，或勾选下方的“仅对这次导入把行数上限提高到…”。",
    ]


def test_the_size_hint_names_the_box_as_it_reads_in_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk(max_file_mb=1)
    desk.set_language("zh")
    path = write_csv(tmp_path / "big.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    dialog = open_preview(qtbot, desk.window, path)
    qtbot.waitUntil(lambda: "提高到" in dialog.missing_label.text(), timeout=TIMEOUT)
    box = dialog.raise_limit_box.text().replace("(&L)", "")
    assert box.startswith("仅对这个文件把大小上限提高到")
    assert "“仅对这个文件把大小上限提高到…”" in dialog.missing_label.text()


def test_two_headers_for_one_column_say_which_fills_it(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text(",".join([*HEADER, "mobile"]) + "\r\n" + ",".join([*row(1), "13900000000"]) + "\r\n",
                    encoding="utf-8")  # fmt: skip
    dialog = open_preview(qtbot, make_desk().window, path)
    assert dialog.mapping_note.text() == "“mobile” is not used: the header “手机号” already fills the column Phone"
    assert dialog.mapping_table.item(9, 0).toolTip() == "Not used: the header “手机号” already fills the column Phone"
    assert dialog.mapping_table.item(8, 0).toolTip() == "Fills the column Note"


def test_encodings_are_offered_in_words(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    dialog = open_preview(qtbot, make_desk().window, ERRORS)
    words = [dialog.encoding_box.itemText(i) for i in range(dialog.encoding_box.count())]
    assert "Chinese (GBK) - Excel on Chinese Windows" in words and "Western (Latin-1)" in words
    assert not any(w in ("gbk", "gb18030", "utf-8-sig", "cp1252") for w in words)


def test_the_preview_speaks_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    desk.set_language("zh")
    path = write_csv(tmp_path / "dates.csv", [row(1, 开户日期="03/05/2024")])
    dialog = open_preview(qtbot, desk.window, path)
    qtbot.waitUntil(lambda: dialog.windowTitle().startswith("预览"), timeout=TIMEOUT)
    assert dialog.date_order_box.itemText(1) == "日在前：03/05/2024 即 2024-05-03"
    assert "开户日期“03/05/2024”分不清日和月" in dialog.rows_table.item(0, 5).toolTip()


def test_a_fixed_error_file_opens_its_preview_without_the_warning(qtbot: Any, make_desk: Any) -> None:
    from tests.gui.test_window_queue import queue

    window = make_desk().window
    queue(qtbot, window, ERRORS)
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    errors = Path(str(done.error_csv))
    # English desk: the error file's own columns in English
    assert errors.read_text(encoding="utf-8-sig").startswith("Row number,")
    errors.write_text(errors.read_text(encoding="utf-8-sig").replace("bad", "13800000000"), encoding="utf-8-sig")
    window.select_task(done.id)
    window.actions_.reimport.trigger()
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.rows_table.rowCount() > 0, timeout=TIMEOUT)
    dialog = window.preview
    assert dialog is not None and dialog.notice_label.isHidden() and dialog.import_type() == "customers"
    assert dialog.options().repairs == done.task_no
    dialog.reject()


# --- rows already in the table (issue 28) --------------------------------------------------------------


def wait_looked_up(qtbot: Any, dialog: PreviewDialog) -> str:
    """What the preview says of the shown rows: the verdict, then the rows that wait for a name."""
    qtbot.waitUntil(lambda: dialog.check is not None and dialog.check.table is not None, timeout=TIMEOUT)
    return " ".join(text for text in (dialog.problems_label.text(), dialog.waiting_label.text()) if text)


def choose_mode(dialog: PreviewDialog, mode: str) -> str:
    dialog.mode_box.setCurrentIndex(dialog.mode_box.findData(mode))
    return str(dialog.problems_label.text())


def test_rows_already_in_the_table_are_said_for_the_mode(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "first.csv", [row(1), row(2), row(3)]))
    assert wait_looked_up(qtbot, dialog) == "The first 3 rows pass every check."  # nothing in the table yet
    qtbot.mouseClick(ok(dialog), qtbot_left())
    first = wait_for_task(qtbot, window, 1)
    assert wait_status(qtbot, window, first.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED).success_count == 3
    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)

    # two rows already in the table (one as it is stored, one with another name) and a new one
    path = write_csv(tmp_path / "again.csv", [row(1), row(2, 姓名="新名字"), row(4)])
    dialog = open_preview(qtbot, window, path)
    said = wait_looked_up(qtbot, dialog)
    assert said == ("2 of the first 3 rows would fail as already in the table: this mode adds new rows only. "
                    "Rows that fail go to the error file; the others still import, but with more than 30% of the "
                    "rows failing the import counts as failed (the rows that went in stay).")  # fmt: skip
    table = dialog.rows_table
    for r in (0, 1):  # the key cell red with the import's own reason, the row number red
        assert table.item(r, 0).background().color() == BAD
        reason = f'Customer code "C00000{r + 1}" already exists and cannot be imported again'
        assert table.item(r, 0).toolTip() == reason
        assert table.verticalHeaderItem(r).foreground().color() == RED
    assert table.item(2, 0).background().color() != BAD and ok(dialog).isEnabled()

    # another mode needs no new look-up: the words change at once
    said = choose_mode(dialog, "insert_new")
    assert said == "The first 3 rows pass every check. 2 of the first 3 rows will be skipped: already in the table."
    assert table.item(0, 1).foreground().color() == GREY and table.item(0, 0).background().color() != BAD
    assert table.verticalHeaderItem(0).toolTip() == "Already in the table: this row will be skipped"
    said = choose_mode(dialog, "upsert")
    assert said == ("The first 3 rows pass every check. 1 of the first 3 rows will update rows already in the "
                    "table. 1 of the first 3 rows will change nothing: already in the table with these "
                    "values.")  # fmt: skip
    assert table.item(1, 1).foreground().color() == BLUE
    assert table.verticalHeaderItem(1).toolTip() == "Already in the table: this row will update it"
    assert table.verticalHeaderItem(0).toolTip() == "Already in the table with these values: nothing will change"
    said = choose_mode(dialog, "update")
    assert said.startswith("1 of the first 3 rows would fail as not in the table: this mode updates rows already")
    assert table.item(2, 0).background().color() == BAD
    assert table.item(2, 0).toolTip().startswith('Customer code "C000004"')

    # the words are what the run does: in insert mode the two rows fail as already_exists
    choose_mode(dialog, "insert")
    qtbot.mouseClick(ok(dialog), qtbot_left())
    task = wait_for_task(qtbot, window, 2)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.FAILED, TaskStatus.PARTIALLY_SUCCEEDED,
                       TaskStatus.SUCCEEDED)  # fmt: skip
    assert codes_by_row(done) == {2: ["already_exists"], 3: ["already_exists"]} and done.success_count == 1


def test_the_preview_says_so_when_the_table_cannot_be_asked(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_desk().window

    def unreachable(*_args: Any) -> Any:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(window.service, "look_up_keys", unreachable)
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "c.csv", [row(1)]))
    qtbot.waitUntil(lambda: "could not be checked" in dialog.problems_label.text(), timeout=TIMEOUT)
    assert dialog.problems_label.text().startswith("The one row passes every check. Whether they are already in "
                                                   "the table could not be checked: ")  # fmt: skip
    assert ok(dialog).isEnabled(), "the look-up only informs: the file can be queued"


def test_the_preview_speaks_of_the_table_in_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    desk.set_language("zh")
    window = desk.window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "first.csv", [row(1)]))
    wait_looked_up(qtbot, dialog)
    qtbot.mouseClick(ok(dialog), qtbot_left())
    first = wait_for_task(qtbot, window, 1)
    wait_status(qtbot, window, first.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "again.csv", [row(1), row(2)]))
    said = wait_looked_up(qtbot, dialog)
    assert said == ("前 2 行中有 1 行已在表中，会失败：当前方式只新增行。失败的行会写入错误文件，其余的行照常导入；"
                    "但失败的行超过 30% 时，导入会判定为失败（已导入的行保留）。")  # 1 of 2: above the limit
    assert choose_mode(dialog, "insert_new") == "前 2 行全部通过检查。前 2 行中有 1 行已在表中，将被跳过。"


# --- choice boxes on a small screen, and lists of any length (issue 28) --------------------------------


@pytest.mark.parametrize(("lang", "style"), [("en", "Windows"), ("zh", "Windows"), ("en", "Fusion")])
def test_each_choice_box_lists_its_longest_choice_whole(qtbot: Any, make_desk: Any, lang: str, style: str) -> None:
    desk = make_desk()
    desk.set_language(lang)
    dialog = open_preview(qtbot, desk.window, ERRORS)  # a CSV: its encoding and separator are asked too
    boxes = [dialog.type_box, dialog.mode_box, dialog.blank_box, dialog.encoding_box, dialog.delimiter_box,
             dialog.mapping_table.cellWidget(0, 1)]  # fmt: skip
    # Windows' styles open a box's list at the box's own width (Fusion as wide as its items, by itself)
    looks = QStyleFactory.create(style)
    for box in boxes:
        box.setStyle(looks)
    dialog.resize(984, 640)  # as on a 1024 x 700 screen (PreviewDialog._fit): the mode reads whole
    qtbot.waitUntil(lambda: dialog.width() == 984 and not is_cut(dialog.mode_box), timeout=TIMEOUT)
    # squeezed (a smaller screen, a narrower window), a closed box cuts a long choice with "…" (in Chinese the
    # mode reads whole even then: the decimal comma's check box, in the right fields' column, keeps it wide) ...
    least = dialog.minimumSizeHint().width()
    dialog.resize(least, 640)
    qtbot.waitUntil(lambda: dialog.width() == least and (is_cut(dialog.mode_box) or lang == "zh"), timeout=TIMEOUT)
    cut = [box for box in boxes if is_cut(box)]
    for box in boxes:
        shown = box.elided_text()
        assert (shown.endswith("…") and shown != box.currentText()) if box in cut else shown == box.currentText()
    # ... hovering reads it whole ...
    for box in cut:
        at = QPoint(5, 5)
        QApplication.sendEvent(box, QHelpEvent(QEvent.Type.ToolTip, at, box.mapToGlobal(at)))
        assert QToolTip.text().split("\n")[0] == box.currentText()
        QToolTip.hideText()
    # ... and its list shows every choice whole
    for box in boxes:
        metrics = box.view().fontMetrics()
        longest = max((box.itemText(i) for i in range(box.count())), key=metrics.horizontalAdvance)
        box.showPopup()
        qtbot.waitUntil(box.view().isVisible, timeout=TIMEOUT)
        assert box.view().width() >= metrics.horizontalAdvance(longest), (box.accessibleName(), longest)
        assert box.view().viewport().width() >= box.view().sizeHintForColumn(0), box.accessibleName()
        box.hidePopup()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [984, 1360])
def test_a_detected_chinese_encoding_reads_whole_at_1024_and_1400(
    qtbot: Any, make_desk: Any, lang: str, width: int
) -> None:
    """Seen in a tryout at 1024 x 700: "Detected: Chinese (GBK) - Excel on Chinese W…", the box beside a check
    box that left room to spare. It reads whole, the mode and the check box too."""
    desk = make_desk()
    desk.set_language(lang)
    dialog = open_preview(qtbot, desk.window, SAMPLES / "customers_gbk.csv")
    qtbot.waitUntil(lambda: "GBK" in dialog.encoding_box.currentText(), timeout=TIMEOUT)
    dialog.resize(width, 640)  # 984: as on a 1024 x 700 screen (PreviewDialog._fit); 1360: on 1400 x 900
    qtbot.waitUntil(lambda: dialog.width() == width, timeout=TIMEOUT)
    qtbot.wait(20)
    for box in (dialog.encoding_box, dialog.mode_box, dialog.type_box, dialog.delimiter_box, dialog.blank_box):
        assert not is_cut(box), (box.currentText(), box.width())
    check = dialog.decimal_comma_box
    assert check.width() >= check.sizeHint().width()
    assert check.mapTo(dialog, check.rect().topRight()).x() < dialog.width()
    dialog.reject()


def test_no_list_is_cut_at_1024_entries(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    """Issue 28 said the mapping's lists were "cut at 1,024 entries": none is. A header of 1,100 columns
    gets 1,100 rows of mapping, each box with every column of the type, and the rows table all of them."""
    header = [*HEADER, *(f"附加{i}" for i in range(1, 1092))]
    path = tmp_path / "wide.csv"
    path.write_text(",".join(header) + "\r\n" + ",".join([*row(1), *([""] * 1091)]) + "\r\n", encoding="utf-8")
    window = make_desk().window
    dialog = open_preview(qtbot, window, path)
    assert len(header) == 1100 and dialog.rows_table.columnCount() == 1100
    assert dialog.mapping_table.rowCount() == 1100
    last = dialog.mapping_table.cellWidget(1099, 1)
    assert last.count() == len(window.catalog.columns("customers")) + 1 and last.itemText(0) == "(ignored)"
    assert all(box.maxCount() > 1_000_000 for box in dialog.findChildren(QComboBox)), "no box caps its entries"
    many = NarrowCombo()
    many.addItems([f"选项 {i}" for i in range(2_000)])
    assert many.count() == 2_000


def test_a_sheet_beyond_excels_last_row_says_so_before_reading_it(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    """The sheet says at its head that it runs past row 1,048,576: the preview says what the import would, at once."""
    rows = [b'<row r="2"><c r="A2" t="inlineStr"><is><t>C1</t></is></c></row>']
    path = hostile.write_xlsx(tmp_path / "far.xlsx", hostile.sheet_xml(rows, head=b'<dimension ref="A1:C2000000"/>'))
    window = make_desk().window
    window.panel.path_edit.setText(str(path))
    qtbot.mouseClick(window.panel.queue_button, qtbot_left())
    qtbot.waitUntil(lambda: window.preview is not None and "beyond" in window.preview.status_label.text(),
                    timeout=TIMEOUT)  # fmt: skip
    dialog = window.preview
    assert dialog is not None
    assert "the sheet has rows beyond row 1,048,576, Excel's last" in dialog.status_label.text()
    assert not ok(dialog).isEnabled()


def test_the_main_button_says_validate_while_validate_only_is_ticked(qtbot: Any, make_desk: Any) -> None:
    # seen in a clerk's tryout: "Validate only" ticked, the button still said "Queue"
    from tests.gui.test_window_queue import CLEAN

    window = make_desk().window
    dialog = open_preview(qtbot, window, CLEAN)
    button = ok(dialog)
    assert button.text() == "&Queue"
    dialog.dry_run_box.setChecked(True)
    assert button.text() == "Va&lidate"
    dialog.dry_run_box.setChecked(False)
    assert button.text() == "&Queue"
    dialog.reject()
    qtbot.waitUntil(lambda: window.preview is None)
    validating = open_preview(qtbot, window, CLEAN, validate=True)  # "Validate only…" opens it ticked
    assert validating.dry_run_box.isChecked() and ok(validating).text() == "Va&lidate"
    validating.reject()


def test_the_main_button_says_validate_in_chinese(qtbot: Any, make_desk: Any) -> None:
    from tests.gui.test_window_queue import CLEAN

    window = make_desk(language="zh").window
    dialog = open_preview(qtbot, window, CLEAN)
    assert ok(dialog).text() == "加入队列(&Q)"
    dialog.dry_run_box.setChecked(True)
    assert ok(dialog).text() == "校验(&L)"
    dialog.reject()


def test_the_preview_says_which_rows_will_wait_for_a_department(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    # seen: the preview counted every row as passing; after the import 3 of them waited for a department
    rows = [row(i, 部门="华东销售部") if i in (2, 5, 9) else row(i) for i in range(1, 11)]
    window = make_desk().window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "c.csv", rows))
    said = wait_looked_up(qtbot, dialog)
    assert "3 rows name a Department not in the table yet: they will wait until the names are added." in said, said
    assert said.startswith("The first 10 rows pass every check.")
    table = dialog.rows_table
    department = HEADER.index("部门")
    marked = [r for r in range(table.rowCount()) if table.item(r, department).background().color() == WAIT]
    assert [table.verticalHeaderItem(r).text() for r in marked] == ["3", "6", "10"]
    cell = table.item(marked[0], department)
    assert cell.toolTip() == "Department not found: 华东销售部\nThis row will wait until the name is added"
    assert table.verticalHeaderItem(marked[0]).foreground().color() == AMBER
    assert table.item(marked[0], 0).background().color() != WAIT, "only the cell naming it"
    assert ok(dialog).isEnabled(), "the rows import, then wait: the file can be queued"


def sentence_color(dialog: PreviewDialog, words: str) -> QColor:
    """The color of the shown label that says `words`."""
    labels = [label for label in dialog.findChildren(QLabel) if label.isVisible() and words in label.text()]
    assert len(labels) == 1, [label.text() for label in labels]
    labels[0].ensurePolished()
    return labels[0].palette().color(labels[0].foregroundRole())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rows_that_wait_are_said_in_amber_beside_rows_that_fail_in_red(
    qtbot: Any, make_desk: Any, tmp_path: Path, lang: str
) -> None:
    """Seen in a tryout: with rows that fail and rows that wait for a department, the waiting sentence showed
    in the failure's red (one label, one color). It is amber, as its cells are; the failure stays red."""
    desk = make_desk()
    if lang != "en":
        desk.set_language(lang)
    rows = [row(1, 手机号="123"), row(2, 部门="华东销售部"), row(3, 部门="华东销售部"), row(4)]
    dialog = open_preview(qtbot, desk.window, write_csv(tmp_path / "c.csv", rows))
    wait_looked_up(qtbot, dialog)
    fail = {"en": "1 of the first 4 rows would fail", "zh": "前 4 行中有 1 行会失败"}[lang]
    waits = {"en": "2 rows name a Department not in the table yet", "zh": "2 行的部门还不在表中"}[lang]
    assert sentence_color(dialog, fail) == RED
    assert sentence_color(dialog, waits) == AMBER
    dialog.reject()


def test_the_preview_says_the_waiting_rows_in_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    desk.set_language("zh")
    dialog = open_preview(qtbot, desk.window, write_csv(tmp_path / "c.csv", [row(1, 部门="华东销售部"), row(2)]))
    said = wait_looked_up(qtbot, dialog)
    assert "1 行的部门还不在表中：补上名称前，这一行会等待。" in said, said


def test_the_failed_rows_limit_is_said_when_the_shown_rows_go_over_it(qtbot: Any, make_desk: Any,
                                                                     tmp_path: Path) -> None:  # fmt: skip
    """Seen in a tryout: the preview promised "the others still import" for a file whose rows failed above the
    limit, and the real import then ended Failed (its rows that went in stay: imports/summary.py)."""
    window = make_desk().window
    few = write_csv(tmp_path / "few.csv", [row(1), row(2), row(3), row(4, 手机号="x")])
    dialog = open_preview(qtbot, window, few)
    said = wait_looked_up(qtbot, dialog)
    assert said.endswith("Rows that fail go to the error file; the others still import."), said  # 25%: under
    dialog.reject()
    many = write_csv(tmp_path / "many.csv", [row(1), row(2), row(3, 手机号="x"), row(4, 手机号="y")])
    dialog = open_preview(qtbot, window, many)
    said = wait_looked_up(qtbot, dialog)
    assert said.endswith("the others still import, but with more than 30% of the rows failing the import counts "
                         "as failed (the rows that went in stay)."), said  # fmt: skip
