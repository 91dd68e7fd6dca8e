"""The change plan's grid: a dry run's planned rows, a page at a time, each page read off the GUI thread."""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont

from desktop_app.domain.errors import Lang
from desktop_app.domain.plan_words import PlanWord, plan_word
from desktop_app.imports.change_plan import (
    ABSENT_ROW,
    ChangePlan,
    PlanCounts,
    PlanMeta,
    PlannedCell,
    PlannedRow,
    reference_ids,
    waits_for_name,
)
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.row_plans import Action
from desktop_app.ui.background import Background
from desktop_app.ui.dialogs.preview_table import AMBER, WAIT

PAGE_ROWS = 200  # rows read per page: a plan may hold 100,000 (never all in memory)
# a changed cell of an update: a clear yellow behind dark text, readable in a light and a dark palette
CHANGED_BACKGROUND = QColor(255, 232, 140)
CHANGED_FOREGROUND = QColor(0, 0, 0)
# the grid's first columns, as the change file has them (the reason beside the key); the type's columns follow
ROW, ACTION, KEY, REASON = 0, 1, 2, 3
FIRST_VALUE = 4
FILTERS = (Action.INSERT, Action.UPDATE, Action.DELETE, Action.SKIP, Action.FAIL)

Index = QModelIndex | QPersistentModelIndex


class PlanSource:
    """A plan read back, shared by the pool's threads one call at a time (one SQLite connection)."""

    def __init__(self, plan: ChangePlan) -> None:
        self._plan = plan
        self._lock = threading.Lock()
        self._closed = False
        self.meta: PlanMeta = plan.meta
        self.counts: PlanCounts = plan.counts
        self.finished = plan.finished
        self.stored: dict[Action, int] = {}  # the rows kept per action (unchanged ones are only counted)

    @classmethod
    def open(cls, path: Path) -> PlanSource:
        """The plan at ``path`` with its rows counted per action. Call it off the GUI thread."""
        source = cls(ChangePlan.open(path))
        with source._lock:
            source.stored = {a: source._plan.count({a}) for a in FILTERS}
        return source

    def rows(self, actions: Collection[Action] | None, offset: int, limit: int) -> list[PlannedRow]:
        """A page of planned rows (none once closed). Call it off the GUI thread."""
        with self._lock:
            if self._closed:
                return []
            return self._plan.rows(actions, offset, limit)

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._plan.close()


@dataclass(frozen=True)
class _Shown:
    """One planned row as the grid reads it: its cells by column."""

    row: PlannedRow
    cells: dict[str, PlannedCell]
    waiting: bool = False  # an insert that waits for a name the table lacks (change_plan.waits_for_name)


def action_word(action: Action, lang: Lang, *, waiting: bool = False) -> str:
    """The catalog's word for an action, as a grid cell shows it ("Insert", "新增"; an insert that waits for a
    name: "Insert (waits for a name)")."""
    word = plan_word(PlanWord.INSERT_WAITING if waiting else action.value, lang)
    return word[:1].upper() + word[1:]


class PlanTableModel(QAbstractTableModel):
    """Row number, action, key, the reason of a failing row, then each column of the import type (its value
    after the change; a delete's value before it). A changed cell of an update is marked, its old value in its
    tooltip. Rows come a page at a time (fetchMore) from a PlanSource, read through ``background``.

    Signals:
        page_failed(str): a page could not be read; the reason (the view shows it).
        page_loaded(): a page arrived (its rows are in).
    """

    page_failed = Signal(str)
    page_loaded = Signal()

    def __init__(self, background: Background, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._background = background
        self._source: PlanSource | None = None
        self._columns: list[tuple[str, str]] = []  # (key, title) of the type's columns
        self._lang: Lang = "en"
        self._itype: ImportType | None = None  # names the columns of a failed row's reasons
        self._labels: dict[str, dict[str, str]] = {}  # an enum column's key -> {stored code: its label}
        self._actions: frozenset[Action] | None = None
        self._rows: list[_Shown] = []
        self._exhausted = True
        self._loading = False
        self._generation = 0  # a page asked for before a filter change is dropped

    # --- feeding -------------------------------------------------------------------------

    def set_plan(self, source: PlanSource, columns: Sequence[tuple[str, str]], lang: Lang,
                 itype: ImportType | None = None) -> None:  # fmt: skip
        """The plan to show, with the type's columns (key, title in the desk's language); a failed row's
        reasons are said in ``lang``, ``itype`` naming their columns (None: the type is gone; keys name them)."""
        self.beginResetModel()
        self._source, self._columns, self._lang, self._itype = source, list(columns), lang, itype
        self._label_enums()
        self._restart()
        self.endResetModel()

    def set_language(self, columns: Sequence[tuple[str, str]], lang: Lang) -> None:
        self._columns, self._lang = list(columns), lang
        self._label_enums()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, max(0, self.columnCount() - 1))
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, self.columnCount() - 1))

    def _label_enums(self) -> None:
        """An enum column's values as the clerk reads them (金卡, Gold), as the rest of the window shows them:
        the plan keeps the codes the table stores (gold)."""
        columns = self._itype.columns if self._itype is not None else ()
        self._labels = {c.key: dict(c.enum_choices(self._lang)) for c in columns if c.kind == "enum"}

    def _shown(self, key: str, value: str | None) -> str:
        return self._labels.get(key, {}).get(value or "", value or "")

    def set_actions(self, actions: Collection[Action] | None) -> None:
        """Show only the rows with these actions (None: every planned row), from the top again."""
        wanted = frozenset(actions) if actions is not None else None
        if wanted == self._actions and self._rows:
            return
        self.beginResetModel()
        self._actions = wanted
        self._restart()
        self.endResetModel()

    @property
    def actions(self) -> frozenset[Action] | None:
        return self._actions

    def _restart(self) -> None:
        self._rows = []
        self._generation += 1
        self._loading = False
        self._exhausted = self._source is None

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and not self._exhausted and not self._loading

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent) or self._source is None:
            return
        self._loading = True
        source, actions, offset, generation = self._source, self._actions, len(self._rows), self._generation

        def done(page: list[PlannedRow]) -> None:
            if generation != self._generation:
                return  # asked for before the filter changed
            self._loading = False
            self._exhausted = len(page) < PAGE_ROWS
            if page:
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + len(page) - 1)
                refs = reference_ids(self._itype) if self._itype is not None else {}
                self._rows.extend(_Shown(r, {c.column: c for c in r.cells}, waits_for_name(r, refs)) for r in page)
                self.endInsertRows()
            self.page_loaded.emit()

        def failed(exc: BaseException) -> None:
            if generation != self._generation:
                return
            self._loading = False  # fetchMore may try again
            self.page_failed.emit(str(exc))

        self._background.call(lambda: source.rows(actions, offset, PAGE_ROWS), done, failed, context=self)

    @property
    def loading(self) -> bool:
        return self._loading

    @property
    def exhausted(self) -> bool:
        return self._exhausted

    # --- reading -------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else FIRST_VALUE + len(self._columns)

    @property
    def reason_column(self) -> int:
        return REASON

    @property
    def value_columns(self) -> range:
        """The grid columns of the import type's columns."""
        return range(FIRST_VALUE, FIRST_VALUE + len(self._columns))

    def column_of(self, key: str) -> int:
        """The grid column of a type column's key (-1: not one of the type's)."""
        keys = [k for k, _title in self._columns]
        return FIRST_VALUE + keys.index(key) if key in keys else -1

    def planned(self, row: int) -> PlannedRow:
        return self._rows[row].row

    @property
    def key_value_column(self) -> int:
        """The type's column that holds the key whole (a key of one column), which the key column already
        shows: the view hides it (seen: "Key" and "Customer code" side by side, the same texts). -1: none."""
        keys = self._itype.unique_keys if self._itype is not None else ()
        return self.column_of(keys[0]) if len(keys) == 1 else -1

    def waiting(self, index: Index) -> bool:
        """Whether a cell is the reference name an insert waits for (marked as the preview marks it)."""
        if not index.isValid() or index.column() not in self.value_columns:
            return False
        shown = self._rows[index.row()]
        if not shown.waiting or self._itype is None:
            return False
        key = self._columns[index.column() - FIRST_VALUE][0]
        target = reference_ids(self._itype).get(key)
        cell, found = shown.cells.get(key), shown.cells.get(target or "")
        return cell is not None and bool(cell.after) and found is not None and found.after is None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section == ROW:
            return plan_word(PlanWord.ROW, self._lang)
        if section == ACTION:
            return plan_word(PlanWord.ACTION, self._lang)
        if section == KEY:  # a key of one column is titled as its column ("Customer code")
            at = self.key_value_column
            return self._columns[at - FIRST_VALUE][1] if at >= 0 else plan_word(PlanWord.KEY, self._lang)
        if section == REASON:
            return plan_word(PlanWord.REASON, self._lang)
        if section in self.value_columns:
            return self._columns[section - FIRST_VALUE][1]
        return None

    def _cell(self, shown: _Shown, column: int) -> PlannedCell | None:
        if column in self.value_columns:
            return shown.cells.get(self._columns[column - FIRST_VALUE][0])
        return None

    def changed(self, index: Index) -> bool:
        """Whether a cell is a changed value of an update (marked)."""
        if not index.isValid():
            return False
        shown = self._rows[index.row()]
        cell = self._cell(shown, index.column())
        return shown.row.action is Action.UPDATE and cell is not None and cell.before != cell.after

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        shown = self._rows[index.row()]
        planned, column = shown.row, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == ROW:
                return "" if planned.row == ABSENT_ROW else f"{planned.row:,}"
            if column == ACTION:
                return action_word(planned.action, self._lang, waiting=shown.waiting)
            if column == KEY:
                return planned.key
            if column == REASON:
                return planned.reason(self._itype, self._lang)
            cell = self._cell(shown, column)
            if cell is None:
                return ""
            return self._shown(cell.column, cell.before if planned.action is Action.DELETE else cell.after)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == ROW and planned.row == ABSENT_ROW:
                return self.tr("A row of the table that the file lacks: the sync deletes it")
            if column == REASON or planned.action is Action.FAIL:  # a failing row's reason, wherever it is pointed at
                return planned.reason(self._itype, self._lang) or None
            if self.waiting(index) or (column == ACTION and shown.waiting):
                return self.tr("This row will wait until the name is added")
            if self.changed(index):
                cell = self._cell(shown, column)
                assert cell is not None
                return self.tr("Before: %1").replace("%1", self._shown(cell.column, cell.before) or self.tr("(empty)"))
            return None
        if role == Qt.ItemDataRole.BackgroundRole and self.waiting(index):
            return WAIT
        if role == Qt.ItemDataRole.ForegroundRole and self.waiting(index):
            return AMBER
        if role == Qt.ItemDataRole.BackgroundRole and self.changed(index):
            return CHANGED_BACKGROUND
        if role == Qt.ItemDataRole.ForegroundRole and self.changed(index):
            return CHANGED_FOREGROUND
        if role == Qt.ItemDataRole.FontRole and self.changed(index):
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column == ROW:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
