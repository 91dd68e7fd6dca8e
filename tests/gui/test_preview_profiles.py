"""The preview's mapping profiles (issue 25): the fitting profile applied and named, another or none chosen,
the clerk's header choices saved as a profile's versions, the desk's remembered mappings carried over once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QDialogButtonBox

from desktop_app.domain.errors import ErrorCode
from desktop_app.domain.profiles import ProfileVersion
from desktop_app.imports.profiles import read_profile_file
from desktop_app.ui.desk import MEMORY_CARRIED_OVER, Desk
from desktop_app.ui.dialogs.preview import PreviewDialog
from desktop_app.ui.dialogs.preview_profile import matching_profile
from desktop_app.ui.mapping_memory import MappingMemory
from tests.gui.test_window_queue import TIMEOUT, open_preview, qtbot_left, wait_for_task

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "east-customers.toml"
# the east branch's file (docs/PROFILES.md): its headers fit the example profile, its level 钻石 is mapped
EAST = "Customer No;姓名;手机号;等级;Remark\nC000001;张三;13800000001;钻石;老客户\nC000002;李四;13800000002;银卡;\n"


def east_file(tmp_path: Path) -> Path:
    path = tmp_path / "east.csv"
    path.write_text(EAST, encoding="utf-8")
    return path


def save(desk: Desk, name: str, columns: dict[str, str] | None = None) -> ProfileVersion:
    """The example profile as NAME (or with other columns and no value mappings), as the command line saves it."""
    profile = read_profile_file(str(EXAMPLE))
    if columns is not None:
        from types import MappingProxyType

        from desktop_app.domain.profiles import Profile

        profile = Profile(import_type="customers", columns=MappingProxyType(columns))
    return desk.core.submitter().save_profile(name, profile, user="alice", source=str(EXAMPLE))


def open_with_profiles(qtbot: Any, desk: Desk, path: Path) -> PreviewDialog:
    dialog = open_preview(qtbot, desk.window, path)
    qtbot.waitUntil(lambda: dialog.profiles_known and dialog.check is not None, timeout=TIMEOUT)
    return dialog


def choose(qtbot: Any, dialog: PreviewDialog, name: str | None) -> None:
    box = dialog.profile_box
    box.setCurrentIndex(box.findData(name))
    box.activated.emit(box.currentIndex())
    qtbot.waitUntil(lambda: dialog.check is not None and dialog.rows_table.rowCount() > 0, timeout=TIMEOUT)


def mapping_box(dialog: PreviewDialog, header: str) -> QComboBox:
    for row in range(dialog.mapping_table.rowCount()):
        if dialog.mapping_table.item(row, 0).text() == header:
            box = dialog.mapping_table.cellWidget(row, 1)
            assert isinstance(box, QComboBox)
            return box
    raise AssertionError(header)


def test_the_fitting_profile_is_applied_named_and_queued(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    save(desk, "Branch customers")
    save(desk, "Branch customers")  # v2: the latest is applied
    dialog = open_with_profiles(qtbot, desk, east_file(tmp_path))
    qtbot.waitUntil(lambda: dialog.profile_line.text() == "Using profile 'Branch customers' v2", timeout=TIMEOUT)
    assert dialog.profile_line.isVisible() and dialog.profile_box.currentText() == "Branch customers"
    check = dialog.check
    assert check is not None and check.blocking is None and not check.rows, "钻石 is mapped, the department filled"
    assert mapping_box(dialog, "Customer No").currentData() == "code" and dialog.header_overrides() == {}
    options = dialog.options()
    assert options is not None and (options.profile, options.profile_version, options.delimiter) == (
        "Branch customers", 2, ";")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, desk.window, 1)
    assert (task.params["profile"], task.params["profile_version"]) == ("Branch customers", 2)


def test_none_or_another_profile_changes_the_check_and_the_request(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    save(desk, "Branch customers")
    save(desk, "Codes only", {"Customer No": "code"})  # fits too, maps fewer headers: not the one applied
    save(desk, "Other branch", {"Kundennummer": "code"})  # does not fit: offered all the same
    dialog = open_with_profiles(qtbot, desk, east_file(tmp_path))
    qtbot.waitUntil(lambda: dialog.profile_box.currentText() == "Branch customers", timeout=TIMEOUT)
    assert [dialog.profile_box.itemText(i) for i in range(dialog.profile_box.count())] == [
        "None", "Branch customers", "Codes only", "Other branch"]

    choose(qtbot, dialog, None)
    check = dialog.check
    assert check is not None and check.blocking is not None
    assert check.blocking.code is ErrorCode.MISSING_REQUIRED_COLUMN, "no header fills the customer code"
    assert not dialog.profile_line.isVisible()
    options = dialog.options()
    assert options is not None and options.profile is None and options.profile_version is None
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    choose(qtbot, dialog, "Codes only")
    assert dialog.profile_line.text() == "Using profile 'Codes only' v1"
    check = dialog.check
    assert check is not None and check.blocking is None
    assert [p.row_number for p in check.rows] == [2], "钻石 is no level without the value mapping"
    options = dialog.options()
    assert options is not None and (options.profile, options.profile_version) == ("Codes only", 1)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, desk.window, 1)
    assert (task.params["profile"], task.params["profile_version"]) == ("Codes only", 1)


def test_save_as_profile_makes_version_1_then_2(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    path = tmp_path / "mine.csv"
    path.write_text("客户编号,姓名,手机号,备注\nC1,张三,13800000001,hello\n", encoding="utf-8")
    dialog = open_with_profiles(qtbot, desk, path)
    button = dialog.save_profile_button
    assert dialog.profile() is None and not dialog.profile_line.isVisible()
    assert button.isVisible() and not button.isEnabled(), "nothing to save: the aliases' mapping"

    mapping_box(dialog, "备注").setCurrentIndex(mapping_box(dialog, "备注").findData(""))
    assert button.isEnabled()
    qtbot.mouseClick(button, qtbot_left())
    name_dialog = dialog.profile_choice.name_dialog
    assert name_dialog is not None and name_dialog.textValue() == ""
    name_dialog.setTextValue("Mine")
    with qtbot.waitSignal(dialog.profile_saved, timeout=TIMEOUT):
        name_dialog.accept()
    assert dialog.profile_line.text() == "Saved as 'Mine' v1"
    assert dialog.profile_box.currentText() == "Mine" and dialog.header_overrides() == {}, "now the profile's"
    assert mapping_box(dialog, "备注").currentData() == ""
    assert not button.isEnabled()

    mapping_box(dialog, "备注").setCurrentIndex(mapping_box(dialog, "备注").findData("note"))
    qtbot.mouseClick(button, qtbot_left())
    name_dialog = dialog.profile_choice.name_dialog
    assert name_dialog is not None and name_dialog.textValue() == "Mine", "the applied profile's name"
    with qtbot.waitSignal(dialog.profile_saved, timeout=TIMEOUT):
        name_dialog.accept()
    assert dialog.profile_line.text() == "Saved as 'Mine' v2"
    store = desk.core.submitter().profiles()
    assert store.versions("Mine") == [1, 2]
    assert dict(store.get("Mine", 1).profile.columns) == {"备注": ""}
    assert dict(store.get("Mine", 2).profile.columns) == {"备注": "note"}
    options = dialog.options()
    assert options is not None and (options.profile, options.profile_version) == ("Mine", 2)
    dialog.reject()


def test_the_preview_works_without_profiles_when_the_database_cannot_say(
    qtbot: Any, make_desk: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    desk = make_desk()

    def unreachable() -> list[ProfileVersion]:
        raise OSError("connection refused")

    monkeypatch.setattr(desk.service, "list_profiles", unreachable)
    dialog = open_with_profiles(qtbot, desk, east_file(tmp_path))
    assert dialog.profile_box.count() == 1 and dialog.profile_box.currentText() == "None"
    assert dialog.profile() is None and dialog.check is not None


def test_the_profile_line_reads_in_chinese(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    save(desk, "Branch customers")
    desk.set_language("zh")
    dialog = open_with_profiles(qtbot, desk, east_file(tmp_path))
    qtbot.waitUntil(lambda: dialog.profile_line.text() == "使用映射配置“Branch customers” 第 1 版", timeout=TIMEOUT)
    assert dialog.profile_box.itemText(0) == "无"
    dialog.reject()


def test_the_remembered_mappings_are_carried_over_once(
    qtbot: Any, make_desk: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    data = tmp_path / "data"
    memory = MappingMemory.in_dir(data)
    memory.remember("customers", ["客户编号", "姓名", "手机号", "备注"], {"备注": ""})
    memory.remember("customers", ["Cust", "姓名", "手机号"], {"Cust": "code"})
    memory.remember("no_such_type", ["a"], {"a": "b"})  # a type since removed: left out
    desk = make_desk(data_dir=data)
    qtbot.waitUntil(lambda: qsettings.value(MEMORY_CARRIED_OVER, False, type=bool), timeout=TIMEOUT)
    store = desk.core.submitter().profiles()
    carried = {v.name: dict(v.profile.columns) for v in store.list()}
    assert sorted(carried) == ["Remembered: customers 1", "Remembered: customers 2"]
    assert sorted(carried.values(), key=str) == sorted([{"备注": ""}, {"Cust": "code"}], key=str)
    assert "Remembered header mappings are now profiles for the team" in desk.window.last_message

    desk.carry_over_memory()  # the next start: the flag says it was done
    qtbot.wait(300)
    assert [(v.name, v.version) for v in store.list()] == [("Remembered: customers 1", 1),
                                                           ("Remembered: customers 2", 1)]  # fmt: skip

    path = tmp_path / "cust.csv"
    path.write_text("Cust,姓名,手机号\nC1,张三,13800000001\n", encoding="utf-8")
    dialog = open_with_profiles(qtbot, desk, path)
    name = next(n for n, c in carried.items() if c == {"Cust": "code"})
    qtbot.waitUntil(lambda: dialog.profile_line.text() == f"Using profile '{name}' v1", timeout=TIMEOUT)
    assert mapping_box(dialog, "Cust").currentData() == "code", "the preview applies it as a profile"
    dialog.reject()


def test_the_fitting_profile_maps_the_most_headers_then_is_the_newest() -> None:
    import datetime as dt
    from types import MappingProxyType

    from desktop_app.domain.profiles import Profile

    def version(name: str, columns: dict[str, str], day: int, type_: str = "customers") -> ProfileVersion:
        return ProfileVersion(name, 1, Profile(type_, MappingProxyType(columns)), "alice", dt.datetime(2026, 1, day))

    header = ["Customer No", "姓名", " remark "]
    a = version("a", {"Customer No": "code"}, 3)
    b = version("b", {"customer no": "code", "Remark": ""}, 1)
    c = version("c", {"Customer No": "code", "Other": ""}, 5)  # a header the file lacks
    d = version("d", {"Customer No": "code", "Remark": ""}, 2, "products")
    empty = version("e", {}, 9)
    assert matching_profile([a, b, c, d, empty], "customers", header) is b
    assert matching_profile([a, version("a2", {"Customer No": "code"}, 4)], "customers", header).name == "a2"
    assert matching_profile([c, empty], "customers", header) is None


def test_a_reimport_uses_the_version_its_task_used(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    """A task imported with v1; the profile is saved again (v2, mapping another header) before the clerk
    re-imports the task's fixed error file: its preview applies v1, as the rows it repairs were read."""
    desk = make_desk()
    save(desk, "Branch customers")
    path = east_file(tmp_path)
    first = open_with_profiles(qtbot, desk, path)
    qtbot.waitUntil(lambda: first.profile_line.text() == "Using profile 'Branch customers' v1", timeout=TIMEOUT)
    qtbot.mouseClick(first.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, desk.window, 1)
    assert task.params["profile_version"] == 1
    save(desk, "Branch customers")  # v2
    qtbot.waitUntil(lambda: desk.window.preview is None, timeout=TIMEOUT)
    fixed = tmp_path / "east-fixed.csv"
    fixed.write_text(EAST, encoding="utf-8")
    desk.window.open_preview(fixed, "customers", False, request=desk.window.service.reimport_request(task, fixed))
    dialog = desk.window.preview
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.profiles_known and dialog.check is not None, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: dialog.profile_line.text() == "Using profile 'Branch customers' v1", timeout=TIMEOUT)
    options = dialog.options()
    assert options is not None and (options.profile, options.profile_version, options.repairs) == (
        "Branch customers", 1, task.task_no)
    dialog.reject()
