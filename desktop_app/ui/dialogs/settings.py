"""The settings dialog: language, file limits and retention; the database and tuning under "Advanced"."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop_app.config import Settings, default_workers
from desktop_app.ui.collapsible import Collapsible
from desktop_app.ui.db_secret import keyring_available, split_password


def _spin(minimum: int, maximum: int, value: int, step: int = 1) -> QSpinBox:
    box = QSpinBox()
    box.setRange(minimum, maximum)
    box.setSingleStep(step)
    box.setValue(value)
    return box


class SettingsDialog(QDialog):
    """Edits a Settings value; the caller saves it (and the password) and applies the language."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        url, _password = split_password(settings.db_url or "")
        self.db_edit = QLineEdit(url)
        self.password_edit = QLineEdit()
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.workers_box = _spin(0, 64, settings.max_workers)
        self.batch_box = _spin(10, 100_000, settings.batch_size, 100)
        self.file_mb_box = _spin(1, 10_000, settings.max_file_mb)
        self.rows_box = _spin(1, 100_000_000, settings.max_rows, 10_000)
        self.retention_box = _spin(1, 3650, settings.result_retention_days)
        self.language_box = QComboBox()
        self.language_box.addItem("", "")
        self.language_box.addItem("简体中文", "zh")
        self.language_box.addItem("English", "en")
        self.language_box.setCurrentIndex(max(0, self.language_box.findData(settings.language)))
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        self.advanced_note = QLabel()
        self.advanced_note.setWordWrap(True)

        # What a clerk changes sits in front; what the help desk sets up is folded under "Advanced".
        self._labels: list[tuple[QLabel, QWidget]] = []
        form, advanced_form = QFormLayout(), QFormLayout()
        everyday: list[QWidget] = [self.language_box, self.file_mb_box, self.rows_box, self.retention_box]
        technical: list[QWidget] = [self.db_edit, self.password_edit, self.workers_box, self.batch_box]
        for target, fields in ((form, everyday), (advanced_form, technical)):
            for field in fields:
                self._add_row(target, field)
        advanced_body = QWidget()
        advanced_layout = QVBoxLayout(advanced_body)
        advanced_layout.setContentsMargins(12, 0, 0, 0)
        advanced_layout.addLayout(advanced_form)
        advanced_layout.addWidget(self.advanced_note)
        self.advanced = Collapsible(advanced_body)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.advanced)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.advanced.toggled.connect(lambda _open: self.adjustSize())
        self.retranslate()

    def _add_row(self, form: QFormLayout, field: QWidget) -> None:
        label = QLabel()
        label.setBuddy(field)
        self._labels.append((label, field))
        form.addRow(label, field)

    def result_settings(self) -> Settings:
        """The edited settings, the database URL without any password."""
        url, _ = split_password(self.db_edit.text().strip())
        return replace(
            self._settings,
            db_url=url or None,
            max_workers=self.workers_box.value(),
            batch_size=self.batch_box.value(),
            max_file_mb=self.file_mb_box.value(),
            max_rows=self.rows_box.value(),
            result_retention_days=self.retention_box.value(),
            language=str(self.language_box.currentData() or ""),
        )

    def password(self) -> str | None:
        """A password typed here, or one pasted inside the URL."""
        _, in_url = split_password(self.db_edit.text().strip())
        return self.password_edit.text() or in_url

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        texts = [self.tr("&Language:"), self.tr("Largest &file (MB):"), self.tr("Most &rows per file:"),
                 self.tr("Keep results (&days):"), self.tr("&Database URL:"), self.tr("Database &password:"),
                 self.tr("Concurrent &tasks:"), self.tr("&Batch size (rows per commit):")]  # fmt: skip
        for (label, field), text in zip(self._labels, texts, strict=True):
            label.setText(text)
            field.setAccessibleName(text.replace("&", "").rstrip(":："))
        self.db_edit.setPlaceholderText(self.tr("empty: the embedded database in the data folder"))
        self.workers_box.setSpecialValueText(self.tr("automatic (%d)") % default_workers())
        self.language_box.setItemText(0, self.tr("Follow the system"))
        where = (self.tr("The password is kept in the system's keyring.") if keyring_available()
                 else self.tr("The password is not saved: you are asked for it when BatchDesk starts."))  # fmt: skip
        self.note.setText(self.tr("The language and the limits apply at once."))
        self.advanced.set_title(self.tr("&Advanced: database and tuning"))
        self.advanced_note.setText(self.tr("Usually set up once by whoever installs BatchDesk. The database and "
                                           "the number of concurrent tasks take effect at the next start.")
                                   + " " + where)  # fmt: skip
