"""Seen in a real window at 1024 x 700 (issue 11): each Alt letter of the main window reaches one thing (Alt+T
went to the import type instead of the Task menu), and the import type's name is not cut."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QStyle, QStyleOptionComboBox

from desktop_app.ui.main_window import MainWindow
from tests.gui.test_window_layout import QUEUE_TEXT


def alt_letters(window: MainWindow) -> list[tuple[str, str]]:
    """(Alt letter, text) of the menu bar's menus and of the window's own visible labels and buttons."""
    found = [a.text() for a in window.menuBar().actions()]
    found += [w.text() for w in window.findChildren(QLabel) if w.buddy() is not None and w.isVisible()]
    found += [w.text() for w in window.findChildren(QAbstractButton) if w.isVisible() and w.window() is window]
    return [(QKeySequence.mnemonic(text).toString(), text) for text in found if "&" in text.replace("&&", "")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_alt_letter_of_the_window_reaches_one_thing(qtbot: Any, make_desk: Any, lang: str) -> None:
    window = make_desk(language=lang).window
    qtbot.waitUntil(window.isVisible)
    letters = alt_letters(window)
    assert len(letters) >= 10, letters  # the menus, the file panel's and the filter bar's
    assert not clashes_of(letters), clashes_of(letters)


def clashes_of(letters: list[tuple[str, str]]) -> dict[str, list[str]]:
    counts = Counter(key for key, _ in letters)
    return {key: [t for k, t in letters if k == key] for key, n in counts.items() if n > 1}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_letter_of_a_menu_reaches_one_item(qtbot: Any, make_desk: Any, lang: str) -> None:
    window = make_desk(language=lang).window
    qtbot.waitUntil(window.isVisible)
    menus = [a.menu() for a in window.menuBar().actions()] + [window.menus.context_menu]
    for menu in menus:
        texts = [a.text() for a in menu.actions() if a.isVisible() and not a.isSeparator()]
        letters = [(QKeySequence.mnemonic(t).toString(), t) for t in texts if "&" in t.replace("&&", "")]
        # the Task menu's "Cancel task" and "Copy rows" were both C: C went to the one after the other
        assert not clashes_of(letters), (menu.title(), clashes_of(letters))


def text_fits(box: QComboBox) -> bool:
    """The current item's text fits the box's text field (else the box paints it cut)."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                       QStyle.SubControl.SC_ComboBoxEditField, box)  # fmt: skip
    return field.width() >= box.fontMetrics().horizontalAdvance(box.currentText())


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("switched", [False, True], ids=["started-in-it", "switched-to-it"])
def test_the_import_type_shows_its_whole_name_in_a_crowded_row(
    qtbot: Any, make_desk: Any, lang: str, switched: bool
) -> None:
    desk = make_desk(language="en" if switched else lang)
    window = desk.window
    window.screen_keeper.release()  # the offscreen screen (800 x 800) would cut the window to fit it
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() == 1024)
    if switched:
        desk.set_language(lang)
    qtbot.waitUntil(lambda: window.panel.queue_button.text() == QUEUE_TEXT[lang])
    box = window.panel.type_box
    assert box.count() > 1
    # "(detect from the file's header)" read "（按文件表头识别" in a window started in Chinese at 1024 x 700
    for index in range(box.count()):
        box.setCurrentIndex(index)
        qtbot.wait(20)  # the layout settles
        assert text_fits(box), (box.width(), box.currentText())


def test_a_preview_choice_cut_by_its_box_reads_whole_on_hover(qtbot: Any, make_desk: Any) -> None:
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    from tests.gui.test_window_queue import CLEAN, open_preview

    window = make_desk().window
    dialog = open_preview(qtbot, window, CLEAN)
    box = dialog.encoding_box
    assert box.currentText().startswith("Detected")
    centre = box.rect().center()
    QApplication.sendEvent(box, QHelpEvent(QEvent.Type.ToolTip, centre, box.mapToGlobal(centre)))
    qtbot.waitUntil(lambda: QToolTip.text() == box.currentText())
    QToolTip.hideText()
    dialog.reject()


def test_tab_leaves_the_task_list(qtbot: Any, make_desk: Any) -> None:
    """Seen driving the window by keyboard (Xvfb): Tab moved from cell to cell of the task list, wrapping
    round, and never left it (nor did it reach the banner's or the Details pane's buttons)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from desktop_app.domain.status import TaskStatus
    from tests.gui.test_window_queue import CLEAN, queue, wait_for_task, wait_status

    window = make_desk().window
    qtbot.waitUntil(window.isVisible)
    queue(qtbot, window, CLEAN)  # a row, its cells to move between
    done = wait_status(qtbot, window, wait_for_task(qtbot, window, 1).task_no, TaskStatus.SUCCEEDED)
    window.select_task(done.id)
    window.activateWindow()
    table = window.table
    table.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is table)
    qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not table
    assert not table.tabKeyNavigation()


def test_the_read_only_tables_of_the_dialogs_let_tab_go_on(qtbot: Any, make_desk: Any, tmp_path: Any) -> None:
    """The same for the dialogs' read-only tables: the preview's rows, the plan's rows, the feeds."""
    from tests.gui.test_plan_view import dry_run_with_plan, open_plan
    from tests.gui.test_window_feeds import open_feeds
    from tests.gui.test_window_queue import open_preview
    from tests.support.customers import row, write_csv

    desk = make_desk()
    preview = open_preview(qtbot, desk.window, write_csv(tmp_path / "a.csv", [row(1)]))
    assert not preview.rows_table.tabKeyNavigation()
    preview.reject()
    plan = open_plan(qtbot, desk.window, dry_run_with_plan(qtbot, desk, tmp_path))
    assert not plan.table.tabKeyNavigation()
    plan.reject()
    assert not open_feeds(qtbot, desk).table.tabKeyNavigation()
