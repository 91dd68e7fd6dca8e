"""The window's layout on small screens: what a clerk needs stays visible at 1024 x 700, in both languages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSize, Qt, QTimer
from PySide6.QtWidgets import QMainWindow, QWidget

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.demo import sample_jobs
from desktop_app.ui.desk import Desk
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_model import COLUMN_COUNT, CREATED, ELAPSED, FAIL, PROCESSED, STATUS, SUCCESS, TASK_NO
from desktop_app.ui.window_geometry import fit_rect

QUEUE_TEXT = {"en": "&Queue…", "zh": "排队导入(&Q)…"}


def demo_desk(qtbot: Any, make_desk: Any, lang: str) -> Desk:
    """A desk with the demo's four tasks ended, in `lang`."""
    desk: Desk = make_desk()
    jobs = sample_jobs(desk.core.settings)
    desk.service.submit_many(jobs)
    model = desk.window.model
    qtbot.waitUntil(lambda: model.rowCount() == len(jobs) and all(r.status.is_final for r in model.records()),
                    timeout=60_000)  # fmt: skip
    if lang != "en":
        desk.set_language(lang)
    qtbot.waitUntil(lambda: desk.window.panel.queue_button.text() == QUEUE_TEXT[lang])
    # The test's screen (offscreen: 800 x 800) is smaller than the sizes tried here: the window is placed,
    # from now on it is sized as a clerk would on a screen that size.
    desk.window.screen_keeper.release()
    return desk


def fully_visible(widget: QWidget, window: QMainWindow) -> bool:
    """Shown, inside the window, and not cut by whatever it sits in (a scroll area, a splitter)."""
    if not widget.isVisible():
        return False
    inside = QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())
    return window.rect().contains(inside) and widget.visibleRegion().boundingRect() == widget.rect()


def open_details_of_partial(qtbot: Any, window: MainWindow) -> None:
    partial = next(r for r in window.model.records() if r.status is TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(partial.id)
    window.actions_.details.trigger()
    qtbot.waitUntil(window.details_dock.isVisible)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x700_the_clerks_controls_and_counts_are_visible(qtbot: Any, make_desk: Any, lang: str) -> None:
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    open_details_of_partial(qtbot, window)
    qtbot.wait(50)  # the layout settles (the splitter, the column fit)
    assert window.size() == QSize(1024, 700), "opening the details does not grow the window"
    panel = window.panel
    for widget in (panel.path_edit, panel.type_box, panel.queue_button, window.table, window.summary,
                   window.details_dock, window.statusBar()):  # fmt: skip
        assert fully_visible(widget, window), widget
    table, header = window.table, window.table.horizontalHeader()
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    for column in (TASK_NO, STATUS, PROCESSED, SUCCESS, FAIL, ELAPSED, CREATED):
        left = header.sectionViewportPosition(column)
        assert left >= 0 and left + header.sectionSize(column) <= table.viewport().width(), column
    assert window.summary.plain_text().endswith("Done: 37 of 50 imported, 13 rows with errors") or lang != "en"
    counts = window.details._labels["counts"]
    assert counts.isVisible() and "37" in counts.text()


def test_at_1366x768_the_details_sit_below_or_beside_without_sideways_scrolling(qtbot: Any, make_desk: Any) -> None:
    window = demo_desk(qtbot, make_desk, "en").window
    window.resize(1366, 768)
    open_details_of_partial(qtbot, window)
    qtbot.wait(50)
    assert window.size() == QSize(1366, 768)
    assert window.table.horizontalScrollBar().maximum() == 0
    assert fully_visible(window.statusBar(), window) and fully_visible(window.panel.queue_button, window)


def test_a_remembered_geometry_larger_than_the_screen_is_cut_to_fit(
    qtbot: Any, make_desk: Any, qsettings: Any, tmp_path: Path
) -> None:
    first: Desk = make_desk()
    first.window.setGeometry(-400, -300, 3000, 2000)  # as if saved on a larger screen (854 px on a 900 px one)
    first.window.save_state()
    first.window.allow_close = True
    first.window.close()
    second: Desk = make_desk(data_dir=tmp_path / "data")
    window = second.window
    qtbot.waitUntil(lambda: window.isVisible())
    QTimer.singleShot(0, lambda: None)
    qtbot.wait(20)
    available = window.screen().availableGeometry()
    assert available.contains(window.frameGeometry()), (window.frameGeometry(), available)


def test_fit_rect_moves_and_shrinks_as_little_as_needed() -> None:
    screen = QRect(0, 0, 1024, 700)
    assert fit_rect(QRect(10, 10, 500, 400), screen) == QRect(10, 10, 500, 400)
    assert fit_rect(QRect(600, 500, 600, 400), screen) == QRect(424, 300, 600, 400)
    assert fit_rect(QRect(0, 0, 1280, 854), screen) == QRect(0, 0, 1024, 700)
    assert fit_rect(QRect(-50, -20, 300, 200), QRect(100, 30, 800, 600)) == QRect(100, 30, 300, 200)


def test_the_details_scroll_inside_their_panel(qtbot: Any, make_desk: Any) -> None:
    window = demo_desk(qtbot, make_desk, "zh").window
    window.resize(1024, 700)
    open_details_of_partial(qtbot, window)
    window.details.technical.set_expanded(True)
    qtbot.wait(50)
    assert window.size() == QSize(1024, 700)
    assert window.details.scroll_area.verticalScrollBar().maximum() > 0, "a long panel scrolls, the window stays"
    assert window.model.columnCount() == COLUMN_COUNT


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_no_task_selected_the_details_say_so_in_one_line(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen in a tryout: the Details panel opened with no task selected showed its fields' names beside
    nothing ("Task number:", "Type:", ...). It reads one plain line instead, and the fields once a task is."""
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    window.table.clearSelection()
    window.details_dock.show()
    qtbot.waitUntil(window.details_dock.isVisible)
    details = window.details
    assert details.record is None
    assert details.empty_label.isVisible()
    words = {"en": "Select a task to see its details.", "zh": "选择一个任务以查看详情。"}
    assert details.empty_label.text() == words[lang]
    assert not any(name.isVisible() for name in details._names.values()), "no field names beside nothing"
    assert not any(button.isVisible() for button in details.step_buttons)
    open_details_of_partial(qtbot, window)
    qtbot.waitUntil(lambda: details.record is not None)
    assert not details.empty_label.isVisible() and details._names["task_no"].isVisible()
    assert window.size() == QSize(1024, 700)


def deselect_by_ctrl_click(qtbot: Any, window: MainWindow) -> None:
    index = window.table.selectionModel().currentIndex()
    point = window.table.visualRect(index).center()
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, point)


def find_nothing(qtbot: Any, window: MainWindow) -> None:
    window.filters.text_edit.setText("zzzz")
    qtbot.waitUntil(lambda: window.proxy.rowCount() == 0)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("way", [deselect_by_ctrl_click, find_nothing])
def test_a_task_no_longer_selected_leaves_the_details_one_line_in_little_room(
    qtbot: Any, make_desk: Any, lang: str, way: Any
) -> None:
    """Seen in a tryout: Ctrl+click on the selected row, or a Find text that left the list empty, greyed the
    Details button out and took the next steps away, but the last task's fields stayed in the pane. At
    1024 x 700 the pane with its one line took 40 % of the window's height. Now the pane reads its one line in
    that line's room, the list gets the rest, and a task selected again gets its fields back in their room."""
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    open_details_of_partial(qtbot, window)
    details, pane = window.details, window.details_dock
    qtbot.waitUntil(lambda: pane.height() >= 160)
    way(qtbot, window)
    qtbot.waitUntil(lambda: window.selected_record() is None)
    assert not window.actions_.details.isEnabled()
    assert details.record is None and details.empty_label.isVisible()
    assert not any(label.isVisible() for label in details._labels.values()), "no field of the last task"
    assert not any(name.isVisible() for name in details._names.values())
    assert not any(button.isVisible() for button in details.step_buttons)
    qtbot.wait(50)  # the splitter settles
    assert window.size() == QSize(1024, 700)
    assert pane.isVisible() and pane.height() <= 90, pane.height()
    assert fully_visible(details.empty_label, window)
    rest = window.splitter.height() - pane.height() - window.summary.height() - 20  # the handle, the spacing
    assert window.table.height() >= rest, "the list gets the rest"
    window.filters.text_edit.clear()
    open_details_of_partial(qtbot, window)
    qtbot.waitUntil(lambda: details.record is not None and pane.height() >= 160)
    assert details._labels["task_no"].isVisible() and window.size() == QSize(1024, 700)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x700_the_details_next_step_is_seen_without_scrolling(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen in a tryout at 1024 x 700: the Details of a partly succeeded import showed its "Fix values" button
    only once scrolled past a dozen fields. The next steps come first; the window stays 1024 x 700."""
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    open_details_of_partial(qtbot, window)
    qtbot.waitUntil(lambda: any(not b.isHidden() for b in window.details.step_buttons))
    shown = [b for b in window.details.step_buttons if not b.isHidden()]
    qtbot.wait(50)
    assert window.size() == QSize(1024, 700)
    area = window.details.scroll_area
    assert area.verticalScrollBar().value() == 0
    for button in shown:
        top = button.mapTo(area.viewport(), button.rect().topLeft())
        assert area.viewport().rect().contains(QRect(top, button.size())), (button.text(), top)
        assert button.fontMetrics().horizontalAdvance(button.text().replace("&", "")) <= button.width()
