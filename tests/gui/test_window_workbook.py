"""The window's workbook preview: each sheet with the type it is imported as (in the order they run) or why it
is skipped; Queue queues the workbook, which imports its sheets and reads "Workbook import" in the list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.app import build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.tasks.builtin_kinds import WORKBOOK
from desktop_app.ui.dialogs.workbook import ORDER, SHEET, TYPE
from desktop_app.ui.task_model import TYPE as TYPE_COLUMN
from tests.gui.conftest import row_of
from tests.support.workbooks import GOODS_HEADER, NOTES_HEADER, PRICES_HEADER, set_up_goods_and_prices, write_book

TIMEOUT = 30_000


def test_the_workbook_preview_lists_each_sheet_and_queues_the_workbook(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # the types and the goods table in the desk's data folder before the window reads its types
    first = build_core(data_dir=tmp_path / "data")
    set_up_goods_and_prices(first)
    first.close()
    desk = make_desk(data_dir=tmp_path / "data")
    window, core = desk.window, desk.core
    book = write_book(tmp_path / "book.xlsx", [
        ("PRICE SHEET", PRICES_HEADER, [["P1", "G1", "1.50"], ["P2", "G2", "2"]]),
        ("notes", NOTES_HEADER, [["a", "b"]]),
        ("商品清单", GOODS_HEADER, [["G1", "茶叶"], ["G2", "咖啡"]]),
    ])  # fmt: skip
    window.panel.set_path(book)
    window.menus.workbook_action.trigger()
    qtbot.waitUntil(lambda: window.workbook is not None, timeout=TIMEOUT)
    dialog = window.workbook
    assert dialog is not None
    shown = [(dialog.cell(r, SHEET), dialog.cell(r, ORDER), dialog.cell(r, TYPE)) for r in range(3)]
    assert shown[0] == ("PRICE SHEET", "2", "Price sheet") and shown[2] == ("商品清单", "1", "Goods list")
    assert shown[1][:2] == ("notes", "") and shown[1][2].startswith('Sheet "notes" skipped:')
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    def workbook_ended() -> bool:
        found = [t for t in core.store.list() if WORKBOOK.owns(t)]
        return bool(found) and found[0].status.is_final

    qtbot.waitUntil(workbook_ended, timeout=TIMEOUT)
    (parent,) = [t for t in core.store.list() if WORKBOOK.owns(t)]
    assert parent.status is TaskStatus.SUCCEEDED and parent.success_count == 4, parent.error_msg
    assert [c.params["sheet"] for c in core.store.children(parent.task_no)] == ["商品清单", "PRICE SHEET"]

    def listed() -> bool:
        return any(window.model.record(r).task_no == parent.task_no for r in range(window.model.rowCount()))

    qtbot.waitUntil(listed, timeout=TIMEOUT)
    assert window.model.index(row_of(window.model, parent.task_no), TYPE_COLUMN).data() == "Workbook import"


def test_a_sheets_plan_applies_the_whole_workbook(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    """A workbook's dry run plans each sheet; a sheet's plan in the window offers to apply the whole workbook
    (a sheet alone would be refused), which queues the workbook's apply, every sheet as planned."""
    from desktop_app.imports.options import ImportOptions

    first = build_core(data_dir=tmp_path / "data")
    set_up_goods_and_prices(first)
    first.close()
    desk = make_desk(data_dir=tmp_path / "data")
    window, core = desk.window, desk.core
    book = write_book(tmp_path / "book.xlsx", [("PRICE SHEET", PRICES_HEADER, [["P1", "G1", "1.50"]]),
                                               ("商品清单", GOODS_HEADER, [["G1", "茶叶"]])])  # fmt: skip
    submitter = window.service.submitter
    request = ImportOptions(file=book, import_type="", dry_run=True)
    dry = submitter.submit_workbook(request, submitter.plan_workbook(request), user=window.service._user).task
    qtbot.waitUntil(lambda: core.store.get(dry.task_no).status.is_final, timeout=TIMEOUT)  # type: ignore[union-attr]
    goods = core.store.children(dry.task_no)[0]
    window.service.refresh_changed()  # what the window does every few seconds: the sheets run by another path
    qtbot.waitUntil(lambda: any(window.model.record(r).task_no == goods.task_no
                                for r in range(window.model.rowCount())), timeout=TIMEOUT)  # fmt: skip
    window.select_task(goods.id)
    qtbot.waitUntil(window.actions_.review_plan.isEnabled, timeout=TIMEOUT)
    window.actions_.review_plan.trigger()
    qtbot.waitUntil(lambda: window.plan_dialog is not None and window.plan_dialog.apply_button.isEnabled(),
                    timeout=TIMEOUT)  # fmt: skip
    plan = window.plan_dialog
    assert plan is not None and plan.apply_button.text() == "&Apply the whole workbook"
    qtbot.mouseClick(plan.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.plan_dialog is None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: bool(core.store.get(dry.task_no).applied_by), timeout=TIMEOUT)  # type: ignore[union-attr]
    applied = core.store.get(core.store.get(dry.task_no).applied_by)  # type: ignore[union-attr,arg-type]
    assert applied is not None and WORKBOOK.owns(applied) and not applied.params["dry_run"]
    qtbot.waitUntil(lambda: core.store.get(applied.task_no).status.is_final, timeout=TIMEOUT)  # type: ignore[union-attr]
    ended = core.store.get(applied.task_no)
    assert ended is not None and ended.status is TaskStatus.SUCCEEDED and ended.success_count == 2, ended.error_msg


def test_the_workbooks_button_says_validate_while_validate_only_is_ticked(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    window = make_desk().window
    book = write_book(tmp_path / "book.xlsx", [("商品清单", GOODS_HEADER, [["G1", "茶叶"]])])
    window.panel.set_path(book)
    window.menus.workbook_action.trigger()
    qtbot.waitUntil(lambda: window.workbook is not None, timeout=TIMEOUT)
    dialog = window.workbook
    assert dialog is not None
    button = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert button.text() == "Queue"
    dialog.dry_run_box.setChecked(True)
    assert button.text() == "Validate"
    dialog.dry_run_box.setChecked(False)
    assert button.text() == "Queue"
    dialog.reject()


def test_import_every_sheet_lets_the_clerk_choose_a_workbook_when_the_field_holds_none(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    # seen in a clerk's tryout: the File field empty (or holding a CSV), "Import every sheet…" said to choose a
    # workbook first, or read the CSV, instead of letting the clerk choose one
    from PySide6.QtWidgets import QFileDialog

    from tests.gui.test_window_queue import CLEAN

    window = make_desk().window
    book = write_book(tmp_path / "book.xlsx", [("商品清单", GOODS_HEADER, [["G1", "茶叶"]])])
    asked: list[tuple[str, str]] = []
    answer = [""]

    def choose(_parent: Any, _caption: str, start: str, filters: str, *_a: Any, **_k: Any) -> tuple[str, str]:
        asked.append((start, filters))
        return answer[0], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(choose))
    window.panel.path_edit.clear()
    window.menus.workbook_action.trigger()
    assert len(asked) == 1 and "*.xlsx" in asked[0][1] and "*.csv" not in asked[0][1]
    qtbot.wait(200)  # the clerk cancelled the chooser: nothing happens, nothing is said
    assert window.workbook is None and window.last_message == ""
    window.panel.set_path(CLEAN)  # a CSV in the field: no workbook, the chooser opens in its folder
    answer[0] = str(book)
    window.menus.workbook_action.trigger()
    assert len(asked) == 2 and asked[1][0] == str(CLEAN.parent)
    qtbot.waitUntil(lambda: window.workbook is not None, timeout=TIMEOUT)
    dialog = window.workbook
    assert dialog is not None and dialog.path == book and dialog.cell(0, SHEET) == "商品清单"
    dialog.reject()
    qtbot.waitUntil(lambda: window.workbook is None)
    window.panel.set_path(book)  # a workbook in the field: imported as it is, no chooser
    window.menus.workbook_action.trigger()
    qtbot.waitUntil(lambda: window.workbook is not None, timeout=TIMEOUT)
    assert len(asked) == 2
    window.workbook.reject()
