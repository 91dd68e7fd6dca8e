"""A feed's scan: a short system task that looks at the folder, queues an import for each settled file
and moves the files whose imports ended; as it ends it queues the feed's next scan (docs/FEEDS.md).

No thread of its own: the next scan is a pending task due at the next look (or in a moment while the
feed's imports run and its files settle), run by whichever executor claims it (the window's, a
`worker`'s). One scan per feed is active at a time (its key); each file's step is a conditional write
(store/feeds.py), so a scan killed anywhere is finished or redone by the next one, and two scans at once
(a recovered one beside its successor) never take a file twice.

A scan, in order:
1. ended imports: the outcome of each file whose import task ended, and where it goes, written down;
2. moves: each file with a destination is moved (with its note), or told why it stays;
3. a look at the folder when one is due (the schedule, `feed run`, files settling): new files noted,
   settled ones fingerprinted and claimed, the same bytes again recorded as duplicates;
4. imports queued for the claimed files (in order, one at a time, with --in-order).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy.exc import SQLAlchemyError

from desktop_app.domain.errors import ErrorCode, PermanentError, TransientError
from desktop_app.domain.feeds import (
    Feed,
    FeedCode,
    FeedFile,
    FeedState,
    FileState,
    Outcome,
    feed_text,
)
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskOutcome, TaskRecord
from desktop_app.feeds import moving
from desktop_app.feeds.folder import FolderUnreachable as _Unreachable
from desktop_app.feeds.folder import NotReadable, fingerprint, look, reachable
from desktop_app.feeds.mail import wants_mail
from desktop_app.feeds.rules import next_look_in, offline_retry, patterns, settled, settles_in
from desktop_app.imports.task import ImportHandler
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.store.feeds import Brief, FeedStore
from desktop_app.store.tasks import TaskStore
from desktop_app.submission import Submitter, feed_scan_key, submit_feed_mail, submit_feed_scan
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import Stopped, StopReason, TaskContext
from desktop_app.tasks.kinds import TaskKind
from desktop_app.tasks.registry import HandlerRegistry
from desktop_app.tasks.submit import FileFacts

log = logging.getLogger(__name__)

FOLLOW_UP = 2.0  # seconds to the next scan while the feed's imports run or its files are on their way
UNREADABLE_RETRY = 10.0  # at least this long before a file that could not be read is tried again
MAX_TRIES = 3  # imports of one file that did not find or could not read it (a folder away) before it fails
# an import that failed because its file was not there or not readable: not the file's fault
NOT_THERE = frozenset({ErrorCode.FILE_NOT_FOUND.value, ErrorCode.FILE_UNREADABLE.value})
ENDED_WELL = (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED)


@dataclass
class ScanReport:
    """What one scan did (the scan task's summary)."""

    looked: bool = False
    offline: bool = False
    seen: int = 0  # files the pattern takes in the folder, at the look
    new: int = 0  # seen for the first time (or a new version)
    taken: int = 0  # fingerprinted and claimed
    queued: list[str] = field(default_factory=list)  # the import tasks queued
    ended: dict[str, int] = field(default_factory=dict)  # outcomes written down, by outcome
    moved: int = 0
    delay: float | None = None  # seconds to the next scan

    @property
    def handled(self) -> int:
        return self.new + self.taken + len(self.queued) + sum(self.ended.values()) + self.moved

    def summary(self) -> dict[str, Any]:
        return {"looked": self.looked, "offline": self.offline, "seen": self.seen, "new": self.new,
                "taken": self.taken, "queued": self.queued, "ended": self.ended, "moved": self.moved}  # fmt: skip


class FeedScanHandler:
    """The feed_scan task type (see the module's words)."""

    kind: ClassVar[TaskKind] = builtin_kinds.FEED_SCAN
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def __init__(self, catalog: TypeCatalog) -> None:
        self.catalog = catalog
        # the task types a scan queues (the submission asks the registry for the import's lane)
        self._queues = HandlerRegistry([ImportHandler(catalog)])

    def run(self, ctx: TaskContext) -> TaskOutcome:
        feeds = FeedStore(ctx.store.engine)
        feed = feeds.get_by_id(int(ctx.params["feed"]))
        if feed is None or feed.paused:
            # removed or paused since this scan was queued: it ends here and queues no other
            why = "removed" if feed is None else "paused"
            return TaskOutcome(TaskStatus.SUCCEEDED, summary={"feed": ctx.params.get("name"), why: True})
        submitter = Submitter(ctx.store, self._queues, ctx.settings, self.catalog)
        scan = Scan(ctx, feed, feeds, submitter)
        try:
            report = scan.run()
        except Stopped as stop:
            if stop.reason is StopReason.CANCEL:  # a person cancelled this scan: the feed goes on
                self._next(ctx, feeds, feed.id, delay=offline_retry(feed.spec.schedule))
            raise  # a shutdown hands this scan back as pending: it runs again at the next start
        except (SQLAlchemyError, TransientError):
            raise  # the database is away: this scan is retried (and does again what it had not recorded)
        except Exception as exc:
            ctx.log.exception("the scan of feed %s went wrong", feed.name)
            with contextlib.suppress(Exception):
                problem = feed_text(FeedCode.SCAN_PROBLEM, ctx.lang, detail=f"{type(exc).__name__}: {exc}"[:300])
                feeds.scanned(feed.id, state=feed.state, reason=_stored(problem), looked=False)
                self._next(ctx, feeds, feed.id, delay=offline_retry(feed.spec.schedule))
            raise
        successor = self._next(ctx, feeds, feed.id, delay=report.delay)
        ctx.store.forget_idle(feed_scan_key(feed.id), before_id=ctx.task.id, task_type=self.task_type)
        handled = report.handled
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=handled, success_count=handled,
                           summary={"feed": feed.name, **report.summary(), "next_scan": successor})  # fmt: skip

    def _next(self, ctx: TaskContext, feeds: FeedStore, feed_id: int, *, delay: float | None) -> str | None:
        """The feed's next scan, queued as this one ends (the key passes to it); none for a feed removed
        or paused meanwhile."""
        feed = feeds.get_by_id(feed_id)
        if feed is None or feed.paused:
            return None
        result = submit_feed_scan(ctx.store, feed, delay=delay, succeeds=ctx.fence)
        if result.duplicate_of is not None and (delay is None or delay <= FOLLOW_UP):
            # a scan recovered after it had queued its successor: that one comes sooner, as this one asks
            ctx.store.bring_forward(result.task.id)
        return result.task.task_no

    def keep_queued(self, store: TaskStore) -> None:
        """Every feed that is not paused has a scan pending or running (called as an executor starts, and
        now and then: a scan cancelled by hand, or failed past its retries, would end its feed's chain)."""
        for feed in FeedStore(store.engine).list():
            if not feed.paused and store.active(feed_scan_key(feed.id)) is None:
                submit_feed_scan(store, feed)
                log.info("feed %s had no scan queued: one queued", feed.name)


class Scan:
    """One run of a feed's scan."""

    def __init__(self, ctx: TaskContext, feed: Feed, feeds: FeedStore, submitter: Submitter) -> None:
        self.ctx = ctx
        self.feed = feed
        self.spec = feed.spec
        self.feeds = feeds
        self.submitter = submitter
        self.folder = Path(feed.spec.folder)
        self.pats = patterns(feed.spec.pattern)
        self.lang = ctx.lang
        self.report = ScanReport()
        self.offline = False
        self.blocked: dict[str, Any] | None = None
        self.scheduled_look = False
        self.day = dt.date.today().isoformat()  # the desk's date: the dated folder, "today" in the list

    # --- the run ---------------------------------------------------------------------------

    def run(self) -> ScanReport:
        self.ctx.report(stage=stage_text(Stage.FEED_LOOKING, self.lang, folder=str(self.folder)), force=True)
        now = self.feeds.db_now()
        why = reachable(self.folder)
        if why is not None:
            self.ctx.log.info("feed %s: the folder %s is not reachable (%s)", self.feed.name, self.folder, why)
            self.offline = True
        else:
            self.finish_ended()
            self.move_all()
            if self.look_due(now):
                self.look(now)
            if not self.offline:
                self.queue_ready()
        self.settle_state()
        return self.report

    def look_due(self, now: dt.datetime) -> bool:
        """A look at the folder: at the schedule's time, when asked (`feed run`), when a file may have
        settled, or always after the folder was away."""
        feed = self.feed
        self.scheduled_look = feed.next_look_at is None or feed.next_look_at <= now + dt.timedelta(seconds=0.5)
        if self.scheduled_look or feed.run_requests > feed.runs_seen or feed.state is FeedState.OFFLINE:
            return True
        settle = self.spec.settle
        return any(settled(r.first_seen_at, now, settle) for r in self.feeds.in_state(feed.id, FileState.SETTLING))

    # --- 1. imports that ended ---------------------------------------------------------------

    def finish_ended(self) -> None:
        rows = self.feeds.in_state(self.feed.id, FileState.QUEUED)
        if not rows:
            return
        tasks = self.ctx.store.get_many([r.task_no for r in rows if r.task_no])
        for row in rows:
            self.ctx.check_stop()
            task = tasks.get(row.task_no or "")
            if task is None:
                self.feeds.ready_again(row)  # its task is gone from both tables: queued again
                continue
            if task.status.is_active:
                continue
            outcome = self.outcome_of(row, task)
            if outcome is None:
                self.ctx.log.info("feed %s: %s was not there for task %s; queued again", self.feed.name, row.name,
                                  task.task_no)  # fmt: skip
                self.feeds.ready_again(row)
                continue
            self.mail(row, task)
            self.intend(row, FileState.QUEUED, outcome, task)

    def mail(self, row: FeedFile, task: TaskRecord) -> None:
        """The feed's mail about an import that failed or had failed rows, queued before its outcome is
        written down (a scan killed between the two queues it again: the same key, the same mail task)."""
        if not (self.spec.mail_to and self.ctx.settings.mail_ready and wants_mail(task)):
            return
        result = submit_feed_mail(self.ctx.store, self.feed, task.task_no, row.name)
        if result.duplicate_of is None:
            self.ctx.log.info("feed %s: mail about %s queued as %s", self.feed.name, task.task_no,
                              result.task.task_no)  # fmt: skip

    def outcome_of(self, row: FeedFile, task: TaskRecord) -> Outcome | None:
        """Where an ended import's file goes; None when the import did not find or could not read the file
        and the file is here again unchanged (a share that was away): it is queued again, a few times."""
        if task.status in ENDED_WELL:
            return Outcome.IMPORTED
        if task.status is TaskStatus.FAILED and task.error_code in NOT_THERE and row.tries < MAX_TRIES:
            try:
                info = (self.folder / row.name).stat()
            except OSError:
                info = None
            if info is not None and (info.st_size, info.st_mtime_ns) == (row.size, row.mtime_ns):
                return None
        return Outcome.FAILED

    def intend(
        self,
        row: FeedFile,
        expected: FileState,
        outcome: Outcome,
        task: TaskRecord | None,
        *,
        duplicate_of: str | None = None,
        sha256: str | None = None,
    ) -> None:
        """The outcome and the destination written down (before any move); with --leave, the file's way
        ends here."""
        move_to = note_to = None
        if not self.spec.leave:
            target, note = moving.destination(self.folder, outcome, self.day, row.name, self.note_kind(outcome, task))
            move_to, note_to = str(target), str(note) if note else None
        if self.feeds.intend(row, expected, outcome=outcome, day=self.day, move_to=move_to, note_to=note_to,
                             duplicate_of=duplicate_of, sha256=sha256):  # fmt: skip
            self.report.ended[outcome.value] = self.report.ended.get(outcome.value, 0) + 1

    @staticmethod
    def note_kind(outcome: Outcome, task: TaskRecord | None) -> str | None:
        """What goes beside the file: its error CSV, why it failed, which task imported the same bytes."""
        if outcome is Outcome.DUPLICATE:
            return "duplicate.txt"
        errors = task.error_csv if task is not None else None
        if errors and not (task is not None and task.summary.get("expired")) and Path(errors).is_file():
            return "errors.csv"
        if outcome is Outcome.FAILED or errors:
            return "why.txt"  # no error CSV (a file-level failure), or it is kept on another desk
        return None

    # --- 2. moves ----------------------------------------------------------------------------

    def move_all(self) -> None:
        rows = self.feeds.in_state(self.feed.id, FileState.MOVING)
        if not rows:
            return
        numbers = [n for r in rows for n in (r.task_no, r.duplicate_of) if n]
        tasks = self.ctx.store.get_many(numbers)
        for row in rows:
            self.ctx.check_stop()
            self.move_one(row, tasks)
            if self.offline:
                return

    def move_one(self, row: FeedFile, tasks: dict[str, TaskRecord]) -> None:
        source = self.folder / row.name
        for _ in range(10):
            assert row.move_to is not None and row.sha256 is not None
            target = Path(row.move_to)
            if self.changed_since_taken(row, source, target):
                problem = feed_text(FeedCode.CHANGED_AFTER, self.lang, name=row.name)
                self.feeds.moved(row, None, problem=_stored(problem))
                return
            try:
                result = moving.move(source, target, sha256=row.sha256, size=row.size)
            except moving.MoveFailed as exc:
                if reachable(self.folder) is not None:
                    self.offline = True
                    return
                self.ctx.log.warning("feed %s: %s could not be moved to %s: %s", self.feed.name, row.name,
                                     target, exc.detail)  # fmt: skip
                problem = feed_text(FeedCode.CANNOT_MOVE, self.lang, count=1, name=row.name, reason=exc.reason)
                self.feeds.move_problem(row, _stored(problem))
                return
            if result is moving.Moved.TAKEN:
                note_kind = _note_suffix(row.note_to, target)
                outcome = row.outcome or Outcome.FAILED
                new_target, new_note = moving.destination(self.folder, outcome, row.day or self.day, row.name,
                                                          note_kind)  # fmt: skip
                if not self.feeds.retarget(row, str(new_target), str(new_note) if new_note else None):
                    return  # another scan is at it
                fresh = self.feeds.file(row.id)
                if fresh is None:
                    return
                row = fresh
                continue
            if result is moving.Moved.GONE:
                if reachable(self.folder) is not None:
                    self.offline = True  # not gone: the folder is away
                    return
                problem = feed_text(FeedCode.FILE_GONE, self.lang, name=row.name)
                self.feeds.moved(row, None, problem=_stored(problem))
                return
            self.place_note(row, target, tasks)
            if self.feeds.moved(row, str(target)):
                self.report.moved += 1
            return

    @staticmethod
    def changed_since_taken(row: FeedFile, source: Path, target: Path) -> bool:
        """Whether the file under the name is another version than the one taken (saved again since)."""
        try:
            info = source.stat()
        except OSError:
            return False
        if (info.st_size, info.st_mtime_ns) == (row.size, row.mtime_ns):
            return False
        with contextlib.suppress(OSError):
            if os.path.samefile(source, target):
                return False
        return True

    def place_note(self, row: FeedFile, target: Path, tasks: dict[str, TaskRecord]) -> None:
        if not row.note_to:
            return
        note = Path(row.note_to)
        task = tasks.get(row.task_no or "")
        if note.name.endswith("-errors.csv"):
            errors = Path(task.error_csv) if task is not None and task.error_csv else None
            if errors is not None and errors.is_file():
                moving.place_note(note, copy_of=errors)
            else:
                self.ctx.log.warning("feed %s: the error CSV of %s is no longer there", self.feed.name, row.task_no)
            return
        if note.name.endswith("-duplicate.txt"):
            earlier = tasks.get(row.duplicate_of or "")
            when = earlier.ended_at or earlier.created_at if earlier is not None else None
            text = feed_text(FeedCode.DUPLICATE_NOTE, self.lang, name=row.name, task_no=row.duplicate_of or "",
                             date=when.date().isoformat() if when else "")  # fmt: skip
        else:
            text = self.why(row, task)
        moving.place_note(note, text=str(text) + "\n")

    def why(self, row: FeedFile, task: TaskRecord | None) -> str:
        """Why a file failed (or where its error CSV is), in the desk's language."""
        number = row.task_no or ""
        if task is not None and task.status in ENDED_WELL:
            host = task.host or (task.owner or "").split(":", 1)[0] or "?"
            return feed_text(FeedCode.ERRORS_ELSEWHERE, self.lang, task_no=number, host=host)
        if task is not None and task.status is TaskStatus.CANCELLED:
            return feed_text(FeedCode.WHY_CANCELLED, self.lang, task_no=number, name=row.name,
                             count=task.success_count)  # fmt: skip
        reason = (task.error_in(self.lang) or task.error_code or "") if task is not None else ""
        text = feed_text(FeedCode.WHY_FAILED, self.lang, task_no=number, name=row.name, reason=reason)
        if task is not None and task.error_csv:
            host = task.host or (task.owner or "").split(":", 1)[0] or "?"
            text += "\n" + feed_text(FeedCode.ERRORS_ELSEWHERE, self.lang, task_no=number, host=host)
        return text

    # --- 3. the look -------------------------------------------------------------------------

    def look(self, now: dt.datetime) -> None:
        try:
            listing = look(self.folder, self.pats)
        except _Unreachable as exc:
            self.ctx.log.info("feed %s: %s", self.feed.name, exc)
            self.offline = True
            return
        report = self.report
        report.looked, report.seen = True, len(listing)
        by_name: dict[str, Brief] = {}
        for kept in self.feeds.present_brief(self.feed.id):
            older = by_name.get(kept.name)
            by_name[kept.name] = kept  # oldest first: a newer row of a name is the one that counts
            if older is not None:
                self.forget_older(older)
        new: list[tuple[str, int, int]] = []
        settled_ids: list[int] = []
        for name, seen in listing.items():
            found = by_name.get(name)
            if found is None:
                new.append((name, seen.size, seen.mtime_ns))
                continue
            row = found
            if (seen.size, seen.mtime_ns) != (row.size, row.mtime_ns):
                if row.state is FileState.SETTLING:
                    self.feeds.changed(row, seen.size, seen.mtime_ns)
                elif row.state is FileState.READY:
                    if self.feeds.drop(row, FileState.READY):  # saved again before its import was queued
                        new.append((name, seen.size, seen.mtime_ns))
                elif row.state is FileState.DONE and self.feeds.left_folder(row):
                    new.append((name, seen.size, seen.mtime_ns))  # a new version under the name: a new file
                # queued or moving: its import (file_changed) or its move (changed_since_taken) sees it
                continue
            if row.state is FileState.SETTLING and settled(row.first_seen_at, now, self.spec.settle):
                settled_ids.append(row.id)
        for name, row in by_name.items():
            if name in listing:
                continue
            if row.state in (FileState.SETTLING, FileState.READY):
                self.feeds.drop(row, row.state)  # gone before its import was queued
            elif row.state is FileState.DONE:
                self.feeds.left_folder(row)
        self.feeds.seen_many(self.feed.id, new)
        report.new = len(new)
        candidates = [r for r in self.feeds.files(settled_ids) if r.state is FileState.SETTLING]
        if new and self.spec.settle <= 0:
            names = {n for n, _, _ in new}
            candidates += [r for r in self.feeds.in_state(self.feed.id, FileState.SETTLING) if r.name in names]
        candidates.sort(key=lambda r: (r.mtime_ns, r.name))
        for number, candidate in enumerate(candidates, 1):
            self.ctx.check_stop()
            self.take(candidate)
            self.ctx.report(progress=100 * number / len(candidates))

    def forget_older(self, row: Brief) -> None:
        """Two rows of one name in the folder (two scans at once saw it new): the older one goes, unless
        its import or its move is under way (those end on their own)."""
        if row.state in (FileState.SETTLING, FileState.READY):
            self.feeds.drop(row, row.state)
        elif row.state is FileState.DONE:
            self.feeds.left_folder(row)

    def take(self, row: FeedFile) -> None:
        """A settled file: fingerprinted (read once) and claimed, or recorded as a duplicate."""
        path = self.folder / row.name
        try:
            sha = fingerprint(path, row.size, row.mtime_ns)
        except NotReadable as exc:
            self.ctx.log.info("feed %s: %s cannot be read yet: %s", self.feed.name, row.name, exc)
            self.feeds.unreadable(row, _stored(feed_text(FeedCode.NOT_READABLE, self.lang, name=row.name)))
            return
        if sha is None:  # saved again while it was read: it settles again
            try:
                info = path.stat()
            except OSError:
                self.feeds.drop(row, FileState.SETTLING)
                return
            self.feeds.changed(row, info.st_size, info.st_mtime_ns)
            return
        self.claim(row, sha)

    def claim(self, row: FeedFile, sha: str) -> None:
        for _ in range(3):
            if self.feeds.claim(row, sha):
                self.report.taken += 1
                return
            holder = self.feeds.holder(self.feed.id, sha)
            if holder is None or holder.id == row.id:
                continue  # let go of meanwhile: try again
            if holder.state is FileState.DONE and holder.outcome in (Outcome.FAILED, Outcome.GONE):
                # those bytes were tried and not imported here: the import decides again (it refuses them
                # if that task committed rows)
                self.feeds.release_claim(holder)
                continue
            if (self.spec.leave and holder.state is FileState.DONE and holder.name == row.name
                    and not holder.in_folder and holder.moved_to is None):  # fmt: skip
                self.feeds.came_back(holder, row)  # a file left in place, missed while its share was away
                return
            earlier = holder.task_no or holder.duplicate_of
            if earlier is None:
                return  # those bytes are not queued yet (in order): the next scan decides
            self.intend(row, FileState.SETTLING, Outcome.DUPLICATE, None, duplicate_of=earlier, sha256=sha)
            return

    # --- 4. imports ---------------------------------------------------------------------------

    def queue_ready(self) -> None:
        ready = sorted(self.feeds.in_state(self.feed.id, FileState.READY), key=lambda r: (r.mtime_ns, r.name))
        if not ready:
            return
        if self.spec.in_order:
            if self.busy():
                return
            ready = ready[:1]
        for row in ready:
            self.ctx.check_stop()
            self.submit(row)
            if self.blocked is not None:
                return

    def busy(self) -> bool:
        """An import of the feed is queued, or its file is on its way out (--in-order: one at a time)."""
        if self.feeds.in_state(self.feed.id, FileState.QUEUED):
            return True
        return any(r.problem is None for r in self.feeds.in_state(self.feed.id, FileState.MOVING))

    def submit(self, row: FeedFile) -> None:
        path = self.folder / row.name
        assert row.sha256 is not None
        request = self.submitter.feed_import(self.feed, path)
        known = FileFacts(row.sha256, row.size, row.mtime_ns)
        try:
            result = self.submitter.submit_import(request, user=self.feed.owner, known=known, feed=self.feed.name)
        except PermanentError as exc:
            if exc.code in (ErrorCode.FILE_NOT_FOUND, ErrorCode.FILE_UNREADABLE):
                self.feeds.drop(row, FileState.READY)  # gone (or not a file) since it was taken
                return
            # the type (or its profile) is unknown or has a problem: every file of the feed would meet it;
            # they wait in the folder, the feed says why, and its next scans try again
            self.ctx.log.warning("feed %s: its imports cannot be queued: %s", self.feed.name, exc)
            self.blocked = _stored(feed_text(FeedCode.QUEUE_PROBLEM, self.lang, problem=exc.text(self.lang)))
            return
        task = result.task
        if result.refused and not self.ours(task, path, row):
            # the same bytes were imported already (by hand, another feed of the owner's, or before)
            self.intend(row, FileState.READY, Outcome.DUPLICATE, None, duplicate_of=task.task_no)
            return
        if self.feeds.queued(row, task.task_no) and result.duplicate_of is None:
            self.report.queued.append(task.task_no)

    @staticmethod
    def ours(task: TaskRecord, path: Path, row: FeedFile) -> bool:
        """Whether the import that refused the bytes is this file's own (queued by a scan that died
        before it wrote the task down): the same path and bytes, queued after the file was seen."""
        same = task.params.get("file") == str(path.resolve()) and task.params.get("file_sha256") == row.sha256
        return bool(same and task.created_at is not None and task.created_at >= row.first_seen_at)

    # --- the feed's state, and the next scan --------------------------------------------------

    def settle_state(self) -> None:
        feeds, feed, spec = self.feeds, self.feed, self.spec
        now = feeds.db_now()
        fresh = feeds.get_by_id(feed.id) or feed
        waits: list[float] = []
        runs_seen = feed.run_requests if self.report.looked or self.offline else None
        if fresh.run_requests > (runs_seen if runs_seen is not None else feed.runs_seen):
            waits.append(0.0)  # asked to run while this scan was under way
        next_look: float | None = None
        if self.offline:
            seconds = offline_retry(spec.schedule)
            state = FeedState.OFFLINE
            unreachable = feed_text(FeedCode.FOLDER_UNREACHABLE, self.lang, folder=str(self.folder), seconds=seconds)
            reason: dict[str, Any] | None = _stored(unreachable)
            next_look = 0.0  # the folder is looked at as soon as the next scan finds it back
            waits.append(float(seconds))
        else:
            if self.report.looked and self.scheduled_look:
                next_look = next_look_in(spec.schedule)
                waits.append(next_look)
            elif feed.next_look_at is not None:
                waits.append((feed.next_look_at - now).total_seconds())
            state = FeedState.BLOCKED if self.blocked else FeedState.WATCHING
            reason = self.blocked
            waits += self.waits(now)
            if reason is None:
                reason = self.problem_reason()
        feeds.scanned(feed.id, state=state, reason=reason, looked=self.report.looked, runs_seen=runs_seen,
                      next_look_in=next_look)  # fmt: skip
        delay = min(waits) if waits else float(offline_retry(spec.schedule))
        self.report.offline = self.offline
        self.report.delay = None if delay <= 0.05 else delay

    def waits(self, now: dt.datetime) -> list[float]:
        """How soon the feed's files want the next scan: a file settling at its time, files on their way
        (an import running, a move to do) in a moment."""
        waits: list[float] = []
        for row in self.feeds.in_state(self.feed.id, FileState.SETTLING):
            if row.problem is not None:
                waits.append(max(float(self.spec.settle), UNREADABLE_RETRY))
            else:
                left = settles_in(row.first_seen_at, now, self.spec.settle)
                waits.append(left + 0.05 if left > 0 else FOLLOW_UP)
        if self.blocked is None and self.feeds.in_state(self.feed.id, FileState.READY, FileState.QUEUED):
            waits.append(FOLLOW_UP)
        if any(r.problem is None for r in self.feeds.in_state(self.feed.id, FileState.MOVING)):
            waits.append(FOLLOW_UP)
        return waits

    def problem_reason(self) -> dict[str, Any] | None:
        """A watching feed's reason: files that could not be moved, or read."""
        stuck = [r for r in self.feeds.in_state(self.feed.id, FileState.MOVING) if r.problem is not None]
        if stuck:
            first = stuck[0]
            why = (first.problem or {}).get("params", {}).get("reason")
            return _stored(feed_text(FeedCode.CANNOT_MOVE, self.lang, count=len(stuck), name=first.name, reason=why))
        unread = [r for r in self.feeds.in_state(self.feed.id, FileState.SETTLING) if r.problem is not None]
        if unread:
            return _stored(feed_text(FeedCode.NOT_READABLE, self.lang, name=unread[0].name))
        return None


def _stored(text: str) -> dict[str, Any]:
    """A feed phrase as the database keeps it (kind, code, params)."""
    stored = getattr(text, "stored", None)
    return stored() if stored is not None else {"kind": "feed", "code": "", "params": {}}


def _note_suffix(note_to: str | None, target: Path) -> str | None:
    """The kind of note a destination had (errors.csv, why.txt, duplicate.txt), from its name."""
    if not note_to:
        return None
    stem = target.stem
    name = Path(note_to).name
    return name[len(stem) + 1 :] if name.startswith(stem + "-") else name.rsplit("-", 1)[-1]
