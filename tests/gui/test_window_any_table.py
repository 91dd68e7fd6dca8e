"""The window and imports into any table: the mode in words, templates, a broken user type shown with its problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import load_workbook
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.desk import Desk
from desktop_app.ui.task_model import FILE, STAGE, TYPE
from tests.gui.conftest import SAMPLES, row_of
from tests.gui.test_window_queue import TIMEOUT, open_preview, qtbot_left, wait_for_task, wait_status

PRODUCTS = SAMPLES / "products.csv"
BROKEN = """\
name = "suppliers"
title_zh = "供应商"
title_en = "Suppliers"
table = "suppliers"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编号"
label_en = "Code"
aliases = ["code"]
required = "yes"
"""


def test_the_preview_offers_the_six_modes_in_words(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, PRODUCTS)
    assert dialog.import_type() == "products"
    texts = [dialog.mode_box.itemText(i) for i in range(dialog.mode_box.count())]
    assert texts == ["Add new rows only (a row already in the table is an error)", "Add new, skip existing",
                     "Update existing (only rows already in the table)", "Add new and update existing",
                     "Delete rows (the file lists their keys)", "Make the table equal to the file (sync)"]  # fmt: skip
    assert not dialog.blank_box.isEnabled()  # blank cells only matter when rows are updated
    dialog.mode_box.setCurrentIndex(3)
    assert dialog.blank_box.isEnabled() and dialog.options().mode == "upsert"
    dialog.blank_box.setCurrentIndex(1)
    assert dialog.options().blank == "clear"
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert (task.params["mode"], task.params["blank"]) == ("upsert", "clear")
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED, TaskStatus.FAILED)
    assert done.status is TaskStatus.SUCCEEDED and done.to_json()["inserted_count"] == 60


def test_an_update_needs_only_the_key_columns(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    window = make_desk().window
    prices = tmp_path / "prices.csv"
    prices.write_text("商品编码,单价\nSKU-1001,1.00\n", encoding="utf-8")
    dialog = open_preview(qtbot, window, prices)
    dialog.type_box.setCurrentIndex(dialog.type_box.findData("products"))
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled() and "Product name" in dialog.missing_label.text()
    dialog.mode_box.setCurrentIndex(dialog.mode_box.findData("update"))
    assert ok.isEnabled() and dialog.missing_label.isHidden()


def test_download_a_template(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    window = make_desk().window
    panel = window.panel
    assert not panel.template_button.isEnabled()  # no type chosen yet
    panel.type_box.setCurrentIndex(panel.type_box.findData("price_list"))
    assert panel.template_button.isEnabled()
    with qtbot.waitSignal(panel.template_written, timeout=TIMEOUT) as written:
        panel.write_template(tmp_path / "prices", "xlsx")
    path = Path(written.args[0])
    assert path == tmp_path / "prices.xlsx"
    assert [c.value for c in load_workbook(path).worksheets[0][1]] == ["商品编码", "生效日期", "价格", "币种"]
    assert window.last_message == f"Template saved: {path}"


def test_a_broken_user_type_is_shown_with_its_problem(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    folder = tmp_path / "data" / "import_types"
    folder.mkdir(parents=True)
    (folder / "suppliers.toml").write_text(BROKEN, encoding="utf-8")
    desk: Desk = make_desk()
    box = desk.window.panel.type_box
    qtbot.waitUntil(lambda: box.findText("suppliers (cannot be used)") >= 0, timeout=TIMEOUT)
    index = box.findText("suppliers (cannot be used)")
    assert "'required' must be true or false" in str(box.itemData(index, Qt.ItemDataRole.ToolTipRole))
    assert not box.model().item(index).isEnabled()  # type: ignore[attr-defined]
    assert box.findData("products") >= 0 and box.findData("customers") >= 0  # the others are there
    # fixed while the window is open: it becomes a usable type at the next look
    (folder / "suppliers.toml").write_text(BROKEN.replace('required = "yes"', "required = true"), encoding="utf-8")
    desk.service.check_types()
    qtbot.waitUntil(lambda: box.findData("suppliers") >= 0, timeout=TIMEOUT)
    assert box.findText("suppliers (cannot be used)") < 0


def test_undo_an_import_after_a_question(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    dialog = open_preview(qtbot, window, PRODUCTS)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED)
    window.select_task(done.id)
    actions = window.actions_
    qtbot.waitUntil(lambda: actions.undo.isEnabled(), timeout=TIMEOUT)
    actions.undo.trigger()
    box = window.undo_question
    assert box is not None and done.task_no in box.text()
    assert "60 rows it added will be removed." in box.informativeText()
    assert box.defaultButton() is box.keep_button  # Enter by habit undoes nothing
    box.undo_button.click()
    undo = wait_for_task(qtbot, window, 2)
    assert undo.task_type == "undo" and undo.params["undoes"] == done.task_no
    ended = wait_status(qtbot, window, undo.task_no, TaskStatus.SUCCEEDED)
    assert ended.to_json()["deleted_count"] == 60
    # the list names which import it took back (seen by a clerk: the bare task type "undo")
    shown = window.model.index(row_of(window.model, undo.task_no), TYPE).data(Qt.ItemDataRole.DisplayRole)
    assert shown == f"Undo of {done.task_no}", shown
    # and the file it took back, as the import's row names it (seen by a clerk: a blank File cell)
    file_cell = window.model.index(row_of(window.model, undo.task_no), FILE).data(Qt.ItemDataRole.DisplayRole)
    assert file_cell == "products.csv" == window.model.index(row_of(window.model, done.task_no), FILE).data()
    # the undo's end reads its import again: the row knows it was undone, and offers no second undo
    qtbot.waitUntil(lambda: window.model.record(row_of(window.model, done.task_no)).to_json()["undone_by"] ==
                    undo.task_no, timeout=TIMEOUT)  # fmt: skip
    window.select_task(done.id)
    qtbot.waitUntil(lambda: not actions.undo.isEnabled(), timeout=TIMEOUT)  # undone: not again
    # and the list says so, with its counts (seen by a clerk: it read "Done: 60 rows imported" as before)
    stage = window.model.index(row_of(window.model, done.task_no), STAGE).data(Qt.ItemDataRole.DisplayRole)
    assert stage == f"Undone by {undo.task_no} — Done: 60 rows imported", stage
    assert not actions.resume.isEnabled() and not actions.reimport.isEnabled()


def test_each_file_is_read_for_its_own_type(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    """Seen by a clerk: after a customers file, a price list typed in and queued at once opened as "Customer
    import", every column ignored and Queue greyed out. The type the last file's header chose is not the
    next file's: queued before its own header is read, the preview reads it; a header no type knows puts the
    box back to "(from the file's header)"; a type the clerk chose stays."""
    window = make_desk().window
    panel = window.panel
    panel.set_path(SAMPLES / "customers_clean.csv")
    qtbot.waitUntil(lambda: panel.import_type() == "customers", timeout=TIMEOUT)
    dialog = open_preview(qtbot, window, SAMPLES / "price_list.csv")
    assert dialog.import_type() == "price_list"
    dialog.reject()
    qtbot.waitUntil(lambda: window.preview is None and panel.import_type() == "price_list", timeout=TIMEOUT)

    odd = tmp_path / "odd.csv"
    odd.write_text("alpha,beta\n1,2\n", encoding="utf-8")
    with qtbot.waitSignal(panel.type_detected, timeout=TIMEOUT):
        panel.set_path(odd)
    assert panel.import_type() is None and panel.type_box.currentIndex() == 0

    chosen = panel.type_box.findData("products")
    panel.type_box.setCurrentIndex(chosen)
    panel.type_box.activated.emit(chosen)  # the clerk's own choice
    other = tmp_path / "other.csv"
    other.write_text("gamma,delta\n1,2\n", encoding="utf-8")
    with qtbot.waitSignal(panel.queue_requested, timeout=TIMEOUT) as queued:
        panel.set_path(other)
        panel.request_queue()
    assert queued.args[1] == "products"
    with qtbot.waitSignal(panel.type_detected, timeout=TIMEOUT):
        pass  # the header read for other.csv ends
    assert panel.import_type() == "products"
