"""A feed's imports as the window and the tray tell them: only one that failed or had failed rows, in the
feed's words (the feed, the file, the counts) with "Open error file"; several within a few seconds, one
notice for the feed ("Feed bank: 3 files with errors"). A clean feed import says nothing: a drop of 1,000
files must not make 1,000 notices. Any other task is told as before (`plain`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.feeds.notices import FeedTask, worth_a_notice
from desktop_app.tasks.kinds import TaskKinds, Words
from desktop_app.ui.notice_bar import NoticeBar
from desktop_app.ui.outcomes import Tone
from desktop_app.ui.task_notices import TaskNotices
from desktop_app.ui.texts import shown_error
from desktop_app.ui.tray import Tray

LOOKUP_MS = 300  # ended imports are looked up together: a burst of ends is one read
GROUP_SECONDS = 5.0  # a feed's failed files within this long make one notice
TRAY_MS = 2000  # the tray waits this long for more of the same feed, then says it once

Reader = Callable[[list[str], Callable[[dict[str, FeedTask]], None]], None]


class _Burst:
    """A feed's files with errors told within GROUP_SECONDS of each other."""

    def __init__(self) -> None:
        self.records: list[TaskRecord] = []
        self.files: list[str] = []
        self.last = 0.0


class FeedNotices(QObject):
    """Decides whether an ended task is a feed's import and tells it in the feed's words.

    `read(task_nos, done)` looks the feeds up off the GUI thread; `plain(record)` tells any other task as the
    window always did; `tray_wanted()` says whether the window is out of sight (the tray speaks then).
    """

    def __init__(self, notices: TaskNotices, notice: NoticeBar, tray: Tray, kinds: TaskKinds, read: Reader,
                 plain: Callable[[TaskRecord], None], tray_wanted: Callable[[], bool],
                 parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self._notices, self._notice, self._tray, self._kinds = notices, notice, tray, kinds
        self._read, self._plain, self._tray_wanted = read, plain, tray_wanted
        self._waiting: list[TaskRecord] = []
        self._bursts: dict[str, _Burst] = {}
        self._lookup = QTimer(self)
        self._lookup.setSingleShot(True)
        self._lookup.setInterval(LOOKUP_MS)
        self._lookup.timeout.connect(self._look_up)
        self._tray_timer = QTimer(self)
        self._tray_timer.setSingleShot(True)
        self._tray_timer.setInterval(TRAY_MS)
        self._tray_timer.timeout.connect(self._tell_tray)
        self._tray_due: set[str] = set()

    def task_ended(self, record: TaskRecord) -> None:
        """An import may be a feed's: looked up (with the others ending now) before it is told."""
        if self._kinds.of(record).words is not Words.IMPORT:
            self._plain(record)
            return
        self._waiting.append(record)
        if not self._lookup.isActive():
            self._lookup.start()

    def _look_up(self) -> None:
        records, self._waiting = self._waiting, []
        self._read([r.task_no for r in records], lambda found: self._answered(records, found))

    def _answered(self, records: list[TaskRecord], found: dict[str, FeedTask]) -> None:
        for record in records:
            feed = found.get(record.task_no)
            if feed is None:
                self._plain(record)
            elif worth_a_notice(record):
                self._feed_ended(record, feed)

    def _feed_ended(self, record: TaskRecord, feed: FeedTask) -> None:
        now = time.monotonic()
        burst = self._bursts.get(feed.feed)
        if burst is None or now - burst.last > GROUP_SECONDS:
            burst = self._bursts[feed.feed] = _Burst()
        burst.records.append(record)
        burst.files.append(feed.file)
        burst.last = now
        self._show(feed.feed, burst)
        if self._tray_wanted():
            self._tray_due.add(feed.feed)
            self._tray_timer.start()

    def words(self, feed: str, burst: _Burst) -> str:
        """The notice's sentence (the tray's too)."""
        record = burst.records[-1]
        if len(burst.records) > 1:
            return self.tr("Feed %1: %2 files with errors").replace("%1", feed).replace("%2", str(len(burst.records)))
        if record.status is TaskStatus.FAILED:
            text = self.tr("Feed %1: %2 could not be imported (imported: %3, rows with errors: %4)")
        else:
            text = self.tr("Feed %1: %2 was imported with errors (imported: %3, rows with errors: %4)")
        text = (text.replace("%1", feed).replace("%2", burst.files[-1])
                .replace("%3", f"{record.success_count:,}").replace("%4", f"{record.fail_count:,}"))  # fmt: skip
        why = shown_error(record) if record.status is TaskStatus.FAILED else ""
        return text + (self.tr(": %1").replace("%1", why) if why else "")

    def _show(self, feed: str, burst: _Burst) -> None:
        record = burst.records[-1]
        buttons: list[tuple[str, Callable[[], Any]]] = []
        if record.error_csv:
            buttons.append((self.tr("Open error file"), lambda: self._notices.open_errors(record)))
        buttons.append((self.tr("Show the task"), lambda: self._notices.reveal(record.id)))
        tone = Tone.BAD if any(r.status is TaskStatus.FAILED for r in burst.records) else Tone.WARNING
        self._notice.show_notice(self.words(feed, burst), tone, buttons, timeout_ms=0,
                                 again=lambda: self._show(feed, burst))  # fmt: skip

    def _tell_tray(self) -> None:
        due, self._tray_due = self._tray_due, set()
        for feed in sorted(due):
            burst = self._bursts.get(feed)
            if burst is None:
                continue
            failed = any(r.status is TaskStatus.FAILED for r in burst.records)
            self._tray.notify(self.tr("Feed %1").replace("%1", feed), self.words(feed, burst),
                              TaskStatus.FAILED if failed else TaskStatus.PARTIALLY_SUCCEEDED)  # fmt: skip
