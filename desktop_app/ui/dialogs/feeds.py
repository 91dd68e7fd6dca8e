"""The Feeds view: the watched folders with their state, today's files and next run; add, edit, run now,
pause, resume, remove and open their folder. Every database call runs off the GUI thread."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.feeds import FeedSpec, FeedState, FeedView
from desktop_app.domain.viewer import Viewer
from desktop_app.feeds.service import Feeds
from desktop_app.ui.background import Background
from desktop_app.ui.dialogs.feed_edit import FeedDialog
from desktop_app.ui.feeds_model import FOLDER, FeedsTableModel
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.reveal import open_local
from desktop_app.ui.texts import window_lang

log = logging.getLogger(__name__)

REFRESH_MS = 5000  # one views() call: the feeds' states, today's counts and next runs
TITLE_MARGINS = 14  # a column's title: the header's margins each side and the grid line, with room to spare
FOLDER_LEAST = 120  # the folder column gives way to the titles down to this (its path whole in its tooltip)


class FeedsWindow(QDialog):
    """Non-modal, beside the main window. ``feeds``: the Qt-free service; ``viewer``: who looks (the
    task list's viewer: a clerk's own feeds, an administrator's every feed); ``user``: who owns a feed
    added here; ``types``: (name, title) of the import types a feed may use; ``type_title``: a type's
    title in the window's language."""

    def __init__(
        self,
        feeds: Feeds,
        *,
        viewer: Callable[[], Viewer],
        user: str,
        types: Callable[[], list[tuple[str, str]]],
        type_title: Callable[[str], str],
        background: Background,
        open_folder: Callable[[Path], bool] = open_local,
        refresh_ms: int = REFRESH_MS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("feeds_window")
        self.setModal(False)
        self.feeds = feeds
        self._viewer = viewer
        self._user = user
        self._types = types
        self._background = background
        self._open_folder = open_folder
        self._reading = False
        self._read_again = False
        self._sized = False  # the columns fitted to the first feeds shown; the clerk's widths stay after
        self._fitting = False  # the columns sized here, not by the clerk
        self._custom = False  # a column the clerk sized: the widths are theirs from then on
        self._select_later: str | None = None  # a feed just saved: selected once the list shows it
        self.editor: FeedDialog | None = None
        self.question: QMessageBox | None = None
        self.last_message = ""  # the last problem shown (tests read it)

        self.model = FeedsTableModel(type_title, self)
        self.table = QTableView()
        self.table.setObjectName("feeds_table")
        self.table.setModel(self.model)
        self.table.setTabKeyNavigation(False)  # Tab goes on to the buttons
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # a selected row's sections would turn their titles bold, wider than the columns fitted to them (seen
        # at 1024: "oday: imported / failed / duplicate")
        header.setHighlightSections(False)
        header.sectionResized.connect(self._column_resized)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a folder cut keeps its last part
        self.table.viewport().installEventFilter(self)
        self.reason_label = QLabel()  # the selected feed's reason and problems, in words
        self.reason_label.setObjectName("feed_reason")
        self.reason_label.setWordWrap(True)
        self.reason_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)

        self.add_button, self.edit_button, self.run_button = QPushButton(), QPushButton(), QPushButton()
        self.pause_button, self.resume_button, self.remove_button = QPushButton(), QPushButton(), QPushButton()
        self.folder_button = QPushButton()
        buttons = QHBoxLayout()
        for button in (self.add_button, self.edit_button, self.run_button, self.pause_button, self.resume_button,
                       self.remove_button, self.folder_button):  # fmt: skip
            button.setAutoDefault(False)
            buttons.addWidget(button)
        buttons.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.reason_label)
        layout.addWidget(close)

        self.add_button.clicked.connect(self.add_feed)
        self.edit_button.clicked.connect(self.edit_feed)
        self.run_button.clicked.connect(lambda: self._act("run"))
        self.pause_button.clicked.connect(lambda: self._act("pause"))
        self.resume_button.clicked.connect(lambda: self._act("resume"))
        self.remove_button.clicked.connect(self.ask_remove)
        self.folder_button.clicked.connect(self.open_folder)
        self.table.doubleClicked.connect(lambda _i: self.edit_feed())
        self.table.selectionModel().selectionChanged.connect(lambda *_a: self._selection_changed())
        self.model.modelReset.connect(self._selection_changed)
        self.model.dataChanged.connect(lambda *_a: self._selection_changed())

        self._timer = QTimer(self)
        self._timer.setInterval(refresh_ms)
        self._timer.timeout.connect(self.refresh)
        if refresh_ms > 0:
            self._timer.start()
        self.retranslate()
        self.resize(1100, 420)
        self._selection_changed()
        self.refresh()

    # --- reading ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the feeds again (one read at a time; asked meanwhile, once more when it answers)."""
        if self._reading:
            self._read_again = True
            return
        self._reading = True
        self.feeds.lang = window_lang()  # a feed's reason in the window's language
        viewer = self._viewer()
        self._background.call(lambda: self.feeds.views(viewer), self._read, self._read_failed, context=self)

    def _read(self, views: list[FeedView]) -> None:
        self._reading = False
        selected = self.selected()
        self.model.set_views(views)
        wanted = self._select_later or (selected.feed.name if selected is not None else None)
        self._select_later = None
        if wanted is not None:
            self.select(wanted)
        self.empty_label.setVisible(not views)
        if views and not self._sized:
            # once: a refresh every few seconds must not undo the widths a clerk dragged the columns to
            self.fit_columns()
            self._sized = True
        if self._read_again:
            self._read_again = False
            self.refresh()

    def fit_columns(self) -> None:
        """Each column as wide as its rows and its whole title; the folder gives way to the others so that
        every title reads without sideways scrolling (seen at 1024 x 700: "Next run" cut, a scroll bar)."""
        table, header = self.table, self.table.horizontalHeader()
        metrics, count = header.fontMetrics(), self.model.columnCount()
        needs = [max(table.sizeHintForColumn(c),
                     metrics.horizontalAdvance(str(self.model.headerData(c, Qt.Orientation.Horizontal) or ""))
                     + TITLE_MARGINS) for c in range(count)]  # fmt: skip
        over = sum(needs) - table.viewport().width()
        if over > 0:
            needs[FOLDER] = max(FOLDER_LEAST, needs[FOLDER] - over)
        self._fitting = True
        try:
            for column, width in enumerate(needs):
                header.resizeSection(column, width)
        finally:
            self._fitting = False

    def _column_resized(self, column: int, _old: int, _new: int) -> None:
        # the last column stretches with the view: only another one dragged is the clerk's sizing
        if not self._fitting and column != self.model.columnCount() - 1:
            self._custom = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The list's view resized (the window cut to a small screen, maximised): the columns fitted again,
        unless the clerk sized one."""
        if event.type() == QEvent.Type.Resize and self._sized and not self._custom:
            self.fit_columns()
        return False

    def _read_failed(self, exc: BaseException) -> None:
        self._reading = False
        self.reason_label.setText(self.tr("The feeds could not be read: %1")
                                  .replace("%1", plain_error(exc, window_lang(), "reading the feeds")))  # fmt: skip

    def selected(self) -> FeedView | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.view_at(rows[0].row()) if rows else None

    def select(self, name: str) -> None:
        row = self.model.row_of(name)
        if row >= 0:
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.table.selectionModel().setCurrentIndex(self.model.index(row, 0), flags)

    def _selection_changed(self) -> None:
        view = self.selected()
        for button in (self.edit_button, self.run_button, self.remove_button, self.folder_button):
            button.setEnabled(view is not None)
        paused = view is not None and view.state is FeedState.PAUSED
        # Pause and Resume take each other's place: the focus goes across, not on to the next button (seen
        # under Xvfb: after Pause it landed on Remove…, one stray Enter from asking to remove the feed)
        had_focus = self.pause_button.hasFocus() or self.resume_button.hasFocus()
        self.resume_button.setEnabled(paused)
        self.pause_button.setEnabled(view is not None and not paused)
        if had_focus:
            (self.resume_button if paused else self.pause_button).setFocus()
        self.run_button.setEnabled(view is not None and not paused)
        lines = ([view.reason] if view is not None and view.reason else []) + list(view.problems if view else ())
        self.reason_label.setText("\n".join(lines))

    # --- acting ----------------------------------------------------------------------------

    def _act(self, action: str) -> None:
        """Run now, pause or resume the selected feed."""
        view = self.selected()
        if view is None:
            return
        name, viewer = view.feed.name, self._viewer()
        call: Callable[[], Any] = {"run": lambda: self.feeds.run(name, viewer),
                                   "pause": lambda: self.feeds.pause(name, viewer),
                                   "resume": lambda: self.feeds.resume(name, viewer)}[action]  # fmt: skip
        self._background.call(call, lambda _r: self.refresh(), self._failed, context=self)

    def _failed(self, exc: BaseException) -> None:
        self.show_problem(plain_error(exc, window_lang(), "a feed's action"))
        self.refresh()

    def show_problem(self, text: str, parent: QWidget | None = None) -> None:
        """A problem in plain words, in a message box (never a traceback)."""
        self.last_message = text
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Feeds"), text, QMessageBox.StandardButton.Ok,
                          parent or self)  # fmt: skip
        box.setObjectName("feeds_problem")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def ask_remove(self) -> None:
        view = self.selected()
        if view is None:
            return
        name = view.feed.name
        text = self.tr("Remove the feed “%1”? It stops watching %2. Its import tasks stay in the task list, and "
                       "the files in its folder stay where they are.").replace("%1", name)  # fmt: skip
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Remove feed"), text.replace("%2", view.feed.spec.folder),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        box.setObjectName("feeds_remove_question")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Remove"))
        self.question = box

        def answered(button: int) -> None:
            self.question = None
            if button == QMessageBox.StandardButton.Yes:
                viewer = self._viewer()
                self._background.call(lambda: self.feeds.remove(name, viewer), lambda _r: self.refresh(),
                                      self._failed, context=self)  # fmt: skip

        box.finished.connect(answered)
        box.open()

    def open_folder(self) -> None:
        view = self.selected()
        if view is not None and not self._open_folder(Path(view.feed.spec.folder)):
            self.show_problem(self.tr("The folder %1 could not be opened.").replace("%1", view.feed.spec.folder))

    # --- adding and editing -----------------------------------------------------------------

    def add_feed(self) -> None:
        self._open_editor(None)

    def edit_feed(self) -> None:
        view = self.selected()
        if view is not None:
            self._open_editor(view.feed.spec)

    def _open_editor(self, spec: FeedSpec | None) -> None:
        """The add or edit dialog, once the saved profiles are read (its profile drop-down offers them)."""
        if self.editor is not None:
            self.editor.raise_()
            self.editor.activateWindow()
            return
        profiles = self.feeds.submitter.profiles

        def read() -> list[tuple[str, str]]:
            return [(p.name, p.import_type) for p in profiles().list()]

        self._background.call(read, lambda found: self._show_editor(spec, found),
                              lambda exc: self._show_editor(spec, [], exc), context=self)  # fmt: skip

    def _show_editor(self, spec: FeedSpec | None, profiles: list[tuple[str, str]],
                     problem: BaseException | None = None) -> None:  # fmt: skip
        if problem is not None:
            log.warning("the profiles could not be read for the feed dialog: %s", problem)
        if self.editor is not None:
            return
        dialog = FeedDialog(self._types(), profiles, self._background, spec, self)
        self.editor = dialog
        dialog.save_requested.connect(lambda wanted: self._save(dialog, wanted))
        dialog.finished.connect(lambda _r: self._editor_closed(dialog))
        dialog.open()

    def _editor_closed(self, dialog: FeedDialog) -> None:
        if self.editor is dialog:
            self.editor = None
        dialog.deleteLater()

    def _save(self, dialog: FeedDialog, spec: FeedSpec) -> None:
        viewer, user = self._viewer(), self._user
        if dialog.editing:
            call: Callable[[], FeedView] = lambda: self.feeds.edit(spec.name, spec, viewer)  # noqa: E731
        else:
            call = lambda: self.feeds.add(spec, user=user)  # noqa: E731

        def done(view: FeedView) -> None:
            dialog.saved()
            self._select_later = view.feed.name
            self.refresh()

        def failed(exc: BaseException) -> None:
            text = plain_error(exc, window_lang(), "saving a feed")
            self.last_message = text
            dialog.show_problem(text)

        self._background.call(call, done, failed, context=dialog)

    # --- words -----------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self.refresh()  # the states and reasons in the new language
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Feeds: watched folders"))
        self.add_button.setText(self.tr("&Add…"))
        self.edit_button.setText(self.tr("&Edit…"))
        self.run_button.setText(self.tr("&Run now"))
        self.pause_button.setText(self.tr("&Pause"))
        self.resume_button.setText(self.tr("Res&ume"))
        self.remove_button.setText(self.tr("Re&move…"))
        self.folder_button.setText(self.tr("Open &folder"))
        self.add_button.setToolTip(self.tr("Watch a folder: each file dropped into it is imported once, then "
                                           "moved to imported, failed or duplicates"))  # fmt: skip
        self.run_button.setToolTip(self.tr("Look at the folder now"))
        self.empty_label.setText(self.tr("No feeds yet. Add one to import each file dropped into a folder."))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1)
