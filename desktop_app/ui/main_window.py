"""The main window: composes the submit panel, the task list, the details panel and the menus."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop_app.config import Settings
from desktop_app.domain.task import SubmitResult, TaskRecord
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.delegates import ProgressDelegate, StatusDelegate
from desktop_app.ui.details import DetailsPanel
from desktop_app.ui.dialogs.confirm_cancel import CancelQuestion
from desktop_app.ui.dialogs.export import ExportDialog, ExportRequest
from desktop_app.ui.dialogs.open_failed import OpenFailedDialog
from desktop_app.ui.dialogs.preview import PreviewDialog
from desktop_app.ui.filter_bar import FilterBar
from desktop_app.ui.mapping_memory import MappingMemory
from desktop_app.ui.submit_panel import SubmitPanel
from desktop_app.ui.task_actions import TaskActions
from desktop_app.ui.task_filter import TaskFilterProxy
from desktop_app.ui.task_model import PROGRESS, STATUS, RecordRole, TaskTableModel
from desktop_app.ui.task_service import TaskService
from desktop_app.ui.tray import Tray

log = logging.getLogger(__name__)

DEFAULT_WIDTHS = [140, 130, 190, 150, 190, 120, 110, 80, 70, 80, 150]


class MainWindow(QMainWindow):
    """Shows the tasks and forwards the clerk's requests to the service; decides nothing itself.

    Signals:
        settings_requested(): the clerk opened the settings dialog (the composition root owns it).
        close_decided(str): the window is closing; "stop" (stop the tasks, resume next start),
            "tray" (keep running hidden) or "quit" (nothing is running).
    """

    settings_requested = Signal()
    close_decided = Signal(str)

    def __init__(
        self,
        *,
        service: TaskService,
        catalog: ImportCatalog,
        memory: MappingMemory,
        settings: Settings,
        results_dir: Path,
        qsettings: QSettings,
        tray: Tray,
        page_size: int = 500,
    ) -> None:
        super().__init__()
        self.service = service
        self.catalog = catalog
        self.settings = settings
        self.tray = tray
        self._memory = memory
        self._qsettings = qsettings
        self._background = service.background
        self._pending: tuple[Path, dict[str, Any]] | None = None
        self.preview: PreviewDialog | None = None
        self.export_dialog: ExportDialog | None = None
        self.question: QMessageBox | None = None
        self.cancel_question: CancelQuestion | None = None
        self.open_failed_dialog: OpenFailedDialog | None = None
        self.last_message = ""
        self.allow_close = False

        self.model = TaskTableModel(service.load_page, page_size=page_size, describe_type=catalog.describe, parent=self)
        self.proxy = TaskFilterProxy(self.model, self)
        self.panel = SubmitPanel(catalog, self._background)
        self.filters = FilterBar()
        self.table = self._make_table()
        self.actions_ = TaskActions(service, results_dir=results_dir, parent=self)
        self.details = DetailsPanel(catalog)
        self.details_dock = QDockWidget(self)
        self.details_dock.setObjectName("details")
        self.details_dock.setWidget(self.details)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.details_dock)
        self.details_dock.hide()

        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(self.panel)
        layout.addWidget(self.filters)
        layout.addWidget(self.table, 1)
        self.setCentralWidget(central)
        self.setAcceptDrops(True)
        self._make_menus()
        self.setTabOrder(self.panel.validate_button, self.filters.status_box)
        self.setTabOrder(self.filters.failed_button, self.table)

        self._wire()
        self._elapsed_timer = QTimer(self)
        self._elapsed_timer.setInterval(1000)
        self._elapsed_timer.timeout.connect(self.model.tick_elapsed)
        self._elapsed_timer.start()
        self._highlight_timer = QTimer(self)
        self._highlight_timer.setSingleShot(True)
        self._highlight_timer.timeout.connect(lambda: self.model.set_highlight(None))
        self.retranslate()
        self._update_busy()
        self.restore_state()

    # --- building ------------------------------------------------------------------------

    def _make_table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.proxy)
        table.setSortingEnabled(True)
        table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the model's order: newest first
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.verticalHeader().hide()
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        table.verticalHeader().setDefaultSectionSize(26)
        table.horizontalHeader().setStretchLastSection(True)
        # Python references: PySide drops a delegate's paint() override with its wrapper.
        self._status_delegate, self._progress_delegate = StatusDelegate(table), ProgressDelegate(table)
        table.setItemDelegateForColumn(STATUS, self._status_delegate)
        table.setItemDelegateForColumn(PROGRESS, self._progress_delegate)
        for column, width in enumerate(DEFAULT_WIDTHS):
            table.setColumnWidth(column, width)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        return table

    def _make_context_menu(self) -> QMenu:
        """One context menu for the list, built once (the actions are shared with the Task menu)."""
        menu = QMenu(self)
        menu.addActions(self.actions_.all())
        return menu

    def _make_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu, self.task_menu, self.view_menu = QMenu(self), QMenu(self), QMenu(self)
        for menu in (self.file_menu, self.task_menu, self.view_menu):
            bar.addMenu(menu)
        self.open_action = self._action(QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(self.panel.choose_file)
        self.queue_action = self._action(QKeySequence("Ctrl+Return"))
        self.queue_action.triggered.connect(self.panel.queue_button.click)
        self.export_action = self._action(QKeySequence("Ctrl+Shift+X"))
        self.export_action.triggered.connect(self.open_export)
        self.settings_action = self._action(QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.settings_requested)
        self.quit_action = self._action(QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(self.close)
        self.file_menu.addActions([self.open_action, self.queue_action, self.export_action])
        self.file_menu.addSeparator()
        self.file_menu.addActions([self.settings_action, self.quit_action])
        self.task_menu.addActions(self.actions_.all())
        self.context_menu = self._make_context_menu()
        self.find_action = self._action(QKeySequence.StandardKey.Find)
        self.find_action.triggered.connect(lambda: self.filters.text_edit.setFocus())
        self.failed_action = self._action(QKeySequence("Ctrl+Shift+F"))
        self.failed_action.triggered.connect(self.filters.show_failed_list)
        self.all_action = self._action(QKeySequence("Ctrl+Shift+A"))
        self.all_action.triggered.connect(self.filters.show_all)
        self.list_action = self._action(QKeySequence("Ctrl+L"))
        self.list_action.triggered.connect(lambda: self.table.setFocus())
        self.view_menu.addActions([self.find_action, self.failed_action, self.all_action, self.list_action,
                                   self.details_dock.toggleViewAction()])  # fmt: skip
        toolbar = self.addToolBar("tasks")
        toolbar.setObjectName("task_toolbar")
        toolbar.addAction(self.export_action)
        toolbar.addSeparator()
        toolbar.addActions(self.actions_.all())
        self.toolbar = toolbar

    def _action(self, shortcut: QKeySequence | QKeySequence.StandardKey) -> QAction:
        action = QAction(self)
        action.setShortcut(QKeySequence(shortcut))
        return action

    def _wire(self) -> None:
        s = self.service
        s.page_loaded.connect(self.model.add_page)
        s.page_failed.connect(self._page_failed)
        s.record_changed.connect(self._record_changed)
        s.progress.connect(self._progress)
        s.submitted.connect(self._submitted)
        s.submit_failed.connect(self._submit_failed)
        s.busy_changed.connect(lambda _busy: self._update_busy())
        s.task_ended.connect(self._task_ended)
        s.log_lines.connect(self.details.show_log)
        self.panel.queue_requested.connect(self.open_preview)
        self.filters.statuses_changed.connect(self.proxy.set_statuses)
        self.filters.text_changed.connect(self.proxy.set_text)
        self.table.selectionModel().currentRowChanged.connect(lambda _c, _p: self._selection_changed())
        self.proxy.rowsInserted.connect(lambda *_a: self._selection_changed())
        self.table.doubleClicked.connect(lambda _i: self.actions_.details.trigger())
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.actions_.details_requested.connect(self._show_details)
        self.actions_.cancel_requested.connect(self.ask_cancel)
        self.actions_.open_failed.connect(self.open_failed)
        self.actions_.problem.connect(self.inform)
        s.problem.connect(self.inform)
        self.tray.show_requested.connect(self.bring_to_front)
        # The tray's Quit is a close: the clerk is asked what to do with running tasks, as with the
        # window's own close button (the composition root acts on close_decided, nothing else).
        self.tray.quit_requested.connect(self.close)

    # --- the task list -------------------------------------------------------------------

    def selected_record(self) -> TaskRecord | None:
        index = self.table.selectionModel().currentIndex()
        return index.data(RecordRole) if index.isValid() else None

    def select_task(self, task_id: int) -> bool:
        row = self.model.row_of(task_id)
        if row is None:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():  # filtered out: show everything, then select it
            self.filters.show_all()
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.table.scrollTo(index)
        return True

    def _selection_changed(self) -> None:
        record = self.selected_record()
        self.actions_.set_record(record)
        if self.details_dock.isVisible():
            self._show_details(record)

    def _show_details(self, record: TaskRecord | None) -> None:
        if record is None:
            return
        new = self.details.record is None or self.details.record.id != record.id
        self.details.show_record(record)
        self.details_dock.show()
        if new:
            self.service.load_log(record.task_no)

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
            if selected is not None and selected.id == progress.task_id and self.details_dock.isVisible():
                self.details.show_record(selected)

    def _context_menu(self, pos: Any) -> None:
        self.context_menu.popup(self.table.viewport().mapToGlobal(pos))

    def _page_failed(self, reason: str) -> None:
        self.model.page_failed()
        self.statusBar().showMessage(self.tr("The task list could not be read: %s") % reason)

    # --- queueing ------------------------------------------------------------------------

    def open_preview(self, path: Path, import_type: str | None, dry_run: bool) -> None:
        """Show the preview; queue on OK. Non-blocking (open(), not exec()) so tests can drive it."""
        if not path.is_file():
            self.inform(self.tr("File not found: %s") % path)
            self._update_busy()
            return
        dialog = PreviewDialog(path, self.catalog, self._memory, self._background,
                               import_type=import_type or self.panel.import_type(), dry_run=dry_run,
                               parent=self)  # fmt: skip
        self.preview = dialog
        dialog.accepted.connect(lambda: self._queue(path, dialog.params()))
        dialog.finished.connect(lambda _r: self._preview_closed(dialog))
        dialog.open()

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

    def _queue(self, path: Path, chosen: dict[str, Any]) -> None:
        s = self.settings
        params = {**chosen, "max_rows": s.max_rows, "max_file_mb": s.max_file_mb, "batch_size": s.batch_size,
                  "repairs": None}  # fmt: skip
        self._pending = (path, params)
        if not self.service.submit_import(path, params):
            self.inform(self.tr("Another file is being queued; try again in a moment."))

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
        imported_by = selected.task_no if selected is not None and selected.task_type == "import" else None
        dialog = ExportDialog(self.catalog, imported_by=imported_by, parent=self)
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
        if not self.service.submit_export(request.name, request.filters, request.fmt, request.encoding):
            self.inform(self.tr("Another file is being queued; try again in a moment."))

    def _submitted(self, result: SubmitResult) -> None:
        task = result.task
        if result.refused:
            self._ask_import_again(result)
            return
        if result.duplicate_of:
            self.select_task(task.id)
            self.model.set_highlight(task.id)
            self._highlight_timer.start(4000)
            if task.task_type == "export":
                text = self.tr("The same export is already queued as task %s.")
            elif task.task_type == "import":
                text = self.tr("This file is already queued as task %s.")
            else:
                text = self.tr("The same request is already queued as task %s.")
            self.inform(text % task.task_no, dialog=False)
            return
        self.select_task(task.id)
        self.statusBar().showMessage(self.tr("Queued as task %s.") % task.task_no, 8000)

    def _ask_import_again(self, result: SubmitResult) -> None:
        task = result.task
        date = task.ended_at.date().isoformat() if task.ended_at else "?"
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Already imported"),
                          self.tr("This file was already imported on %1 as task %2. Import it again?")
                          .replace("%1", date).replace("%2", task.task_no),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)  # fmt: skip
        box.setDefaultButton(QMessageBox.StandardButton.No)
        pending = self._pending
        self.question = box

        def answered(button: int) -> None:
            if self.question is box:
                self.question = None
            box.deleteLater()
            if button == QMessageBox.StandardButton.Yes and pending is not None:
                self.service.submit_import(pending[0], pending[1], force=True)

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
        if not self.isActiveWindow() or self.isMinimized() or not self.isVisible():
            self.tray.task_ended(record)

    def ask_cancel(self, record: TaskRecord) -> None:
        """Cancel only after a question that names the task and what is already in (non-blocking)."""
        if self.cancel_question is not None:
            self.cancel_question.raise_()
            return
        row = self.model.row_of(record.id)  # the newest snapshot: progress ticks included
        box = CancelQuestion(self.model.record(row) if row is not None else record, self)
        self.cancel_question = box

        def answered(_result: int) -> None:
            if self.cancel_question is box:
                self.cancel_question = None
            box.deleteLater()
            if box.clickedButton() is box.cancel_button:
                self.actions_.confirm_cancel(record)

        box.finished.connect(answered)
        box.open()

    def open_failed(self, path: Path) -> None:
        """The desktop had no program for a task's file: say so, with its path, Copy path, Show in folder."""
        self.last_message = self.tr("Could not open %s") % path
        self.statusBar().showMessage(self.last_message, 10_000)
        dialog = OpenFailedDialog(path, parent=self)
        self.open_failed_dialog = dialog
        dialog.finished.connect(lambda _r: setattr(self, "open_failed_dialog", None))
        dialog.open()

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

    def ask_close(self) -> str:
        """Ask what to do with running tasks: "stop", "tray" or "cancel" (tests replace this method)."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Tasks are running"),
                          self.tr("Tasks are still running. Stop them now (they continue from where they "
                                  "stopped at the next start) or keep them running in the background?"),
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
        choice = self.ask_close() if self.service.active_count() else "quit"
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
        q.sync()

    def restore_state(self) -> None:
        q = self._qsettings
        geometry = q.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 720)
        state = q.value("window/state")
        if state is not None:
            self.restoreState(state)
        header = q.value("tasks/header")
        if header is not None:
            self.table.horizontalHeader().restoreState(header)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("BatchDesk — import tasks"))
        self.file_menu.setTitle(self.tr("&File"))
        self.task_menu.setTitle(self.tr("&Task"))
        self.view_menu.setTitle(self.tr("&View"))
        self.open_action.setText(self.tr("&Open file…"))
        self.queue_action.setText(self.tr("&Queue the file…"))
        self.export_action.setText(self.tr("E&xport…"))
        tip = self.tr("Export a table to a CSV or Excel file, with filters")
        self.export_action.setToolTip(tip)
        self.export_action.setStatusTip(tip)
        self.settings_action.setText(self.tr("&Settings…"))
        self.quit_action.setText(self.tr("&Quit"))
        self.find_action.setText(self.tr("&Find tasks"))
        self.failed_action.setText(self.tr("Failed &list"))
        self.all_action.setText(self.tr("&All tasks"))
        self.list_action.setText(self.tr("Go to the task &list"))
        self.details_dock.setWindowTitle(self.tr("Task details"))
        self.details_dock.toggleViewAction().setText(self.tr("&Details panel"))
        self.toolbar.setWindowTitle(self.tr("Task actions"))
        self.table.setAccessibleName(self.tr("Tasks"))
        self.actions_.retranslate()
        self.model.retranslate()
        self.tray.retranslate()
        self.panel.fill_types()

    def current_index(self) -> QModelIndex:
        return self.table.selectionModel().currentIndex()
