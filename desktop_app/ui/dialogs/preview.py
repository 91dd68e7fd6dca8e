"""Before queueing: the first rows as decoded, the encoding (overridable) and the header mapping."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.ui.background import Background
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.mapping_memory import MappingMemory
from desktop_app.ui.plain_errors import plain_error

log = logging.getLogger(__name__)

ENCODINGS = ["utf-8", "utf-8-sig", "gb18030", "gbk", "big5", "utf-16", "shift_jis", "cp1252", "latin-1"]
PREVIEW_ROWS = 20
MODES = tuple(m.value for m in ImportMode)
BLANKS = tuple(b.value for b in BlankPolicy)
RED = QColor("#c62828")
GREY = QColor("#8a8a8a")


class PreviewDialog(QDialog):
    """Shows a file as it will be read and lets the clerk fix the encoding and the column mapping.

    Signals:
        loaded(): a preview (first or after an encoding change) is on screen.
        load_failed(str): the file could not be read; the plain-language reason.
    """

    loaded = Signal()
    load_failed = Signal(str)

    def __init__(
        self,
        path: Path,
        catalog: ImportCatalog,
        memory: MappingMemory,
        background: Background,
        *,
        import_type: str | None = None,
        dry_run: bool = False,
        mode: str = "insert",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.path = path
        self._catalog = catalog
        self._memory = memory
        self._background = background
        self._type_given = import_type is not None
        self._header: tuple[str, ...] = ()
        self._format = ""
        self._detected: str | None = None
        self._auto: dict[int, str] = {}

        self.type_box = QComboBox()
        for name in catalog.names():
            self.type_box.addItem(catalog.title(name), name)
        if import_type is not None and self.type_box.findData(import_type) >= 0:
            self.type_box.setCurrentIndex(self.type_box.findData(import_type))
        self.encoding_box = QComboBox()
        # what to do with rows whose key is already in the table (the task's mode)
        self.mode_box = QComboBox()
        for value in MODES:
            self.mode_box.addItem("", value)
        self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(mode)))
        self.blank_box = QComboBox()
        for value in BLANKS:
            self.blank_box.addItem("", value)
        self.rows_table = QTableWidget()
        self.rows_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.mapping_table = QTableWidget(0, 2)
        self.mapping_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.mapping_table.verticalHeader().hide()
        self.missing_label = QLabel()
        self.missing_label.setStyleSheet("color: #c62828; font-weight: bold;")
        self.missing_label.setWordWrap(True)
        self.dry_run_box = QCheckBox()
        self.dry_run_box.setChecked(dry_run)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.status_label = QLabel()

        self._type_label, self._encoding_label = QLabel(), QLabel()
        self._mode_label, self._blank_label = QLabel(), QLabel()
        self._type_label.setBuddy(self.type_box)
        self._encoding_label.setBuddy(self.encoding_box)
        self._mode_label.setBuddy(self.mode_box)
        self._blank_label.setBuddy(self.blank_box)
        form = QFormLayout()
        form.addRow(self._type_label, self.type_box)
        form.addRow(self._encoding_label, self.encoding_box)
        form.addRow(self._mode_label, self.mode_box)
        form.addRow(self._blank_label, self.blank_box)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        self._rows_title, self._mapping_title = QLabel(), QLabel()
        layout.addWidget(self._rows_title)
        layout.addWidget(self.rows_table, 3)
        layout.addWidget(self._mapping_title)
        layout.addWidget(self.mapping_table, 2)
        layout.addWidget(self.missing_label)
        layout.addWidget(self.dry_run_box)
        layout.addWidget(self.status_label)
        layout.addWidget(self.buttons)
        self.resize(900, 640)
        self.retranslate()

        self.type_box.currentIndexChanged.connect(lambda _i: self._show_mapping(recall=True))
        self.mode_box.currentIndexChanged.connect(lambda _i: self._mode_changed())
        self._mode_changed()
        self.encoding_box.activated.connect(lambda _i: self.reload())
        self.reload()

    # --- loading -------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the first rows again with the chosen encoding (None: detect)."""
        encoding = self.chosen_encoding()
        path = self.path
        self.status_label.setText(self.tr("Reading the file…"))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)

        def read() -> Any:
            from desktop_app.imports.readers import preview

            return preview(path, encoding=encoding, max_rows=PREVIEW_ROWS)

        # context: the clerk may close the dialog while it reads; its answer is then dropped.
        self._background.call(read, self._show, self._failed, context=self)

    def _failed(self, exc: BaseException) -> None:
        reason = plain_error(exc, self._catalog.lang, f"previewing {self.path}")
        self.status_label.setText(reason)
        self.load_failed.emit(reason)

    def _show(self, preview: Any) -> None:
        self._format = preview.format
        self._header = tuple(preview.header)
        if self.chosen_encoding() is None:
            self._detected = preview.encoding
        self._fill_encodings()
        from desktop_app.imports.readers import cell_to_text

        table = self.rows_table
        table.clear()
        table.setColumnCount(len(self._header))
        table.setRowCount(len(preview.rows))
        table.setHorizontalHeaderLabels(list(self._header))
        table.setVerticalHeaderLabels([str(row.row_number) for row in preview.rows])
        for r, row in enumerate(preview.rows):
            for c, value in enumerate(row.cells[: len(self._header)]):
                table.setItem(r, c, QTableWidgetItem(cell_to_text(value)))
        table.resizeColumnsToContents()
        if not self._type_given:
            best = self._catalog.best_match(self._header)
            if best is not None:
                self.type_box.blockSignals(True)
                self.type_box.setCurrentIndex(max(0, self.type_box.findData(best)))
                self.type_box.blockSignals(False)
        self.status_label.setText("")
        self._show_mapping(recall=True)
        self.loaded.emit()

    def _fill_encodings(self) -> None:
        box = self.encoding_box
        chosen = self.chosen_encoding()
        box.blockSignals(True)
        box.clear()
        if self._format != "csv":
            box.addItem(self.tr("Not needed (Excel file)"), None)
            box.setEnabled(False)
        else:
            box.setEnabled(True)
            box.addItem(self.tr("Detected: %s") % (self._detected or "?"), None)
            for name in ENCODINGS:
                box.addItem(name, name)
            if chosen is not None:
                box.setCurrentIndex(max(0, box.findData(chosen)))
        box.blockSignals(False)

    def chosen_encoding(self) -> str | None:
        value = self.encoding_box.currentData()
        return str(value) if value else None

    # --- the mode ------------------------------------------------------------------------

    def mode(self) -> str:
        return str(self.mode_box.currentData() or "insert")

    def blank(self) -> str:
        return str(self.blank_box.currentData() or "keep")

    def _mode_changed(self) -> None:
        updates = self.mode() in ("update", "upsert")
        self.blank_box.setEnabled(updates)  # blank cells only matter when stored rows change
        self._update_state()

    # --- mapping -------------------------------------------------------------------------

    def import_type(self) -> str | None:
        value = self.type_box.currentData()
        return str(value) if value else None

    def _show_mapping(self, *, recall: bool) -> None:
        name = self.import_type()
        table = self.mapping_table
        table.setRowCount(0)
        if name is None or not self._header:
            self._update_state()
            return
        auto = self._catalog.map_header(name, self._header)
        self._auto = {index: key for key, index in auto.index_by_key.items()}
        remembered = self._memory.recall(name, self._header) if recall else {}
        columns = self._catalog.columns(name)
        table.setRowCount(len(self._header))
        for i, text in enumerate(self._header):
            item = QTableWidgetItem(text)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            table.setItem(i, 0, item)
            box = QComboBox()
            box.setAccessibleName(self.tr("Column for header %s") % text)
            box.addItem(self.tr("(ignored)"), "")
            for column in columns:
                mark = " *" if column.required else ""
                box.addItem(f"{column.label}{mark}", column.key)
            key = remembered.get(text, self._auto.get(i, ""))
            box.setCurrentIndex(max(0, box.findData(key)))
            box.currentIndexChanged.connect(lambda _i: self._update_state())
            table.setCellWidget(i, 1, box)
        self._update_state()

    def header_overrides(self) -> dict[str, str]:
        """The clerk's choices that differ from the automatic mapping: {header text: key or ""}."""
        overrides: dict[str, str] = {}
        for i, text in enumerate(self._header):
            box = self.mapping_table.cellWidget(i, 1)
            if isinstance(box, QComboBox) and box.currentData() != self._auto.get(i, ""):
                overrides[text] = str(box.currentData() or "")
        return overrides

    def mapping(self) -> Any:
        name = self.import_type()
        if name is None or not self._header:
            return None
        try:
            return self._catalog.map_header(name, self._header, self.header_overrides())
        except ValueError:
            return None

    def _update_state(self) -> None:
        result = self.mapping()
        ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if result is None:
            ok_button.setEnabled(False)
            return
        used = set(result.index_by_key.values())
        for i in range(self.mapping_table.rowCount()):
            item = self.mapping_table.item(i, 0)
            if item is not None:
                item.setForeground(QBrush(GREY if i not in used else self.palette().text().color()))
                item.setToolTip("" if i in used else self.tr("Ignored: no column of this type"))
        columns = self._catalog.columns(self.import_type() or "")
        labels = {c.key: c.label for c in columns}
        needed = result.missing_required
        if self.mode() in ("update", "upsert"):  # an update needs the key; the other columns may be absent
            keys = set(self._catalog.key_columns(self.import_type() or ""))
            needed = tuple(k for k in keys if k not in result.index_by_key)
        missing = [labels.get(key, key) for key in needed]
        self.missing_label.setText(self.tr("Missing required columns: %s") % "、".join(missing) if missing else "")
        self.missing_label.setVisible(bool(missing))
        ok_button.setEnabled(not missing)

    # --- the answer ----------------------------------------------------------------------

    def accept(self) -> None:
        name = self.import_type()
        if name is not None and self._header:
            self._memory.remember(name, self._header, self.header_overrides())
        super().accept()

    def params(self) -> dict[str, Any]:
        """The import parameters the clerk chose here (limits are added by the caller)."""
        return {
            "import_type": self.import_type(),
            "dry_run": self.dry_run_box.isChecked(),
            "encoding": self.chosen_encoding(),
            "header_overrides": self.header_overrides(),
            "mode": self.mode(),
            "blank": self.blank() if self.mode() in ("update", "upsert") else "keep",
        }

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Preview: %s") % self.path.name)
        self._type_label.setText(self.tr("Import &type:"))
        self._encoding_label.setText(self.tr("&Encoding:"))
        self._mode_label.setText(self.tr("&Rows already in the table:"))
        self._blank_label.setText(self.tr("&Blank cells:"))
        mode_texts = {
            "insert": self.tr("Add new rows only (a row already in the table is an error)"),
            "insert_new": self.tr("Add new, skip existing"),
            "update": self.tr("Update existing (only rows already in the table)"),
            "upsert": self.tr("Add new and update existing"),
        }
        for i in range(self.mode_box.count()):
            self.mode_box.setItemText(i, mode_texts[str(self.mode_box.itemData(i))])
        blank_texts = {"keep": self.tr("Keep what is stored"), "clear": self.tr("Empty the stored value")}
        for i in range(self.blank_box.count()):
            self.blank_box.setItemText(i, blank_texts[str(self.blank_box.itemData(i))])
        self.mode_box.setAccessibleName(self.tr("What to do with rows already in the table"))
        self.blank_box.setAccessibleName(self.tr("What a blank cell does to a row being updated"))
        self._rows_title.setText(self.tr("First rows as they will be read:"))
        self._mapping_title.setText(self.tr("Headers and the columns they fill (* required):"))
        self.mapping_table.setHorizontalHeaderLabels([self.tr("Header in the file"), self.tr("Column")])
        self.dry_run_box.setText(self.tr("&Validate only (dry run: check every row, import nothing)"))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("&Queue"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        self.type_box.setAccessibleName(self.tr("Import type"))
        self.encoding_box.setAccessibleName(self.tr("Encoding"))
        self.rows_table.setAccessibleName(self.tr("First rows of the file"))
        self.mapping_table.setAccessibleName(self.tr("Header mapping"))
