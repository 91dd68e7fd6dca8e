"""The task table model and its filter, without a view or any widget."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, Progress, TaskRecord
from desktop_app.tasks.builtin_kinds import builtin_task_kinds
from desktop_app.ui.outcomes import Tone, status_words, tone
from desktop_app.ui.task_filter import FAILED_LIST, TaskFilterProxy
from desktop_app.ui.task_model import (
    COLUMN_COUNT,
    ELAPSED,
    FAIL,
    FILE,
    PROCESSED,
    PROGRESS,
    STAGE,
    STATUS,
    TASK_NO,
    RecordRole,
    SortRole,
    TaskTableModel,
    format_elapsed,
)

NOW = dt.datetime(2025, 3, 1, 12, 0, 0)
KINDS = builtin_task_kinds()


def task(task_id: int, status: TaskStatus = TaskStatus.PENDING, **changes: object) -> TaskRecord:
    record = TaskRecord(id=task_id, task_no=f"T250301-{task_id:06d}", task_type="import", lane=Lane.LONG,
                        status=status, params={"file": f"/data/file{task_id}.csv", "import_type": "customers"},
                        created_at=NOW - dt.timedelta(minutes=task_id), updated_at=NOW)  # fmt: skip
    return replace(record, **changes)  # type: ignore[arg-type]


class Pages:
    """A store stand-in: tasks 1..n, newest first; answers keyset page requests when told to."""

    def __init__(self, count: int) -> None:
        self.tasks = [task(i) for i in range(count, 0, -1)]
        self.requests: list[tuple[int | None, int]] = []

    def request(self, before_id: int | None, limit: int) -> None:
        self.requests.append((before_id, limit))

    def answer(self, model: TaskTableModel) -> None:
        before_id, limit = self.requests[-1]
        below = [t for t in self.tasks if before_id is None or t.id < before_id]
        model.add_page(before_id, below[:limit])


def loaded_model(count: int, page_size: int = 500) -> tuple[TaskTableModel, Pages]:
    pages = Pages(count)
    model = TaskTableModel(pages.request, kinds=KINDS, page_size=page_size, now=lambda: NOW)
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
        pages.answer(model)
    return model, pages


def test_the_model_passes_qt_consistency_checks(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model, _ = loaded_model(30)
    qtmodeltester.check(model, force_py=True)


def test_pages_are_fetched_lazily_and_only_when_asked() -> None:
    pages = Pages(1200)
    model = TaskTableModel(pages.request, kinds=KINDS, page_size=500)
    assert model.rowCount() == 0 and model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    assert pages.requests == [(None, 500)]
    assert not model.canFetchMore(QModelIndex()), "no second request while one is in flight"
    pages.answer(model)
    assert model.rowCount() == 500 and model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    pages.answer(model)
    model.fetchMore(QModelIndex())
    pages.answer(model)
    assert pages.requests == [(None, 500), (701, 500), (201, 500)], "keyset: below the oldest task loaded"
    assert model.rowCount() == 1200 and model.exhausted and not model.canFetchMore(QModelIndex())
    assert [model.record(r).id for r in (0, 1, 1199)] == [1200, 1199, 1]


def test_a_progress_tick_changes_one_row_and_never_resets(qtbot) -> None:  # type: ignore[no-untyped-def]
    model, _ = loaded_model(10_000)
    running = replace(model.record(5), status=TaskStatus.RUNNING, started_at=NOW - dt.timedelta(seconds=75))
    model.upsert(running)
    changes: list[tuple[int, int, int, int]] = []
    model.dataChanged.connect(lambda a, b, _roles=(): changes.append((a.row(), a.column(), b.row(), b.column())))
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    model.layoutChanged.connect(lambda: resets.append(True))
    tick = Progress(task_id=running.id, task_no=running.task_no, progress=40, stage="校验中", total_count=1000,
                    success_count=380, fail_count=20)  # fmt: skip
    assert model.apply_progress(tick)
    assert changes == [(5, STAGE, 5, ELAPSED)]
    assert not resets
    assert model.index(5, PROGRESS).data() == 40
    assert model.index(5, STAGE).data() == "校验中"
    assert model.index(5, PROCESSED).data() == "400 / 1,000"
    assert model.index(5, FAIL).data() == "20"
    assert model.index(5, ELAPSED).data() == "1:15"


def test_a_late_tick_does_not_undo_the_end_and_a_stale_row_does_not_go_backwards() -> None:
    model, _ = loaded_model(3)
    done = replace(model.record(0), status=TaskStatus.SUCCEEDED, progress=100)
    model.upsert(done)
    late = Progress(done.id, done.task_no, 60, "writing", 10, 6, 0)
    assert not model.apply_progress(late)
    assert model.index(0, STATUS).data() == "Succeeded"
    running = replace(model.record(1), status=TaskStatus.RUNNING, attempt=1)
    model.upsert(running)
    model.apply_progress(Progress(running.id, running.task_no, 70, "writing", 10, 7, 0))
    model.upsert(replace(running, progress=50, stage="older"))  # the table lags the live ticks
    assert model.index(1, PROGRESS).data() == 70
    assert model.index(1, STAGE).data() == "writing"


def test_new_tasks_go_on_top_and_unloaded_ones_are_left_to_their_page() -> None:
    model, pages = loaded_model(1200)  # all loaded
    inserted: list[int] = []
    model.rowsInserted.connect(lambda _p, first, _last: inserted.append(first))
    assert model.upsert(task(1201)) == 0
    assert inserted == [0] and model.rowCount() == 1201
    partial = TaskTableModel(pages.request, kinds=KINDS, page_size=500)
    partial.fetchMore(QModelIndex())
    pages.answer(partial)
    assert partial.upsert(task(3, TaskStatus.RUNNING)) is None, "beyond the loaded page"
    assert partial.rowCount() == 500


def test_a_page_does_not_duplicate_a_task_the_model_already_has() -> None:
    pages = Pages(600)
    model = TaskTableModel(pages.request, kinds=KINDS, page_size=500)
    model.fetchMore(QModelIndex())
    model.upsert(task(601))  # submitted while the first page was being read
    pages.tasks.insert(0, task(601))
    pages.answer(model)
    model.fetchMore(QModelIndex())
    pages.answer(model)  # by offset, the boundary would move by one and task 101 come twice
    assert pages.requests[-1] == (102, 500)
    ids = [model.record(r).id for r in range(model.rowCount())]
    assert len(ids) == len(set(ids)) == 601
    assert ids == sorted(ids, reverse=True)


def test_display_texts_and_sort_values() -> None:
    model, _ = loaded_model(2)
    ended = replace(model.record(0), status=TaskStatus.PARTIALLY_SUCCEEDED, total_count=50, success_count=37,
                    fail_count=13, started_at=NOW - dt.timedelta(hours=1, seconds=5), ended_at=NOW)  # fmt: skip
    model.upsert(ended)
    assert model.index(0, TASK_NO).data() == ended.task_no
    assert model.index(0, FILE).data() == "file2.csv"
    assert model.index(0, STATUS).data() == "Partially succeeded"
    assert model.index(0, PROCESSED).data() == "50 / 50"
    assert model.index(0, ELAPSED).data() == "1:00:05"
    assert model.index(0, ELAPSED).data(SortRole) == 3605.0
    assert model.index(0, 0).data(RecordRole) == ended
    assert model.columnCount() == COLUMN_COUNT
    assert model.headerData(STATUS, Qt.Orientation.Horizontal) == "Status"
    assert format_elapsed(None) == "" and format_elapsed(59.94) == "59.9 s"


def test_highlight_paints_one_row_and_clears() -> None:
    model, _ = loaded_model(3)
    model.set_highlight(2)
    assert model.index(1, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole) is None
    model.set_highlight(None)
    assert model.index(1, 0).data(Qt.ItemDataRole.BackgroundRole) is None


@pytest.mark.parametrize(
    ("statuses", "text", "expected"),
    [
        (None, "", 6),
        (FAILED_LIST, "", 2),
        (frozenset({TaskStatus.RUNNING}), "", 1),
        (None, "file3", 1),
        (FAILED_LIST, "file3", 1),
        (FAILED_LIST, "file5", 0),
        (FAILED_LIST, "nothing like it", 0),
    ],
)
def test_the_filter_by_status_and_text(statuses: frozenset[TaskStatus] | None, text: str, expected: int) -> None:
    model, _ = loaded_model(6)
    kinds = [TaskStatus.PENDING, TaskStatus.RUNNING, TaskStatus.SUCCEEDED, TaskStatus.FAILED,
             TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.CANCELLED]  # fmt: skip
    for row, status in enumerate(kinds):
        model.upsert(replace(model.record(row), status=status))
    proxy = TaskFilterProxy(model)
    proxy.set_statuses(statuses)
    proxy.set_text(text)
    assert proxy.rowCount() == expected


def test_the_filter_follows_a_status_change() -> None:
    model, _ = loaded_model(3)
    proxy = TaskFilterProxy(model)
    proxy.set_statuses(FAILED_LIST)
    assert proxy.rowCount() == 0
    model.upsert(replace(model.record(1), status=TaskStatus.FAILED))
    assert proxy.rowCount() == 1


def test_sorting_by_progress_uses_numbers_not_text() -> None:
    model, _ = loaded_model(3)
    for row, value in enumerate((9, 100, 10)):
        model.upsert(replace(model.record(row), progress=value))
    proxy = TaskFilterProxy(model)
    proxy.sort(PROGRESS, Qt.SortOrder.AscendingOrder)
    assert [proxy.index(r, PROGRESS).data() for r in range(3)] == [9, 10, 100]


def test_a_running_task_shows_rows_per_second_and_the_time_left() -> None:
    from desktop_app.ui.task_model import SPEED

    clock = [NOW]
    pages = Pages(2)
    model = TaskTableModel(pages.request, kinds=KINDS, now=lambda: clock[0])
    model.fetchMore(QModelIndex())
    pages.answer(model)
    running = replace(model.record(0), status=TaskStatus.RUNNING, started_at=NOW)
    model.upsert(running)
    model.apply_progress(Progress(running.id, running.task_no, 10, "importing", 1000, 100, 0))
    assert model.index(0, SPEED).data() == "", "one tick says nothing about a speed"
    clock[0] += dt.timedelta(seconds=2)
    model.apply_progress(Progress(running.id, running.task_no, 30, "importing", 1000, 280, 20))
    assert model.index(0, SPEED).data() == "100/s · 7 s"
    assert model.index(0, SPEED).data(Qt.ItemDataRole.ToolTipRole) == "100 rows per second; about 7 s left"
    assert model.index(0, SPEED).data(SortRole) == 100.0
    model.upsert(replace(running, status=TaskStatus.SUCCEEDED, progress=100, updated_at=NOW + dt.timedelta(1)))
    assert model.index(0, SPEED).data() == "", "only while it runs"


def test_processed_and_the_time_left_use_the_files_own_row_count() -> None:
    """The engine's total_count of an import is what it processed so far; the file's count is in the
    checkpoint: a cancelled 200,000-row file reads 50,000 / 200,000, not 50,000 / 50,000."""
    from desktop_app.ui.task_model import SPEED

    clock = [NOW]
    pages = Pages(2)
    model = TaskTableModel(pages.request, kinds=KINDS, now=lambda: clock[0])
    model.fetchMore(QModelIndex())
    pages.answer(model)
    cancelled = replace(model.record(1), status=TaskStatus.CANCELLED, total_count=50_000, success_count=50_000,
                        checkpoint={"row": 50_001, "rows_in_file": 200_000})  # fmt: skip
    model.upsert(cancelled)
    assert model.index(1, PROCESSED).data() == "50,000 / 200,000"
    assert model.index(1, STAGE).data() == "Cancelled: 50,000 of 200,000 imported; they stay"
    running = replace(model.record(0), status=TaskStatus.RUNNING, started_at=NOW)
    model.upsert(running)
    model.apply_progress(Progress(running.id, running.task_no, 10, "importing", 100, 100, 0))
    clock[0] += dt.timedelta(seconds=2)
    model.apply_progress(Progress(running.id, running.task_no, 30, "importing", 300, 300, 0))
    assert model.index(0, SPEED).data() == "100/s · 7 s", "no file total: the time left from the percentage"
    # seen by a clerk: "300 / 300" at 30 % read as a finished file, while the total was what it had processed
    assert model.index(0, PROCESSED).data() == "300"
    model.apply_progress(Progress(running.id, running.task_no, 30, "importing", 300, 0, 300))
    assert model.index(0, PROCESSED).data() == "300", "every row failed so far: still no total"
    model.upsert(replace(model.record(0), checkpoint={"rows_in_file": 1_000}))
    assert model.index(0, PROCESSED).data() == "300 / 1,000"


def test_the_first_tick_that_knows_the_files_rows_shows_them_beside_the_stage() -> None:
    """Seen by a clerk: "Importing row 20,001 of 300,000" beside a bare "20,000" for a second, until the
    store's checkpoint was read again; a late store row without a checkpoint does not take the total away."""
    model, _ = loaded_model(1)
    running = replace(model.record(0), status=TaskStatus.RUNNING, started_at=NOW, attempt=1)
    model.upsert(running)
    tick = Progress(running.id, running.task_no, 9, "Importing row 20,001 of 300,000", 20_000, 19_990, 10,
                    rows_in_file=300_000)  # fmt: skip
    model.apply_progress(tick)
    assert model.index(0, PROCESSED).data() == "20,000 / 300,000"
    model.upsert(replace(running, progress=5, updated_at=NOW + dt.timedelta(seconds=1)))  # the store lags
    assert model.index(0, PROCESSED).data() == "20,000 / 300,000"


def test_an_ended_task_shows_its_progress_as_it_ended() -> None:
    model, _ = loaded_model(5)
    counted = {"rows_in_file": 200_000}
    # seen: a failed import that had read every row read 98 % (its last tick, before the summary)
    by_rows = replace(model.record(0), status=TaskStatus.FAILED, progress=98, success_count=100_000,
                      fail_count=100_000, total_count=200_000)  # fmt: skip
    read_all = replace(model.record(1), status=TaskStatus.FAILED, error_code="worker_lost", progress=97,
                       success_count=199_000, fail_count=1_000, checkpoint=counted)  # fmt: skip
    cancelled = replace(model.record(2), status=TaskStatus.CANCELLED, progress=70, success_count=131_999,
                        fail_count=1, checkpoint=counted)  # fmt: skip
    almost = replace(model.record(3), status=TaskStatus.CANCELLED, progress=100, success_count=199_999,
                     checkpoint=counted)  # fmt: skip
    unknown = replace(model.record(4), status=TaskStatus.FAILED, error_code="worker_lost", progress=12)
    for record in (by_rows, read_all, cancelled, almost, unknown):
        model.upsert(record)
    assert [model.index(r, PROGRESS).data() for r in range(5)] == [100, 100, 66, 99, 12]
    running = replace(model.record(2), status=TaskStatus.RUNNING, progress=70)
    model.upsert(running)
    assert model.index(2, PROGRESS).data() == 70, "a running task shows its own progress"
    # seen in a second tryout: 2 % for a file over the row limit, failed before reading a row
    model.upsert(replace(unknown, error_code="too_many_rows", progress=2))
    assert model.index(4, PROGRESS).data() == 0


def test_an_undone_import_reads_undone_by_with_its_counts() -> None:
    """Seen by a clerk (issue 28): an undone import looked unchanged in the list, "Done: 60 rows imported"."""
    model, _ = loaded_model(1)
    ended = replace(model.record(0), status=TaskStatus.SUCCEEDED, total_count=60, success_count=60,
                    summary={"inserted_count": 60}, undone_by="T250301-UNDO01")  # fmt: skip
    model.upsert(ended)
    assert model.index(0, STAGE).data() == "Undone by T250301-UNDO01 — Done: 60 rows imported"
    # its status no longer a green "Succeeded" (seen in the frozen window): "Undone", in the neutral tone
    assert model.index(0, STATUS).data() == "Undone"
    assert tone(ended, KINDS.of(ended)) is Tone.NEUTRAL and "Undone" in status_words()


def test_an_import_whose_failed_rows_were_fixed_reads_done_not_failed() -> None:
    """Seen in the frozen window: after "Fix values" put its 3 bad rows in, the import still read a red
    "Failed" with "Failed after 4 rows were imported: 3 rows failed", its counts 4 in and 0 failed."""
    model, _ = loaded_model(1)
    failed = replace(model.record(0), status=TaskStatus.FAILED, total_count=4, success_count=1, fail_count=3,
                     error_msg="3 of 4 rows failed")  # fmt: skip
    model.upsert(failed)
    assert model.index(0, STATUS).data() == "Failed" and tone(failed, KINDS.of(failed)) is Tone.BAD
    fixed = replace(failed, success_count=4, fail_count=0, summary={"fixed_rows": 3})  # as a value fix leaves it
    model.upsert(fixed)
    assert model.index(0, STATUS).data() == "Fixed" and tone(fixed, KINDS.of(fixed)) is Tone.GOOD
    assert model.index(0, STAGE).data() == "Done after a fix: 4 rows imported"
    assert "Fixed" in status_words()
    # a file at fault (an error code) stays failed: nothing was fixed by rows
    broken = replace(fixed, error_code="file_corrupt", error_msg="the file is damaged")
    model.upsert(broken)
    assert model.index(0, STATUS).data() == "Failed"


def test_a_resumed_import_reads_continued_by_not_just_cancelled() -> None:
    model, _ = loaded_model(1)
    stopped = replace(model.record(0), status=TaskStatus.CANCELLED, total_count=300, success_count=300,
                      checkpoint={"rows_in_file": 1000}, resumed_by="T250301-NEXT01")  # fmt: skip
    model.upsert(stopped)
    assert model.index(0, STAGE).data() == ("Continued by T250301-NEXT01 — Cancelled: 300 of 1,000 imported; they stay")


def test_the_details_count_a_running_import_as_processed_so_far(qtbot: Any) -> None:
    """The details read "20,000 total" while an import ran with its file's size not known yet (issue 28)."""
    from desktop_app.ui.details import DetailsPanel

    panel = DetailsPanel(kinds=KINDS)
    qtbot.addWidget(panel)
    model, _ = loaded_model(1)
    running = replace(model.record(0), status=TaskStatus.RUNNING, total_count=20_000, success_count=19_990,
                      fail_count=10, started_at=NOW)  # fmt: skip
    panel.show_record(running)
    assert panel.value("counts") == "20,000 processed so far, 19,990 succeeded, 10 failed"
    panel.show_record(replace(running, checkpoint={"rows_in_file": 200_000}))
    assert panel.value("counts") == "20,000 processed of 200,000, 19,990 succeeded, 10 failed"
    panel.show_record(replace(running, status=TaskStatus.SUCCEEDED, total_count=200_000, success_count=200_000,
                              fail_count=0, ended_at=NOW))  # fmt: skip
    assert panel.value("counts") == "200,000 total, 200,000 succeeded, 0 failed"


def test_an_undo_says_what_it_removed_and_put_back_with_one_row_a_row() -> None:
    """Seen in the frozen window: the undo's question said "3 rows will be removed, 5 get their old values
    back", and its row in the list read only "Done"."""
    model, _ = loaded_model(1)
    undo = replace(model.record(0), task_type="undo", params={"undoes": "T250301-AAAAAA"},
                   status=TaskStatus.SUCCEEDED, total_count=8, success_count=8, started_at=NOW, ended_at=NOW,
                   summary={"undoes": "T250301-AAAAAA", "deleted_count": 3, "restored_count": 5})  # fmt: skip
    model.upsert(undo)
    assert model.index(0, STAGE).data() == "Done: 3 rows removed, 5 rows put back"
    one_each = replace(undo, status=TaskStatus.PARTIALLY_SUCCEEDED,
                       summary={"deleted_count": 1, "restored_count": 1, "kept_count": 1})  # fmt: skip
    model.upsert(one_each)
    assert model.index(0, STAGE).data() == "Done: 1 row removed, 1 row put back, 1 row kept (changed since)"
    model.upsert(replace(undo, summary={"kept_count": 2}))
    assert model.index(0, STAGE).data() == "Done: 2 rows kept (changed since)"
    model.upsert(replace(undo, summary={}))
    assert model.index(0, STAGE).data() == "Done: nothing to undo"


def test_an_undos_details_show_no_import_fields_but_its_error_file(qtbot: Any) -> None:
    """Seen by a clerk: an undo's details read "File:" (empty), "Encoding: detected from the file" and
    "Validate only: no", an import's rows; its kept rows' error file is its own."""
    from desktop_app.ui.details import DetailsPanel

    panel = DetailsPanel(kinds=KINDS)
    qtbot.addWidget(panel)
    model, _ = loaded_model(1)
    undo = replace(model.record(0), task_type="undo", params={"undoes": "T250301-AAAAAA"},
                   status=TaskStatus.PARTIALLY_SUCCEEDED, total_count=3, success_count=2, fail_count=1,
                   summary={"error_csv": "/tmp/T-errors.csv"}, started_at=NOW, ended_at=NOW)  # fmt: skip
    panel.show_record(undo)
    assert not panel.shows("file") and not panel.shows("encoding") and not panel.shows("dry_run")
    assert panel.shows("error_csv")
    panel.show_record(replace(model.record(0), status=TaskStatus.SUCCEEDED, ended_at=NOW))  # an import
    assert panel.shows("file") and panel.shows("dry_run")


def test_an_undos_file_cell_names_the_file_of_the_import_it_undid(qtbot: Any) -> None:
    """Seen by a clerk: an undo's File cell was blank. It names its import's file as the import's row does
    (the feed too), its tooltip the whole path; listed before its import's page came, it reads it once that
    page comes. The text filter finds it by that file."""
    pages = Pages(3)
    imported = replace(pages.tasks[-1], params={**pages.tasks[-1].params, "feed_name": "Bank"},
                       status=TaskStatus.SUCCEEDED)  # fmt: skip
    pages.tasks[-1] = imported
    model = TaskTableModel(pages.request, kinds=KINDS, page_size=2, now=lambda: NOW)
    undo = task(9, task_type="undo", params={"undoes": imported.task_no})
    model.fetchMore(QModelIndex())
    pages.answer(model)  # tasks 3 and 2: the import (task 1) is on the next page
    model.upsert(undo)
    assert model.index(0, FILE).data() == ""  # not known yet
    with qtbot.waitSignal(model.dataChanged, check_params_cb=lambda a, b, *_: a.row() == 0 and a.column() == FILE):
        model.fetchMore(QModelIndex())
        pages.answer(model)
    assert model.index(0, FILE).data() == "file1.csv · feed Bank" == model.index(model.rowCount() - 1, FILE).data()
    assert model.index(0, FILE).data(Qt.ItemDataRole.ToolTipRole) == "/data/file1.csv"
    proxy = TaskFilterProxy(model)
    proxy.set_text("file1")
    assert {proxy.index(r, TASK_NO).data() for r in range(proxy.rowCount())} == {undo.task_no, imported.task_no}


def test_the_failed_list_goes_by_what_the_status_column_says() -> None:
    """Seen in a tryout: the failed list held validate-only "Checked" tasks and an undone import. A check that
    found bad rows is no failed import, nor is an undone one: the status filters go by the Status column."""
    model, _ = loaded_model(5)
    rows = [
        {"status": TaskStatus.FAILED, "fail_count": 5},  # a failed import
        {"status": TaskStatus.PARTIALLY_SUCCEEDED, "fail_count": 1, "dry_run": True},  # Checked
        {"status": TaskStatus.FAILED, "fail_count": 5, "dry_run": True},  # Checked, over the limit
        {"status": TaskStatus.PARTIALLY_SUCCEEDED, "fail_count": 1, "undone_by": "T250301-ZZ99ZZ"},  # Undone
        {"status": TaskStatus.PARTIALLY_SUCCEEDED, "fail_count": 1},  # partially succeeded
    ]
    for row, change in enumerate(rows):
        record = model.record(row)
        dry_run = bool(change.pop("dry_run", False))
        model.upsert(replace(record, params={**record.params, "dry_run": dry_run}, **change))  # type: ignore[arg-type]
    proxy = TaskFilterProxy(model)
    proxy.set_statuses(FAILED_LIST)
    shown = [proxy.index(r, STATUS).data() for r in range(proxy.rowCount())]
    assert sorted(shown) == ["Failed", "Partially succeeded"], shown
    proxy.set_statuses(frozenset({TaskStatus.FAILED}))
    assert [proxy.index(r, STATUS).data() for r in range(proxy.rowCount())] == ["Failed"]
    proxy.set_statuses(None)
    assert proxy.rowCount() == 5
