"""The task list's thin table model: rows are TaskRecords, newest first, fetched lazily by pages."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from desktop_app.domain.feeds import FEED_PARAM
from desktop_app.domain.phrase import stored_phrase
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress, TaskRecord, read_earlier
from desktop_app.tasks.kinds import TaskKind, TaskKinds
from desktop_app.tasks.shown_progress import file_rows, shown_progress
from desktop_app.ui.outcomes import linked_outcome, shown_status, shown_total, tone
from desktop_app.ui.task_speed import SpeedMeter, format_rate, format_remaining
from desktop_app.ui.texts import expired_text, expired_tip, retry_text, shown_error, window_lang

Index = QModelIndex | QPersistentModelIndex

TASK_NO, TYPE, FILE, STATUS, STAGE, PROGRESS, PROCESSED, SUCCESS, FAIL, SPEED, ELAPSED, CREATED = range(12)
COLUMN_COUNT = 12
NUMBERS = (PROCESSED, SUCCESS, FAIL, SPEED, ELAPSED)  # right-aligned

RecordRole = Qt.ItemDataRole.UserRole + 1  # the TaskRecord of the row
StatusRole = Qt.ItemDataRole.UserRole + 2  # its TaskStatus's value (a str once through QVariant)
SortRole = Qt.ItemDataRole.UserRole + 3  # a value that sorts the column correctly
ToneRole = Qt.ItemDataRole.UserRole + 4  # the Tone its status is painted in (a str once through QVariant)
WidestRole = Qt.ItemDataRole.UserRole + 5  # the widest text the cell may show before its task ends (or None)

GROWING = (PROCESSED, SUCCESS, FAIL, SPEED, ELAPSED)  # an active task's cells that widen as it runs
ROWS_RESERVED = 999_999  # the rows an active task's counts make room for while its file's count is unknown
FASTEST_SHOWN = 99_999  # rows per second, and
LONGEST_SHOWN = 9 * 60 + 59  # seconds left or elapsed, that an active task's cells make room for
STATUS_ORDER = {s: i for i, s in enumerate(TaskStatus)}
HIGHLIGHT = QColor(255, 236, 140)
GREYED = QColor("#8a8a8a")  # an expired task's file and stage


def shown_file_name(record: TaskRecord) -> str:
    """The file a row names: the imported file, or the file an export wrote."""
    if record.file_name:
        return record.file_name
    return Path(record.result_path).name if record.result_path else ""


def shown_stage(record: TaskRecord, kind: TaskKind) -> str:
    """The stage cell: "Retry 2 of 3 at 14:05" while waiting for a retry, "Replaced by T…" for an
    export whose file a newer one replaced, how it ended in words ("Failed: 10 of 20 imported, 10 rows
    with errors"; "Undone by T…: …" once another task undid it), else the task's own stage in the window's language."""
    return retry_text(record) or expired_text(record) or linked_outcome(record, kind) or record.stage_in(window_lang())


def utc_now() -> dt.datetime:
    """Now in UTC without a zone, as the task table stores its stamps."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def format_elapsed(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.1f} s"
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_created(stamp: dt.datetime | None) -> str:
    if stamp is None:
        return ""
    return stamp.replace(tzinfo=dt.UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def format_short(stamp: dt.datetime | None, now: dt.datetime) -> str:
    """The list's short stamp: "14:05" today, "03-01 14:05" this year, else the date."""
    if stamp is None:
        return ""
    local, today = stamp.replace(tzinfo=dt.UTC).astimezone(), now.replace(tzinfo=dt.UTC).astimezone()
    if local.date() == today.date():
        return local.strftime("%H:%M")
    return local.strftime("%m-%d %H:%M") if local.year == today.year else local.strftime("%Y-%m-%d")


class TaskTableModel(QAbstractTableModel):
    """TaskRecords as rows. Changed rows emit dataChanged for their changed cells only; the model is
    reset only by reload(). Pages come from `request_page(before_id, limit)` (keyset paging: tasks
    with an id below before_id, None for the newest), which answers (now or later, on the GUI thread)
    through add_page()."""

    def __init__(
        self,
        request_page: Callable[[int | None, int], None],
        *,
        kinds: TaskKinds,
        page_size: int = 500,
        describe_type: Callable[[TaskRecord], str] | None = None,
        now: Callable[[], dt.datetime] = utc_now,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._request_page = request_page
        self.kinds = kinds  # what each task type shows (its words) and offers, from the composition root
        self._page_size = page_size
        self._describe_type = describe_type or (lambda record: record.task_type)
        self._now = now
        self._rows: list[TaskRecord] = []
        self._keys: list[int] = []  # -id per row, ascending: bisect finds where a task belongs
        self._row_of: dict[int, int] = {}
        self._row_of_no: dict[str, int] = {}  # the same by task number (the task a row works on)
        self._awaiting: dict[str, set[int]] = {}  # a task not loaded yet -> the rows that name its file
        self._cursor: int | None = None  # the oldest task id the pages have delivered
        self._exhausted = False
        self._loading = False
        self._highlight: int | None = None
        self._speed = SpeedMeter()

    # --- the Qt model interface ----------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < COLUMN_COUNT:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.column_titles()[section]
        if role == Qt.ItemDataRole.ToolTipRole and section == SPEED:
            return self.tr("While a task runs: rows per second, and the time left at that speed")
        return None

    def column_titles(self) -> list[str]:
        return [self.tr("Task"), self.tr("Type"), self.tr("File"), self.tr("Status"), self.tr("Stage"),
                self.tr("Progress"), self.tr("Processed"), self.tr("Succeeded"), self.tr("Failed"),
                self.tr("Speed"), self.tr("Elapsed"), self.tr("Created")]  # fmt: skip

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        record = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(record, column)
        if role == RecordRole:
            return record
        if role == StatusRole:
            return record.status.value
        if role == SortRole:
            return self._sort_value(record, column)
        if role == ToneRole:
            return tone(record, self.kinds.of(record)).value
        if role == WidestRole:
            return self._widest(record, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMBERS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and record.id == self._highlight:
            return HIGHLIGHT
        expired = bool(record.summary.get("expired"))
        if role == Qt.ItemDataRole.ForegroundRole and expired and column in (FILE, STAGE):
            return GREYED
        if role == Qt.ItemDataRole.FontRole and expired and column == FILE:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column in (FILE, STAGE) and expired:
            return expired_tip(record)
        if role == Qt.ItemDataRole.ToolTipRole and column in (STATUS, STAGE) and record.error_msg:
            return shown_error(record)
        if role == Qt.ItemDataRole.ToolTipRole and column == FILE:
            shown = self.file_source(record)
            return shown.params.get("file") or shown.result_path
        if role == Qt.ItemDataRole.ToolTipRole and column == CREATED:
            return format_created(record.created_at)
        if role == Qt.ItemDataRole.ToolTipRole and column == SPEED:
            return self._speed_tip(record)
        return None

    def _rate(self, record: TaskRecord) -> float | None:
        return self._speed.rate(record.id) if record.status is TaskStatus.RUNNING else None

    def _remaining(self, record: TaskRecord) -> float | None:
        if record.status is not TaskStatus.RUNNING:
            return None
        return self._speed.remaining(record.id, file_rows(record) or 0, record.progress)

    def _speed_cell(self, record: TaskRecord) -> str:
        """ "1,234/s · 0:42" while running (the time left once the total is known), else ""."""
        rate = self._rate(record)
        if rate is None:
            return ""
        left = self._remaining(record)
        return f"{format_rate(rate)}/s" + (f" · {format_remaining(left)}" if left is not None else "")

    def speed_text(self, record: TaskRecord) -> str | None:
        """ "1,200 rows per second; about 0:42 left" for a running task watched long enough, else None."""
        return self._speed_tip(record)

    def _speed_tip(self, record: TaskRecord) -> str | None:
        rate, left = self._rate(record), self._remaining(record)
        if rate is None:
            return None
        text = self.tr("%1 rows per second").replace("%1", format_rate(rate))
        if left is not None:
            text += self.tr("; about %1 left").replace("%1", format_remaining(left))
        return text

    def file_cell(self, record: TaskRecord) -> str:
        """The file a row names, and the feed that took it: "bank-05-01.csv · feed Bank"; a task with no
        file of its own that works on another (an undo: its import) names that task's file as its row does."""
        record = self.file_source(record)
        name, feed = shown_file_name(record), record.params.get(FEED_PARAM)
        return self.tr("%1 · feed %2").replace("%1", name).replace("%2", str(feed)) if feed else name

    def file_source(self, record: TaskRecord) -> TaskRecord:
        """The task whose file the row names: its own, or (no file of its own) the task it works on (its
        kind's source), once that task's row is loaded; a row waiting for it is told when it comes."""
        source_param = self.kinds.of(record).source
        if shown_file_name(record) or not source_param:
            return record
        source_no = str(record.params.get(source_param) or "")
        row = self._row_of_no.get(source_no)
        if row is None:
            if source_no:
                self._awaiting.setdefault(source_no, set()).add(record.id)
            return record
        return self._rows[row]

    def _display(self, record: TaskRecord, column: int) -> Any:
        if column == TASK_NO:
            return record.task_no
        if column == TYPE:
            return self._describe_type(record)
        if column == FILE:
            return self.file_cell(record)
        if column == STATUS:
            return shown_status(record, self.kinds.of(record))
        if column == STAGE:
            return shown_stage(record, self.kinds.of(record))
        if column == PROGRESS:
            return shown_progress(record, self.kinds.of(record))
        if column == PROCESSED:  # of the file's rows when known: a cancelled import reads 50,000 / 200,000
            done = record.success_count + record.fail_count
            total = shown_total(record)
            return f"{done:,} / {total:,}" if total else f"{done:,}"
        if column == SUCCESS:
            return f"{record.success_count:,}"
        if column == FAIL:
            return f"{record.fail_count:,}"
        if column == SPEED:
            return self._speed_cell(record)
        if column == ELAPSED:
            return format_elapsed(record.elapsed_seconds(self._now()))
        if column == CREATED:
            return format_short(record.created_at, self._now())
        return None

    def _widest(self, record: TaskRecord, column: int) -> str | None:
        """What an active task's growing cell may come to read before it ends: the columns are fitted to it
        once, when its row comes, not again on each tick as its counts, speed and time grow (seen: the Type
        column shrank to "Customer imp…" as a run went on)."""
        if not record.status.is_active or column not in GROWING:
            return None
        rows = max(file_rows(record) or ROWS_RESERVED, record.total_count)
        if column == PROCESSED:
            return f"{rows:,} / {rows:,}"
        if column in (SUCCESS, FAIL):
            return f"{rows:,}"
        if column == SPEED:
            return f"{format_rate(FASTEST_SHOWN)}/s · {format_remaining(LONGEST_SHOWN)}"
        return format_elapsed(LONGEST_SHOWN)

    def _sort_value(self, record: TaskRecord, column: int) -> Any:
        values: dict[int, Any] = {
            TASK_NO: record.id,
            STATUS: STATUS_ORDER[record.status],
            PROGRESS: shown_progress(record, self.kinds.of(record)),
            PROCESSED: record.success_count + record.fail_count,
            SUCCESS: record.success_count,
            FAIL: record.fail_count,
            SPEED: self._rate(record) or 0.0,
            ELAPSED: record.elapsed_seconds(self._now()) or 0.0,
            CREATED: record.id,
        }
        return values.get(column, self._display(record, column))

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and not self._exhausted and not self._loading

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent):
            return
        self._loading = True
        self._request_page(self._cursor, self._page_size)

    # --- feeding the model ---------------------------------------------------------------

    def add_page(self, before_id: int | None, records: list[TaskRecord]) -> None:
        """A page asked for by fetchMore arrived: the tasks below before_id, newest first."""
        self._loading = False
        if before_id != self._cursor:
            return  # a page from before a reload
        if records:
            self._cursor = min(r.id for r in records)
        self._exhausted = len(records) < self._page_size
        fresh = [r for r in records if r.id not in self._row_of]
        tail = [r for r in fresh if not self._keys or -r.id > self._keys[-1]]
        tail_ids = {r.id for r in tail}
        for record in fresh:
            if record.id not in tail_ids:
                self._insert(record)
        if tail:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(tail) - 1)
            for record in tail:
                self._row_of[record.id] = self._row_of_no[record.task_no] = len(self._rows)
                self._rows.append(record)
                self._keys.append(-record.id)
            self.endInsertRows()
        self._tell_awaiting(fresh)

    def page_failed(self) -> None:
        """The page could not be read (the database is away): allow fetchMore to try again."""
        self._loading = False

    def reload(self) -> None:
        """Forget every row and fetch from the top again (another database, a retention sweep)."""
        self.beginResetModel()
        self._rows, self._keys, self._row_of, self._row_of_no, self._awaiting = [], [], {}, {}, {}
        self._cursor, self._exhausted, self._loading = None, False, False
        self.endResetModel()

    def upsert(self, record: TaskRecord) -> int | None:
        """A task was submitted, claimed or ended: update its row, or insert it where it belongs.
        Returns its row, or None when it lies beyond the pages loaded so far."""
        row = self._row_of.get(record.id)
        if row is not None:
            old = self._rows[row]
            if read_earlier(record, old.updated_at):
                return row  # an older snapshot arriving late
            if (record.status is old.status is TaskStatus.RUNNING and record.attempt == old.attempt
                    and record.progress < old.progress):  # fmt: skip
                # The table lags the live ticks: keep what the clerk already saw.
                record = replace(record, progress=old.progress, stage=old.stage, stage_phrase=old.stage_phrase,
                                 total_count=old.total_count, success_count=old.success_count,
                                 fail_count=old.fail_count, checkpoint=record.checkpoint or old.checkpoint)  # fmt: skip
            self._rows[row] = record
            if record.status is not TaskStatus.RUNNING:
                self._speed.forget(record.id)
            self.dataChanged.emit(self.index(row, 0), self.index(row, COLUMN_COUNT - 1))
            return row
        if self._rows and not self._exhausted and -record.id > self._keys[-1]:
            return None  # older than what is loaded: a later page brings it
        row = self._insert(record)
        self._tell_awaiting([record])
        return row

    def _insert(self, record: TaskRecord) -> int:
        row = bisect.bisect_left(self._keys, -record.id)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.insert(row, record)
        self._keys.insert(row, -record.id)
        self._row_of = {r.id: i for i, r in enumerate(self._rows)}
        self._row_of_no = {r.task_no: i for i, r in enumerate(self._rows)}
        self.endInsertRows()
        return row

    def _tell_awaiting(self, records: Iterable[TaskRecord]) -> None:
        """Tasks came whose file rows already shown name (an undo listed before the import it undid): their
        File cells read it now."""
        for record in records:
            for waiting in self._awaiting.pop(record.task_no, ()):
                row = self._row_of.get(waiting)
                if row is not None:
                    cell = self.index(row, FILE)
                    self.dataChanged.emit(cell, cell)

    def apply_progress(self, progress: Progress) -> bool:
        """A progress tick: update the row's cells that can change (stage to elapsed), nothing else."""
        row = self._row_of.get(progress.task_id)
        if row is None:
            return False
        old = self._rows[row]
        if old.status.is_final:
            return False  # a tick that arrived after the task ended
        checkpoint = old.checkpoint
        if progress.rows_in_file and file_rows(old) != progress.rows_in_file:
            # the file's rows as the tick says them: the Processed cell reads "of N" with the stage's first
            # "row … of N", not a second later when the store's checkpoint is read again
            checkpoint = {**(checkpoint or {}), "rows_in_file": progress.rows_in_file}
        self._rows[row] = replace(
            old,
            checkpoint=checkpoint,
            status=TaskStatus.RUNNING,
            progress=max(old.progress, progress.progress),
            stage=progress.stage,
            stage_phrase=stored_phrase(progress.stage),  # a worker's stage keeps its code, as the store's does
            total_count=progress.total_count,
            success_count=progress.success_count,
            fail_count=progress.fail_count,
        )
        self._speed.add(progress.task_id, self._now(), progress.success_count + progress.fail_count,
                        progress.progress)  # fmt: skip
        first = STATUS if old.status is not TaskStatus.RUNNING else STAGE
        self.dataChanged.emit(self.index(row, first), self.index(row, ELAPSED))
        return True

    def tick_elapsed(self) -> None:
        """Once a second: the elapsed cell of running tasks."""
        for row, record in enumerate(self._rows):
            if record.status is TaskStatus.RUNNING:
                cell = self.index(row, ELAPSED)
                self.dataChanged.emit(cell, cell)

    def set_highlight(self, task_id: int | None) -> None:
        """Paint one row (a duplicate submission's task) in the highlight colour; None clears it."""
        previous, self._highlight = self._highlight, task_id
        for changed in {previous, task_id} - {None}:
            row = self._row_of.get(changed)  # type: ignore[arg-type]
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, COLUMN_COUNT - 1))

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COLUMN_COUNT - 1)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, COLUMN_COUNT - 1))

    # --- reading -------------------------------------------------------------------------

    @property
    def highlighted_id(self) -> int | None:
        return self._highlight

    @property
    def exhausted(self) -> bool:
        return self._exhausted

    def record(self, row: int) -> TaskRecord:
        return self._rows[row]

    def row_of(self, task_id: int) -> int | None:
        return self._row_of.get(task_id)

    def find(self, task_no: str) -> TaskRecord | None:
        row = self._row_of_no.get(task_no)
        return None if row is None else self._rows[row]

    def records(self) -> Iterable[TaskRecord]:
        return iter(self._rows)
