"""The export dialog: which export, the file format and encoding, the export's filters, and where it goes."""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QDate, QEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.errors import BatchDeskError
from desktop_app.exports.placing import check_destination
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.choosers import browse_start
from desktop_app.ui.encodings import encoding_words

FORMATS = ("csv", "xlsx")
ENCODINGS = ("utf-8-sig", "gb18030")  # the first is the default: Excel opens it correctly


@dataclass(frozen=True)
class ExportRequest:
    """What the clerk asked for: the export's name, its filters (only those set), format, encoding; and
    where the file goes when the clerk chose a place ("Save as"; None: the results folder, as it names it),
    with replace when the clerk agreed to replace the file there."""

    name: str
    filters: dict[str, str]
    fmt: str
    encoding: str
    output: Path | None = None
    replace: bool = False


@dataclass
class _FilterField:
    name: str
    kind: str
    label: QWidget  # a QLabel, or for a date the QCheckBox that says whether it is set
    field: QWidget


class ExportDialog(QDialog):
    """Non-modal to the caller (open(), not exec()); the caller reads request() once accepted. The
    filters are checked here, without the database, so a bad value is said before anything is queued."""

    def __init__(self, catalog: ImportCatalog, *, imported_by: str | None = None, results_dir: Path | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self._catalog = catalog
        self._exports_dir = (results_dir or Path.home()) / "exports"
        self._default_output = ""  # the field's text while the clerk has not chosen a place
        self._replace_agreed = ""  # the path the clerk agreed to replace (the file dialog asks, or we do)
        self.replace_question: QMessageBox | None = None
        self._imported_by = imported_by or ""
        self._fields: list[_FilterField] = []

        self.definition_box = QComboBox()
        for name in catalog.export_names():
            self.definition_box.addItem(catalog.export_title(name), name)
        self.format_box = QComboBox()
        for fmt in FORMATS:
            self.format_box.addItem(fmt.upper(), fmt)
        self.encoding_box = QComboBox()
        for encoding in ENCODINGS:
            self.encoding_box.addItem("", encoding)
        self._definition_label, self._format_label, self._encoding_label = QLabel(), QLabel(), QLabel()
        self._definition_label.setBuddy(self.definition_box)
        self._format_label.setBuddy(self.format_box)
        self._encoding_label.setBuddy(self.encoding_box)
        top = QFormLayout()
        top.addRow(self._definition_label, self.definition_box)
        top.addRow(self._format_label, self.format_box)
        top.addRow(self._encoding_label, self.encoding_box)
        self.save_edit = QLineEdit()
        self.save_edit.textChanged.connect(self.save_edit.setToolTip)  # the whole path: the field shows its end
        self.browse_button = QPushButton()
        self.browse_button.setAutoDefault(False)
        self.browse_button.clicked.connect(self.browse)
        save_row = QHBoxLayout()
        save_row.addWidget(self.save_edit, 1)
        save_row.addWidget(self.browse_button)
        self._save_label = QLabel()
        self._save_label.setBuddy(self.save_edit)
        top.addRow(self._save_label, save_row)

        self.filters_group = QGroupBox()
        self._filters_form = QFormLayout(self.filters_group)
        self.clear_button = QPushButton()
        self.clear_button.setAutoDefault(False)
        self.clear_button.clicked.connect(self.clear_filters)
        # the import selected in the list is offered, never filled in: a clerk who missed a filled field
        # exported a subset of the table
        self.selected_import_button = QPushButton()
        self.selected_import_button.setAutoDefault(False)
        self.selected_import_button.setVisible(bool(imported_by))
        self.selected_import_button.clicked.connect(self._use_selected_import)
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #c62828; font-weight: bold;")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self._export_clicked)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.filters_group)
        layout.addWidget(self.selected_import_button)
        layout.addWidget(self.clear_button)
        layout.addWidget(self.error_label)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        # Enter exports: made the default once the button is in the dialog (made before, the dialog never heard
        # of it and took its first button, Cancel, when shown)
        self.export_button.setDefault(True)

        self.definition_box.currentIndexChanged.connect(lambda _i: self._build_filters())
        self.definition_box.currentIndexChanged.connect(lambda _i: self._name_output())
        self.format_box.currentIndexChanged.connect(lambda _i: self._format_changed())
        self._name_output()
        self._build_filters()
        self._format_changed()
        self.retranslate()
        self.export_button.setEnabled(self.definition_box.count() > 0)
        self.resize(520, 420)

    # --- the filters ---------------------------------------------------------------------

    def name(self) -> str:
        return str(self.definition_box.currentData() or "")

    def _build_filters(self) -> None:
        while self._filters_form.rowCount():
            self._filters_form.removeRow(0)
        self._fields = []
        definition = self._catalog.exports.get(self.name())
        if definition is None:
            return
        for spec in definition.filters:
            label: QWidget
            field: QWidget
            if spec.kind == "enum":
                box = QComboBox()
                box.addItem("", "")
                for value, text in self._catalog.export_enum_choices(definition.name, spec):
                    box.addItem(text, value)
                field, label = box, QLabel()
            elif spec.kind == "date":
                edit = QDateEdit()
                edit.setCalendarPopup(True)
                edit.setDisplayFormat("yyyy-MM-dd")
                edit.setDate(QDate.currentDate())
                edit.setEnabled(False)
                check = QCheckBox()
                check.toggled.connect(edit.setEnabled)
                field, label = edit, check
            else:
                line = QLineEdit()
                line.setClearButtonEnabled(True)
                field, label = line, QLabel()
            if isinstance(label, QLabel):
                label.setBuddy(field)
            self._fields.append(_FilterField(spec.name, spec.kind, label, field))
            self._filters_form.addRow(label, field)
        self._label_filters()
        self.error_label.hide()

    def _label_filters(self) -> None:
        definition = self._catalog.exports.get(self.name())
        if definition is None:
            return
        for entry in self._fields:
            text = self._catalog.export_filter_label(definition.name, definition.filter(entry.name))
            entry.label.setProperty("text", text + ":")
            entry.field.setAccessibleName(text)
            if isinstance(entry.field, QComboBox):
                entry.field.setItemText(0, self.tr("(any)"))
            elif isinstance(entry.field, QLineEdit):
                entry.field.setPlaceholderText(self.tr("(any)"))
            if isinstance(entry.label, QCheckBox):
                entry.label.setAccessibleName(self.tr("Filter by %s") % text)

    def filter_field(self, name: str) -> QWidget:
        """The widget that edits a filter (a QComboBox, QLineEdit or QDateEdit)."""
        return next(e.field for e in self._fields if e.name == name)

    def filter_switch(self, name: str) -> QCheckBox:
        """A date filter's check box: checked means the date is set."""
        label = next(e.label for e in self._fields if e.name == name)
        assert isinstance(label, QCheckBox)
        return label

    def filters(self) -> dict[str, str]:
        """The filters that are set, as the export task takes them."""
        chosen: dict[str, str] = {}
        for entry in self._fields:
            value = ""
            if isinstance(entry.field, QComboBox):
                value = str(entry.field.currentData() or "")
            elif isinstance(entry.field, QDateEdit):
                if isinstance(entry.label, QCheckBox) and entry.label.isChecked():
                    value = entry.field.date().toString("yyyy-MM-dd")
            elif isinstance(entry.field, QLineEdit):
                value = entry.field.text().strip()
            if value:
                chosen[entry.name] = value
        return chosen

    def _use_selected_import(self) -> None:
        """The selected import's number in the task-number filter, at the clerk's word."""
        for entry in self._fields:
            if entry.kind == "task_no" and isinstance(entry.field, QLineEdit):
                entry.field.setText(self._imported_by)

    def clear_filters(self) -> None:
        for entry in self._fields:
            if isinstance(entry.field, QComboBox):
                entry.field.setCurrentIndex(0)
            elif isinstance(entry.field, QLineEdit):
                entry.field.clear()
            if isinstance(entry.label, QCheckBox):
                entry.label.setChecked(False)

    # --- format and result ---------------------------------------------------------------

    def _format_changed(self) -> None:
        self.encoding_box.setEnabled(self.format_box.currentData() == "csv")
        self._name_output()

    def default_output(self) -> Path:
        """Where the export goes unless the clerk chooses: the results folder, under the name's form there
        (exports/task.py): the time the export runs and its task number are not known before it is queued,
        so they are shown as words (seen: the time the dialog opened, ten seconds off the file's); the file
        is never named after this text (output() passes None for it)."""
        stamp = self.tr("<date-time>")
        task_no = self.tr("<task number>")
        return self._exports_dir / f"{self.name() or 'export'}-{stamp}-{task_no}.{self.format_box.currentData()}"

    def _name_output(self) -> None:
        """The field follows the export and the format until the clerk chooses a place."""
        if self.save_edit.text() in ("", self._default_output):
            self._default_output = str(self.default_output())
            self.save_edit.setText(self._default_output)

    def output(self) -> Path | None:
        """The place the clerk chose, or None for the results folder (the field left as it was filled)."""
        text = self.save_edit.text().strip()
        if not text or text == self._default_output:
            return None
        return Path(text).expanduser()

    def browse(self) -> None:
        fmt = str(self.format_box.currentData())
        kinds = self.tr("Excel workbook (*.xlsx)") if fmt == "xlsx" else self.tr("CSV file (*.csv)")
        # the file dialog asks before replacing a file that is there: its yes is the clerk's choice
        start = Path(self.save_edit.text().strip()).expanduser()
        if self.output() is None:  # the shown form's task-number word is no file name (< > on Windows)
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            start = self._exports_dir / f"{self.name() or 'export'}-{stamp}.{fmt}"
            with contextlib.suppress(OSError):  # made by the first export otherwise
                self._exports_dir.mkdir(parents=True, exist_ok=True)
        chosen, _kind = QFileDialog.getSaveFileName(self, self.tr("Save the export as"), str(browse_start(start)),
                                                    kinds)  # fmt: skip
        if chosen:
            if not Path(chosen).suffix:
                chosen += f".{fmt}"
            self.save_edit.setText(chosen)
            self._replace_agreed = chosen if Path(chosen).exists() else ""

    def request(self) -> ExportRequest:
        fmt = str(self.format_box.currentData())
        encoding = str(self.encoding_box.currentData()) if fmt == "csv" else ENCODINGS[0]
        output = self.output()
        replace = output is not None and str(output) == self._replace_agreed
        return ExportRequest(self.name(), self.filters(), fmt, encoding, output, replace)

    def problem(self) -> str | None:
        """What is wrong with the filters, in plain words; None when they can be exported."""
        definition = self._catalog.exports.get(self.name())
        if definition is None:
            return self.tr("Choose what to export.")
        try:
            clean = definition.clean_filters(self.filters())
            output = self.output()
            if output is not None:  # a folder that is not there, said here rather than after queueing
                check_destination(output, replace=True)  # a file there: asked about when Export is pressed
        except BatchDeskError as exc:
            return exc.text("zh" if self._catalog.lang == "zh" else "en")
        for low in definition.filters:
            for high in definition.filters:
                pair = low.column == high.column and (low.op, high.op) == (">=", "<=") and low.kind == "date"
                if pair and low.name in clean and high.name in clean and clean[low.name] > clean[high.name]:
                    return (
                        self.tr("“%1” is after “%2”.")
                        .replace("%1", self._catalog.export_filter_label(definition.name, low))
                        .replace("%2", self._catalog.export_filter_label(definition.name, high))
                    )
        return None

    def _export_clicked(self) -> None:
        problem = self.problem()
        if problem is not None:
            self.error_label.setText(problem)
            self.error_label.show()
            return
        output = self.output()
        if output is not None and output.exists() and str(output) != self._replace_agreed:
            self._ask_to_replace(output)
            return
        self.accept()

    def _ask_to_replace(self, output: Path) -> None:
        """A file is there already (typed, not browsed to): replaced only when the clerk says so."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Replace the file?"),
                          self.tr("%1 already exists. Replace it with the export?").replace("%1", str(output)),
                          QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        replace = box.addButton(self.tr("&Replace"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        self.replace_question = box

        def answered() -> None:
            self.replace_question = None
            if box.clickedButton() is replace:
                self._replace_agreed = str(output)
                self.accept()

        box.finished.connect(lambda _r: answered())
        box.open()

    # --- language ------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Export"))
        self._definition_label.setText(self.tr("E&xport:"))
        self.definition_box.setAccessibleName(self.tr("What to export"))
        self._format_label.setText(self.tr("&Format:"))
        self.format_box.setAccessibleName(self.tr("File format"))
        self._encoding_label.setText(self.tr("E&ncoding:"))
        self.encoding_box.setAccessibleName(self.tr("Encoding of the CSV file"))
        self._save_label.setText(self.tr("Save &to:"))
        self.save_edit.setAccessibleName(self.tr("Where the exported file is saved"))
        self.browse_button.setText(self.tr("&Browse…"))
        for i in range(self.encoding_box.count()):
            self.encoding_box.setItemText(i, encoding_words(str(self.encoding_box.itemData(i))))
        self.filters_group.setTitle(self.tr("Only the rows with"))
        self.clear_button.setText(self.tr("C&lear the filters"))
        self.selected_import_button.setText(self.tr("Only the rows imported by %1").replace("%1", self._imported_by))
        self.clear_button.setAccessibleName(self.tr("Clear the filters"))
        self.export_button.setText(self.tr("&Export"))
        self.export_button.setAccessibleName(self.tr("Queue the export"))
        self._label_filters()
