"""The export dialog's "Save to": the results folder by default, Browse… or a typed path, asked before replacing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.desk import Desk
from tests.gui.test_window_export import choose, import_and_wait, open_export, press_export, read_csv
from tests.gui.test_window_queue import CLEAN, TIMEOUT, qtbot_left, wait_status


def test_save_to_defaults_to_the_results_folder_and_browse_chooses_elsewhere(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk: Desk = make_desk()
    window = desk.window
    imported = import_and_wait(qtbot, desk, CLEAN)
    dialog = open_export(qtbot, window)
    exports = desk.core.paths.results_dir / "exports"
    default = Path(dialog.save_edit.text())
    assert default.parent == exports and default.name.startswith("customers-") and default.suffix == ".csv"
    assert dialog.save_edit.toolTip() == str(default), "the whole path, where the field shows only its end"
    choose(dialog.format_box, "xlsx")
    assert Path(dialog.save_edit.text()).suffix == ".xlsx", "the default follows the format"
    assert dialog.output() is None and dialog.save_edit.accessibleName() and dialog.browse_button.text()
    choose(dialog.format_box, "csv")
    mine = tmp_path / "mine"
    mine.mkdir()
    asked: list[str] = []

    def save_as(_parent: Any, _title: str, start: str, _kinds: str) -> tuple[str, str]:
        asked.append(start)
        return str(mine / "客户"), "CSV file (*.csv)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    qtbot.mouseClick(dialog.browse_button, qtbot_left())
    (start,) = asked  # the file dialog opens on the default, less its task-number word (no file name's)
    assert Path(start).parent == exports and Path(start).name.startswith("customers-") and "<" not in start
    assert dialog.save_edit.text() == str(mine / "客户.csv")
    result = press_export(qtbot, window, dialog)
    assert result.task.params["output"] == str(mine / "客户.csv") and result.task.params["replace"] is False
    done = wait_status(qtbot, window, result.task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    saved = mine / "客户.csv"
    assert done.result_path == str(saved) and len(read_csv(saved)) == 201
    assert list(mine.iterdir()) == [saved]
    window.select_task(done.id)
    assert window.actions_.open_result.isEnabled()
    saved.unlink()  # the clerk's to move or delete: the list offers no dead link then
    window.select_task(imported.id)  # another row, then back to it
    window.select_task(done.id)
    assert not window.actions_.open_result.isEnabled()


def test_a_typed_file_that_is_there_is_replaced_only_when_the_clerk_says_so(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    desk: Desk = make_desk()
    window = desk.window
    import_and_wait(qtbot, desk, CLEAN)
    there = tmp_path / "there.csv"
    there.write_text("the clerk's own", encoding="utf-8")
    dialog = open_export(qtbot, window)
    dialog.save_edit.setText(str(there))
    qtbot.mouseClick(dialog.export_button, qtbot_left())
    box = dialog.replace_question
    assert box is not None and box.isVisible() and str(there) in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel), "Enter keeps the file"
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), qtbot_left())
    assert window.export_dialog is dialog and dialog.isVisible(), "back in the dialog, nothing queued"
    assert window.model.rowCount() == 1 and there.read_text(encoding="utf-8") == "the clerk's own"
    qtbot.mouseClick(dialog.export_button, qtbot_left())
    box = dialog.replace_question
    assert box is not None
    (replace,) = [b for b in box.buttons() if box.buttonRole(b) is QMessageBox.ButtonRole.AcceptRole]
    with qtbot.waitSignal(window.service.submitted, timeout=TIMEOUT) as sent:
        qtbot.mouseClick(replace, qtbot_left())
    task = sent.args[0].task
    assert task.params["output"] == str(there) and task.params["replace"] is True
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED, done.error_msg
    assert len(read_csv(there)) == 201


def test_a_folder_that_is_not_there_is_said_in_the_dialog(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk: Desk = make_desk()
    window = desk.window
    import_and_wait(qtbot, desk, CLEAN)
    dialog = open_export(qtbot, window)
    dialog.save_edit.setText(str(tmp_path / "no such folder" / "c.csv"))
    qtbot.mouseClick(dialog.export_button, qtbot_left())
    missing = tmp_path / "no such folder" / "c.csv"
    assert dialog.error_label.isVisible()
    assert dialog.error_label.text() == f"The exported file cannot be saved to {missing}: its folder does not exist"
    assert window.export_dialog is dialog and window.model.rowCount() == 1, "nothing queued"


def test_browse_opens_in_a_folder_that_exists_never_the_programs_own(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen under Xvfb: before the first export made the results folder, Browse… opened in the program's
    working folder. It opens in the results folder (made for it); a typed place in a folder that is not
    there opens in its nearest folder that is; a bare name, in the home folder."""
    from desktop_app.ui.dialogs.export import browse_start

    desk: Desk = make_desk()
    exports = desk.core.paths.results_dir / "exports"
    assert not exports.exists()
    dialog = open_export(qtbot, desk.window)
    asked: list[str] = []

    def save_as(_parent: Any, _title: str, start: str, _kinds: str) -> tuple[str, str]:
        asked.append(start)
        return "", ""  # the clerk cancels

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    qtbot.mouseClick(dialog.browse_button, qtbot_left())
    assert Path(asked[0]).parent == exports and exports.is_dir()
    monkeypatch.setattr(Path, "home", staticmethod(lambda: tmp_path / "home"))  # HOME, USERPROFILE alike
    (tmp_path / "home").mkdir()
    deep = tmp_path / "there" / "not" / "yet" / "out.csv"
    assert browse_start(deep) == tmp_path / "out.csv"
    assert browse_start(Path("out.csv")) == tmp_path / "home" / "out.csv"
    assert browse_start(Path("/nowhere-at-all/out.csv")) == tmp_path / "home" / "out.csv"
    root = Path(Path.cwd().anchor)
    assert browse_start(root / "out.csv") == root / "out.csv", "a root typed is where the clerk wants it"
    dialog.reject()
