"""Fix values (issue 25) in the window: offered for an import whose rows failed for a value their column does not
allow, its dialog (the values, their rows, the allowed values), OK (the fix task, the import's new counts),
Remember (a profile version), Cancel (nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.imports.value_fixes import BadValue
from desktop_app.store.profiles import ProfileStore
from desktop_app.ui.dialogs.value_fix import ValueFixDialog
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_actions import fix_key
from tests.gui.test_window_queue import TIMEOUT, qtbot_left, queue, wait_for_task, wait_status
from tests.support.customers import row, write_csv

ALLOWED = ["普通", "银卡", "金卡", "standard", "silver", "gold"]
CODES = ["standard", "silver", "gold"]  # each level once: the code stored, its label shown


def misspelt(tmp_path: Path) -> Path:
    """20 rows: 3 with 钻石 (not a level), one with 白金."""
    rows = [row(i, 等级="钻石") if i in (2, 5, 9) else row(i, 等级="白金") if i == 12 else row(i) for i in range(1, 21)]
    return write_csv(tmp_path / "levels.csv", rows)


def imported(qtbot: Any, window: MainWindow, path: Path, count: int) -> TaskRecord:
    queue(qtbot, window, path)
    task = wait_for_task(qtbot, window, count)
    return wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.FAILED)


def answered(qtbot: Any, window: MainWindow, record: TaskRecord) -> bool:
    """Select the task and wait until the window knows whether its values can be fixed."""
    window.select_task(record.id)
    actions = window.actions_
    key = fix_key(record, window.kinds.of(record))
    if key is not None:
        qtbot.waitUntil(lambda: key in actions.bad_values, timeout=TIMEOUT)
    return actions.fix_values.isEnabled()


def open_dialog(qtbot: Any, window: MainWindow, record: TaskRecord) -> ValueFixDialog:
    assert answered(qtbot, window, record)
    window.actions_.fix_values.trigger()
    qtbot.waitUntil(lambda: window.value_fix_dialog is not None and window.value_fix_dialog.isVisible())
    dialog = window.value_fix_dialog
    assert dialog is not None
    return dialog


def choose(dialog: ValueFixDialog, value: str, good: str) -> None:
    (combo,) = [c for b, c in zip(dialog.bad, dialog.combos, strict=True) if b.value == value]
    combo.setCurrentIndex(combo.findData(good))


def test_fix_values_is_offered_only_for_an_import_with_values_its_columns_refuse(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    window = make_desk().window
    rows = [row(i + 100, 手机号="bad") if i == 3 else row(i + 100) for i in range(1, 21)]
    phones = write_csv(tmp_path / "phones.csv", rows)
    bad_phone = imported(qtbot, window, phones, 1)
    assert bad_phone.fail_count == 1 and bad_phone.error_csv
    assert not answered(qtbot, window, bad_phone)  # a bad phone is no value to map
    levels = imported(qtbot, window, misspelt(tmp_path), 2)
    assert levels.fail_count == 4
    assert answered(qtbot, window, levels)
    assert window.actions_.fix_values.text() == "Fix &values…"
    assert not answered(qtbot, window, bad_phone)  # and back: per task, not the last answer


def test_the_dialog_lists_each_value_with_its_rows_and_ok_fixes_them(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    desk = make_desk()
    window = desk.window
    levels = imported(qtbot, window, misspelt(tmp_path), 1)
    assert (levels.success_count, levels.fail_count) == (16, 4)
    dialog = open_dialog(qtbot, window, levels)
    assert [(b.column, b.value, b.rows) for b in dialog.bad] == [("level", "钻石", 3), ("level", "白金", 1)]
    for combo in dialog.combos:  # nothing chosen: the clerk chooses
        assert combo.currentData() is None
        assert [combo.itemData(i) for i in range(1, combo.count())] == CODES
        assert [combo.itemText(i) for i in range(1, combo.count())] == ["Standard", "Silver", "Gold"]
    assert not dialog.ok_button.isEnabled()
    assert dialog.remember.text() == "&Remember for next time, in the profile:"
    assert dialog.profile_edit.text() == "customers values" and not dialog.profile_edit.isEnabled()
    choose(dialog, "钻石", "gold")  # 白金 left unchosen: not mapped
    assert dialog.mappings() == {"level": {"钻石": "gold"}} and dialog.ok_button.isEnabled()
    qtbot.mouseClick(dialog.ok_button, qtbot_left())
    model = window.model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=TIMEOUT)
    fix = model.record(0)
    assert fix.params["values"] == {"level": {"钻石": "gold"}} and fix.params["task_no"] == levels.task_no
    # the clerk's own request: listed, with system tasks hidden
    assert window.proxy.rowCount() == 2
    fixed = wait_status(qtbot, window, fix.task_no, TaskStatus.SUCCEEDED)
    assert model.index(model.row_of(fixed.id) or 0, 1).data() == "Fix values"
    # the import read again with its new counts
    qtbot.waitUntil(lambda: model.record(model.row_of(levels.id) or 0).success_count == 19, timeout=TIMEOUT)
    again = model.record(model.row_of(levels.id) or 0)
    assert again.fail_count == 1
    qtbot.waitUntil(lambda: fixed.task_no in window.notice.text(), timeout=TIMEOUT)
    assert f"Fixed values: 3 rows of {levels.task_no} imported" in window.notice.text()
    # 白金 is still there to fix
    assert answered(qtbot, window, again)
    with desk.core.store.reading() as conn:
        golds = conn.exec_driver_sql("SELECT COUNT(*) FROM customers WHERE level = 'gold' AND code IN "
                                     "('C000002', 'C000005', 'C000009')").scalar_one()  # fmt: skip
    assert golds == 3


def test_remember_saves_the_mappings_as_a_profile_version(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    window = desk.window
    levels = imported(qtbot, window, misspelt(tmp_path), 1)
    dialog = open_dialog(qtbot, window, levels)
    choose(dialog, "钻石", "gold")
    choose(dialog, "白金", "silver")
    dialog.remember.setChecked(True)
    assert dialog.profile_edit.isEnabled()
    dialog.profile_edit.setText("shop levels")
    assert dialog.remember_as() == "shop levels"
    qtbot.mouseClick(dialog.ok_button, qtbot_left())
    model = window.model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=TIMEOUT)
    wait_status(qtbot, window, model.record(0).task_no, TaskStatus.SUCCEEDED)
    saved = ProfileStore(desk.core.store.engine).get("shop levels")
    assert saved.version == 1 and saved.profile.import_type == "customers"
    assert {k: dict(v) for k, v in saved.profile.values.items()} == {"level": {"钻石": "gold", "白金": "silver"}}
    qtbot.waitUntil(lambda: model.record(model.row_of(levels.id) or 0).fail_count == 0, timeout=TIMEOUT)


def test_cancel_changes_nothing(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    window = desk.window
    levels = imported(qtbot, window, misspelt(tmp_path), 1)
    dialog = open_dialog(qtbot, window, levels)
    choose(dialog, "钻石", "gold")
    dialog.remember.setChecked(True)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel), qtbot_left())
    qtbot.waitUntil(lambda: window.value_fix_dialog is None)
    qtbot.wait(300)
    model = window.model
    assert model.rowCount() == 1
    assert model.record(0).fail_count == 4 and not window.service.busy
    assert ProfileStore(desk.core.store.engine).list() == []


def test_the_dialog_lists_every_value_and_scrolls_inside_a_small_screen(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    params = {"import_type": "customers", "profile": "shop"}
    record = TaskRecord(id=1, task_no="T1", task_type="import", lane=Lane.LONG,
                        status=TaskStatus.PARTIALLY_SUCCEEDED, params=params)  # fmt: skip
    bad = [BadValue("level", f"等级{i}", 200 - i, tuple(ALLOWED)) for i in range(150)]
    dialog = ValueFixDialog(record, bad, {"level": "Level"}, window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert len(dialog.combos) == 150  # no cap
    screen = dialog.screen().availableGeometry()
    assert dialog.height() <= screen.height() and dialog.width() <= screen.width()
    assert dialog.value_area.verticalScrollBar().maximum() > 0  # the values scroll, the buttons stay in view
    assert dialog.profile_edit.text() == "shop"  # the profile the import used


def test_each_level_is_offered_once_by_its_chinese_label_in_a_chinese_window(
    qtbot: Any, make_desk: Any, tmp_path: Path
) -> None:
    # seen in a clerk's tryout: six choices for three levels, 普通/银卡/金卡 and standard/silver/gold
    desk = make_desk(language="zh")
    window = desk.window
    levels = imported(qtbot, window, misspelt(tmp_path), 1)
    dialog = open_dialog(qtbot, window, levels)
    for combo in dialog.combos:
        assert [combo.itemText(i) for i in range(1, combo.count())] == ["普通", "银卡", "金卡"]
        assert [combo.itemData(i) for i in range(1, combo.count())] == CODES
    choose(dialog, "钻石", "gold")
    choose(dialog, "白金", "silver")
    qtbot.mouseClick(dialog.ok_button, qtbot_left())
    model = window.model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: model.record(model.row_of(levels.id) or 0).fail_count == 0, timeout=TIMEOUT)
    with desk.core.store.reading() as conn:
        stored = dict(conn.exec_driver_sql("SELECT code, level FROM customers WHERE code IN "
                                           "('C000002', 'C000012')").all())  # fmt: skip
    assert stored == {"C000002": "gold", "C000012": "silver"}


def test_a_code_the_column_does_not_take_as_written_is_mapped_as_its_input() -> None:
    from desktop_app.imports.import_type import ColumnSpec, fold_value
    from desktop_app.imports.value_fixes import check_target, fix_choices

    inputs = {"绿": "G", "green": "G", "红": "R", "red": "R"}
    spec = ColumnSpec("colour", "颜色", "Colour", ("颜色",), False, "nfkc", "enum",
                      enum_map={fold_value(k, "nfkc"): v for k, v in inputs.items()},
                      enum_inputs=tuple(inputs))  # fmt: skip
    assert fix_choices(spec, "zh") == [("绿", "绿"), ("红", "红")]
    assert fix_choices(spec, "en") == [("绿", "Green"), ("红", "Red")]
    for target, _label in fix_choices(spec, "en"):
        check_target(spec, target)  # taken as a cell: no VALUE_NOT_ALLOWED
