"""What a clerk can do with one task: the actions, when each is enabled, and what each does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence

from desktop_app.domain.errors import FILE_AT_FAULT
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.change_plan import plan_path
from desktop_app.imports.error_csv import looks_unedited
from desktop_app.imports.missing_references import MissingReference, missing_of
from desktop_app.imports.resume import stopped_early
from desktop_app.imports.value_fixes import BadValue
from desktop_app.store.task_files import FileKind
from desktop_app.tasks.kinds import Action, TaskKind, TaskKinds, Words
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.reveal import open_local
from desktop_app.ui.task_service import TaskService


class TaskActions(QObject):
    """The per-task QActions (menu, toolbar, context menu share them) for the selected task.

    Signals:
        details_requested(TaskRecord): the clerk asked for the details panel.
        cancel_requested(TaskRecord): the clerk asked to cancel the task (the window asks first, then
            calls confirm_cancel()).
        undo_requested(TaskRecord): the clerk asked to undo an import (the window asks first, then calls
            confirm_undo()).
        problem(str): an action could not be done; a plain-language reason to show.
        open_failed(object): the Path exists but the desktop could not open it (no program for it).
        reimport_requested(object, str): (ImportOptions, warning or "") the clerk asked to re-import a task's
            fixed error file: the window opens its preview, with the warning when the file is unedited.
        fix_values_requested(TaskRecord, list): (the import, its BadValues) the clerk asked to fix the values
            its enum columns refused: the window opens the dialog, then calls confirm_fix_values().
        sync_requested(object): (ImportOptions) a sync run again (a retry, the real run after a validation):
            the window counts what it would delete now and asks, as on Queue, before it is queued.
        add_references_requested(TaskRecord, list): (an import, every MissingReference adding would add) the
            clerk asked to add an import's missing names: master data, so the window asks first (what is added,
            where, the rows it completes), then calls confirm_add_references().
        plan_requested(TaskRecord, object): (a dry run, its plan file's Path) the clerk asked to review the
            changes it planned: the window opens the plan's dialog.
        fetching(str): a task's file is being fetched from the shared database (the text to show meanwhile);
            "" once it is here (or could not be fetched).
    """

    details_requested = Signal(object)
    cancel_requested = Signal(object)
    undo_requested = Signal(object)
    problem = Signal(str)
    open_failed = Signal(object)
    reimport_requested = Signal(object, str)
    fix_values_requested = Signal(object, object)
    sync_requested = Signal(object)
    plan_requested = Signal(object, object)
    add_references_requested = Signal(object, object)
    fetching = Signal(str)

    def __init__(
        self,
        service: TaskService,
        *,
        kinds: TaskKinds,
        results_dir: Path,
        opener: Callable[[Path], bool] = open_local,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._kinds = kinds
        self._results_dir = results_dir
        self._opener = opener
        self.record: TaskRecord | None = None
        self.open_when_done_tasks: set[str] = set()  # task numbers whose file opens when they end
        # the values each import's enum columns refused, read off the GUI thread, by fix_key(): asked once
        # per state of the import (a fix changes its counts, and so its key)
        self.bad_values: dict[tuple[object, ...], list[BadValue]] = {}
        self._asking: dict[tuple[object, ...], list[Callable[[list[BadValue]], None]]] = {}  # waiting
        self._fetching: set[tuple[str, FileKind]] = set()  # the files being fetched, each opened once here

        def make(handler: Callable[[], None], shortcut: str | None = None) -> QAction:
            action = QAction(self)
            if shortcut:
                action.setShortcut(QKeySequence(shortcut))
            action.triggered.connect(lambda _checked=False: handler())
            return action

        self.open_result = make(self._open_result, "Ctrl+Shift+O")
        self.open_errors = make(self._open_errors, "Ctrl+E")
        self.open_folder = make(self._open_folder, "Ctrl+Shift+E")
        self.reimport = make(self._reimport, "Ctrl+R")
        self.cancel = make(self._cancel, "Del")
        self.retry = make(self._retry, "Ctrl+Shift+R")
        self.resume = make(self._resume, "Ctrl+Shift+M")
        self.import_for_real = make(self._import_for_real, "Ctrl+I")
        self.review_plan = make(self._review_plan, "Ctrl+Shift+P")  # P: the change plan
        self.complete_references = make(self._complete_references, "Ctrl+Shift+K")
        self.add_references = make(self._add_references, "Ctrl+Shift+N")  # N: add the missing names
        self.fix_values = make(self._fix_values, "Ctrl+Shift+V")  # V: values
        self.undo = make(self._undo, "Ctrl+Shift+Z")
        self.details = make(self._details, "Ctrl+D")
        self.open_when_done = QAction(self)
        self.open_when_done.setCheckable(True)
        self.open_when_done.setShortcut(QKeySequence("Ctrl+Shift+W"))
        self.open_when_done.toggled.connect(self._open_when_done_toggled)
        self.retranslate()
        self.set_record(None)

    def all(self) -> list[QAction]:
        return [self.open_result, self.open_errors, self.open_folder, self.reimport, self.cancel, self.resume,
                self.retry, self.import_for_real, self.review_plan, self.complete_references, self.add_references,
                self.fix_values, self.undo, self.open_when_done, self.details]  # fmt: skip

    def set_record(self, record: TaskRecord | None) -> None:
        """The selected task (or its newer snapshot): enable exactly what applies to it."""
        self.record = record
        if record is None:
            for action in self.all():
                action.setEnabled(False)
            return
        kind = self._kinds.of(record)
        dry_run = bool(record.params.get("dry_run"))
        expired = bool(record.summary.get("expired"))  # replaced by a newer export, or cleaned up
        # an undone import's rows are gone: completing their references or re-importing the rows it could not
        # import would build on rows that are no longer there
        undone = bool(record.undone_by)
        done = record.status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED)
        # a file saved where the clerk chose is the clerk's to move or delete: no dead link once it is gone
        saved_elsewhere = bool(record.params.get("output"))
        self.open_result.setEnabled(kind.allows(Action.OPEN_RESULT) and done and bool(record.result_path)
                                    and not expired
                                    and (not saved_elsewhere or Path(record.result_path or "").is_file()))  # fmt: skip
        self.open_errors.setEnabled(kind.allows(Action.OPEN_ERRORS) and bool(record.error_csv) and not expired)
        self.open_folder.setEnabled(bool(record.error_csv or record.result_path) and not expired)
        self.reimport.setEnabled(kind.allows(Action.OPEN_ERRORS) and record.status.is_final
                                 and bool(record.error_csv) and not dry_run and not expired and not undone)  # fmt: skip
        self.cancel.setEnabled(kind.allows(Action.CANCEL) and record.status.is_active and not record.cancel_requested)
        self.resume.setEnabled(can_resume(record, kind))
        # a stopped import goes on where it stopped (or did already, as another task); running its whole file
        # again would fail every row already in as already_exists. An import failed by its rows (too many bad
        # ones, no error code) would fail them again: the clerk fixes the error file and re-imports it. A file
        # at fault (corrupt, empty, a column missing, ...) fails the same way again: the clerk fixes the file.
        self.retry.setEnabled(kind.allows(Action.RETRY) and record.status is TaskStatus.FAILED
                              and bool(record.params.get("file"))
                              and not stopped_early(record) and not failed_by_its_rows(record, kind)
                              and record.error_code not in FILE_AT_FAULT)  # fmt: skip
        self.import_for_real.setEnabled(kind.allows(Action.APPLY) and done and dry_run)
        self.review_plan.setEnabled(self.plan_to_review(record))
        self.complete_references.setEnabled(kind.allows(Action.COMPLETE_REFERENCES) and record.status.is_final
                                            and record.pending_completion_count > 0 and not dry_run
                                            and not undone)  # fmt: skip
        self.add_references.setEnabled(bool(addable_tables(record, kind)))
        self._enable_fix_values(record, kind)
        self.undo.setEnabled(undoable(record, kind))
        self.details.setEnabled(True)
        self.open_when_done.blockSignals(True)
        self.open_when_done.setChecked(record.task_no in self.open_when_done_tasks)
        self.open_when_done.blockSignals(False)
        self.open_when_done.setEnabled(record.status.is_active and kind.allows(Action.OPEN_WHEN_DONE)
                                       and not bool(record.params.get("dry_run")))  # fmt: skip

    # --- what each does ------------------------------------------------------------------

    def _open_result(self) -> None:
        if self.record is None or not self.record.result_path:
            return
        path = Path(self.record.result_path)
        if not path.exists():
            self.problem.emit(self.tr("The exported file is gone: %s") % path)
            return
        self._open(path)

    def with_task_file(self, record: TaskRecord, kind: FileKind, then: Callable[[Path], None]) -> None:
        """The task's error CSV or change file, then ``then(path)``: at once when this desk has it (its own
        file, a desk's own database), else fetched from the shared database off the GUI thread (another desk
        of the owner's ran the task; the file may be large), a busy cursor and a status text meanwhile. A
        change file is always made ready off the GUI thread: in the window's language, written from the plan
        where the dry run wrote it in another. Gone, or the fetch failed: said in words (problem)."""
        known, path = self._service.task_file_at_hand(record, kind)
        if known:
            self._then_open(record, kind, path, then)
            return
        key = (record.task_no, kind)
        if key in self._fetching:
            return  # asked already: it is handed on once here
        self._fetching.add(key)
        QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        if kind is FileKind.CHANGES:
            self.fetching.emit(self.tr("Preparing the change file of %1…").replace("%1", record.task_no))
        else:
            self.fetching.emit(self.tr("Fetching the file of %1 from the database…").replace("%1", record.task_no))

        def ended() -> None:
            self._fetching.discard(key)
            QGuiApplication.restoreOverrideCursor()
            self.fetching.emit("")

        def done(fetched: Path | None) -> None:
            ended()
            self._then_open(record, kind, fetched, then)

        def failed(reason: str) -> None:
            ended()
            self.problem.emit(self.tr("The file of %1 could not be fetched from the database: %2")
                              .replace("%1", record.task_no).replace("%2", reason))  # fmt: skip

        self._service.fetch_task_file(record, kind, done, failed)

    def open_task_file(self, record: TaskRecord, kind: FileKind) -> None:
        """Open a task's error CSV or change file in its program (fetched first where another desk made it)."""
        self.with_task_file(record, kind, self._open)

    def _then_open(self, record: TaskRecord, kind: FileKind, path: Path | None, then: Callable[[Path], None]) -> None:
        if path is not None:
            then(path)
        elif kind is FileKind.ERRORS:
            self.problem.emit(self.tr("The error file is gone: %s") % record.error_csv)
        else:
            self.problem.emit(self.tr("The change file of %1 is gone.").replace("%1", record.task_no))

    def _open_errors(self) -> None:
        if self.record is not None and self.record.error_csv:
            # this desk's file, or the copy the shared database keeps (another desk of the owner's ran it)
            self.with_task_file(self.record, FileKind.ERRORS, self._open)

    def _open_folder(self) -> None:
        if self.record is None:
            return
        target = self.record.result_path or self.record.error_csv
        folder = Path(target).parent if target else self._results_dir
        if not folder.exists():
            self.problem.emit(self.tr("The folder is gone: %s") % folder)
            return
        self._open(folder)

    def _open(self, path: Path) -> None:
        if not self._opener(path):
            self.open_failed.emit(path)

    def open_ended(self, record: TaskRecord) -> bool:
        """ "Open when done": a task that ended opens its file (an export's file, an import's error file).
        True when it had asked to; an import without errors has nothing to open."""
        if record.task_no not in self.open_when_done_tasks:
            return False
        self.open_when_done_tasks.discard(record.task_no)
        if (self._kinds.of(record).allows(Action.OPEN_RESULT) and record.result_path
                and record.status is TaskStatus.SUCCEEDED):  # fmt: skip
            self._open(Path(record.result_path))
        elif record.error_csv:
            self.with_task_file(record, FileKind.ERRORS, self._open)
        return True

    def _open_when_done_toggled(self, checked: bool) -> None:
        if self.record is None:
            return
        if checked:
            self.open_when_done_tasks.add(self.record.task_no)
        else:
            self.open_when_done_tasks.discard(self.record.task_no)

    def _reimport(self) -> None:
        record = self.record
        if record is None or not record.error_csv:
            return

        def reimport(path: Path) -> None:
            notice = ""
            if looks_unedited(record):
                notice = self.tr("This error file is unchanged since BatchDesk wrote it: its rows would fail "
                                 "again. Correct the cells its last columns name, save the file, then re-import "
                                 "it.")  # fmt: skip
            self.reimport_requested.emit(self._service.reimport_request(record, path), notice)

        self.with_task_file(record, FileKind.ERRORS, reimport)

    def _cancel(self) -> None:
        if self.record is not None and self.cancel.isEnabled():
            self.cancel_requested.emit(self.record)

    def confirm_cancel(self, record: TaskRecord) -> None:
        """The clerk confirmed: cancel the task (committed rows stay)."""
        self._service.cancel(record)

    def _retry(self) -> None:
        if self.record is not None and not self._sync_again():
            self._submit(self._service.retry(self.record))

    def _resume(self) -> None:
        if self.record is not None and can_resume(self.record, self._kinds.of(self.record)):
            self._submit(self._service.resume(self.record))

    def _sync_again(self, **changes: Any) -> bool:
        """A sync is never queued again with its old confirmed number: the window asks for the number now."""
        assert self.record is not None
        if self.record.params.get("mode") != ImportMode.SYNC.value:
            return False
        request = self._service.submitter.resubmission(self.record, confirm_deletes=None, **changes)
        self.sync_requested.emit(request)
        return True

    def _import_for_real(self) -> None:
        if self.record is not None and not self._sync_again(dry_run=False):
            self._submit(self._service.import_for_real(self.record))

    def plan_to_review(self, record: TaskRecord) -> bool:
        """A check with a plan to show: one that passed, or failed by its rows (over the failed-rows limit;
        seen: the clerk could not see what it planned). Only a passing one is imported for real or applied."""
        return (self._kinds.of(record).allows(Action.APPLY) and record.checked_only
                and self.plan_file(record) is not None)  # fmt: skip

    def plan_file(self, record: TaskRecord) -> Path | None:
        """A dry run's change plan still to review: its file, or None when it has none, was applied or was
        discarded (the dry run's summary names its change file; an older task's plan is looked for)."""
        if (not record.params.get("dry_run") or record.applied_by or record.summary.get("plan_discarded")
                or record.summary.get("expired")):  # fmt: skip
            return None
        path = plan_path(self._results_dir, record.task_no)
        if record.summary.get("changes_csv"):
            return path
        return path if path.is_file() else None

    def _review_plan(self) -> None:
        if self.record is None or not self.review_plan.isEnabled():
            return
        path = self.plan_file(self.record)
        if path is not None:
            self.plan_requested.emit(self.record, path)

    def _complete_references(self) -> None:
        if self.record is not None and self.record.pending_completion_count > 0:
            self._submit(self._service.complete_references(self.record))

    def _add_references(self) -> None:
        """Every way the window offers it (menu, notice, details) comes here: the names are read, then the
        window asks (add_references_requested); nothing is added before the clerk says yes."""
        record = self.record
        if record is None or not addable_tables(record, self._kinds.of(record)):
            return

        def found(names: list[MissingReference]) -> None:
            if names:
                self.add_references_requested.emit(record, names)
            else:
                self.problem.emit(self.tr("Task %1 has no missing names left to add.").replace("%1", record.task_no))

        def failed(exc: BaseException) -> None:
            self.problem.emit(plain_error(exc, self._service.lang, "reading the missing names"))

        self._service.read_names_to_add(record, found, failed, context=self)

    def confirm_add_references(self, record: TaskRecord) -> None:
        """The clerk confirmed the names to add: queue the completion that adds them."""
        self._submit(self._service.complete_references(record, add=True))

    def _enable_fix_values(self, record: TaskRecord, kind: TaskKind) -> None:
        """Enabled once the import's error rows are known to hold values its enum columns refused."""
        key = fix_key(record, kind)
        self.fix_values.setEnabled(bool(self.bad_values.get(key or ())))

        def found(values: list[BadValue]) -> None:
            if self.record is not None and fix_key(self.record, self._kinds.of(self.record)) == key:
                self.fix_values.setEnabled(bool(values))

        if key is not None and key not in self.bad_values:
            self.values_to_fix(record, found)

    def values_to_fix(self, record: TaskRecord, then: Callable[[list[BadValue]], None]) -> None:
        """The values an ended import's enum columns refused, handed to ``then``: at once when known (none
        when no fix applies), else once asked of the Submitter off the GUI thread (the summary does not count
        the rows by reason); a question already under way is asked once."""
        key = fix_key(record, self._kinds.of(record))
        if key is None:
            then([])
            return
        known = self.bad_values.get(key)
        if known is not None:
            then(known)
            return
        waiting = self._asking.get(key)
        if waiting is not None:
            waiting.append(then)
            return
        self._asking[key] = [then]

        def done(found: list[BadValue]) -> None:
            self.bad_values[key] = found
            for each in self._asking.pop(key, []):
                each(found)

        def failed(_exc: BaseException) -> None:  # no fix offered (a moved error file, another clerk's task)
            done([])

        self._service.read_bad_values(record, done, failed, context=self)

    def _fix_values(self) -> None:
        if self.record is None:
            return
        found = self.bad_values.get(fix_key(self.record, self._kinds.of(self.record)) or ())
        if found:
            self.fix_values_requested.emit(self.record, found)

    def confirm_fix_values(self, record: TaskRecord, values: dict[str, dict[str, str]],
                           remember_as: str | None = None) -> None:  # fmt: skip
        """The clerk chose the values: queue the fix (the mappings saved into ``remember_as`` first)."""
        self._submit(self._service.fix_values(record, values, remember_as=remember_as))

    def _undo(self) -> None:
        if self.record is not None and undoable(self.record, self._kinds.of(self.record)):
            self.undo_requested.emit(self.record)

    def confirm_undo(self, record: TaskRecord) -> None:
        """The clerk confirmed: queue the undo (the same undo again if one was asked for already)."""
        self._submit(self._service.undo(record))

    def _details(self) -> None:
        if self.record is not None:
            self.details_requested.emit(self.record)

    def _submit(self, sent: bool) -> None:
        if not sent:
            self.problem.emit(self.tr("Another file is being queued; try again in a moment."))

    def retranslate(self) -> None:
        texts = {
            self.open_result: (self.tr("&Open exported file"),
                               self.tr("Open the exported file in the spreadsheet application")),
            self.open_errors: (self.tr("Open &error file"), self.tr("Open the rows that failed, with the reason, "
                                                                    "in the spreadsheet application")),
            self.open_folder: (self.tr("Open result &folder"), self.tr("Show the folder with the task's files")),
            self.reimport: (self.tr("&Re-import fixed error file"),
                            self.tr("Import the error file after correcting its rows")),
            self.cancel: (self.tr("&Cancel task"), self.tr("Stop the task; rows already committed stay")),
            self.undo: (self.tr("&Undo this import…"),
                        self.tr("Remove the rows this import added and put back the values it changed")),
            self.retry: (self.tr("Re&try"), self.tr("Run the failed task's file again")),
            self.resume: (self.tr("Import the re&maining rows"),
                          self.tr("Go on where this import stopped: the rows already in stay and count as "
                                  "imported, the rest of the file is imported")),
            self.import_for_real: (self.tr("&Import for real"),
                                   self.tr("The validation passed: import the same file now")),
            self.review_plan: (self.tr("Review the c&hanges…"),
                               self.tr("See each row this dry run would insert, update or delete, then apply "
                                       "exactly those changes or discard them")),
            # seen in a tryout: "Complete references" beside "Add the missing names and complete" read as the
            # same step; this one only looks again (names a colleague added to their table since)
            self.complete_references: (self.tr("Look the &names up again"),
                                       self.tr("Look up again the names this import did not find (added to their "
                                               "table since, by you or a colleague) and fill in its rows; adds no "
                                               "name")),
            # as the details panel's button reads: the table's own name ("departments") is a database word,
            # an English one in the Chinese menu
            self.add_references: (self.tr("&Add the missing names and complete"),
                                  self.tr("Add the names this import did not find to their table, then fill in "
                                          "the references of its rows")),
            self.fix_values: (self.tr("Fix &values…"),
                              self.tr("Choose the right value for each value this import refused (a level "
                                      "spelt wrong, say), then import its rows that failed only for them")),
            self.details: (self.tr("&Details"), self.tr("Every field, the warnings and the log of the task")),
            self.open_when_done: (self.tr("Open &when done"),
                                  self.tr("When this task ends, open its file (the exported file, or the error "
                                          "file if rows failed)")),
        }  # fmt: skip
        for action, (text, tip) in texts.items():
            action.setText(text)
            action.setToolTip(tip)
            action.setStatusTip(tip)
        # The toolbar's and the details' buttons' words: short, and without the menus' mnemonics ("取消任务(&C)"
        # is a menu's). The details' next steps say what the menu says (the details' text names "Import the
        # remaining rows"), and the add button names no table: the details list the missing names.
        short = {self.open_errors: self.tr("Error file"), self.reimport: self.tr("Re-import"),
                 self.cancel: self.tr("Cancel"), self.retry: self.tr("Retry"),
                 self.resume: self.tr("Import the remaining rows"),
                 self.complete_references: self.tr("Look the names up again"),
                 self.add_references: self.tr("Add the missing names and complete"),
                 self.fix_values: self.tr("Fix values"),
                 self.review_plan: self.tr("Review the changes…"),
                 self.details: self.tr("Details"),
                 self.open_folder: self.tr("Folder")}  # fmt: skip
        for action, text in short.items():
            action.setIconText(text)


def addable_tables(record: TaskRecord, kind: TaskKind) -> list[str]:
    """The reference tables an ended import's missing names may be added to (its type allows it)."""
    if (not kind.allows(Action.COMPLETE_REFERENCES) or not record.status.is_final or record.params.get("dry_run")
            or record.undone_by):  # fmt: skip
        return []
    return list(dict.fromkeys(m.table for m in missing_of(record.summary) if m.can_add))


def fix_key(record: TaskRecord, kind: TaskKind) -> tuple[object, ...] | None:
    """An ended import whose rows may have failed for a value their column does not allow (its kind offers
    value fixes, it wrote an error file, it was not a dry run, nor undone), as the state the answer depends
    on; None when no fix can apply."""
    if (not kind.allows(Action.FIX_VALUES) or not record.status.is_final or record.params.get("dry_run")
            or record.undone_by or not record.error_csv or record.fail_count <= 0):  # fmt: skip
        return None
    return record.task_no, record.fail_count, record.success_count, record.error_csv


def failed_by_its_rows(record: TaskRecord, kind: TaskKind) -> bool:
    """An import that read its whole file and failed because too many rows were bad (it has no error code:
    the error file names each row); running the same file again gives the same failure. Its bad rows fixed
    since ("Fix values": no row failing any more, its rows in), running it again would fail every row as
    already in (seen: a retry after a fix queued a task that failed them all)."""
    return (kind.words is Words.IMPORT and record.status is TaskStatus.FAILED and not record.error_code
            and (record.fail_count > 0 or record.success_count > 0))  # fmt: skip


def can_resume(record: TaskRecord, kind: TaskKind) -> bool:
    """A cancelled or early-failed import not continued yet: "Import the remaining rows" applies."""
    return kind.allows(Action.RESUME) and stopped_early(record) and not record.resumed_by


def undoable(record: TaskRecord, kind: TaskKind) -> bool:
    """An import that ended, wrote rows (inserted, updated or deleted some) and was not undone yet."""
    if not kind.allows(Action.UNDO) or not record.status.is_final or record.params.get("dry_run"):
        return False
    counts = record.to_json()
    return not counts.get("undone_by") and bool(
        counts.get("inserted_count") or counts.get("updated_count") or counts.get("deleted_count")
    )
