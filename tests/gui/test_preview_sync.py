"""The preview's sync mode: on Queue the rows it would delete are counted in the background and named, with
the table and the scope, in a question; No queues nothing, Yes queues the sync confirmed for that number."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from desktop_app.domain.status import TaskStatus
from tests.gui.test_preview_checks import choose_mode, wait_looked_up
from tests.gui.test_window_queue import TIMEOUT, open_preview, qtbot_left, wait_for_task, wait_status
from tests.support.customers import DEPARTMENTS, row, write_csv


def test_a_sync_asks_with_the_count_and_the_scope_before_it_is_queued(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "first.csv", [row(1), row(2), row(3)]))
    wait_looked_up(qtbot, dialog)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    first = wait_for_task(qtbot, window, 1)
    wait_status(qtbot, window, first.task_no, TaskStatus.SUCCEEDED)
    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)

    def ask() -> QMessageBox:
        dialog = open_preview(qtbot, window, write_csv(tmp_path / "sync.csv", [row(1), row(4)]))
        wait_looked_up(qtbot, dialog)
        assert dialog.mode_box.itemText(dialog.mode_box.findData("sync")) == "Make the table equal to the file (sync)"
        choose_mode(dialog, "sync")
        assert dialog.blank_box.isEnabled()  # its rows are upserted: blank cells matter
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
        qtbot.waitUntil(lambda: isinstance(window.question, QMessageBox), timeout=TIMEOUT)
        assert isinstance(window.question, QMessageBox)
        return window.question

    box = ask()
    said = re.fullmatch(r"This sync would delete ([\d,]+) rows of customers \(Customer import\) "
                        r"\(scope: all its rows\): the rows the file lacks\.", box.text())  # fmt: skip
    assert said is not None, box.text()
    count = int(said.group(1).replace(",", ""))
    assert count >= 2  # rows 2 and 3 at least (and whatever else the table holds)
    box.button(QMessageBox.StandardButton.No).click()
    qtbot.waitUntil(lambda: window.question is None, timeout=TIMEOUT)
    qtbot.wait(200)
    assert window.model.rowCount() == 1  # No: nothing queued

    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)
    ask().button(QMessageBox.StandardButton.Yes).click()
    task = wait_for_task(qtbot, window, 2)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED,
                       TaskStatus.FAILED)  # fmt: skip
    assert done.params["mode"] == "sync" and done.params["confirm_deletes"] == count, done.error_msg
    assert done.to_json()["deleted_count"] == count and done.to_json()["inserted_count"] == 1


def test_the_real_run_of_a_validated_sync_asks_the_number_it_deletes_now(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "first.csv", [row(1), row(2)]))
    wait_looked_up(qtbot, dialog)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    wait_status(qtbot, window, wait_for_task(qtbot, window, 1).task_no, TaskStatus.SUCCEEDED)
    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)
    # validate only: a dry run asks nothing (it deletes nothing), and counts what it would delete
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "sync.csv", [row(1)]), validate=True)
    wait_looked_up(qtbot, dialog)
    choose_mode(dialog, "sync")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    checked = wait_status(qtbot, window, wait_for_task(qtbot, window, 2).task_no, TaskStatus.SUCCEEDED)
    count = checked.to_json()["deleted_count"]
    assert window.question is None and count >= 1
    window.select_task(checked.id)
    qtbot.waitUntil(window.actions_.import_for_real.isEnabled, timeout=TIMEOUT)
    window.actions_.import_for_real.trigger()
    qtbot.waitUntil(lambda: isinstance(window.question, QMessageBox), timeout=TIMEOUT)
    assert isinstance(window.question, QMessageBox)
    rows = "1 row" if count == 1 else f"{count:,} rows"  # never "1 rows"
    assert f"would delete {rows} of customers (Customer import)" in window.question.text()
    window.question.button(QMessageBox.StandardButton.Yes).click()
    done = wait_status(qtbot, window, wait_for_task(qtbot, window, 3).task_no, TaskStatus.SUCCEEDED)
    assert done.params["dry_run"] is False and done.to_json()["deleted_count"] == count


def test_a_syncs_scope_is_chosen_in_the_preview_and_named_in_the_question(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    """The window had no scope field: a sync from the window could only be of the whole table. The scope's
    column and value are chosen in the preview (shown for a sync only); the question names the scope, and
    only the scope's rows the file lacks are deleted."""
    window = make_desk().window
    east, west = DEPARTMENTS[0], DEPARTMENTS[1]
    first = [row(1, 部门=west), row(2, 部门=west), row(3, 部门=east), row(4, 部门=east)]
    dialog = open_preview(qtbot, window, write_csv(tmp_path / "first.csv", first))
    wait_looked_up(qtbot, dialog)
    assert dialog.scope_field.isHidden(), "only a sync has a scope"
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    wait_status(qtbot, window, wait_for_task(qtbot, window, 1).task_no, TaskStatus.SUCCEEDED)
    qtbot.waitUntil(window.panel.queue_button.isEnabled, timeout=TIMEOUT)

    dialog = open_preview(qtbot, window, write_csv(tmp_path / "east.csv", [row(3, 部门=east)]))
    wait_looked_up(qtbot, dialog)
    choose_mode(dialog, "sync")
    assert not dialog.scope_field.isHidden()
    assert dialog.scope_column_box.currentData() == "" and not dialog.scope_value_edit.isEnabled()
    assert dialog.options().scope == {}  # type: ignore[union-attr]
    dialog.scope_column_box.setCurrentIndex(dialog.scope_column_box.findData("department"))
    assert dialog.scope_value_edit.isEnabled()
    dialog.scope_value_edit.setText(f" {east} ")
    assert dialog.options().scope == {"department": east}  # type: ignore[union-attr]
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    qtbot.waitUntil(lambda: isinstance(window.question, QMessageBox), timeout=TIMEOUT)
    assert isinstance(window.question, QMessageBox)
    said = window.question.text()
    assert said == f"This sync would delete 1 row of customers (Customer import) (scope: department={east}): " \
                   "the row the file lacks.", said
    window.question.button(QMessageBox.StandardButton.Yes).click()
    done = wait_status(qtbot, window, wait_for_task(qtbot, window, 2).task_no, TaskStatus.SUCCEEDED)
    assert done.params["scope"] == {"department": east} and done.to_json()["deleted_count"] == 1
    assert done.to_json()["unchanged_count"] == 1  # row 3; rows 1 and 2 (another department) are out of scope
