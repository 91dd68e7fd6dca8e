"""The Feeds view's table model: one row a feed (FeedView), its state and today's files in words."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from desktop_app.domain.feeds import FeedState, FeedView, state_words
from desktop_app.ui.task_model import format_created, format_short, utc_now
from desktop_app.ui.texts import window_lang

Index = QModelIndex | QPersistentModelIndex

NAME, FOLDER, TYPE, PROFILE, STATE, LAST_SCAN, TODAY, WAITING, NEXT_RUN = range(9)
COLUMN_COUNT = 9
NUMBERS = (TODAY, WAITING)  # right-aligned

ViewRole = Qt.ItemDataRole.UserRole + 1  # the FeedView of the row

# a state that needs a person's eye is painted so (the reason is its tooltip)
TROUBLE = QColor("#b3261e")
QUIET = QColor("#8a8a8a")


class FeedsTableModel(QAbstractTableModel):
    """Rows are the FeedViews of the last refresh, by name; `type_title` gives an import type's title in
    the window's language (as the task list shows types)."""

    def __init__(self, type_title: Callable[[str], str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._type_title = type_title
        self._views: list[FeedView] = []

    # --- rows ----------------------------------------------------------------------------

    def set_views(self, views: Sequence[FeedView]) -> None:
        """The feeds as read now: rows whose feed stays keep their place (a selection stays on its feed)."""
        new = list(views)
        if [v.feed.id for v in new] == [v.feed.id for v in self._views]:
            self._views = new
            if new:
                self.dataChanged.emit(self.index(0, 0), self.index(len(new) - 1, COLUMN_COUNT - 1))
            return
        self.beginResetModel()
        self._views = new
        self.endResetModel()

    def views(self) -> list[FeedView]:
        return list(self._views)

    def view_at(self, row: int) -> FeedView | None:
        return self._views[row] if 0 <= row < len(self._views) else None

    def row_of(self, name: str) -> int:
        """The row of the feed of that name (whatever its case), -1 when none."""
        key = name.casefold()
        return next((i for i, v in enumerate(self._views) if v.feed.name.casefold() == key), -1)

    # --- Qt's model ----------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._views)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMN_COUNT

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return self.headers()[section] if 0 <= section < COLUMN_COUNT else None

    def headers(self) -> list[str]:
        return [
            self.tr("Name"),
            self.tr("Folder"),
            self.tr("Type"),
            self.tr("Profile"),
            self.tr("State"),
            self.tr("Last scan"),
            self.tr("Today: imported / failed / duplicates"),
            self.tr("Waiting"),
            self.tr("Next run"),
        ]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        view = self.view_at(index.row()) if index.isValid() else None
        if view is None:
            return None
        column = index.column()
        if role == ViewRole:
            return view
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(view, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tip(view, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMBERS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and column == STATE:
            if view.state in (FeedState.OFFLINE, FeedState.BLOCKED) or view.problems:
                return TROUBLE
            if view.state in (FeedState.PAUSED, FeedState.NEW):
                return QUIET
        if role == Qt.ItemDataRole.ForegroundRole and column == PROFILE and not view.feed.spec.profile:
            return QUIET
        return None

    def _display(self, view: FeedView, column: int) -> str:
        spec = view.feed.spec
        now = utc_now()
        if column == NAME:
            return view.feed.name
        if column == FOLDER:
            return spec.folder
        if column == TYPE:
            return self._type_title(spec.import_type)
        if column == PROFILE:
            return spec.profile or self.tr("(none)")
        if column == STATE:
            return self.state_text(view)
        if column == LAST_SCAN:
            return format_short(view.feed.last_scan_at, now) if view.feed.last_scan_at else self.tr("never")
        if column == TODAY:
            day = view.today
            return f"{day.imported:,} / {day.failed:,} / {day.duplicates:,}"
        if column == WAITING:
            return f"{view.waiting:,}"
        if column == NEXT_RUN:
            return self.next_run_text(view, now)
        return ""

    def state_text(self, view: FeedView) -> str:
        """The state in words: "Watching", "Paused", "Folder not reachable"...; "Scanning now" while a scan
        runs (a paused feed's last scan may still be running: it says paused)."""
        if view.scanning and view.state is not FeedState.PAUSED:
            return self.tr("Scanning now")
        return state_words(view.state, window_lang())

    def next_run_text(self, view: FeedView, now: dt.datetime) -> str:
        if view.state is FeedState.PAUSED:
            return self.tr("paused")
        if view.scanning:
            return self.tr("now")
        if view.next_run_at is not None:
            return self.tr("now") if view.next_run_at <= now else format_short(view.next_run_at, now)
        if view.queued_scan is not None:
            return self.tr("now")  # due now, waiting for a worker
        return self.tr("when a desk runs it")

    def _tip(self, view: FeedView, column: int) -> str | None:
        if column == STATE:
            lines = [view.reason] if view.reason else []
            lines += list(view.problems)
            return "\n".join(lines) or None
        if column == FOLDER:
            spec = view.feed.spec
            return self.tr("%1\nPattern: %2").replace("%1", spec.folder).replace("%2", spec.pattern)
        if column == LAST_SCAN:
            return format_created(view.feed.last_scan_at) or None
        if column == NEXT_RUN:
            return format_created(view.next_run_at) or None
        if column == TODAY:
            day = view.today
            return (
                self.tr("Today: %1 imported, %2 failed, %3 duplicates (not imported again)")
                .replace("%1", f"{day.imported:,}")
                .replace("%2", f"{day.failed:,}")
                .replace("%3", f"{day.duplicates:,}")
            )
        if column == WAITING and view.state is FeedState.PAUSED:
            return self.tr("Files in its folder that wait for the feed to be resumed, and files seen and not ended "
                           "yet")  # fmt: skip
        if column == WAITING:
            return self.tr("Files seen and not ended yet: settling, queued or being moved")
        return None
