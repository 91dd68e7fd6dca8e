"""The preview's "Delete rows" mode: what the first rows would delete said before queueing, the columns a
delete ignores greyed with why, and the queued task a delete."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.domain.status import TaskStatus
from desktop_app.tasks import builtin_kinds
from desktop_app.ui.dialogs.confirm_undo import UndoQuestion
from desktop_app.ui.outcomes import outcome_text
from tests.gui.test_preview_checks import choose_mode, wait_looked_up
from tests.gui.test_window_queue import TIMEOUT, open_preview, qtbot_left, wait_for_task, wait_status
from tests.support.customers import HEADER, codes_by_row, row, write_csv


def test_choosing_delete_says_what_would_go_and_queues_a_delete(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "first.csv", [row(1), row(2), row(3)]))
    wait_looked_up(qtbot, dialog)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    first = wait_for_task(qtbot, window, 1)
    assert wait_status(qtbot, window, first.task_no, TaskStatus.SUCCEEDED).success_count == 3
    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)

    # two customers in the table and one that is not; the file's other columns are not read
    rows = [row(1), row(4), row(3, 手机号="x"), row(2)]
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "gone.csv", rows))
    wait_looked_up(qtbot, dialog)
    assert dialog.mode_box.findData("delete") >= 0
    said = choose_mode(dialog, "delete")
    assert said == ("1 of the first 4 rows would fail as not in the table: there is no row to delete. 3 of the "
                    "first 4 rows will delete their rows from the table. Rows that fail go to the error file; the "
                    "others are still deleted.")  # fmt: skip
    assert dialog.rows_table.verticalHeaderItem(0).toolTip() == "In the table: this row will be deleted"
    # struck through, unlike a failing row (red too): the second row, not in the table, fails
    assert dialog.rows_table.item(0, 0).font().strikeOut() and not dialog.rows_table.item(1, 0).font().strikeOut()
    choose_mode(dialog, "upsert")
    qtbot.waitUntil(lambda: not dialog.rows_table.item(0, 0).font().strikeOut(), timeout=TIMEOUT)
    choose_mode(dialog, "delete")
    qtbot.waitUntil(lambda: dialog.rows_table.item(0, 0).font().strikeOut(), timeout=TIMEOUT)
    name_header = dialog.mapping_table.item(HEADER.index("姓名"), 0)
    assert name_header.toolTip() == "Ignored: a delete reads only the key's columns"
    assert not dialog.blank_box.isEnabled()  # blank cells say nothing to a delete
    assert dialog.options() is not None and dialog.options().mode.value == "delete"

    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, window, 2)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.FAILED, TaskStatus.PARTIALLY_SUCCEEDED,
                       TaskStatus.SUCCEEDED)  # fmt: skip
    assert done.params["mode"] == "delete" and done.to_json()["deleted_count"] == 3
    assert codes_by_row(done) == {3: ["not_found"]}
    # the window says what it did in a delete's words, and that its undo puts the rows back
    assert outcome_text(done, builtin_kinds.IMPORT) == "Done: 3 of 4 deleted, 1 row with errors"
    over = replace(done, status=TaskStatus.FAILED)  # more failed rows than the threshold: the deleted stay deleted
    assert outcome_text(over, builtin_kinds.IMPORT) == "Failed: 3 of 4 deleted, 1 row with errors"
    question = UndoQuestion(done, window)
    assert "3 rows it deleted will be put back." in question.informativeText()
    assert "rows it added" not in question.informativeText()
    question.deleteLater()
