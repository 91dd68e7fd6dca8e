"""What the command line and the window's Feeds view ask of feeds, without Qt: add, edit, list with
their state, last scan, today's files and next run; run now, pause, resume, remove.

Who may do what follows the task list's rule (domain/viewer.py): a clerk sees and manages the feeds they
own, an administrator every feed (on the embedded database the desk's user is one); another clerk's
feed is answered as no feed at all.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.feed_mail import parse_addresses
from desktop_app.domain.feeds import Feed, FeedDay, FeedFile, FeedSpec, FeedState, FeedView, FileState, Outcome
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.rendering import render
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.domain.viewer import Viewer
from desktop_app.feeds.folder import FolderUnreachable, not_taken_yet
from desktop_app.feeds.rules import patterns
from desktop_app.store.db import is_network_path
from desktop_app.store.feeds import FeedStore
from desktop_app.store.tasks import TaskStore
from desktop_app.submission import Submitter, feed_scan_key
from desktop_app.tasks.identity import host_name

log = logging.getLogger(__name__)


class Feeds:
    """The feeds of one database, as one user sees them."""

    def __init__(self, store: TaskStore, submitter: Submitter, lang: Lang) -> None:
        self.store = store
        self.submitter = submitter
        self.lang: Lang = lang
        self.feeds = FeedStore(store.engine)

    # --- changing them -------------------------------------------------------------------

    def add(self, spec: FeedSpec, *, user: str) -> FeedView:
        """A new feed owned by `user` (its imports are theirs), looked at right away. Its import type must
        be known and usable; a local folder must exist (a network folder may be away: the feed waits for
        it); FEED_EXISTS for a name in use."""
        spec, network = self.checked(spec)
        feed = self.feeds.add(spec, owner=user, host=None if network else host_name())
        self.submitter.submit_feed_scan(feed)
        return self.view_of(feed)

    def edit(self, name: str, spec: FeedSpec, viewer: Viewer) -> FeedView:
        """The feed's settings changed (folder, type, profile, mode, pattern, settle time, schedule, flags),
        checked as add() checks them; its name stays (`spec.name` is not read). Its files seen so far keep
        their record; the next look follows the new settings, now unless it is paused."""
        feed = self.find(name, viewer)
        spec, network = self.checked(replace(spec, name=feed.name))
        if spec.folder != feed.spec.folder:
            # their files are in the old folder: they are moved there once their imports end
            busy = self.feeds.count_in(feed.id, FileState.READY, FileState.QUEUED, FileState.MOVING)
            if busy:
                raise PermanentError(ErrorCode.FEED_FILES_UNDER_WAY, name=feed.name, count=busy)
            # a scan under way looks at the old folder and may still queue its files after the count above
            scan = self.store.active(feed_scan_key(feed.id))
            if scan is not None and scan.status is TaskStatus.RUNNING:
                raise PermanentError(ErrorCode.FEED_SCANNING, name=feed.name)
        self.feeds.update(feed.id, spec, host=None if network else host_name())
        fresh = self.feeds.get_by_id(feed.id) or feed
        if not fresh.paused:
            # the pending scan was queued for the old settings (its desk, its schedule): a fresh one now
            self._cancel_pending_scan(fresh)
            self.feeds.request_run(fresh.id)
            self.submitter.submit_feed_scan(fresh)
        log.info("feed %s changed by %s: %s (%s)", fresh.name, viewer.user, spec.folder, spec.import_type)
        return self.view(fresh.name, viewer)

    def checked(self, spec: FeedSpec) -> tuple[FeedSpec, bool]:
        """The spec as stored (its name trimmed, a local folder resolved) and whether its folder is on a
        network share; PermanentError in plain words for a name, pattern, type, mode, profile or local
        folder that cannot be used (add and edit check the same)."""
        name = spec.name.strip()
        if not name or len(name) > 100 or any(ord(c) < 32 for c in name):
            raise PermanentError(ErrorCode.FEED_NAME_INVALID)
        try:
            patterns(spec.pattern)
        except ValueError:
            raise PermanentError(ErrorCode.FEED_PATTERN_EMPTY) from None
        # a file dropped into a folder never deletes rows (the command line's feed add offers no delete; nor
        # may its profile bring the mode in: Submitter.submit_import refuses a feed's delete)
        modes = [m.value for m in ImportMode if not m.removes_rows]
        if spec.mode not in modes:
            raise PermanentError(ErrorCode.FEED_MODE_INVALID)  # its words name the four modes
        if spec.settle < 0:
            raise PermanentError(ErrorCode.FEED_SETTLE_INVALID)
        self.submitter.import_type(spec.import_type)
        mail_to = parse_addresses(spec.mail_to)
        profile = (spec.profile or "").strip() or None
        if profile is not None:
            # a profile the feed names must exist for its type now, not fail each of its imports later
            version = self.submitter.profiles().get(profile)
            if version.import_type != spec.import_type:
                raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=version.name,
                                     profile_type=version.import_type, import_type=spec.import_type)  # fmt: skip
            if version.profile.options.mode is not None and version.profile.options.mode.removes_rows:
                raise PermanentError(ErrorCode.FEED_NEVER_DELETES, profile=version.name)
            profile = version.name
        folder = Path(spec.folder).expanduser()
        network = is_network_path(folder)
        if not network:
            folder = folder.resolve()
            if not folder.is_dir():
                raise PermanentError(ErrorCode.FEED_FOLDER_MISSING, folder=str(folder))
        return replace(spec, name=name, folder=str(folder), profile=profile, mail_to=mail_to), network

    def run(self, name: str, viewer: Viewer) -> TaskRecord:
        """Look at the folder now: its scan, queued now or brought forward (the one pending or running)."""
        feed = self.find(name, viewer)
        if feed.paused:
            raise PermanentError(ErrorCode.FEED_PAUSED, name=feed.name)
        self.feeds.request_run(feed.id)
        result = self.submitter.submit_feed_scan(feed)
        scan = result.task
        if result.duplicate_of is not None and scan.status is TaskStatus.PENDING:
            self.store.bring_forward(scan.id)
        return self.store.get_by_id(scan.id) or scan

    def pause(self, name: str, viewer: Viewer) -> FeedView:
        """No more scans until resumed: its pending scan is cancelled (a running one ends without queueing
        another). Imports already queued run on; their files are moved once the feed is resumed."""
        feed = self.find(name, viewer)
        self.feeds.set_paused(feed.id, True)
        self._cancel_pending_scan(feed)
        return self.view(name, viewer)

    def resume(self, name: str, viewer: Viewer) -> FeedView:
        """Scans again, the first one now."""
        feed = self.find(name, viewer)
        self.feeds.set_paused(feed.id, False)
        fresh = self.feeds.get_by_id(feed.id) or feed
        self.feeds.request_run(feed.id)
        result = self.submitter.submit_feed_scan(fresh)
        if result.duplicate_of is not None and result.task.status is TaskStatus.PENDING:
            self.store.bring_forward(result.task.id)
        return self.view(name, viewer)

    def set_mail(self, name: str, viewer: Viewer, addresses: str | Sequence[str]) -> FeedView:
        """Who is mailed about the feed's imports that fail or have failed rows (checked; empty: nobody)."""
        feed = self.find(name, viewer)
        self.feeds.set_mail_to(feed.id, parse_addresses(addresses))
        return self.view(name, viewer)

    def remove(self, name: str, viewer: Viewer) -> Feed:
        """The feed goes (and the record of its files); its import tasks stay. Files still in its folder
        stay there."""
        feed = self.find(name, viewer)
        self.feeds.remove(feed.id)
        self._cancel_pending_scan(feed)
        log.info("feed %s removed by %s", feed.name, viewer.user)
        return feed

    def _cancel_pending_scan(self, feed: Feed) -> None:
        scan = self.store.active(feed_scan_key(feed.id))
        if scan is not None and scan.status is TaskStatus.PENDING:
            self.store.cancel(scan.task_no)

    # --- reading them --------------------------------------------------------------------

    def find(self, name: str, viewer: Viewer) -> Feed:
        """The feed of that name the viewer may see; FEED_NOT_FOUND otherwise."""
        feed = self.feeds.get(name)
        if feed is None or (viewer.creator_filter is not None and feed.owner != viewer.user):
            raise PermanentError(ErrorCode.FEED_NOT_FOUND, name=name)
        return feed

    def view(self, name: str, viewer: Viewer) -> FeedView:
        return self.view_of(self.find(name, viewer))

    def views(self, viewer: Viewer) -> list[FeedView]:
        """The feeds the viewer may see, by name, each with its state and today's files."""
        listed = self.feeds.list(owner=viewer.creator_filter)
        if not listed:
            return []
        ids = [f.id for f in listed]
        today = self.feeds.day_counts(dt.date.today().isoformat(), ids)
        waiting = self.feeds.waiting_counts(ids)
        problems: dict[int, list[FeedFile]] = {}
        for row in self.feeds.with_problems(ids):
            problems.setdefault(row.feed_id, []).append(row)
        return [self._view(f, today.get(f.id, {}), waiting.get(f.id, 0), problems.get(f.id, [])) for f in listed]

    def view_of(self, feed: Feed) -> FeedView:
        today = self.feeds.day_counts(dt.date.today().isoformat(), [feed.id]).get(feed.id, {})
        waiting = self.feeds.waiting_counts([feed.id]).get(feed.id, 0)
        return self._view(feed, today, waiting, self.feeds.with_problems([feed.id]))

    def files(self, name: str, viewer: Viewer, *, limit: int = 50, since: dt.datetime | None = None) -> list[FeedFile]:
        """The feed's files, the most recently changed first."""
        return self.feeds.recent(self.find(name, viewer).id, limit=limit, since=since)

    def _in_folder(self, feed: Feed) -> int:
        """A paused feed's files in its folder that its next look would take (no scan looks while it is
        paused): one listing of a folder of this desk, nothing read. A network folder is not listed (a share
        that is away would hold the list for its time-out), nor another desk's folder."""
        if not feed.paused or feed.host != host_name():
            return 0
        try:
            return not_taken_yet(Path(feed.spec.folder), patterns(feed.spec.pattern),
                                 self.feeds.present_brief(feed.id))  # fmt: skip
        except (FolderUnreachable, ValueError):
            return 0

    def _view(self, feed: Feed, today: dict[Outcome, int], waiting: int, problems: list[FeedFile]) -> FeedView:
        scan = self.store.active(feed_scan_key(feed.id))
        state = FeedState.PAUSED if feed.paused else feed.state
        reason = render(feed.reason, None, self.lang) if feed.reason and not feed.paused else None
        words = tuple(text for text in (render(r.problem, None, self.lang) for r in problems) if text)
        day = FeedDay(imported=today.get(Outcome.IMPORTED, 0), failed=today.get(Outcome.FAILED, 0),
                      duplicates=today.get(Outcome.DUPLICATE, 0))  # fmt: skip
        return FeedView(
            feed=feed,
            state=state,
            reason=reason,
            next_run_at=scan.next_run_at if scan is not None and scan.status is TaskStatus.PENDING else None,
            scanning=scan is not None and scan.status is TaskStatus.RUNNING,
            queued_scan=scan.task_no if scan is not None else None,
            today=day,
            waiting=waiting + self._in_folder(feed),
            problems=words,
        )
