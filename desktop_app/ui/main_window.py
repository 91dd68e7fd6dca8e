"""The main window: composes the submit panel, the task list, the details panel and the menus."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QSplitter, QVBoxLayout, QWidget

from desktop_app.config import Settings
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.profiles import ProfileVersion
from desktop_app.domain.task import SubmitResult, TaskRecord
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.resume import RESUMES
from desktop_app.imports.workbook import SheetPlan
from desktop_app.store.task_files import FileKind
from desktop_app.tasks.kinds import Duplicate, TaskKinds, Words
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.details import DetailsPanel
from desktop_app.ui.details_pane import DetailsPane
from desktop_app.ui.dialogs.about import AboutDialog, AboutInfo, HelpDialog
from desktop_app.ui.dialogs.change_plan import ChangePlanDialog
from desktop_app.ui.dialogs.confirm_add_names import AddNamesQuestion
from desktop_app.ui.dialogs.confirm_cancel import CancelQuestion
from desktop_app.ui.dialogs.confirm_resume import ResumeQuestion
from desktop_app.ui.dialogs.confirm_undo import UndoQuestion
from desktop_app.ui.dialogs.export import ExportDialog, ExportRequest
from desktop_app.ui.dialogs.open_failed import OpenFailedDialog
from desktop_app.ui.dialogs.preview import PreviewDialog
from desktop_app.ui.dialogs.value_fix import ValueFixDialog
from desktop_app.ui.dialogs.workbook import WorkbookDialog
from desktop_app.ui.feed_notices import FeedNotices
from desktop_app.ui.filter_bar import FilterBar
from desktop_app.ui.menus import WindowMenus
from desktop_app.ui.notice_bar import NoticeBar
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.submit_panel import SubmitPanel
from desktop_app.ui.summary_line import SummaryLine
from desktop_app.ui.table_copy import rows_as_text
from desktop_app.ui.task_actions import TaskActions, can_resume
from desktop_app.ui.task_filter import TaskFilterProxy
from desktop_app.ui.task_model import COLUMN_COUNT, RecordRole, TaskTableModel, shown_file_name
from desktop_app.ui.task_notices import TaskNotices
from desktop_app.ui.task_service import TaskService
from desktop_app.ui.task_table import TaskTable
from desktop_app.ui.texts import task_numbers_whole
from desktop_app.ui.tray import Tray
from desktop_app.ui.view_options import ViewOptions, flag
from desktop_app.ui.window_geometry import ScreenKeeper, restore_geometry

log = logging.getLogger(__name__)

DETAILS_SIDE_WIDTH = 340  # the details panel beside the list; below it when the window is narrower
MAX_NAMED = 5  # the quit question names this many unfinished tasks by number, then "…"


class MainWindow(QMainWindow):
    """Shows the tasks and forwards the clerk's requests to the service; decides nothing itself.

    Signals:
        settings_requested(): the clerk opened the settings dialog (the composition root owns it).
        feeds_requested(): the clerk opened the Feeds view (the composition root owns it).
        close_decided(str): the window is closing; "stop" (stop the tasks, resume next start),
            "tray" (keep running hidden) or "quit" (nothing is running).
    """

    settings_requested = Signal()
    feeds_requested = Signal()
    close_decided = Signal(str)

    def __init__(
        self,
        *,
        service: TaskService,
        catalog: ImportCatalog,
        kinds: TaskKinds,
        settings: Settings,
        results_dir: Path,
        qsettings: QSettings,
        tray: Tray,
        page_size: int = 500,
        about: AboutInfo | None = None,
    ) -> None:
        super().__init__()
        self.service = service
        self.catalog = catalog
        self.settings = settings
        self.tray = tray
        self._qsettings = qsettings
        self._background = service.background
        self._about = about or AboutInfo("", results_dir.parent, results_dir.parent / "logs", results_dir)
        self._pending: ImportOptions | None = None  # the last import asked for (a forced one repeats it)
        self.preview: PreviewDialog | None = None
        self.workbook: WorkbookDialog | None = None
        self.export_dialog: ExportDialog | None = None
        self.question: QMessageBox | None = None
        self.cancel_question: CancelQuestion | None = None
        self.undo_question: UndoQuestion | None = None
        self.add_names_question: AddNamesQuestion | None = None
        self.value_fix_dialog: ValueFixDialog | None = None
        self.plan_dialog: ChangePlanDialog | None = None
        self.open_failed_dialog: OpenFailedDialog | None = None
        self.help_dialog: QWidget | None = None
        self.last_message = ""
        self.allow_close = False
        self._placed = False
        self._details_empty = False  # the details pane is at its one line's height (no task selected)
        self._details_height = 0  # its height below the list when it last showed a task (0: not yet)

        self.kinds = kinds  # what each task type shows and offers (the window asks them, never a type's name)
        self.model = TaskTableModel(service.load_page, kinds=kinds, page_size=page_size,
                                    describe_type=lambda r: catalog.describe(r, kinds.of(r)), parent=self)  # fmt: skip
        self.proxy = TaskFilterProxy(self.model, self)
        self.panel = SubmitPanel(catalog, self._background)
        self.filters = FilterBar()
        self.table = TaskTable(self.proxy)
        self._chosen: TaskRecord | None = None  # the task the toolbar and the summary were last told of
        self.fitter = self.table.fitter
        self._results_dir = results_dir
        self.actions_ = TaskActions(service, kinds=kinds, results_dir=results_dir, parent=self)
        self.details = DetailsPanel(catalog, kinds=kinds, actions=[self.actions_.resume, self.actions_.add_references,
                                                      self.actions_.complete_references,
                                                      self.actions_.fix_values, self.actions_.review_plan])  # fmt: skip
        # The details sit beside or below the list, inside the window: opening them never grows it.
        self.details_dock = DetailsPane(self.details)
        self.notice = NoticeBar()
        self.summary = SummaryLine(kinds)
        list_box = QWidget()
        list_layout = QVBoxLayout(list_box)
        list_layout.setContentsMargins(0, 0, 0, 0)
        list_layout.setSpacing(2)
        list_layout.addWidget(self.table, 1)
        list_layout.addWidget(self.summary)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(list_box)
        self.splitter.addWidget(self.details_dock)
        self.splitter.setStretchFactor(0, 1)
        self.details_dock.hide()

        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(self.panel)
        layout.addWidget(self.filters)
        layout.addWidget(self.notice)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.setAcceptDrops(True)
        self.menus = WindowMenus(self, self.actions_, self.details_dock.toggleViewAction())
        m = self.menus
        self.file_menu, self.toolbar, self.context_menu = m.file_menu, m.toolbar, m.context_menu
        self.open_action, self.queue_action, self.export_action = m.open_action, m.queue_action, m.export_action
        self.copy_action = m.copy_action
        # Ctrl+C copies rows only while the list has the focus; in a field it copies the field's text.
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.table.addAction(self.copy_action)
        self.view_options = ViewOptions(self.model, self.proxy, m, self.notice, qsettings, self)
        self.notices = TaskNotices(self.notice, self.model, self.actions_, self.select_task, self)
        self.feed_notices = FeedNotices(
            self.notices, self.notice, tray, kinds,
            lambda numbers, done: service.read_feeds_of(numbers, done, context=self),
            self._tell_ended, self._tray_wanted, self)  # fmt: skip
        self.screen_keeper = ScreenKeeper(self, self)
        self.setTabOrder(self.panel.validate_button, self.filters.status_box)
        self.setTabOrder(self.filters.failed_button, self.table)

        self._wire()
        self._elapsed_timer = QTimer(self)
        self._elapsed_timer.setInterval(1000)
        self._elapsed_timer.timeout.connect(self.model.tick_elapsed)
        self._elapsed_timer.start()
        self.retranslate()
        self._update_busy()
        self.restore_state()

    # --- building ------------------------------------------------------------------------

    def _wire(self) -> None:
        s, m = self.service, self.menus
        s.page_loaded.connect(self.model.add_page)
        s.page_failed.connect(self._page_failed)
        s.record_changed.connect(self._record_changed)
        s.progress.connect(self._progress)
        s.submitted.connect(self._submitted)
        s.submit_failed.connect(self._submit_failed)
        s.busy_changed.connect(lambda _busy: self._update_busy())
        s.task_ended.connect(self._task_ended)
        s.log_lines.connect(self.details.show_log)
        s.list_stale.connect(self._read_list_again)
        s.plan_applied.connect(self._plan_applied)
        s.plan_discarded.connect(self._plan_discarded)
        s.plan_refused.connect(self._plan_refused)
        self.panel.queue_requested.connect(self.open_preview)
        # Enter in the file field queues: Queue looks like the default button only while it is so.
        self.panel.path_edit.installEventFilter(self)
        self.panel.queue_button.setDefault(False)
        self.filters.statuses_changed.connect(self.proxy.set_statuses)
        self.filters.text_changed.connect(self.proxy.set_text)
        self.table.selectionModel().currentRowChanged.connect(lambda _c, _p: self._chosen_changed())
        self.table.selectionModel().selectionChanged.connect(lambda _s, _d: self._chosen_changed())
        self.proxy.rowsInserted.connect(lambda *_a: self._selection_changed())
        self.table.doubleClicked.connect(lambda _i: self.actions_.details.trigger())
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.actions_.details_requested.connect(self._show_details)
        self.actions_.cancel_requested.connect(self.ask_cancel)
        self.actions_.undo_requested.connect(self.ask_undo)
        self.actions_.add_references_requested.connect(self.ask_add_names)
        self.actions_.fix_values_requested.connect(self.open_value_fix)
        self.actions_.open_failed.connect(self.open_failed)
        self.actions_.problem.connect(self.inform)
        self.actions_.sync_requested.connect(self._confirm_sync)  # asks the number it deletes now
        self.actions_.plan_requested.connect(self.open_plan)
        self.actions_.fetching.connect(self._fetching)
        self.actions_.reimport_requested.connect(  # a fixed error file: its preview, from its task's parameters
            lambda request, notice: self.open_preview(request.file, request.import_type, False, request=request,
                                                      notice=notice))  # fmt: skip
        s.problem.connect(self.inform)
        m.open_action.triggered.connect(self.panel.choose_file)
        m.queue_action.triggered.connect(self.panel.queue_button.click)
        m.workbook_action.triggered.connect(self.open_workbook)
        m.export_action.triggered.connect(self.open_export)
        m.settings_action.triggered.connect(self.settings_requested)
        m.feeds_action.triggered.connect(self.feeds_requested)
        m.quit_action.triggered.connect(self.close)
        m.copy_action.triggered.connect(self.copy_rows)
        m.find_action.triggered.connect(lambda: self.filters.text_edit.setFocus())
        m.failed_action.triggered.connect(self.filters.show_failed_list)
        m.all_action.triggered.connect(self.filters.show_all)
        m.list_action.triggered.connect(lambda: self.table.setFocus())
        self.view_options.told.connect(lambda text: self.inform(text, dialog=False))
        m.fit_action.triggered.connect(lambda: self.fitter.fit())
        m.archived_action.toggled.connect(self.show_archived)
        m.help_action.triggered.connect(self.open_help)
        m.about_action.triggered.connect(self.open_about)
        self.details_dock.toggleViewAction().toggled.connect(self._details_toggled)
        self.tray.show_requested.connect(self.bring_to_front)
        # The tray's Quit is a close: the clerk is asked what to do with running tasks, as with the
        # window's own close button (the composition root acts on close_decided, nothing else).
        self.tray.quit_requested.connect(self.close)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.panel.path_edit and event.type() in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            self.panel.queue_button.setDefault(event.type() == QEvent.Type.FocusIn)
        return super().eventFilter(watched, event)

    # --- the task list -------------------------------------------------------------------

    def selected_record(self) -> TaskRecord | None:
        """The task of the current row, when that row is selected (highlighted): a filter that hides the
        selected row moves the current row to a neighbour without selecting it, and the toolbar and the
        Details pane then acted on a row the clerk had not chosen (seen under Xvfb)."""
        selection = self.table.selectionModel()
        index = selection.currentIndex()
        if not index.isValid() or not selection.isRowSelected(index.row(), index.parent()):
            return None
        record: TaskRecord | None = index.data(RecordRole)
        return record

    def select_task(self, task_id: int) -> bool:
        """Select a task's row (showing every status and clearing the text filter if they hide it).
        False when the row is not loaded, or is a system task the view hides."""
        row = self.model.row_of(task_id)
        if row is None:
            return False
        if self.view_options.hides_for_good(self.model.record(row)):
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid() and self.view_options.show_cleared_if_hidden():
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():  # filtered out: show everything, then select it
            self.filters.show_all()
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.table.scrollTo(index)
        return True

    def _chosen_changed(self) -> None:
        """The current row or the selection changed (one move changes both, one signal after the other):
        the task chosen told once, when both agree on it."""
        selection = self.table.selectionModel()
        current = selection.currentIndex()
        if (current.isValid() and selection.hasSelection()
                and not selection.isRowSelected(current.row(), current.parent())):  # fmt: skip
            # between the two signals of one move, or Ctrl+arrow moving the current row alone: the
            # highlighted task stays the chosen one
            return
        record = self.selected_record()
        if record is not None and record is self._chosen:
            return  # the second signal of the move: told already
        self._selection_changed()

    def _selection_changed(self) -> None:
        record = self.selected_record()
        self._chosen = record
        self.actions_.set_record(record)
        self.summary.show_record(record, self.model.speed_text(record) if record is not None else None)
        if self.details_dock.isVisible():
            self._show_details(record)

    def _show_details(self, record: TaskRecord | None) -> None:
        if record is None:  # deselected, or filtered away: the one line, not the last task's fields
            self.details.show_record(None)
            self._arrange()
            return
        new = self.details.record is None or self.details.record.id != record.id
        self.details.show_record(record)
        if not self.details_dock.isVisible():
            self.details_dock.show()
        self._arrange()
        if new:
            self.service.load_log(record.task_no)

    def show_archived(self, archived: bool) -> None:
        """List the archived tasks (moved out of the task table by the daily clean-up) instead of the
        current ones, or back."""
        if archived == self.service.archived:
            return
        self.service.show_archived(archived)
        self.model.reload()
        self.model.fetchMore()
        if archived:
            self.statusBar().showMessage(self.tr("Showing the archived tasks."), 8000)
        else:
            self.statusBar().clearMessage()

    def _read_list_again(self) -> None:
        """The clean-up archived tasks: rows of tasks no longer in the task table must go."""
        self.model.reload()
        self.model.fetchMore()

    def _details_toggled(self, shown: bool) -> None:
        if shown:
            self._arrange()
            record = self.selected_record()
            if record is None or self.details.record is None or self.details.record.id != record.id:
                self._show_details(record)

    def _record_changed(self, record: TaskRecord) -> None:
        self.model.upsert(record)
        selected = self.selected_record()
        if selected is not None and selected.id == record.id:
            self._selection_changed()
            if record.status.is_final and self.details_dock.isVisible():
                self.service.load_log(record.task_no)

    def _progress(self, progress: Any) -> None:
        if self.model.apply_progress(progress):
            selected = self.selected_record()
            if selected is not None and selected.id == progress.task_id:
                self.summary.show_record(selected, self.model.speed_text(selected))
                if self.details_dock.isVisible():
                    self.details.show_record(selected)

    def _context_menu(self, pos: Any) -> None:
        self.context_menu.popup(self.table.viewport().mapToGlobal(pos))

    def _page_failed(self, reason: str) -> None:
        self.model.page_failed()
        self.statusBar().showMessage(self.tr("The task list could not be read: %s") % reason)

    def copy_rows(self) -> None:
        text = rows_as_text(self.table)
        if text:
            QGuiApplication.clipboard().setText(text)
            rows = text.count("\n") - 1
            self.statusBar().showMessage(self.tr("Rows copied: %1.").replace("%1", str(rows)), 4000)

    def _arrange(self) -> None:
        """The details of a task beside the list when the window is wide enough for every column and them,
        else (or with no task selected) below it."""
        if not self.details_dock.isVisible():
            return
        # with no task selected the pane is one line: below the list, not a full-height column beside it
        # (seen at 1400 x 900: 340 px of the list's width for "Select a task to see its details.")
        side = self.details.record is not None and self.width() >= self.fitter.minimum_width() + DETAILS_SIDE_WIDTH + 40
        orientation = Qt.Orientation.Horizontal if side else Qt.Orientation.Vertical
        changed = orientation != self.splitter.orientation()
        self.splitter.setOrientation(orientation)
        total = sum(self.splitter.sizes())
        first, second = self.splitter.sizes()
        # below the list with no task selected, the pane takes its one line's room; a task's fields, their own
        empty = self.details.record is None and not side
        self.details_dock.fit_empty(empty)
        if not changed and empty and not self._details_empty and second > 0:
            self._details_height = second  # as the clerk left it, for the next task selected
        if changed or second <= 0 or first <= 0 or empty != self._details_empty:
            below = self.details_dock.compact_height() if empty else self._details_height or max(160, int(total * 0.42))
            part = DETAILS_SIDE_WIDTH if side else below
            self.splitter.setSizes([max(1, total - part), part])
        self._details_empty = empty

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._placed:
            self._placed = True
            self.fitter.fit(keep_custom=True)
            self._arrange()

    # --- queueing ------------------------------------------------------------------------

    def open_preview(self, path: Path, import_type: str | None, dry_run: bool, *, request: ImportOptions | None = None,
                     notice: str = "") -> None:  # fmt: skip
        """Show the preview; queue on OK. Non-blocking (open(), not exec()) so tests can drive it."""
        if self.preview is not None:  # one at a time (a re-import asked for while another file is previewed)
            self.preview.raise_()
            return
        if not path.is_file():
            self.inform(self.tr("File not found: %s") % path)
            self._update_busy()
            return
        dialog = PreviewDialog(path, self.catalog, self._background,
                               import_type=import_type, dry_run=dry_run,
                               request=request, notice=notice, max_file_mb=self.settings.max_file_mb,
                               max_rows=self.settings.max_rows, fail_threshold=self.settings.fail_threshold,
                               look_up=self.service.look_up_keys,
                               list_profiles=self._profiles_for(request), save_profile=self.service.save_profile,
                               rights=self.service.rights_refusal if self.service.in_team else None,
                               parent=self)  # fmt: skip
        self.preview = dialog
        dialog.accepted.connect(lambda: self._queue(dialog.options()))
        dialog.finished.connect(lambda _r: self._preview_closed(dialog))
        dialog.open()

    def open_workbook(self) -> None:
        """A workbook, every sheet (the file field's, else one the clerk chooses): its sheets read off the GUI
        thread, then a preview naming each sheet's type (or why it is skipped); Queue queues the workbook."""
        if self.workbook is not None:
            self.workbook.raise_()
            return
        path = self.panel.workbook()
        if path is None:  # the clerk cancelled the chooser
            return
        lang = self.service.lang

        def found(plans: list[SheetPlan], order: list[SheetPlan]) -> None:
            dialog = WorkbookDialog(path, plans, order, title_of=self.catalog.title,
                                    reason_of=lambda plan: str(plan.reason_text(lang)), background=self._background,
                                    rights=self.service.rights_refusal if self.service.in_team else None,
                                    parent=self)  # fmt: skip
            self.workbook = dialog
            dialog.accepted.connect(lambda: self._queue_workbook(dialog.options(), plans))
            dialog.finished.connect(lambda _r: self._workbook_closed(dialog))
            dialog.open()

        self.service.plan_workbook(path, found, self.inform)

    def _queue_workbook(self, request: ImportOptions, plans: list[SheetPlan]) -> None:
        if not self.service.submit_workbook(request, plans):
            self.inform(self.tr("Another file is being queued; try again in a moment."))

    def _workbook_closed(self, dialog: WorkbookDialog) -> None:
        if self.workbook is dialog:
            self.workbook = None
        dialog.deleteLater()

    def _profiles_for(self, request: ImportOptions | None) -> Callable[[], list[ProfileVersion]]:
        """The profiles a preview offers: a re-import (or any request naming a version) gets the version its
        task used, so the repaired rows read as the first ones did."""
        if request is None or request.profile is None or request.profile_version is None:
            return self.service.list_profiles
        pinned = (request.profile, request.profile_version)
        return lambda: self.service.list_profiles(pinned)

    def open_file(self, path: Path) -> bool:
        """A file handed over from outside (`--open FILE`, the "Import with BatchDesk" verb, a document
        macOS Finder opens): into the file field, then what Queue… does (the preview). A file that cannot
        be read gets a message box and leaves the field as it was. True when the preview was asked for."""
        self.bring_to_front()
        problem = self._cannot_read(path)
        if problem is not None:
            self.last_message = problem
            self.statusBar().showMessage(problem, 10_000)
            QMessageBox.warning(self, self.tr("BatchDesk"), problem)
            return False
        self.panel.set_path(path)
        if self.panel.request_queue():
            return True
        # A preview (or a submission) is under way: the file waits in the field for the clerk's Queue….
        self.inform(self.tr("%s is in the file field: queue it when the open preview is closed.") % path.name,
                    dialog=False)  # fmt: skip
        return False

    def _cannot_read(self, path: Path) -> str | None:
        """Why `path` cannot be opened for the preview, in the clerk's words; None when it can."""
        if not path.is_file():
            return self.tr("File not found: %s") % path
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            return self.tr("%1 cannot be read: %2").replace("%1", str(path)).replace("%2", exc.strerror or str(exc))
        return None

    def _preview_closed(self, dialog: PreviewDialog) -> None:
        if self.preview is dialog:
            self.preview = None
        dialog.deleteLater()
        self._update_busy()

    def _queue(self, request: ImportOptions | None) -> None:
        """The preview's request (its limits the settings', or a size limit raised for this file; no batch
        size: each path takes its own, settings.batch_size row by row, bulk_batch_rows)."""
        if request is None:  # accepted with no type chosen: the OK button is not offered then
            return
        if request.mode is ImportMode.SYNC and not request.dry_run and request.confirm_deletes is None:
            self._confirm_sync(request)
            return
        self._pending = request
        if not self.service.submit_import(request):
            self.inform(self.tr("Another file is being queued; try again in a moment."))

    def _confirm_sync(self, request: ImportOptions) -> None:
        """A sync deletes the table's rows its file lacks: their number is counted off the GUI thread, then
        named with the table in a question before anything is queued (none to delete: queued at once). The
        task counts again and fails, writing nothing, if the number changed meanwhile."""
        service = self.service

        def counted(found: tuple[int, str]) -> None:
            count, table = found
            if count == 0:
                self._queue(request.but(confirm_deletes=0))
                return
            scope = ", ".join(f"{k}={v}" for k, v in request.scope.items()) or self.tr("all its rows")
            # the table's name, and in brackets the import type's title the clerk chose it by
            title = self.catalog.title(request.import_type)
            brackets = "（{}）" if self.catalog.lang == "zh" else " ({})"
            named = table if title in ("", table) else table + brackets.format(title)
            words = (self.tr("This sync would delete 1 row of %2 (scope: %3): the row the file lacks.") if count == 1
                     else self.tr("This sync would delete %1 rows of %2 (scope: %3): the rows the file lacks."))
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Delete rows?"),
                              words.replace("%1", f"{count:,}").replace("%2", named).replace("%3", scope),
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)  # fmt: skip
            box.setInformativeText(self.tr("The file's rows are added or updated as well. An undo puts every "
                                           "deleted row back. Queue it?"))  # fmt: skip
            # the same request as a dry run: its plan (every row it would delete named) is then one click away
            check = box.addButton(self.tr("Check &first (dry run)"), QMessageBox.ButtonRole.ActionRole)
            box.setDefaultButton(QMessageBox.StandardButton.No)
            self.question = box

            def answered(_result: int) -> None:
                if self.question is box:
                    self.question = None
                clicked = box.clickedButton()
                box.deleteLater()
                if clicked is box.button(QMessageBox.StandardButton.Yes):
                    self._queue(request.but(confirm_deletes=count))
                elif clicked is check:
                    self._queue(request.but(dry_run=True, confirm_deletes=None))

            box.finished.connect(answered)
            box.open()

        def failed(exc: BaseException) -> None:
            self._submit_failed(str(request.file), plain_error(exc, self.catalog.lang, "counting a sync's deletes"))

        self._background.call(lambda: service.sync_deletes(request), counted, failed, context=self)

    def _update_busy(self) -> None:
        self.panel.set_busy(self.service.busy or self.preview is not None)
        self.export_action.setEnabled(self.service.can_export() and bool(self.catalog.exports)
                                      and not self.service.busy and self.export_dialog is None)  # fmt: skip

    # --- exporting -----------------------------------------------------------------------

    def open_export(self) -> None:
        """The export dialog (non-blocking); an import selected in the list prefills "imported by"."""
        if self.export_dialog is not None:
            self.export_dialog.raise_()
            self.export_dialog.activateWindow()
            return
        if not self.export_action.isEnabled():
            return
        selected = self.selected_record()
        imported_by = (selected.task_no if selected is not None and self.kinds.of(selected).words is Words.IMPORT
                       else None)  # fmt: skip
        dialog = ExportDialog(self.catalog, imported_by=imported_by, results_dir=self._results_dir, parent=self)
        self.export_dialog = dialog
        dialog.accepted.connect(lambda: self._export(dialog.request()))
        dialog.finished.connect(lambda _r: self._export_closed(dialog))
        self._update_busy()
        dialog.open()

    def _export_closed(self, dialog: ExportDialog) -> None:
        if self.export_dialog is dialog:
            self.export_dialog = None
        dialog.deleteLater()
        self._update_busy()

    def _export(self, request: ExportRequest) -> None:
        if not self.service.submit_export(request.name, request.filters, request.fmt, request.encoding,
                                          output=request.output, replace=request.replace):  # fmt: skip
            self.inform(self.tr("Another file is being queued; try again in a moment."))

    def _submitted(self, result: SubmitResult) -> None:
        task = result.task
        if result.refused:
            self._ask_import_again(result)
            return
        if result.duplicate_of:
            self.select_task(task.id)
            duplicate = self.kinds.of(task).duplicate
            if duplicate is Duplicate.EXPORT:
                text = self.tr("The same export is already queued as task %s.")
            elif duplicate is Duplicate.FILE and task.params.get(RESUMES) and task.status.is_final:
                text = self.tr("The remaining rows of this file were already imported by task %s.")
            elif duplicate is Duplicate.FILE:
                text = self.tr("This file is already queued as task %s.")
            else:
                text = self.tr("The same request is already queued as task %s.")
            self.inform(text % task.task_no, dialog=False)
            # Where the clerk looks: above the list, with the task's state, not only in the status bar.
            self.notices.already_queued(self._fresh(task), text % task.task_no)
            return
        self.select_task(task.id)
        self._focus_on_the_list()
        self.statusBar().showMessage(self.tr("Queued as task %s.") % task.task_no, 8000)

    def _focus_on_the_list(self) -> None:
        """A task queued from the details (the remaining rows, the missing names, ...): the keyboard on its
        row, selected just now. The button pressed hides (the new task does not offer it), and the focus
        fell on to the pane's close button, where Space or Enter closes the pane (seen under Xvfb)."""
        focus = QApplication.focusWidget()
        # no focus: a dialog just closed (the plan's, after Apply) and the window is not active again yet; the
        # table then takes the keyboard as the window comes back (it went to the pane's close button, seen)
        if focus is None or self.details_dock.isAncestorOf(focus):
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def _fresh(self, record: TaskRecord) -> TaskRecord:
        """The model's newest snapshot of a task (progress ticks included), else the one given."""
        row = self.model.row_of(record.id)
        return self.model.record(row) if row is not None else record

    def _ask_import_again(self, result: SubmitResult) -> None:
        task = result.task
        if can_resume(task, self.kinds.of(task)):
            self._ask_resume(task)
            return
        date = task.ended_at.date().isoformat() if task.ended_at else "?"
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Already imported"), "",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)  # fmt: skip
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(task_numbers_whole(self.tr("This file was already imported on %1 as task %2. Import it again?")
                                       .replace("%1", date).replace("%2", task.task_no)))  # fmt: skip
        box.setDefaultButton(QMessageBox.StandardButton.No)
        pending = self._pending
        self.question = box

        def answered(button: int) -> None:
            if self.question is box:
                self.question = None
            box.deleteLater()
            if button == QMessageBox.StandardButton.Yes and pending is not None:
                self.service.submit_import(pending, force=True)

        box.finished.connect(answered)
        box.open()

    def _ask_resume(self, task: TaskRecord) -> None:
        """The file of a stopped import queued again: offer its remaining rows (the default), not a forced
        re-import that would fail every row already in as already_exists."""
        box = ResumeQuestion(task, self)
        pending = self._pending
        self.question = box

        def answered(_result: int) -> None:
            if self.question is box:
                self.question = None
            clicked = box.clickedButton()
            box.deleteLater()
            if clicked is box.resume_button:
                self.service.resume(task)
            elif clicked is box.again_button and pending is not None:
                self.service.submit_import(pending, force=True)

        box.finished.connect(answered)
        box.open()

    def _submit_failed(self, path: str, reason: str) -> None:
        self.inform(self.tr("%1 could not be queued: %2").replace("%1", Path(path).name).replace("%2", reason))

    def inform(self, text: str, *, dialog: bool = True) -> None:
        """Tell the clerk something: in the status bar and (unless minor) a window-modal message."""
        self.last_message = text
        self.statusBar().showMessage(text, 10_000)
        if dialog and self.isVisible():
            box = QMessageBox(QMessageBox.Icon.Information, self.tr("BatchDesk"), text,
                              QMessageBox.StandardButton.Ok, self)  # fmt: skip
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()

    # --- window life ---------------------------------------------------------------------

    def _task_ended(self, record: TaskRecord) -> None:
        """A task seen running ended: a notice above the list (its file opens if the clerk asked), and a
        tray notification when the window is not in front."""
        if self.kinds.of(record).quiet:
            return
        self.feed_notices.task_ended(record)  # a feed's import in the feed's words; any other as below

    def _tell_ended(self, record: TaskRecord) -> None:
        self.notices.task_ended(record)
        if self._tray_wanted():
            self.tray.task_ended(record)

    def _tray_wanted(self) -> bool:
        return not self.isActiveWindow() or self.isMinimized() or not self.isVisible()

    # --- asking first, telling what failed --------------------------------------------------

    def ask_cancel(self, record: TaskRecord) -> None:
        """Cancel only after a question that names the task and what is already in (non-blocking)."""
        if self.cancel_question is not None:
            self.cancel_question.raise_()
            return
        box = CancelQuestion(self._fresh(record), self, fresh=lambda: self._fresh(record), kind=self.kinds.of(record))
        self.cancel_question = box

        def answered(_result: int) -> None:
            if self.cancel_question is box:
                self.cancel_question = None
            box.deleteLater()
            if box.clickedButton() is not box.cancel_button:
                return
            if self._fresh(record).status.is_final:  # it ended while the question was open
                self.inform(self.tr("Task %s has already ended.") % record.task_no, dialog=False)
                return
            self.actions_.confirm_cancel(record)

        box.finished.connect(answered)
        box.open()

    def ask_undo(self, record: TaskRecord) -> None:
        """Undo only after a question that says how many rows go and how many get their values back."""
        if self.undo_question is not None:
            self.undo_question.raise_()
            return
        box = UndoQuestion(self._fresh(record), self)
        self.undo_question = box
        self._open_question(box, "undo_question", box.undo_button, lambda: self.actions_.confirm_undo(record))

    def _open_question(self, box: QMessageBox, attr: str, yes: object, then: Callable[[], None]) -> None:
        """Open a window-modal question kept in ``attr`` until answered; ``then`` once ``yes`` was clicked."""

        def answered(_result: int) -> None:
            if getattr(self, attr) is box:
                setattr(self, attr, None)
            box.deleteLater()
            if box.clickedButton() is yes:
                then()

        box.finished.connect(answered)
        box.open()

    def ask_add_names(self, record: TaskRecord, names: list[Any]) -> None:
        """Add an import's missing names to master data only after a question that says how many, where,
        the first few and the rows they complete; "Do not add" is its default (menu, notice and details)."""
        if self.add_names_question is not None:
            self.add_names_question.raise_()
            return
        labels = {c.key: c.label for c in self.catalog.columns(str(record.params.get("import_type")))}
        box = AddNamesQuestion(self._fresh(record), names, labels, self)
        self.add_names_question = box

        def add() -> None:
            self.notices.names_added(record)  # "Do not add" leaves the notice as it was
            self.actions_.confirm_add_references(record)

        self._open_question(box, "add_names_question", box.add_button, add)

    def open_value_fix(self, record: TaskRecord, bad: list[Any]) -> None:
        """Fix values: the dialog of the import's refused values; OK queues the fix (the task list shows it,
        and the import again with its new counts once it ended)."""
        if self.value_fix_dialog is not None:
            self.value_fix_dialog.raise_()
            return
        import_type = str(record.params.get("import_type"))
        labels = {c.key: c.label for c in self.catalog.columns(import_type)}
        choices = {b.column: self.catalog.fix_choices(import_type, b.column) for b in bad}
        dialog = ValueFixDialog(record, bad, labels, self, choices=choices)
        self.value_fix_dialog = dialog

        def answered(result: int) -> None:
            if self.value_fix_dialog is dialog:
                self.value_fix_dialog = None
            dialog.deleteLater()
            if result == ValueFixDialog.DialogCode.Accepted and dialog.mappings():
                self.actions_.confirm_fix_values(record, dialog.mappings(), dialog.remember_as())

        dialog.finished.connect(answered)
        dialog.open()

    def open_plan(self, record: TaskRecord, path: Path) -> None:
        """A dry run's change plan (non-blocking): its rows, to apply as they are or discard."""
        if self.plan_dialog is not None:
            if self.plan_dialog.record.task_no == record.task_no:
                self.plan_dialog.raise_()
                self.plan_dialog.activateWindow()
                return
            self.plan_dialog.reject()  # one plan at a time: the clerk asked for another task's
        dialog = ChangePlanDialog(self._fresh(record), path, self.catalog, self._background, self)
        self.plan_dialog = dialog
        dialog.apply_requested.connect(self._apply_plan)
        dialog.discard_requested.connect(lambda r: self.service.discard_plan(r.task_no))
        dialog.changes_requested.connect(lambda r: self.actions_.open_task_file(r, FileKind.CHANGES))
        dialog.finished.connect(lambda _r: self._plan_closed(dialog))
        dialog.open()

    def _plan_closed(self, dialog: ChangePlanDialog) -> None:
        if self.plan_dialog is dialog:
            self.plan_dialog = None
        dialog.deleteLater()

    def _plan_of(self, task_no: str) -> ChangePlanDialog | None:
        dialog = self.plan_dialog
        return dialog if dialog is not None and task_no in (dialog.record.task_no, dialog.record.parent) else None

    def _apply_plan(self, record: TaskRecord) -> None:
        # a workbook's sheet: the workbook is applied whole (a sheet alone is refused: workbook_sheet)
        if not self.service.apply_plan(record.parent or record.task_no) and self.plan_dialog is not None:
            self.plan_dialog.not_now(self.tr("Another file is being queued; try again in a moment."))

    def _plan_applied(self, task_no: str, result: SubmitResult) -> None:
        """The plan's apply is queued: the dialog goes, the new task is selected."""
        dialog = self._plan_of(task_no)
        if dialog is not None:
            dialog.finish()
        self.select_task(result.task.id)
        self._focus_on_the_list()  # seen: on the Details' close button, the pressed "Review the changes…" gone
        self.statusBar().showMessage(self.tr("Queued as task %s.") % result.task.task_no, 8000)

    def _plan_discarded(self, task_no: str) -> None:
        dialog = self._plan_of(task_no)
        if dialog is not None:
            dialog.finish()
        self.statusBar().showMessage(self.tr("The plan of %1 was discarded.").replace("%1", task_no), 8000)

    def _plan_refused(self, task_no: str, reason: str) -> None:
        """Refused (already applied, the file changed since, ...): said in the dialog, else in a message."""
        dialog = self._plan_of(task_no)
        if dialog is not None:
            dialog.refused(reason)
        else:
            self.inform(reason)

    def _fetching(self, text: str) -> None:
        """A task's file is being fetched from the shared database: said in the status bar until it is here."""
        if text:
            self._fetch_text = text
            self.statusBar().showMessage(text)
        elif self.statusBar().currentMessage() == getattr(self, "_fetch_text", None):
            self.statusBar().clearMessage()  # not a message shown since (a problem in words stays)

    def open_failed(self, path: Path) -> None:
        """The desktop had no program for a task's file: say so, with its path, Copy path, Show in folder."""
        self.last_message = self.tr("Could not open %s") % path
        self.statusBar().showMessage(self.last_message, 10_000)
        dialog = OpenFailedDialog(path, parent=self)
        self.open_failed_dialog = dialog
        dialog.finished.connect(lambda _r: setattr(self, "open_failed_dialog", None))
        dialog.open()

    def open_help(self) -> None:
        actions = [a for a in self.findChildren(QAction) if a.text() and not a.shortcut().isEmpty()]
        actions = list({a.shortcut().toString(): a for a in actions}.values())
        self.help_dialog = HelpDialog(actions, self)
        self.help_dialog.show()

    def open_about(self) -> None:
        self.help_dialog = AboutDialog(self._about, parent=self)
        self.help_dialog.show()

    def bring_to_front(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            self.panel.set_path(Path(files[0]))
            self.panel.queue_button.setFocus()
            event.acceptProposedAction()

    def close_question_text(self) -> str:
        """The quit question's words: which tasks have not finished (the one by its number and file, several by
        their numbers: seen, "Tasks are still running" with one task in the list); a running task the list
        hides (a feed's look at its folder) by name."""
        active = self.service.active_to_ask()
        shown = [r for r in active if not self.kinds.of(r).system]
        comma = self.tr(", ")  # the language's list separator (seen: "T…, T…" in a Chinese question)
        numbers = comma.join([r.task_no for r in shown[:MAX_NAMED]] + (["…"] if len(shown) > MAX_NAMED else []))
        if len(shown) == 1:
            # an undo's file is its import's, as its row's File cell names it (seen: an undo named without one)
            file_name = shown_file_name(self.model.file_source(shown[0]))
            text = (self.tr("Task %1 (%2) has not finished.").replace("%2", file_name) if file_name
                    else self.tr("Task %1 has not finished.")).replace("%1", shown[0].task_no)  # fmt: skip
            text = self.tr("%1 Stop it now (it continues from where it stopped at the next start) or keep it "
                           "running in the background?").replace("%1", text)
        else:
            text = (self.tr("%1 tasks have not finished (%2).").replace("%2", numbers).replace("%1", f"{len(shown):,}")
                    if shown else self.tr("Tasks are still running."))  # fmt: skip
            text = self.tr("%1 Stop them now (they continue from where they stopped at the next start) or keep "
                           "them running in the background?").replace("%1", text)
        hidden = [r for r in active if self.kinds.of(r).system]
        if hidden:
            names = ", ".join(dict.fromkeys(self.catalog.describe(r, self.kinds.of(r)) for r in hidden))
            text += "\n\n" + self.tr("Running in the background: %1").replace("%1", names)
        return text

    def ask_close(self) -> str:
        """Ask what to do with running tasks: "stop", "tray" or "cancel" (tests replace this method)."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Tasks are running"), self.close_question_text(),
                          QMessageBox.StandardButton.NoButton, self)  # fmt: skip
        stop = box.addButton(self.tr("&Stop and resume later"), QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton(self.tr("&Keep running in the tray") if self.tray.available
                             else self.tr("&Keep running (minimise)"), QMessageBox.ButtonRole.AcceptRole)  # fmt: skip
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(keep)
        box.exec()
        clicked = box.clickedButton()
        return "stop" if clicked is stop else "tray" if clicked is keep else "cancel"

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.allow_close:
            event.accept()
            return
        # only what the clerk would miss: a pending feed scan (hidden, run at the next start anyway) does not ask
        choice = self.ask_close() if self.service.active_to_ask() else "quit"
        if choice == "cancel":
            event.ignore()
            return
        self.save_state()
        if choice == "tray":
            event.ignore()
            if self.tray.available:
                self.hide()
            else:
                self.showMinimized()
        else:
            event.accept()
        self.close_decided.emit(choice)

    def save_state(self) -> None:
        q = self._qsettings
        q.setValue("window/geometry", self.saveGeometry())
        q.setValue("window/state", self.saveState())
        q.setValue("tasks/header", self.table.horizontalHeader().saveState())
        q.setValue("tasks/header_columns", COLUMN_COUNT)
        q.setValue("tasks/columns_custom", self.fitter.custom)
        q.setValue("details/visible", self.details_dock.isVisible())
        q.setValue("tasks/open_when_done", sorted(self.actions_.open_when_done_tasks))
        q.sync()

    def restore_state(self) -> None:
        q = self._qsettings
        restore_geometry(self, q.value("window/geometry"))
        state = q.value("window/state")
        if state is not None:
            self.restoreState(state)
        header = q.value("tasks/header")
        # A header saved with other columns (an older BatchDesk) would scramble them: fit anew instead.
        if header is not None and str(q.value("tasks/header_columns")) == str(COLUMN_COUNT):
            self.fitter.restore(header, custom=flag(q.value("tasks/columns_custom")))
        self.view_options.restore()
        wanted = q.value("tasks/open_when_done") or []
        self.actions_.open_when_done_tasks = {str(n) for n in ([wanted] if isinstance(wanted, str) else wanted)}
        if flag(q.value("details/visible")):
            self.details_dock.show()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("BatchDesk — import tasks"))
        self.table.setAccessibleName(self.tr("Tasks"))
        self.summary.setAccessibleName(self.tr("What happened to the selected task"))
        self.actions_.retranslate()
        self.menus.retranslate()
        self.model.retranslate()
        self.tray.retranslate()
        self.panel.fill_types()
        self._selection_changed()
        if self._placed:
            self.fitter.remeasure()  # the words of another language have other widths
