"""A dry run's change plan (issue 26): what it would insert, update, delete, skip and fail, row by row; apply
it as it is or discard it."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.change_plan import PlanCounts
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.row_plans import Action
from desktop_app.submission import plan_desk
from desktop_app.tasks.identity import host_name
from desktop_app.ui.background import Background
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.plan_model import ACTION, FILTERS, KEY, REASON, PlanSource, PlanTableModel, action_word
from desktop_app.ui.texts import window_lang

log = logging.getLogger(__name__)

PREFERRED_SIZE = QSize(1000, 680)  # where the screen has room; else the screen less its window frame
FRAME_ROOM = QSize(40, 60)  # the window frame and a task bar's edge: 1024 x 700 leaves 984 x 640
WIDEST_COLUMN = 260  # a long value (a remark, a name) never pushes the other columns out of sight
NARROWEST_REASON = 180  # a failing row's reason wraps in the room left of the grid, never narrower than this
CELL_MARGIN = 16  # a cell's text margins and its grid line, both sides
ROW_MARGIN = 8  # above and below a row's text


class _WrappedText(QStyledItemDelegate):
    """A reason's text over as many lines as its row is given (ChangePlanDialog._fit_reasons)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText


def fitted_size(available: QRect) -> QSize:
    """The dialog's size on a screen with this usable area: its preferred size, or the area less the frame."""
    return QSize(min(PREFERRED_SIZE.width(), available.width() - FRAME_ROOM.width()),
                 min(PREFERRED_SIZE.height(), available.height() - FRAME_ROOM.height()))  # fmt: skip


class ChangePlanDialog(QDialog):
    """Non-blocking (the window opens it with open()). Reads the plan off the GUI thread (``background``), then
    its rows a page at a time; the clerk filters them by action. Apply and Discard are asked of the window
    (which asks the service) and answered through finish(), refused() or not_now().

    Signals:
        apply_requested(TaskRecord): the clerk chose "Apply these changes" for this dry run.
        discard_requested(TaskRecord): the clerk confirmed "Discard" for this dry run.
        changes_requested(TaskRecord): the clerk chose "Open the change file" (the plan is on another desk).
    """

    apply_requested = Signal(object)
    discard_requested = Signal(object)
    changes_requested = Signal(object)

    def __init__(self, record: TaskRecord, plan_file: Path, catalog: ImportCatalog, background: Background,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName("change_plan")
        self.record = record
        self.plan_file = plan_file
        self._catalog = catalog
        self._background = background
        self.source: PlanSource | None = None
        self.question: QMessageBox | None = None
        self.discard_yes: QPushButton | None = None  # the question's "Discard the plan" (tests press it)
        self._busy = False  # an apply or a discard is being asked
        self._blocked = False  # the plan cannot be applied (gone, unfinished, applied, refused)
        self.elsewhere: str | None = None  # the desk that has the plan file, when it is not this one

        self.model = PlanTableModel(background, self)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.counts_label = QLabel()
        self.counts_label.setObjectName("plan_counts")
        self.counts_label.setWordWrap(True)
        font = self.counts_label.font()
        font.setBold(True)
        self.counts_label.setFont(font)
        self.filter_label = QLabel()
        self.filter_box = QComboBox()
        self.filter_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.filter_label.setBuddy(self.filter_box)
        self.table = QTableView()
        self.table.setObjectName("plan_table")
        self.table.setModel(self.model)
        self.table.setTabKeyNavigation(False)  # read only: Tab goes on to the buttons
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setItemDelegateForColumn(REASON, _WrappedText(self.table))
        self.table.verticalHeader().hide()
        # a line of text a row, as a spreadsheet has them
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + ROW_MARGIN)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # no column stretched: the last one (an empty note, say) was as wide as the grid's spare room
        header.setStretchLastSection(False)
        # the table scrolls inside; its own wish (every column whole) never widens the dialog
        self.table.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
        self.problem_label = QLabel()
        self.problem_label.setObjectName("plan_problem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem_label.setStyleSheet("color: #b00020;")
        self.problem_label.hide()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)

        self.buttons = QDialogButtonBox()
        self.apply_button = QPushButton()
        self.discard_button = QPushButton()
        self.close_button = QPushButton()
        # the plan is on the desk that made it: its change file (kept in the shared database) lists the same
        self.changes_button = QPushButton()
        self.changes_button.setObjectName("open_changes")
        self.changes_button.hide()
        self.buttons.addButton(self.changes_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.apply_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(self.discard_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        for button in (self.changes_button, self.apply_button, self.discard_button, self.close_button):
            button.setAutoDefault(False)
        self.close_button.setDefault(True)
        self.changes_button.clicked.connect(lambda: self.changes_requested.emit(self.record))
        self.apply_button.clicked.connect(self._apply)
        self.discard_button.clicked.connect(self._ask_discard)
        self.close_button.clicked.connect(self.reject)

        filters = QHBoxLayout()
        filters.addWidget(self.filter_label)
        filters.addWidget(self.filter_box)
        filters.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.counts_label)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)

        self.filter_box.currentIndexChanged.connect(lambda _i: self._filter_changed())
        self.model.page_loaded.connect(self._page_loaded)
        self.model.page_failed.connect(self._page_failed)
        self._sized_columns = False
        self._reasons_read = 0  # the rows whose reasons the reason column's width has taken in
        self._widest_reason = 0  # the widest of them, in pixels
        self._valued_read = 0  # the rows whose values have shown their columns
        self._showing_values = True  # the view shows the type's columns (not the failing rows')
        self.retranslate()
        self._update_buttons()
        if record.status is TaskStatus.FAILED:  # a check over the failed-rows limit: shown, not applied
            self._block(self.tr("Too many rows would fail: these changes cannot be applied. Fix the file and "
                                "check it again."))  # fmt: skip
        self.fit_to(self._available())
        self._read()

    # --- size ------------------------------------------------------------------------------

    def _available(self) -> QRect:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry()

    def fit_to(self, available: QRect) -> None:
        """Its size on a screen with this usable area, and never larger than it (the grid scrolls inside)."""
        size = fitted_size(available)
        self.setMaximumSize(QSize(max(size.width(), available.width() - FRAME_ROOM.width()),
                                  max(size.height(), available.height() - FRAME_ROOM.height())))  # fmt: skip
        self.resize(size)

    # --- reading ---------------------------------------------------------------------------

    def _read(self) -> None:
        self.status_label.setText(self.tr("Reading the plan…"))
        path = self.plan_file
        self._background.call(lambda: PlanSource.open(path), self._opened, self._open_failed, context=self)

    def _opened(self, source: PlanSource) -> None:
        self.source = source
        if not source.finished:
            self._block(self.tr("This plan is incomplete: its dry run stopped before the end. Run the dry run "
                                "again."))  # fmt: skip
        elif self.record.applied_by:
            self._block(self.tr("This plan was already applied by task %1.").replace("%1", self.record.applied_by))
        self.status_label.clear()
        self._fill_filters()
        self.model.set_plan(source, self._columns(), window_lang(), self._import_type())
        self.retranslate()
        self._update_buttons()
        self._filter_changed()

    def _open_failed(self, exc: BaseException) -> None:
        self.status_label.clear()
        desk = plan_desk(self.record)
        if isinstance(exc, FileNotFoundError) and desk not in (None, host_name()):
            self._elsewhere(desk or "")
        elif isinstance(exc, FileNotFoundError):
            text = self.tr("The plan of %1 is gone (it was discarded, or its results folder was cleaned up). "
                           "Run the dry run again to see its changes.")  # fmt: skip
            self._block(text.replace("%1", self.record.task_no))
        elif isinstance(exc, sqlite3.DatabaseError):
            log.warning("the plan %s cannot be read: %s", self.plan_file, exc)
            self._block(self.tr("The plan of %1 cannot be read: its file is damaged. Run the dry run again.")
                        .replace("%1", self.record.task_no))  # fmt: skip
        else:
            self._block(plain_error(exc, window_lang(), "reading a change plan"))

    def _elsewhere(self, desk: str) -> None:
        """A desk of the owner's other than the one that ran the dry run (a shared database): the plan file is
        there. Said in words; its change file, which the database keeps, opens from here."""
        self.elsewhere = desk
        for widget in (self.filter_label, self.filter_box, self.table):
            widget.hide()
        self.counts_label.setText(self._counts_of_summary())
        self.changes_button.setVisible(bool(self.record.summary.get("changes_csv")))
        self._block(self.tr("The plan of %1 is kept on the desk %2, where its dry run ran: review it and apply it "
                            "there. Here you can open its change file, which lists the same changes row by row.")
                    .replace("%1", self.record.task_no).replace("%2", desk))  # fmt: skip
        self.resize(self.width(), min(self.height(), self.sizeHint().height()))

    def _counts_of_summary(self) -> str:
        """The plan's counts as its dry run's summary has them (the plan file is not here to count)."""
        counts = self.record.summary.get("plan_counts")
        return counts_text(PlanCounts.from_json(counts)) if isinstance(counts, dict) else ""

    def _import_type(self) -> ImportType | None:
        """The plan's import type, which names a failed row's columns (None: the catalog lacks it now)."""
        if self.source is None:
            return None
        itype = self._catalog.get(self.source.meta.import_type)
        return itype if isinstance(itype, ImportType) else None

    def _columns(self) -> list[tuple[str, str]]:
        """The type's columns in the plan's order, titled in the desk's language (a key not in the type: itself)."""
        if self.source is None:
            return []
        meta = self.source.meta
        itype = self._catalog.get(meta.import_type)
        lang = window_lang()
        keys = meta.columns or (tuple(itype.keys) if itype is not None else ())
        titles = {}
        if itype is not None:
            titles = {c.key: c.label(lang) for c in itype.columns}
        return [(key, titles.get(key, key)) for key in keys]

    def _fill_filters(self) -> None:
        current = self.filter_box.currentData()
        self.filter_box.blockSignals(True)
        self.filter_box.clear()
        stored = self.source.stored if self.source is not None else {}
        zh = window_lang() == "zh"

        def named(word: str, count: int) -> str:
            return f"{word}（{count:,}）" if zh else f"{word} ({count:,})"

        self.filter_box.addItem(named(self.tr("All"), sum(stored.values())), "all")
        words = {Action.INSERT: self.tr("Insert"), Action.UPDATE: self.tr("Update"), Action.DELETE: self.tr("Delete"),
                 Action.SKIP: self.tr("Skip"), Action.FAIL: self.tr("Fail")}  # fmt: skip
        for action in FILTERS:
            self.filter_box.addItem(named(words[action], stored.get(action, 0)), action.value)
        at = self.filter_box.findData(current) if current is not None else 0
        self.filter_box.setCurrentIndex(max(0, at))
        self.filter_box.blockSignals(False)

    def choose_filter(self, action: Action | None) -> None:
        """Show only the rows with this action (None: all of them), as the filter box does."""
        self.filter_box.setCurrentIndex(max(0, self.filter_box.findData(action.value if action else "all")))

    def _filter_changed(self) -> None:
        data = self.filter_box.currentData()
        action = None if data in (None, "all") else Action(data)
        self.model.set_actions({action} if action is not None else None)
        stored = self.source.stored if self.source is not None else {}
        # the reason only where failing rows are shown; a failing row has no values: its view shows the reasons
        self.table.setColumnHidden(self.model.reason_column, action not in (None, Action.FAIL)
                                   or not stored.get(Action.FAIL))  # fmt: skip
        for column in self.model.value_columns:  # each shown again once a loaded row has a value in it
            self.table.setColumnHidden(column, True)
        self._showing_values = action is not Action.FAIL
        self._sized_columns = False
        self.model.fetchMore()

    def _page_loaded(self) -> None:
        """The columns fitted to the first page of a filter (a long value cut, whole in its tooltip; an empty
        column as wide as its title), a failing row's reason widened as pages bring longer ones."""
        if not self.model.rowCount():
            return
        header = self.table.horizontalHeader()
        if not self._sized_columns:
            # the reason after the values (seen: a reason column before them, blank but on the failing rows,
            # pushed an update's values out of sight); with them hidden (the failing rows' view), after the key
            if header.visualIndex(REASON) != header.count() - 1:
                header.moveSection(header.visualIndex(REASON), header.count() - 1)
            self._valued_read = 0
        self._show_valued_columns()
        if not self._sized_columns:
            self._sized_columns = True
            self._reasons_read = self._widest_reason = 0
            self.table.resizeColumnsToContents()
            for column in (*self.model.value_columns, REASON):  # the reason widened below, as far as it may
                if header.sectionSize(column) > WIDEST_COLUMN:
                    header.resizeSection(column, WIDEST_COLUMN)
            # every action's word whole, whatever the first page held
            metrics = self.table.fontMetrics()
            lang = window_lang()
            words = max(metrics.horizontalAdvance(action_word(a, lang, waiting=w)) for a in FILTERS
                        for w in (False, a is Action.INSERT))  # fmt: skip
            header.resizeSection(ACTION, max(header.sectionSize(ACTION), words + 16))
        self._fit_reasons()

    def _show_valued_columns(self) -> None:
        """Only the type's columns a loaded row has a value in: an update shows the values it changes, so the
        updates' view holds their columns beside the key, not ten blank ones before them."""
        rows = self.model.rowCount()
        if not self._showing_values or rows <= self._valued_read:
            return
        first, self._valued_read = self._valued_read, rows
        for column in self.model.value_columns:
            if not self.table.isColumnHidden(column) or column == self.model.key_value_column:
                continue  # the key's own column: the key column shows it
            # a value, or an update's change to nothing (a cleared cell reads empty: its change is what to review)
            indexes = [self.model.index(r, column) for r in range(first, rows)]
            if any(index.data() or self.model.changed(index) for index in indexes):
                self.table.setColumnHidden(column, False)

    def _fit_reasons(self) -> None:
        """A failing row's reason is what the clerk reads to fix the file: whole (seen in Chinese: a reason cut
        at the values' width) and in view, in the grid's room right of the columns shown (it comes after the
        values; seen: an insert plan's reason past the right edge, "Phone has th"); a longer one wraps over as
        many lines as it needs, its row as tall."""
        header, rows = self.table.horizontalHeader(), self.model.rowCount()
        if self.table.isColumnHidden(REASON) or rows <= self._reasons_read:
            return
        first, self._reasons_read = self._reasons_read, rows
        metrics = self.table.fontMetrics()
        widest = max(metrics.horizontalAdvance(str(self.model.index(r, REASON).data() or ""))
                     for r in range(first, rows))  # fmt: skip
        self._widest_reason = max(self._widest_reason, widest)
        shown = [c for c in range(self.model.columnCount()) if c != REASON and not self.table.isColumnHidden(c)]
        # the vertical scroll bar's room kept while it is not shown yet: it comes as rows grow taller with their
        # wrapped reasons or the next page comes (seen in Chinese at 1400: the reason's first line under it)
        bar = self.table.verticalScrollBar()
        viewport = self.table.viewport().width() - (0 if bar.isVisible() else bar.sizeHint().width())
        room = viewport - sum(header.sectionSize(c) for c in shown)
        # no room after the values (an insert's plan shows them all): beside the key, a third of the grid wide,
        # the values scrolling after it; a failing row has no values to hide
        at = header.count() - 1 if room >= NARROWEST_REASON else header.visualIndex(KEY) + 1
        if header.visualIndex(REASON) != at:
            header.moveSection(header.visualIndex(REASON), at)
        if room < NARROWEST_REASON:
            room = viewport // 3
        wanted = min(self._widest_reason + CELL_MARGIN, max(NARROWEST_REASON, room))
        if wanted != header.sectionSize(REASON):
            header.resizeSection(REASON, wanted)
            first = 0  # narrower: the rows read before wrap again
        reasons = {r: str(self.model.index(r, REASON).data() or "") for r in range(first, rows)}
        width = header.sectionSize(REASON) - CELL_MARGIN
        line = self.table.verticalHeader().defaultSectionSize()
        for row, text in reasons.items():
            if text and metrics.horizontalAdvance(text) > width:
                lines = metrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, text)
                self.table.setRowHeight(row, max(line, lines.height() + ROW_MARGIN))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The reasons wrap again in the grid's new room (the first page is often laid out before the dialog
        has its size)."""
        super().resizeEvent(event)
        if self._sized_columns:
            self._reasons_read = 0
            self._fit_reasons()

    def _page_failed(self, reason: str) -> None:
        self.status_label.setText(self.tr("The plan's rows could not be read: %1").replace("%1", reason))

    # --- apply, discard ----------------------------------------------------------------------

    def _block(self, text: str) -> None:
        self._blocked = True
        self.show_problem(text)
        self._update_buttons()

    def show_problem(self, text: str) -> None:
        self.problem_label.setText(text)
        self.problem_label.setVisible(bool(text))

    def _update_buttons(self) -> None:
        ready = self.source is not None and not self._busy
        self.apply_button.setEnabled(ready and not self._blocked)
        self.discard_button.setEnabled(not self._busy and not self.record.applied_by)

    def _apply(self) -> None:
        if not self.apply_button.isEnabled():
            return
        self._busy = True
        self.show_problem("")
        self.status_label.setText(self.tr("Queueing the import of these changes…"))
        self._update_buttons()
        self.apply_requested.emit(self.record)

    def _ask_discard(self) -> None:
        if self.question is not None or not self.discard_button.isEnabled():
            return
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Discard this plan?"),
                          self.tr("Discard the plan of dry run %1? It can no longer be applied; its change file "
                                  "stays as a record.").replace("%1", self.record.task_no),
                          QMessageBox.StandardButton.NoButton, self)  # fmt: skip
        self.discard_yes = box.addButton(self.tr("&Discard the plan"), QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton(self.tr("&Keep it"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        self.question = box

        def answered(_result: int) -> None:
            self.question = None
            clicked = box.clickedButton()
            box.deleteLater()
            if clicked is self.discard_yes:
                self._busy = True
                self.show_problem("")
                self.status_label.setText(self.tr("Discarding the plan…"))
                self._update_buttons()
                self.discard_requested.emit(self.record)

        box.finished.connect(answered)
        box.open()

    def refused(self, reason: str) -> None:
        """The apply (or the discard) was refused: the reason in words; nothing was queued."""
        self._busy = False
        self._blocked = True  # applying again would be refused the same way
        self.status_label.clear()
        self.show_problem(reason)
        self._update_buttons()

    def not_now(self, reason: str) -> None:
        """The request could not be sent now (another submission is in flight): said; it may be asked again."""
        self._busy = False
        self.status_label.clear()
        self.show_problem(reason)
        self._update_buttons()

    def finish(self) -> None:
        """Applied (the window selects the new task) or discarded: the dialog has done its work."""
        self._busy = False
        self.accept()

    def done(self, result: int) -> None:
        if self.question is not None:
            self.question.close()
        if self.source is not None:
            self.source.close()
        super().done(result)

    # --- words -----------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self.source is not None:
                self._fill_filters()
                self.model.set_language(self._columns(), window_lang())
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Changes of dry run %1").replace("%1", self.record.task_no))
        self.filter_label.setText(self.tr("&Show:"))
        if self.record.parent:  # a workbook's sheet: its workbook is applied whole, every sheet as planned
            self.apply_button.setText(self.tr("&Apply the whole workbook"))
            self.apply_button.setToolTip(self.tr("Import the workbook %1 now, every sheet written only as its own "
                                                 "plan shows it (a row changed since is listed as an error)")
                                         .replace("%1", self.record.parent))  # fmt: skip
        else:
            self.apply_button.setText(self.tr("&Apply these changes"))
            self.apply_button.setToolTip(self.tr("Import the same file now; each row is written only as this plan "
                                                 "shows it (a row changed since is listed as an error)"))  # fmt: skip
        self.discard_button.setText(self.tr("D&iscard"))
        self.discard_button.setToolTip(self.tr("Throw this plan away: it can no longer be applied"))
        self.close_button.setText(self.tr("&Close"))
        self.changes_button.setText(self.tr("&Open the change file"))
        self.changes_button.setToolTip(self.tr("Open the dry run's change file (every row it would insert, update "
                                               "or delete) in the spreadsheet application"))  # fmt: skip
        self.heading.setText(self._heading())
        self.counts_label.setText(counts_text(self.source.counts) if self.source is not None
                                  else self._counts_of_summary() if self.elsewhere else "")  # fmt: skip
        self.table.setAccessibleName(self.tr("Planned rows"))
        self.filter_box.setAccessibleName(self.tr("Rows to show"))

    def _heading(self) -> str:
        file = Path(str(self.record.params.get("file") or "")).name
        import_type = str(self.record.params.get("import_type") or "")
        title = self._catalog.title(import_type) if import_type else ""
        return (self.tr("What dry run %1 of %2 (%3) would change. An update shows the values it changes (the "
                        "old value in the tooltip); unchanged rows are counted, not listed.")
                .replace("%1", self.record.task_no).replace("%2", file).replace("%3", title))  # fmt: skip


def counts_text(counts: PlanCounts) -> str:
    """ "13,640 rows: 12,345 to insert · 1,203 to update · 1 to delete · 88 unchanged · 3 failing" (the zero
    ones left out), in the window's language."""
    # spelled out call by call: pyside6-lupdate only finds QCoreApplication.translate literally
    parts = [(counts.inserted, QCoreApplication.translate("ChangePlanDialog", "%1 to insert")),
             (counts.updated, QCoreApplication.translate("ChangePlanDialog", "%1 to update")),
             (counts.deleted, QCoreApplication.translate("ChangePlanDialog", "%1 to delete")),
             (counts.unchanged, QCoreApplication.translate("ChangePlanDialog", "%1 unchanged")),
             (counts.skipped, QCoreApplication.translate("ChangePlanDialog", "%1 skipped")),
             (counts.failed, QCoreApplication.translate("ChangePlanDialog", "%1 failing"))]  # fmt: skip
    items = " · ".join(text.replace("%1", f"{count:,}") for count, text in parts if count)
    if not items:
        return QCoreApplication.translate("ChangePlanDialog", "No rows: the file had nothing to import.")
    if counts.total == 1:
        return QCoreApplication.translate("ChangePlanDialog", "1 row: %1").replace("%1", items)
    return (QCoreApplication.translate("ChangePlanDialog", "%1 rows: %2")
            .replace("%1", f"{counts.total:,}").replace("%2", items))  # fmt: skip
