"""The top of the window: which file, which import type, and the Queue / Validate only buttons."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from desktop_app.ui.background import Background
from desktop_app.ui.catalog import ImportCatalog

FILE_FILTER = "*.csv *.xlsx *.xls"


class SubmitPanel(QWidget):
    """Picks a file (typed, chosen or dropped) and pre-selects the import type its header matches.

    Signals:
        queue_requested(object, object, bool): (Path, import type or None, validate only).
        type_detected(str): the import type pre-selected from the chosen file's header ("" if none).
    """

    queue_requested = Signal(object, object, bool)
    type_detected = Signal(str)

    def __init__(self, catalog: ImportCatalog, background: Background, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._catalog = catalog
        self._background = background
        self._busy = False
        self.path_edit = QLineEdit()
        self.path_edit.setClearButtonEnabled(True)
        self.browse_button = QPushButton()
        self.type_box = QComboBox()
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
        layout.addWidget(self.queue_button)
        layout.addWidget(self.validate_button)
        self.browse_button.clicked.connect(self.choose_file)
        self.queue_button.clicked.connect(lambda: self._request(dry_run=False))
        self.validate_button.clicked.connect(lambda: self._request(dry_run=True))
        self.path_edit.editingFinished.connect(self._path_edited)
        self.path_edit.textChanged.connect(lambda _t: self._update_buttons())
        self.path_edit.returnPressed.connect(lambda: self._request(dry_run=False))
        self._last_detected: str | None = None
        self.retranslate()
        self._update_buttons()

    # --- the file ------------------------------------------------------------------------

    def path(self) -> Path | None:
        text = self.path_edit.text().strip().strip('"')
        return Path(text).expanduser() if text else None

    def choose_file(self) -> None:
        current = self.path()
        start = str(current.parent) if current is not None else ""
        name, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a file to import"), start,
                                              self.tr("Spreadsheets (%s)") % FILE_FILTER)  # fmt: skip
        if name:
            self.set_path(Path(name))

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
        self.type_detected.emit(best or "")

    # --- the type ------------------------------------------------------------------------

    def fill_types(self) -> None:
        current = self.type_box.currentData()
        self.type_box.clear()
        self.type_box.addItem(self.tr("(from the file's header)"), None)
        for name in self._catalog.names():
            self.type_box.addItem(self._catalog.title(name), name)
        self.type_box.setCurrentIndex(max(0, self.type_box.findData(current)))

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

    def request_queue(self) -> bool:
        """What the Queue… button does; False when it cannot now (no file, or a preview already open)."""
        return self._request(dry_run=False)

    def _request(self, *, dry_run: bool) -> bool:
        path = self.path()
        if self._busy or path is None:
            return False
        self.set_busy(True)  # at once: a double click must not open two previews
        self.queue_requested.emit(path, self.import_type(), dry_run)
        return True

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self._file_label.setText(self.tr("&File:"))
        self.path_edit.setPlaceholderText(self.tr("Choose, type or drop a .csv, .xlsx or .xls file"))
        self.path_edit.setAccessibleName(self.tr("File to import"))
        self.browse_button.setText(self.tr("&Choose…"))
        self.browse_button.setAccessibleName(self.tr("Choose a file to import"))
        self._type_label.setText(self.tr("Import &type:"))
        self.type_box.setAccessibleName(self.tr("Import type"))
        self.queue_button.setText(self.tr("&Queue…"))
        self.queue_button.setAccessibleName(self.tr("Queue the file for import"))
        self.validate_button.setText(self.tr("&Validate only…"))
        self.validate_button.setAccessibleName(self.tr("Check every row without importing"))
        self.fill_types()
