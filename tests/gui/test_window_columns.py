"""The task list's columns as a clerk sees them during a run: widths that hold still, a Stage that reads."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, Progress, TaskRecord
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.task_model import COLUMN_COUNT, FILE, SPEED, STAGE, TYPE, utc_now
from tests.gui.test_window_layout import demo_desk
from tests.support.tryout_rows import the_second_tryouts_list

START = dt.datetime(2026, 12, 6, 18, 0, 0)


def widths(window: MainWindow) -> list[int]:
    return [window.table.columnWidth(c) for c in range(COLUMN_COUNT)]


def an_import(task_id: int = 9_001) -> TaskRecord:
    params = {"file": "/data/customers-300k.csv", "import_type": "customers"}
    return TaskRecord(id=task_id, task_no="T20261206-0001", task_type="import", lane=Lane.LONG,
                      status=TaskStatus.PENDING, params=params, created_at=START, updated_at=START)  # fmt: skip


def sized_window(make_desk: Any, width: int, height: int, lang: str = "en") -> MainWindow:
    desk = make_desk()
    if lang != "en":
        desk.set_language(lang)
    QApplication.processEvents()  # the window is placed on the test's screen (offscreen: 800 x 800)
    desk.window.screen_keeper.release()  # from here it is sized as a clerk would on a larger screen
    desk.window.resize(width, height)
    QApplication.processEvents()
    assert desk.window.size() == QSize(width, height)
    return desk.window


@pytest.mark.parametrize("size", [(1400, 900), (1366, 768)])
def test_the_columns_hold_their_widths_through_a_runs_ticks(qtbot: Any, make_desk: Any, size: tuple[int, int]) -> None:
    """Seen by a clerk: the Type column shrank to "Customer imp…" as a 300,000-row import started and went
    on, each time a count, the speed or the elapsed time outgrew its column and every column was fitted again."""
    window = sized_window(make_desk, *size)
    clock = [START]
    model = window.model
    model._now = lambda: clock[0]  # the speed and the elapsed time as a run of minutes reads them
    record = an_import()
    model.upsert(record)
    qtbot.wait(300)  # rows added: the list fits its columns (after its 150 ms wait)
    before = widths(window)
    running = replace(record, status=TaskStatus.RUNNING, started_at=START, attempt=1, updated_at=START)
    model.upsert(running)
    seen = []
    for step in range(1, 31):
        clock[0] = START + dt.timedelta(seconds=4 * step)
        done = 10_000 * step
        model.apply_progress(Progress(record.id, record.task_no, 3 + 92 * done // 300_000,
                                      f"Importing row {done + 1:,} of 300,000", done, done - step, step,
                                      rows_in_file=300_000))  # fmt: skip
        qtbot.wait(5)
        seen.append(widths(window))
    qtbot.wait(300)
    seen.append(widths(window))
    assert all(w == before for w in seen), (before, next(w for w in seen if w != before))
    table = window.table
    kind = str(table.model().index(0, TYPE).data())
    assert table.fontMetrics().horizontalAdvance(kind) + window.fitter.text_margins() <= before[TYPE], (kind, before)
    model.upsert(replace(running, status=TaskStatus.SUCCEEDED, progress=100, total_count=300_000,
                         success_count=300_000, ended_at=clock[0], updated_at=clock[0]))  # fmt: skip
    qtbot.wait(300)
    after = widths(window)
    assert after[SPEED] < before[SPEED] and after[TYPE] > before[TYPE], "the run over, its room goes back"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x700_the_stage_reads_an_undone_imports_undo_whole(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen by a clerk: at 1024 x 700 the Stage column was ~90 px, "Undone by T20261206-0003" cut to "Undone…";
    then, with the whole head kept, the Type column read "Cu…", "Un…", "Co…" and the File "big_c…" beside it
    (a tryout through the bundle, nothing running). Short of room, the head reads to the task number's start
    ("Undone by T…", the whole number in the line below the list), the type whole, the file at its least."""
    window = demo_desk(qtbot, make_desk, lang).window
    model = window.model
    done = next(r for r in model.records() if r.status is TaskStatus.SUCCEEDED)
    model.upsert(replace(done, undone_by="T261206-K7Q2ZD", updated_at=dt.datetime.now()))
    window.resize(1024, 700)
    qtbot.wait(300)
    assert window.size() == QSize(1024, 700)
    table, margins = window.table, window.fitter.text_margins()
    stages = [str(table.model().index(r, STAGE).data()) for r in range(table.model().rowCount())]
    full = next(s for s in stages if "T261206-K7Q2ZD" in s)
    head = full.split(" — ")[0]
    assert head.startswith(("Undone by", "已被")), head
    shown = table.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight, table.columnWidth(STAGE) - margins)
    assert shown.startswith(head.split("K7Q2ZD")[0][: head.index("T261206")] + "T"), (shown, widths(window))
    for row in range(table.model().rowCount()):
        kind = str(table.model().index(row, TYPE).data())
        assert table.fontMetrics().horizontalAdvance(kind) + margins <= table.columnWidth(TYPE), (kind, widths(window))
    assert table.columnWidth(FILE) >= 110, widths(window)
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x700_the_stage_keeps_no_room_while_no_task_is_undone(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen in a screenshot at 1024 x 700: with no task undone or continued, the Type column read "C…" for
    "Customer import" since the Stage column kept room for an "Undone by T…" no row showed. Once a task is
    undone, the Stage column makes that room (the type gives way again)."""
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    qtbot.wait(300)
    table, model = window.table, window.model
    assert not any(r.undone_by or r.resumed_by for r in model.records())
    free_type, free_stage = table.columnWidth(TYPE), table.columnWidth(STAGE)
    done = next(r for r in model.records() if r.status is TaskStatus.SUCCEEDED)
    model.upsert(replace(done, undone_by="T261206-K7Q2ZD", updated_at=dt.datetime.now()))
    qtbot.wait(400)
    assert table.columnWidth(STAGE) > free_stage, "an undone task's stage gets its room when it comes"
    assert table.columnWidth(TYPE) < free_type, (free_type, table.columnWidth(TYPE))
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x700_the_type_and_file_columns_read(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen in the clerk's tryout at 1024 x 700: the Type column read "Custo…" and the File column "custom…"
    (63 and 73 px) while the Speed column kept room for a header over no speed. The type reads whole and the
    file at its least width, with no sideways scrolling; the speed comes back with a running task."""
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    qtbot.wait(300)
    assert window.size() == QSize(1024, 700)
    table, margins = window.table, window.fitter.text_margins()
    for row in range(table.model().rowCount()):
        kind = str(table.model().index(row, TYPE).data())
        assert table.fontMetrics().horizontalAdvance(kind) + margins <= table.columnWidth(TYPE), (kind, widths(window))
    assert table.columnWidth(FILE) >= 110, widths(window)
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    done = next(r for r in window.model.records() if r.status is TaskStatus.SUCCEEDED)
    window.model.upsert(replace(done, id=9_001, task_no="T261207-RUN001", status=TaskStatus.RUNNING,
                                started_at=START, ended_at=None, updated_at=dt.datetime.now()))  # fmt: skip
    qtbot.wait(400)
    if lang == "zh":  # room for it: the speed comes back with a running task
        assert not table.isColumnHidden(SPEED) and table.columnWidth(SPEED) > 0
    else:  # none in English: the type and the file keep reading (the line below the list reads the speed)
        assert table.isColumnHidden(SPEED) and table.columnWidth(FILE) >= 110, widths(window)
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024x700_a_running_task_leaves_the_type_and_file_readable(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen in a tryout at 1024 x 700: while a task ran (and with an undone task listed, its Stage reading
    "Undone by T…"), the Type column read "C…" and the File column "custo…": the counts, the speed and the time
    kept room for the widest text to come. Short of room, those columns hold their texts of now; the type
    reads whole, the file keeps a useful width, the Stage its head, and nothing scrolls sideways."""
    window = demo_desk(qtbot, make_desk, lang).window
    window.resize(1024, 700)
    qtbot.wait(300)
    model, table = window.model, window.table
    done = next(r for r in model.records() if r.status is TaskStatus.SUCCEEDED)
    model.upsert(replace(done, undone_by="T261206-K7Q2ZD", updated_at=dt.datetime.now()))
    start = utc_now() - dt.timedelta(seconds=60)
    clock = [start + dt.timedelta(seconds=40)]
    model._now = lambda: clock[0]
    running = replace(done, id=9_001, task_no="T261207-RUN001", status=TaskStatus.RUNNING, undone_by=None,
                      started_at=start, ended_at=None, progress=40, updated_at=start)  # fmt: skip
    model.upsert(running)
    for step in range(1, 4):  # a few ticks: a speed to show
        clock[0] = start + dt.timedelta(seconds=40 + 4 * step)
        model.apply_progress(Progress(running.id, running.task_no, 40, "Importing row 120,001 of 300,000",
                                      100_000 + 10_000 * step, 100_000 + 10_000 * step - 10, 10,
                                      rows_in_file=300_000))  # fmt: skip
        qtbot.wait(200)
    qtbot.wait(300)
    for size in (QSize(1024, 700), QSize(1400, 900)):
        window.resize(size)
        qtbot.wait(300)
        assert window.size() == size
        for row in range(table.model().rowCount()):
            kind = str(table.model().index(row, TYPE).data())
            assert table.fontMetrics().horizontalAdvance(kind) + window.fitter.text_margins() <= table.columnWidth(
                TYPE), (size, kind, widths(window))  # fmt: skip
        assert table.columnWidth(FILE) >= 110, (size, widths(window))
        # the Stage gives way first, but the undone task's head still says what it is ("Undone by T…"); its
        # whole number is in the line below the list
        head = QCoreApplication.translate("Outcomes", "Undone by %1 — %2").split("%1")[0] + "T…"
        assert table.fontMetrics().horizontalAdvance(head) + window.fitter.text_margins() <= table.columnWidth(
            STAGE), (size, head, widths(window))  # fmt: skip
        assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    speed = str(table.model().index(0, SPEED).data())
    assert speed and table.fontMetrics().horizontalAdvance(speed) < table.columnWidth(SPEED), "at 1400 the speed reads"


def shown_width(window: MainWindow) -> int:
    table = window.table
    return sum(table.columnWidth(c) for c in range(COLUMN_COUNT) if not table.isColumnHidden(c))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [QSize(1024, 700), QSize(1400, 900)])
def test_the_list_fits_in_a_chinese_desks_font(qtbot: Any, make_desk: Any, lang: str, size: QSize) -> None:
    """Seen in a second tryout in Chinese at 1024 x 700 and 1400 x 900: a sideways scroll bar, the last column
    "创建时间" cut. A Chinese desk's font (Noto Sans CJK) has glyphs 36 px wide, and Qt's least section width
    (the widest glyph) widened the Failed and Elapsed columns past their fit. The columns fit in it as in any."""
    window = demo_desk(qtbot, make_desk, lang).window
    if "Noto Sans CJK SC" not in QFontDatabase.families():
        pytest.skip("no Noto Sans CJK SC here")
    window.table.setFont(QFont("Noto Sans CJK SC", 10))
    the_second_tryouts_list(window.model)
    window.resize(size)
    qtbot.wait(400)
    window.fitter.remeasure()
    qtbot.wait(100)
    table = window.table
    assert shown_width(window) <= table.viewport().width(), (widths(window), table.viewport().width())
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    assert table.columnWidth(FILE) >= 110, widths(window)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1400x900_no_empty_speed_column_and_no_empty_details_column(qtbot: Any, make_desk: Any, lang: str) -> None:
    """Seen at 1400 x 900: an always-empty Speed column while no task ran, and with no task selected the Details
    beside the list, a full-height column for one line. The speed shows with a running task; the details pane
    sits below the list at its one line while no task is selected, beside it for a task."""
    desk = demo_desk(qtbot, make_desk, lang)
    window = desk.window
    window.table.clearSelection()
    window.details_dock.show()
    window.resize(1400, 900)
    qtbot.wait(400)
    table = window.table
    assert table.isColumnHidden(SPEED), widths(window)
    assert window.splitter.orientation() == Qt.Orientation.Vertical, "no task selected: the one line below"
    assert table.width() > 1300, table.width()
    assert shown_width(window) <= table.viewport().width()
    done = next(r for r in window.model.records() if r.status is TaskStatus.SUCCEEDED)
    window.select_task(done.id)
    qtbot.wait(400)
    if lang == "zh":  # room for them beside the list's columns (in English, the wider columns: below it)
        assert window.splitter.orientation() == Qt.Orientation.Horizontal, "a task's details beside the list"
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    window.model.upsert(replace(done, id=9_001, task_no="T261207-RUN001", status=TaskStatus.RUNNING,
                                started_at=START, ended_at=None, updated_at=dt.datetime.now()))  # fmt: skip
    qtbot.wait(400)
    assert not table.isColumnHidden(SPEED), "a running task: its speed to come"
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
