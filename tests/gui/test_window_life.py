"""The window around the list: preview, languages, tray, closing, restoring, dropping, the demo screenshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QLineEdit, QPushButton

from desktop_app.domain.status import TaskStatus
from desktop_app.imports.options import ImportOptions
from desktop_app.ui.delegates import STATUS_COLORS
from desktop_app.ui.demo import SAMPLES as DEMO_SAMPLES
from desktop_app.ui.demo import sample_jobs
from desktop_app.ui.desk import Desk
from desktop_app.ui.task_model import STATUS
from tests.gui.conftest import SAMPLES, SlowImport
from tests.gui.test_window_queue import CLEAN, TIMEOUT, open_preview, qtbot_left, wait_for_task, wait_status

GBK = SAMPLES / "customers_gbk.csv"


def test_the_preview_decodes_gbk_and_the_encoding_can_be_overridden(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, GBK)
    assert dialog.encoding_box.currentText() == "Detected: Chinese (GBK) - Excel on Chinese Windows"
    assert dialog.rows_table.horizontalHeaderItem(1).text() == "姓名"
    name = dialog.rows_table.item(0, 1).text()
    assert name == GBK.read_bytes().decode("gbk").splitlines()[1].split(",")[1]
    box = dialog.encoding_box
    with qtbot.waitSignal(dialog.loaded, timeout=TIMEOUT):
        box.setCurrentIndex(box.findData("latin-1"))
        box.activated.emit(box.currentIndex())
    assert dialog.rows_table.item(0, 1).text() != name, "read as Latin-1 the names are garbled"
    assert dialog.missing_label.isVisible(), "and no header matches"
    with qtbot.waitSignal(dialog.loaded, timeout=TIMEOUT):
        box.setCurrentIndex(box.findData("gbk"))
        box.activated.emit(box.currentIndex())
    assert dialog.rows_table.item(0, 1).text() == name
    assert dialog.options().encoding == "gbk"
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.params["encoding"] == "gbk"
    done = wait_status(qtbot, window, task.task_no, TaskStatus.SUCCEEDED)
    assert done.success_count == 120


def _mapping_box(dialog: Any, header: str) -> QComboBox:
    for row in range(dialog.mapping_table.rowCount()):
        if dialog.mapping_table.item(row, 0).text() == header:
            box = dialog.mapping_table.cellWidget(row, 1)
            assert isinstance(box, QComboBox)
            return box
    raise AssertionError(header)


def test_the_mapping_shows_missing_and_ignored_columns(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    dialog = open_preview(qtbot, window, CLEAN)
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    assert ok.isEnabled() and not dialog.missing_label.isVisible()
    code = _mapping_box(dialog, "客户编号")
    code.setCurrentIndex(code.findData(""))
    assert dialog.missing_label.isVisible() and "Customer code" in dialog.missing_label.text()
    assert not ok.isEnabled()
    code.setCurrentIndex(code.findData("code"))
    note = _mapping_box(dialog, "备注")
    note.setCurrentIndex(note.findData(""))
    assert dialog.header_overrides() == {"备注": ""}
    assert ok.isEnabled()
    grey = dialog.mapping_table.item(8, 0).foreground().color().name()
    assert grey == "#8a8a8a", "an ignored header is greyed"
    qtbot.mouseClick(ok, qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.params["header_overrides"] == {"备注": ""}
    # a choice is no longer remembered by the desk: "Save as profile for the team…" keeps it
    # (tests/gui/test_preview_profiles.py)


def test_the_language_switches_at_once(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    assert window.panel.queue_button.text() == "&Queue…"
    desk.set_language("zh")
    assert desk.translations.lang == "zh"
    qtbot.waitUntil(lambda: window.panel.queue_button.text() == "排队导入(&Q)…")  # LanguageChange is posted
    assert window.model.headerData(STATUS, Qt.Orientation.Horizontal) == "状态"
    assert window.file_menu.title() == "文件(&F)"
    assert desk.catalog.title("customers") == "客户导入"
    desk.set_language("en")
    qtbot.waitUntil(lambda: window.panel.queue_button.text() == "&Queue…")
    assert window.model.headerData(STATUS, Qt.Orientation.Horizontal) == "Status"


def test_the_settings_dialog_saves_and_applies_the_language(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    dialog.language_box.setCurrentIndex(dialog.language_box.findData("zh"))
    dialog.db_edit.setText("postgresql+psycopg://clerk:secret@db.example/batchdesk")
    dialog.batch_box.setValue(500)
    dialog.accept()
    saved = desk.core.paths.settings_file.read_text(encoding="utf-8")
    assert "secret" not in saved, "no password in the settings file"
    assert "clerk@db.example" in saved and '"batch_size": 500' in saved
    qtbot.waitUntil(lambda: window_text(desk) == "排队导入(&Q)…")
    assert desk.window.settings.batch_size == 500


def window_text(desk: Desk) -> str:
    return desk.window.panel.queue_button.text()


def test_a_task_ending_unseen_raises_a_tray_notification(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk([SlowImport(steps=2, pause=0.01)])
    desk.window.hide()
    desk.service.submit_import(ImportOptions(file=CLEAN, import_type="customers"))
    qtbot.waitUntil(lambda: bool(desk.tray.sent), timeout=TIMEOUT)
    title, text = desk.tray.sent[0]
    assert "Succeeded" in title and "customers_clean.csv" in text and "2 succeeded" in text


def test_closing_while_running_can_keep_running_or_stop_for_a_later_resume(qtbot: Any, make_desk: Any) -> None:
    handler = SlowImport()
    handler.gate.clear()
    desk: Desk = make_desk([handler])
    window = desk.window
    desk.service.submit_import(ImportOptions(file=CLEAN, import_type="customers"))
    task = wait_for_task(qtbot, window, 1)
    wait_status(qtbot, window, task.task_no, TaskStatus.RUNNING)
    window.ask_close = lambda: "tray"  # type: ignore[method-assign]
    window.close()
    assert not window.isVisible() or window.isMinimized()
    assert desk.executor.running_count() == 1 and not desk.quits  # type: ignore[attr-defined]
    window.show()
    window.ask_close = lambda: "stop"  # type: ignore[method-assign]
    window.close()
    assert desk.quits == [True]  # type: ignore[attr-defined]
    after = desk.core.store.get(task.task_no)
    assert after is not None and after.status is TaskStatus.PENDING, "it resumes at the next start"


def test_geometry_and_column_widths_are_restored(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    first: Desk = make_desk()
    first.window.resize(711, 455)  # within the offscreen screen (800 x 600)
    first.window.table.setColumnWidth(2, 333)
    first.window.close()
    assert first.quits  # type: ignore[attr-defined]
    second: Desk = make_desk(data_dir=tmp_path / "data")
    assert second.window.table.columnWidth(2) == 333
    assert (second.window.width(), second.window.height()) == (711, 455)


def test_dropping_a_file_chooses_it_and_its_import_type(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    window.panel.type_box.setCurrentIndex(0)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(CLEAN))])
    event = QDropEvent(QPointF(QPoint(200, 200)), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)  # fmt: skip
    enter = QDragEnterEvent(QPoint(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)  # fmt: skip
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    with qtbot.waitSignal(window.panel.type_detected, timeout=TIMEOUT) as detected:
        window.dropEvent(event)  # QApplication routes drops only during a real drag
    assert detected.args == ["customers"]
    assert window.panel.path() == CLEAN
    assert window.panel.import_type() == "customers"


def test_choosing_a_file_opens_its_preview(qtbot: Any, make_desk: Any, monkeypatch: Any) -> None:
    from desktop_app.ui import submit_panel

    window = make_desk().window
    monkeypatch.setattr(submit_panel.QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(CLEAN), ""))
    qtbot.mouseClick(window.panel.browse_button, qtbot_left())
    assert window.panel.path() == CLEAN
    # as --open does: the preview opens, the clerk confirms there (a drop only fills the field)
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.rows_table.rowCount() > 0, timeout=TIMEOUT)


def test_lazy_loading_with_many_tasks(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    from desktop_app.app import build_core

    # pages of 100 rows, not the window's 500, and 240 tasks, not 1,200: the same pages (two full, the
    # last short), each still more rows than the window shows, for a fifth of the submissions
    core = build_core(data_dir=tmp_path / "data", handlers=[])
    for i in range(240):
        core.store.submit(task_type="import", params={"file": f"/x/{i}.csv", "import_type": "customers"},
                          creator="t")  # fmt: skip
    window = make_desk([SlowImport()], page_size=100).window
    window.executor_note = None
    qtbot.waitUntil(lambda: window.model.rowCount() >= 100, timeout=TIMEOUT)
    assert window.model.rowCount() < 240, "only what is on screen (a page) is read"
    assert window.table.verticalScrollBar().maximum() > 0, "a page is more than the window shows"
    for _ in range(10):
        window.table.scrollToBottom()
        qtbot.waitUntil(lambda: window.model.rowCount() >= 200 or window.model.exhausted, timeout=TIMEOUT)
        if window.model.exhausted:
            break
    qtbot.waitUntil(lambda: window.model.rowCount() == 240, timeout=TIMEOUT)


def test_controls_have_accessible_names_and_the_actions_shortcuts(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    for widget in window.findChildren(QPushButton) + window.findChildren(QLineEdit) + window.findChildren(QComboBox):
        if widget.isVisible() and widget.parent() is not None and not widget.inherits("QAbstractSpinBox"):
            assert widget.accessibleName() or (isinstance(widget, QPushButton) and widget.text()), widget
    for action in window.actions_.all():
        assert not action.shortcut().isEmpty(), action.text()
    assert window.table.accessibleName() == "Tasks"


def distinct_colours(image: QImage, step: int = 3) -> set[int]:
    return {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}


def test_a_screenshot_of_the_demo_is_not_blank(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk: Desk = make_desk()
    desk.window.resize(1400, 600)
    jobs = sample_jobs(desk.core.settings)
    assert len(jobs) == len(DEMO_SAMPLES)
    desk.service.submit_many(jobs)
    model = desk.window.model
    qtbot.waitUntil(lambda: model.rowCount() == len(jobs) and all(r.status.is_final for r in model.records()),
                    timeout=60_000)  # fmt: skip
    statuses = sorted(r.status.value for r in model.records())
    assert statuses == ["partially_succeeded", "succeeded", "succeeded", "succeeded"]
    image = desk.window.grab().toImage()
    image.save(str(tmp_path / "demo.png"))
    colours = distinct_colours(image)
    assert len(colours) > 50, f"only {len(colours)} colours: a blank window?"
    pills = {STATUS_COLORS[s][0].rgb() for s in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED)}
    assert pills <= distinct_colours(image, step=1), "the coloured status labels are painted"


def test_a_bad_setting_is_named_in_the_window_at_start(make_desk: Any, tmp_path: Path) -> None:
    # Issue 12: a setting of the wrong type was only logged; the clerk is told which one and what is used
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "settings.json").write_text('{"heartbeat_interval": "often"}', encoding="utf-8")
    desk = make_desk(data_dir=data)
    notice = desk.window.notice
    assert notice.isVisible() and "heartbeat_interval" in notice.text() and "using the default" in notice.text()


def test_a_settings_file_that_is_not_json_is_named_in_the_window(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    # seen: a settings file with a stray comma was only logged; every setting silently went back to its default
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    file = data / "settings.json"
    broken = '{"max_workers": 3,}'
    file.write_text(broken, encoding="utf-8")
    desk = make_desk(data_dir=data, language="zh")
    notice = desk.window.notice
    assert notice.isVisible() and str(file) in notice.text() and "不是有效的 JSON" in notice.text(), notice.text()
    assert "所有设置已改用默认值" in notice.text()
    desk.set_language("en")  # said again in the other language
    qtbot.waitUntil(lambda: "is not valid JSON (line 1, column 19)" in notice.text())
    assert file.read_text(encoding="utf-8") == broken, "left as it is until the clerk saves the settings"
    desk.apply_settings(desk.core.settings)  # the settings dialog's OK
    assert json.loads(file.read_text(encoding="utf-8"))["language"] == "zh"


def test_the_settings_dialog_stays_on_the_screen_with_every_section_open(
    qtbot: Any, make_desk: Any, monkeypatch: Any
) -> None:
    """Seen at 1366 x 768 (Xvfb): opening "Advanced" and "Mail" grew the dialog past the screen's bottom, its
    OK and Cancel out of sight and the mail fields squashed. It grows within the screen (here a usable area
    500 px tall), and what does not fit scrolls; closed again, it shrinks."""
    from PySide6.QtCore import QRect

    from desktop_app.ui import window_geometry
    from desktop_app.ui.dialogs import settings as settings_dialog

    available = QRect(0, 0, 1024, 500)
    monkeypatch.setattr(settings_dialog, "available_for", lambda _widget: available)
    monkeypatch.setattr(window_geometry, "available_for", lambda _widget: available)
    desk = make_desk()
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    closed_height = dialog.height()
    dialog.advanced.set_expanded(True)
    dialog.mail.set_expanded(True)
    qtbot.waitUntil(lambda: dialog.height() > closed_height)
    qtbot.waitUntil(lambda: dialog.frameGeometry().bottom() <= available.bottom())
    assert dialog.frameGeometry().top() >= available.top()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isVisible() and dialog.rect().contains(ok.geometry().translated(dialog.buttons.pos()))
    # every field keeps its height (none squashed): what does not fit scrolls instead
    for field in (dialog.smtp_host_edit, dialog.mail_from_edit, dialog.attach_box):
        assert field.height() >= field.minimumSizeHint().height(), field
    assert dialog.sections.verticalScrollBar().maximum() > 0
    # the scroll bar beside the fields, not over their right edge (seen: the spin boxes' arrows under it)
    assert dialog.sections.viewport().width() >= dialog.sections.widget().minimumSizeHint().width()
    # the focus goes to the first field, never to the scrolling area itself (the focus ring drew round it)
    assert dialog.sections.focusPolicy() == Qt.FocusPolicy.NoFocus
    dialog.sections.ensureWidgetVisible(dialog.attach_box)  # the last field, reached by scrolling
    dialog.advanced.set_expanded(False)
    dialog.mail.set_expanded(False)
    qtbot.waitUntil(lambda: dialog.height() <= closed_height + 10)
    dialog.reject()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_settings_fields_show_their_placeholders_whole(qtbot: Any, make_desk: Any, language: str) -> None:
    """Seen at 1024 x 700 in Chinese: the dialog ~370 px wide, "留空：使用数据目…" and "留空：监视文件夹不发…"
    cut in their fields. Each field is as wide as its placeholder, and the dialog with them."""
    desk = make_desk(language=language)
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    dialog.advanced.set_expanded(True)
    dialog.mail.set_expanded(True)
    for edit in (dialog.db_edit, dialog.smtp_host_edit, dialog.smtp_user_edit):
        text = edit.placeholderText()
        assert text
        qtbot.waitUntil(lambda e=edit, t=text: e.width() >= e.fontMetrics().horizontalAdvance(t) + 8, timeout=3000)
    dialog.reject()
