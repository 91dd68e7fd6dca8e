"""The top of the window: which file, which import type (and its template), and the Queue / Validate only buttons."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

from desktop_app.domain.errors import Lang
from desktop_app.imports import readers
from desktop_app.ui.background import Background
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.choosers import start_folder
from desktop_app.ui.plain_errors import plain_error

FILE_FILTER = "*.csv *.xlsx *.xls *.txt *.tsv"  # .txt: Excel's "Unicode text" and tab-delimited exports
WORKBOOK_FILTER = "*.xlsx *.xls"


def is_workbook(path: Path) -> bool:
    """A file whose suffix names an Excel workbook (the formats whose sheets a workbook import reads)."""
    return readers.FORMATS.get(path.suffix.lower()) in ("xlsx", "xls")


class SubmitPanel(QWidget):
    """Picks a file (typed, chosen or dropped) and pre-selects the import type its header matches.

    Signals:
        queue_requested(object, object, bool): (Path, import type or None, validate only).
        type_detected(str): the import type pre-selected from the chosen file's header ("" if none).
        template_written(str): a template was saved at this path.
        template_failed(str): a template could not be saved; the plain-language reason.
    """

    queue_requested = Signal(object, object, bool)
    type_detected = Signal(str)
    template_written = Signal(str)
    template_failed = Signal(str)

    def __init__(self, catalog: ImportCatalog, background: Background, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._catalog = catalog
        self._background = background
        self._busy = False
        self.path_edit = QLineEdit()
        self.path_edit.setClearButtonEnabled(True)
        self.browse_button = QPushButton()
        self.type_box = QComboBox()
        self.template_button = QPushButton()
        self.queue_button = QPushButton()
        self.queue_button.setDefault(True)
        self.validate_button = QPushButton()
        self._file_label, self._type_label = QLabel(), QLabel()
        self._file_label.setBuddy(self.path_edit)
        self._type_label.setBuddy(self.type_box)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._file_label)
        layout.addWidget(self.path_edit, 3)
        layout.addWidget(self.browse_button)
        layout.addWidget(self._type_label)
        layout.addWidget(self.type_box, 1)
        layout.addWidget(self.template_button)
        layout.addWidget(self.queue_button)
        layout.addWidget(self.validate_button)
        self.browse_button.clicked.connect(self.choose_file)
        self.template_button.clicked.connect(self.save_template)
        self.type_box.currentIndexChanged.connect(lambda _i: self._update_buttons())
        self.type_box.activated.connect(lambda _i: self._type_chosen())
        self.queue_button.clicked.connect(lambda: self._request(dry_run=False))
        self.validate_button.clicked.connect(lambda: self._request(dry_run=True))
        self.path_edit.editingFinished.connect(self._path_edited)
        self.path_edit.textChanged.connect(lambda _t: self._update_buttons())
        self.path_edit.returnPressed.connect(lambda: self._request(dry_run=False))
        self._last_detected: str | None = None
        # the file whose header chose the type shown (None: the clerk chose it, or none is chosen): another
        # file's header says nothing of the next one (seen: a price list queued at once after a customers
        # file opened as "Customer import", every column ignored)
        self._type_for: str | None = None
        self._last_chosen: Path | None = None  # where the choosers open next (choosers.start_folder)
        self.retranslate()
        self._update_buttons()

    # --- the file ------------------------------------------------------------------------

    def path(self) -> Path | None:
        text = self.path_edit.text().strip().strip('"')
        return Path(text).expanduser() if text else None

    def choose_file(self) -> None:
        start = str(start_folder(self.path(), self._last_chosen))
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a file to import"), start,
                                              self.tr("Spreadsheets (%s)") % FILE_FILTER)  # fmt: skip
        if name:
            self._last_chosen = Path(name)
            self.set_path(Path(name))
            self.request_queue()  # a chosen file opens its preview, as --open does (a clerk took Choose… for it)

    def workbook(self) -> Path | None:
        """The workbook "Import every sheet…" imports: the file field's when it names one, else one the clerk
        chooses (seen: an empty field or a CSV in it said "choose a workbook first"); None when cancelled."""
        current = self.path()
        if current is not None and current.is_file() and is_workbook(current):
            return current
        start = str(start_folder(current, self._last_chosen))
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a workbook to import every sheet of"), start,
                                              self.tr("Excel workbooks (%s)") % WORKBOOK_FILTER)  # fmt: skip
        if not name:
            return None
        self._last_chosen = Path(name)
        return Path(name)

    def set_path(self, path: Path) -> None:
        self.path_edit.setText(str(path))
        self._path_edited()

    def _path_edited(self) -> None:
        path = self.path()
        if path is None or str(path) == self._last_detected or not path.is_file():
            return
        self._last_detected = str(path)

        def read_header() -> tuple[str, ...]:
            from desktop_app.imports.readers import preview

            return tuple(preview(path, max_rows=0).header)

        self._background.call(read_header, lambda header: self._preselect(path, header), lambda _exc: None,
                             context=self)  # fmt: skip

    def _preselect(self, path: Path, header: tuple[str, ...]) -> None:
        if self.path() != path:
            return  # the clerk chose another file meanwhile
        best = self._catalog.best_match(header)
        if best is not None:
            self.type_box.setCurrentIndex(max(0, self.type_box.findData(best)))
            self._type_for = str(path)
        elif self._type_for is not None:  # chosen by an earlier file's header: this one's names none
            self.type_box.setCurrentIndex(0)
            self._type_for = None
        self.type_detected.emit(best or "")

    def _type_chosen(self) -> None:
        """The clerk picked the type in the box: theirs until a file's header names one."""
        self._type_for = None

    # --- the type ------------------------------------------------------------------------

    def fill_types(self) -> None:
        """The usable types, then the broken ones greyed out with their problem (a company's type file
        with a mistake is seen, and why, rather than silently missing)."""
        box = self.type_box
        current = box.currentData()
        box.blockSignals(True)
        box.clear()
        box.addItem(self.tr("(from the file's header)"), None)
        for name in self._catalog.names():
            box.addItem(self._catalog.title(name), name)
        model = box.model()
        for name in self._catalog.broken_names():
            box.addItem(self.tr("%1 (cannot be used)").replace("%1", name), None)
            index = box.count() - 1
            item = model.item(index) if hasattr(model, "item") else None
            if item is not None:
                item.setEnabled(False)
            box.setItemData(index, self._catalog.problem(name), Qt.ItemDataRole.ToolTipRole)
        box.setCurrentIndex(max(0, box.findData(current)))
        box.blockSignals(False)
        self._fit_type_box(usable=1 + len(self._catalog.names()))
        self._update_buttons()

    def _fit_type_box(self, usable: int) -> None:
        """Never narrower than its usable names: the combo's own size hint measures CJK text short, and a
        window started in Chinese at 1024 px cut "（按文件表头识别）" (a broken type's long name may be cut)."""
        box = self.type_box
        widest = max((box.fontMetrics().horizontalAdvance(box.itemText(i)) for i in range(usable)), default=0)
        option = QStyleOptionComboBox()
        box.initStyleOption(option)
        size = box.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option,
                                            QSize(widest, box.fontMetrics().height()), box)  # fmt: skip
        box.setMinimumWidth(size.width())

    def import_type(self) -> str | None:
        value = self.type_box.currentData()
        return str(value) if value else None

    # --- queueing ------------------------------------------------------------------------

    def set_busy(self, busy: bool) -> None:
        """While a submission is in flight (or its preview open) the buttons cannot submit again."""
        self._busy = busy
        self._update_buttons()

    def _update_buttons(self) -> None:
        enabled = not self._busy and self.path() is not None
        self.queue_button.setEnabled(enabled)
        self.validate_button.setEnabled(enabled)
        self.template_button.setEnabled(self.import_type() is not None)

    # --- the template --------------------------------------------------------------------

    def save_template(self) -> None:
        """Ask where, then write the chosen type's template (XLSX with its rules, or CSV) off this thread."""
        name = self.import_type()
        itype = self._catalog.get(name) if name else None
        if itype is None:
            return
        start = start_folder(self.path(), self._last_chosen)
        suggested = str(start / f"{self._catalog.title(name or '')}.xlsx")
        chosen, selected = QFileDialog.getSaveFileName(
            self, self.tr("Save a template for %s") % self._catalog.title(name or ""), suggested,
            self.tr("Excel workbook (*.xlsx)") + ";;" + self.tr("CSV file (*.csv)"),
        )  # fmt: skip
        if chosen:
            self.write_template(Path(chosen), "csv" if chosen.lower().endswith(".csv") or "csv" in selected.lower()
                                else "xlsx")  # fmt: skip

    def write_template(self, path: Path, fmt: str) -> None:
        name = self.import_type()
        itype = self._catalog.get(name) if name else None
        if itype is None:
            return
        if path.suffix.lower() != f".{fmt}":
            path = path.with_suffix(f".{fmt}")
        lang: Lang = "zh" if self._catalog.lang == "zh" else "en"

        def write() -> Path:
            from desktop_app.imports.template import write_template

            return write_template(itype, path, fmt, lang)

        def failed(exc: BaseException) -> None:
            self.template_failed.emit(plain_error(exc, self._catalog.lang, f"writing the template {path}"))

        self._background.call(write, lambda written: self.template_written.emit(str(written)), failed, context=self)

    def request_queue(self) -> bool:
        """What the Queue… button does; False when it cannot now (no file, or a preview already open)."""
        return self._request(dry_run=False)

    def _request(self, *, dry_run: bool) -> bool:
        path = self.path()
        if self._busy or path is None:
            return False
        self.set_busy(True)  # at once: a double click must not open two previews
        import_type = self.import_type()
        if self._type_for is not None and self._type_for != str(path):
            import_type = None  # queued before its own header was read: the preview reads it
        self.queue_requested.emit(path, import_type, dry_run)
        return True

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        # Alt+F, Alt+T and Alt+V open the File, Task and View menus: the panel's own letters are others.
        self._file_label.setText(self.tr("F&ile:"))
        self.path_edit.setPlaceholderText(self.tr("Choose, type or drop a .csv, .xlsx or .xls file"))
        self.path_edit.setAccessibleName(self.tr("File to import"))
        self.browse_button.setText(self.tr("&Choose…"))
        self.browse_button.setAccessibleName(self.tr("Choose a file to import"))
        self._type_label.setText(self.tr("Import t&ype:"))
        self.type_box.setAccessibleName(self.tr("Import type"))
        self.template_button.setText(self.tr("Te&mplate…"))
        self.template_button.setToolTip(self.tr("Save an empty file with this type's columns and rules to fill in"))
        self.template_button.setAccessibleName(self.tr("Download a template for the import type"))
        self.queue_button.setText(self.tr("&Queue…"))
        self.queue_button.setAccessibleName(self.tr("Queue the file for import"))
        self.validate_button.setText(self.tr("Vali&date only…"))
        self.validate_button.setAccessibleName(self.tr("Check every row without importing"))
        self.fill_types()
