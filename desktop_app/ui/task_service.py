"""The window's side of the engine: submissions, cancels, retries and reads, none on the GUI thread."""

from __future__ import annotations

import datetime as dt
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from desktop_app.domain.errors import Lang, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.profiles import Profile, ProfileVersion
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress, SubmitResult, TaskRecord, read_earlier
from desktop_app.domain.viewer import Viewer
from desktop_app.executor.executor import Executor
from desktop_app.exports.task import ExportHandler
from desktop_app.feeds.notices import FeedTask, feeds_of_tasks
from desktop_app.imports import file_preview
from desktop_app.imports.file_preview import Name, StoredKeys
from desktop_app.imports.missing_references import MissingReference
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.resume import RESUMES
from desktop_app.imports.task import ImportHandler
from desktop_app.imports.value_fixes import BadValue
from desktop_app.imports.workbook import SheetPlan
from desktop_app.log import task_log_lines
from desktop_app.store import admins
from desktop_app.store.business_rows import Key
from desktop_app.store.task_files import FileKind
from desktop_app.store.tasks import TaskStore
from desktop_app.submission import Submitter
from desktop_app.tasks.context import ANNOTATED
from desktop_app.tasks.kinds import TaskKinds
from desktop_app.ui.background import Background
from desktop_app.ui.plain_errors import plain_error

log = logging.getLogger(__name__)

IMPORT_TASK = ImportHandler.task_type
EXPORT_TASK = ExportHandler.task_type
# The refresh reads again what changed this long before the newest change it saw: a transaction that
# stamped its rows earlier but committed later (another desk's) is not skipped.
REFRESH_OVERLAP = dt.timedelta(seconds=2)
PUBLISHED_KEPT = 5000  # tasks whose newest listed row is remembered for that (the oldest forgotten first)


class TaskService(QObject):
    """Turns the clerk's requests into engine calls and engine news into GUI-thread signals.

    The clerk sees and manages their own tasks only; an administrator (on the embedded database, the
    desk's user) every clerk's (seed 000 §5.4). The list shows the task table, or the archive.

    Signals:
        record_changed(TaskRecord): a task's row must show this snapshot.
        progress(Progress): a running task moved (the executor's throttled ticks).
        page_loaded(object, list): (before_id or None, records) a page of the task list, newest first.
        page_failed(str): a page could not be read; the reason.
        submitted(SubmitResult): a submission was answered (new, duplicate or refused).
        submit_failed(str, str): (file path or what was asked, plain-language reason) it could not be
            queued.
        busy_changed(bool): a submission is (no longer) in flight.
        task_ended(TaskRecord): a task seen active in this session reached a final status.
        log_lines(str, list): (task number, lines) the log of a task, for the details panel.
        types_checked(dict, dict): (usable import types by name, problems by name) as found again.
        problem(str): a request (a cancel) could not be done; the plain-language reason.
        list_stale(): the clean-up archived tasks: the list must be read again.
        plan_applied(str, SubmitResult): (the dry run's task number, the apply's task) its plan was queued.
        plan_discarded(str): the dry run's plan was discarded.
        plan_refused(str, str): (the dry run's task number, the reason in words) the apply or the discard was
            refused (already applied, the file changed since, ...): nothing was queued.
    """

    record_changed = Signal(object)
    progress = Signal(object)
    page_loaded = Signal(object, object)
    page_failed = Signal(str)
    submitted = Signal(object)
    submit_failed = Signal(str, str)
    busy_changed = Signal(bool)
    task_ended = Signal(object)
    log_lines = Signal(str, object)
    types_checked = Signal(object, object)
    problem = Signal(str)
    list_stale = Signal()
    plan_applied = Signal(str, object)
    plan_discarded = Signal(str)
    plan_refused = Signal(str, str)

    def __init__(
        self,
        executor: Executor,
        store: TaskStore,
        log_dir: Path,
        *,
        submitter: Submitter,
        kinds: TaskKinds,
        user: str | None = None,
        refresh_ms: int = 3000,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._executor = executor
        self._store = store
        # the one submission path (the command line's and the demo's too)
        self.submitter = submitter
        self._kinds = kinds
        self._log_dir = log_dir
        # in team mode the database login (docs/TEAM.md): the desk queues nothing in another name
        self._user = user or submitter.user()
        # Until the first page says otherwise (a look-up in the database), a clerk sees only their own.
        self._viewer = Viewer(self._user, is_admin=admins.embedded(store.engine))
        self._archived = False
        self._archive_swept: set[int] = set()  # clean-ups already answered with list_stale
        self._background = Background(executor.run_in_background, self)
        # a task's stored file fetched from a shared database (maybe 100 MB): beside the short reads, never
        # in front of a page or a submission
        self._files = Background(executor.run_file_work, self)
        self._in_flight = 0
        # the tasks seen pending or running, as last seen (the quit question asks about those that matter)
        self._active: dict[int, TaskRecord] = {}
        # Tasks seen ending before this desk knew them as queued (last few): a task queued here can run to
        # its end on a worker before the GUI thread hears of its submission (a loaded machine, a short
        # task); the submission's record, read when it was queued, must not put it back to "pending".
        self._ended_unseen: OrderedDict[int, TaskRecord] = OrderedDict()
        # The newest row each task was published with (updated_at, the database's clock). Reads run off the
        # GUI thread and arrive out of order: a refresh that read a task while it ran can arrive after the
        # worker's news of its end; published, it listed the task as running again and made it "active", so
        # a later read of it (an import re-read after its value fix) told it as ended a second time, over
        # the notice of the task that had just ended.
        self._published_at: OrderedDict[int, dt.datetime] = OrderedDict()
        # The refresh's own watermark: only what the refresh read moves it (this desk's events and page
        # loads do not: a task another desk changed before our own later event would be skipped).
        self._stamp: dt.datetime | None = None
        self._last_refresh: dict[int, TaskRecord] = {}
        self._refresh_failing = False
        executor.progress.connect(self._on_progress)
        executor.task_changed.connect(self._on_task_changed)
        # Tasks run by other workers (another desk, `batchdesk worker`) change only in the table.
        self._refresh = QTimer(self)
        self._refresh.setInterval(refresh_ms)
        self._refresh.timeout.connect(self.refresh_changed)
        if refresh_ms > 0:
            self._refresh.start()

    def stop(self) -> None:
        """No more refreshes (the executor, whose pool runs them, is stopping)."""
        self._refresh.stop()

    # --- reading -------------------------------------------------------------------------

    @property
    def viewer(self) -> Viewer:
        return self._viewer

    @property
    def archived(self) -> bool:
        return self._archived

    def show_archived(self, archived: bool) -> None:
        """List the archive (the tasks the clean-up moved out of the task table) or the task table;
        the view reloads its pages after this."""
        self._archived = archived

    def load_page(self, before_id: int | None, limit: int) -> None:
        """The `limit` newest tasks below before_id (keyset paging: new tasks never shift a page)."""
        store, user, archived = self._store, self._user, self._archived

        def read() -> tuple[Viewer, list[TaskRecord]]:
            viewer = admins.viewer(store.engine, user)
            return viewer, store.list(limit=limit, before_id=before_id, creator=viewer.creator_filter,
                                      archived=archived)  # fmt: skip

        def done(answer: tuple[Viewer, list[TaskRecord]]) -> None:
            self._viewer, records = answer
            if archived != self._archived:
                return  # a page of the other list, asked for before the switch
            for record in records:
                self._note(record)
            self.page_loaded.emit(before_id, records)

        def failed(exc: BaseException) -> None:
            self.page_failed.emit(plain_error(exc, self._executor.lang, "reading the task list"))

        self._background.call(read, done, failed)

    def refresh_changed(self) -> None:
        """Fetch the tasks updated since the refresh last looked (cheap; runs every few seconds).

        The watermark is the newest updated_at the refresh itself read, less REFRESH_OVERLAP; rows read
        again unchanged are not published twice (the model upserts by id anyway)."""
        if self._background.busy() or self._archived:
            return  # archived tasks do not change
        creator = self._viewer.creator_filter
        since = self._stamp or (dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(minutes=1))

        def done(records: list[TaskRecord]) -> None:
            self._refresh_failing = False
            seen = self._last_refresh
            for record in records:
                if seen.get(record.id) != record:
                    self._publish(record)
            self._last_refresh = {record.id: record for record in records}
            stamps = [r.updated_at for r in records if r.updated_at is not None]
            if stamps:
                self._stamp = max(since, max(stamps) - REFRESH_OVERLAP)

        def failed(exc: BaseException) -> None:
            if not self._refresh_failing:  # once per outage, not every few seconds
                log.warning("refreshing the task list failed (retried quietly): %s", exc)
            self._refresh_failing = True

        self._background.call(lambda: self._store.changed_since(since, creator=creator), done, failed)

    def check_types(self) -> None:
        """Look at the import types again, each against this database (a type file dropped into the data
        folder, or one whose table no longer fits it); the answer is types_checked."""
        catalog, engine = self.submitter.catalog, self._store.engine

        def read() -> tuple[dict[str, Any], dict[str, str]]:
            from desktop_app.imports.type_schema import type_problem

            types: dict[str, Any] = {}
            problems: dict[str, str] = {}
            for entry in catalog.entries():
                if entry.ok and not self.submitter.visible(entry.import_type):  # type: ignore[arg-type]
                    continue  # team mode: a type whose table the login may not read is not in its lists
                problem = entry.problem if not entry.ok else type_problem(engine, entry.import_type)  # type: ignore[arg-type]
                if problem:
                    problems[entry.name] = problem
                else:
                    types[entry.name] = entry.import_type
            return types, problems

        def failed(exc: BaseException) -> None:
            log.warning("the import types could not be checked (tried again later): %s", exc)

        self._background.call(read, lambda found: self.types_checked.emit(*found), failed)

    @property
    def in_team(self) -> bool:
        """Whether the database is in team mode (its answer at the start): rights per login apply."""
        return self.submitter.login is not None

    def rights_refusal(self, import_type: str, mode: str) -> PermanentError | None:
        """Why this login may not import into the type in the mode (team mode), or None. Off the GUI thread:
        it asks the database."""
        return self.submitter.rights_refusal(import_type, ImportMode(mode))

    def look_up_keys(self, itype: Any, keys: Sequence[Key], names: Sequence[Name]) -> StoredKeys:
        """The table's rows for a preview's keys, in one query, and which of its reference names their tables
        hold (one query per reference column). Call it off the GUI thread (through ``background``): it asks
        the database."""
        return file_preview.look_up_keys(self._store.engine, itype, keys, names)

    def sync_deletes(self, request: ImportOptions) -> tuple[int, str]:
        """How many rows a sync of the request's file would delete now, and the table's name. Call it off the
        GUI thread: it reads the file's keys and asks the database."""
        count = self.submitter.sync_deletes(request)
        return count, self.submitter.import_type(request.import_type).table

    def list_profiles(self, pinned: tuple[str, int] | None = None) -> list[ProfileVersion]:
        """Every mapping profile's latest version; with ``pinned`` (name, version), that profile's that
        version instead (a re-import repairs a task with the version the task used, not a newer one). Call
        it off the GUI thread: it asks the database."""
        store = self.submitter.profiles()
        found = store.list()
        if pinned is None:
            return found
        name, version = pinned
        try:
            kept = store.get(name, version, removed_ok=True)
        except PermanentError:  # that version is gone (never: versions are kept): the latest serves
            return found
        return [p for p in found if p.name != kept.name] + [kept]

    def save_profile(self, name: str, profile: Profile) -> ProfileVersion:
        """Save a profile's next version as this desk's clerk (held to its type). Off the GUI thread."""
        return self.submitter.save_profile(name, profile, user=self._user, source="the preview")

    def load_log(self, task_no: str) -> None:
        self._background.call(lambda: task_log_lines(self._log_dir, task_no),
                              lambda lines: self.log_lines.emit(task_no, lines))  # fmt: skip

    # --- the clerk's requests ------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._in_flight > 0

    @property
    def background(self) -> Background:
        """Runs other short reads (a file's header, a preview) on the same pool."""
        return self._background

    def active_to_ask(self) -> list[TaskRecord]:
        """The pending or running tasks that quitting should ask about: every task the list shows with system
        tasks hidden, and a hidden (system) task only while it runs. A pending system task (a feed's scan) is
        not one: it runs at the next start anyway, and the clerk never sees it in the list."""
        return [r for r in self._active.values()
                if r.status is TaskStatus.RUNNING or not self._kinds.of(r).system]  # fmt: skip

    def submit_many(self, requests: Iterable[ImportOptions]) -> None:
        """Queue several imports at once (the demo's samples); the guard counts them all."""
        for request in requests:
            self._submit_import(request, force=False)

    def submit_import(self, request: ImportOptions, *, force: bool = False) -> bool:
        """Queue an import; False (and nothing sent) while another submission is still in flight."""
        if self._in_flight:
            return False
        self._submit_import(request, force=force)
        return True

    def _submit_import(self, request: ImportOptions, *, force: bool) -> None:
        submitter, user = self.submitter, self._user
        self._submit_in_background(lambda: submitter.submit_import(request, user=user, force=force),
                                   str(request.file))  # fmt: skip

    @property
    def lang(self) -> Lang:
        """The language the engine's words are in (a skipped sheet's reason, an error)."""
        return self._executor.lang

    def plan_workbook(self, path: Path, done: Callable[[list[SheetPlan], list[SheetPlan]], None],
                      failed: Callable[[str], None]) -> None:  # fmt: skip
        """Each sheet of a workbook with its type or why it is skipped, and the matched ones in the order they
        would run (off the GUI thread: the sheets' headers are read)."""
        from desktop_app.imports.workbook import run_order

        submitter, lang = self.submitter, self.lang

        def plan() -> tuple[list[SheetPlan], list[SheetPlan]]:
            plans = submitter.plan_workbook(ImportOptions(file=path, import_type=""))
            return plans, run_order(plans, submitter.catalog.types())

        self._background.call(plan, lambda found: done(*found),
                              lambda exc: failed(plain_error(exc, lang, f"reading the sheets of {path}")))  # fmt: skip

    def submit_workbook(self, request: ImportOptions, plans: list[SheetPlan]) -> bool:
        """Queue a workbook (one task, an import of each matched sheet under it); False while another submission
        is still in flight."""
        if self._in_flight:
            return False
        submitter, user = self.submitter, self._user
        self._submit_in_background(lambda: submitter.submit_workbook(request, plans, user=user), str(request.file))
        return True

    def retry(self, record: TaskRecord) -> bool:
        """Run a failed task's file again, as a new task with the same parameters."""
        return self.submit_import(self.submitter.resubmission(record), force=True)

    def import_for_real(self, record: TaskRecord) -> bool:
        """After a validate-only run: the same file and parameters, this time committing."""
        return self.submit_import(self.submitter.resubmission(record, dry_run=False))

    def reimport_request(self, record: TaskRecord, path: Path | None = None) -> ImportOptions:
        """The import of the clerk's corrected error CSV of a task, for its preview to start from (queued
        from there, never at once): the task's type, mode and file conventions, the error file's own
        encoding and separator (BatchDesk writes it as UTF-8 CSV), and the task it repairs."""
        source = path or self.submitter.task_file(record, FileKind.ERRORS) or Path(str(record.error_csv))
        return self.submitter.resubmission(record, file=source, dry_run=False, encoding=None, header_overrides={},
                                           repairs=record.task_no, sheet=None, delimiter=None)  # fmt: skip

    def can_export(self) -> bool:
        return EXPORT_TASK in self._executor.registry

    def submit_export(self, name: str, filters: dict[str, Any], fmt: str, encoding: str, *,
                      output: Path | None = None, replace: bool = False) -> bool:  # fmt: skip
        """Queue an export (its task comes back at once, pending; or the same export still active), to
        `output` when the clerk chose a place. False (and nothing sent) while another submission is in flight."""
        if self._in_flight:
            return False
        submitter, user = self.submitter, self._user
        self._submit_in_background(
            lambda: submitter.submit_export(
                name, filters=filters, fmt=fmt, encoding=encoding, user=user, output=output, replace=replace
            ),
            name,
        )
        return True

    def complete_references(self, record: TaskRecord, *, add: bool = False) -> bool:
        """Queue the completion of an import's pending references (a short task: it never waits
        behind long ones); with ``add``, the names not found are added to their reference tables first.
        A completion of the same import still pending or running is returned."""
        if self._in_flight:
            return False
        submitter, user, task_no, creator = self.submitter, self._user, record.task_no, self._viewer.creator_filter
        self._submit_in_background(lambda: submitter.submit_completion(task_no, user=user, add=add, creator=creator),
                                   task_no)  # fmt: skip
        return True

    def read_names_to_add(self, record: TaskRecord, done: Callable[[list[MissingReference]], None],
                          failed: Callable[[BaseException], None], *, context: QObject) -> None:  # fmt: skip
        """Every name adding an import's missing names would add (Submitter.names_to_add), read off the GUI
        thread (there may be tens of thousands): ``done`` gets them, ``failed`` why they could not be read."""
        submitter, task_no, creator = self.submitter, record.task_no, self._viewer.creator_filter
        self._background.call(lambda: submitter.names_to_add(task_no, creator=creator), done, failed,
                              context=context)  # fmt: skip

    def read_bad_values(self, record: TaskRecord, done: Callable[[list[BadValue]], None],
                        failed: Callable[[BaseException], None], *, context: QObject) -> None:  # fmt: skip
        """The distinct values an ended import's enum columns refused (Submitter.bad_values), read off the GUI
        thread: ``done`` gets them (none: nothing to fix), ``failed`` the reason it could not be read; neither
        once ``context`` (the object they touch) is gone."""
        submitter, task_no, creator = self.submitter, record.task_no, self._viewer.creator_filter
        # it reads the error file, which may first be fetched from a shared database: a file's work
        self._files.call(lambda: submitter.bad_values(task_no, creator=creator), done, failed, context=context)

    def task_file_at_hand(self, record: TaskRecord, kind: FileKind) -> tuple[bool, Path | None]:
        """(True, the task's file or None) when this desk has the answer without asking the database (cheap:
        on the GUI thread); (False, None) when fetch_task_file must ask. A change file is never at hand: the
        window's language may need it written again from the plan (Submitter.changes_file), a file's work."""
        if kind is FileKind.CHANGES:
            return False, None
        return self.submitter.task_file_at_hand(record, kind)

    def fetch_task_file(self, record: TaskRecord, kind: FileKind, done: Callable[[Path | None], None],
                        failed: Callable[[str], None]) -> None:  # fmt: skip
        """A task's error CSV, or its change file in the window's language, off the GUI thread (either may be
        large, fetched from a shared database or written from the plan): ``done`` gets its path on this desk
        (None: there is none), ``failed`` the reason in words."""
        submitter, lang = self.submitter, self._executor.lang

        def work() -> Path | None:
            if kind is FileKind.CHANGES:
                return submitter.changes_file(record, lang, strict=True)
            return submitter.task_file(record, kind, strict=True)

        self._files.call(work, done,
                         lambda exc: failed(plain_error(exc, lang, f"fetching the {kind.value} file of "
                                                                   f"{record.task_no}")))  # fmt: skip

    def read_feeds_of(self, task_nos: Sequence[str], done: Callable[[dict[str, FeedTask]], None], *,
                      context: QObject) -> None:  # fmt: skip
        """Which of these tasks imported a feed's file (feeds/notices.py), read off the GUI thread: ``done``
        gets them by task number ({} when it could not be read: the tasks are then told as any other)."""
        engine, numbers = self._store.engine, list(task_nos)
        self._background.call(lambda: feeds_of_tasks(engine, numbers), done, lambda _exc: done({}), context=context)

    def fix_values(self, record: TaskRecord, values: dict[str, dict[str, str]], *,
                   remember_as: str | None = None) -> bool:  # fmt: skip
        """Queue the fix of an import's values (column key -> {bad: good}); with ``remember_as``, the mappings
        are first saved into that profile as its new version (a failure there queues nothing). False (and
        nothing sent) while another submission is in flight."""
        if self._in_flight:
            return False
        submitter, user, task_no, creator = self.submitter, self._user, record.task_no, self._viewer.creator_filter
        import_type = str(record.params.get("import_type"))

        def submit() -> SubmitResult:
            if remember_as:
                submitter.save_value_mappings(remember_as, import_type, values, user=user, source=f"task {task_no}")
            return submitter.submit_value_fix(task_no, values, user=user, creator=creator)

        self._submit_in_background(submit, task_no)
        return True

    def undo(self, record: TaskRecord) -> bool:
        """Queue the undo of an import (the same undo again if one was asked for already)."""
        if self._in_flight:
            return False
        submitter, user, task_no = self.submitter, self._user, record.task_no
        self._submit_in_background(lambda: submitter.submit_undo(task_no, user=user), task_no)
        return True

    def resume(self, record: TaskRecord) -> bool:
        """ "Import the remaining rows" of a stopped import: a new task from where it stopped (or the one
        already asked for). False (and nothing sent) while another submission is in flight."""
        if self._in_flight:
            return False
        submitter, user, task_no, creator = self.submitter, self._user, record.task_no, self._viewer.creator_filter
        self._submit_in_background(lambda: submitter.submit_resume(task_no, user=user, creator=creator), task_no)
        return True

    def apply_plan(self, task_no: str) -> bool:
        """Queue the apply of a dry run's change plan (an import of the same file, each row written as planned);
        answered by plan_applied or plan_refused. False (and nothing sent) while another submission is in flight."""
        if self._in_flight:
            return False
        # the engine's change plans (issue 26): typed loosely until the Submitter's names are settled
        submitter = self.submitter
        user, creator = self._user, self._viewer.creator_filter
        self._in_flight += 1
        self.busy_changed.emit(True)

        def done(result: SubmitResult) -> None:
            self._done_submitting()
            self._executor.wake()
            if not result.refused:
                self._publish_submitted(result.task)
            self._reread([task_no])  # the dry run now names its apply: no second apply is offered
            self.plan_applied.emit(task_no, result)

        def failed(exc: BaseException) -> None:
            self._done_submitting()
            self.plan_refused.emit(task_no, plain_error(exc, self._executor.lang, f"applying the plan of {task_no}"))

        self._background.call(lambda: submitter.submit_apply(task_no, user=user, creator=creator), done, failed)
        return True

    def discard_plan(self, task_no: str) -> None:
        """Discard a dry run's change plan (its plan file goes, its change file stays); answered by
        plan_discarded or plan_refused."""
        submitter = self.submitter
        user, creator = self._user, self._viewer.creator_filter

        def done(answer: object) -> None:
            if isinstance(answer, TaskRecord):
                self._publish(answer)
            else:
                self._reread([task_no])
            self.plan_discarded.emit(task_no)

        def failed(exc: BaseException) -> None:
            self.plan_refused.emit(task_no, plain_error(exc, self._executor.lang, f"discarding the plan of {task_no}"))

        self._background.call(lambda: submitter.discard_plan(task_no, user=user, creator=creator), done, failed)

    def _submit_in_background(self, submit: Any, what: str) -> None:
        self._in_flight += 1
        self.busy_changed.emit(True)

        def failed(exc: BaseException) -> None:
            self._on_submit_failed(what, plain_error(exc, self._executor.lang, f"submission of {what}"))

        def done(result: SubmitResult) -> None:
            self._executor.wake()
            self._on_submitted(result)

        self._background.call(submit, done, failed)

    def cancel(self, record: TaskRecord) -> None:
        task_no, creator = record.task_no, self._viewer.creator_filter

        def done(updated: TaskRecord | None) -> None:
            if updated is not None:
                self._publish(updated)

        def failed(exc: BaseException) -> None:
            reason = plain_error(exc, self._executor.lang, f"cancelling {task_no}")
            self.problem.emit(
                self.tr("Task %1 could not be cancelled: %2").replace("%1", task_no).replace("%2", reason)
            )

        self._background.call(lambda: self._store.cancel(task_no, creator=creator), done, failed)

    # --- engine news ---------------------------------------------------------------------

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        self.progress.emit(progress)

    @Slot(object)
    def _on_task_changed(self, record: TaskRecord) -> None:
        self._publish(record)
        self._reread_related(record)

    def _reread_related(self, record: TaskRecord) -> None:
        """A task that ended may have changed other rows (an export marks the files it replaced as
        expired, a completion lowers its import's pending count, an undo marks its imports undone): the
        engine names them in its summary, whatever the type. Read those rows again."""
        if not record.status.is_final:
            return
        annotated = record.summary.get(ANNOTATED)
        if annotated is True:  # too many to read one by one (a clean-up's): the list is read again
            self.list_stale.emit()
        elif isinstance(annotated, list):
            self._reread([str(n) for n in annotated])

    def _reread(self, related: list[str]) -> None:
        if not related:
            return
        store = self._store

        def read() -> list[TaskRecord]:
            return [r for r in (store.get(n) for n in related) if r is not None]

        def done(records: list[TaskRecord]) -> None:
            for changed in records:
                self._publish(changed)

        self._background.call(read, done, lambda exc: None)

    @Slot(object)
    def _on_submitted(self, result: SubmitResult) -> None:
        self._done_submitting()
        if not result.refused:
            self._publish_submitted(result.task)
            resumes = result.task.params.get(RESUMES)
            if resumes:  # the stopped import now names the task that continues it
                self._reread([str(resumes)])
        self.submitted.emit(result)

    def _publish_submitted(self, task: TaskRecord) -> None:
        """A task this desk just queued: listed, and told when it ends, even when it ran to its end before
        the GUI thread heard it was queued (then said as ended, never listed as pending again)."""
        ended = self._ended_unseen.pop(task.id, None)
        if ended is not None:
            self._active[ended.id] = ended  # seen active: told as ended, then no longer active
        self._publish(ended or task)

    @Slot(str, str)
    def _on_submit_failed(self, path: str, reason: str) -> None:
        self._done_submitting()
        self.submit_failed.emit(path, reason)

    def _done_submitting(self) -> None:
        self._in_flight = max(0, self._in_flight - 1)
        if not self._in_flight:
            self.busy_changed.emit(False)

    def _stale(self, record: TaskRecord) -> bool:
        """Whether a newer row of this task was published already (then this read is dropped)."""
        stamp = record.updated_at
        if stamp is None:
            return False
        if read_earlier(record, self._published_at.get(record.id)):
            return True
        self._published_at[record.id] = stamp
        self._published_at.move_to_end(record.id)
        while len(self._published_at) > PUBLISHED_KEPT:
            self._published_at.popitem(last=False)
        return False

    def _publish(self, record: TaskRecord) -> None:
        if self._stale(record):
            return
        if (self._kinds.of(record).sweeps and record.status.is_final and record.summary.get("archived")
                and record.id not in self._archive_swept):  # fmt: skip
            # The clean-up moved tasks out of the task table; the list's rows of them would stay until
            # a restart (the refresh reads changed rows, and a moved one is no longer there).
            self._archive_swept.add(record.id)
            self.list_stale.emit()
        if not self._viewer.can_see(record):
            return  # another clerk's task this desk ran (or the same export as theirs)
        was_active = record.id in self._active
        self._note(record)
        if not self._archived:  # the archive's list shows no live task
            self.record_changed.emit(record)
        if was_active and record.status.is_final:
            self.task_ended.emit(record)
        elif record.status.is_final:
            self._ended_unseen[record.id] = record
            while len(self._ended_unseen) > 50:
                self._ended_unseen.popitem(last=False)

    def _note(self, record: TaskRecord) -> None:
        if record.status in (TaskStatus.PENDING, TaskStatus.RUNNING):
            self._active[record.id] = record
        else:
            self._active.pop(record.id, None)
