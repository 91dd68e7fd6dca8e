"""The settings dialog: language, file limits and retention; the database and tuning under "Advanced"; the
mail server a feed's mail goes through under "Mail" (its password to the keyring, never the file)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.config import MAIL_ATTACH_MAX_MB, SMTP_SECURITY, Settings, default_workers
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.feed_mail import parse_addresses
from desktop_app.team_admin import TeamAdmin
from desktop_app.ui.background import Background
from desktop_app.ui.collapsible import Collapsible
from desktop_app.ui.db_secret import keyring_available, split_password
from desktop_app.ui.dialogs.team import TeamPage
from desktop_app.ui.texts import window_lang
from desktop_app.ui.window_geometry import available_for, keep_on_screen


def _spin(minimum: int, maximum: int, value: int, step: int = 1) -> QSpinBox:
    box = QSpinBox()
    box.setRange(minimum, maximum)
    box.setSingleStep(step)
    box.setValue(value)
    return box


# sends a test mail through the settings (with the password typed, or None: the kept one), off the GUI
# thread; calls back with None when it went, else the reason in words
MailTester = Callable[[Settings, str | None, Callable[[str | None], None]], None]


FRAME_ROOM = QSize(16, 40)  # a window manager's frame and title bar, before the dialog is framed


class SettingsDialog(QDialog):
    """Edits a Settings value; the caller saves it (and the password) and applies the language.
    `tester` (the desk's) sends a test mail from the Mail section."""

    def __init__(self, settings: Settings, parent: QWidget | None = None, *, tester: MailTester | None = None,
                 team: TeamAdmin | None = None, background: Background | None = None,
                 type_title: Callable[[str], str] | None = None) -> None:  # fmt: skip
        """`team` (with the `background` its calls run in): the login administers a team database, and a Team
        page lists its logins and their rights (ui/dialogs/team.py); None: no such page."""
        super().__init__(parent)
        self._settings = settings
        self._tester = tester
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
        general = QWidget()
        layout = QVBoxLayout(general)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.advanced)
        layout.addStretch(1)
        # the sections scroll where the screen is too small for them all opened (seen at 1366 x 768: the
        # dialog grew past the screen's bottom, its buttons out of sight and the mail fields squashed)
        self.sections = QScrollArea()
        self.sections.setWidgetResizable(True)
        self.sections.setFrameShape(QFrame.Shape.NoFrame)
        self.sections.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sections.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the focus goes to the first field, not the area
        self.sections.setWidget(general)
        self._general = general
        self._fitted = False
        outer = QVBoxLayout(self)
        # an administrator of a team database: the settings and the Team page side by side as tabs
        self.tabs: QTabWidget | None = None
        self.team_page: TeamPage | None = None
        if team is not None and background is not None:
            self.team_page = TeamPage(team, background, type_title=type_title, parent=self)
            self.tabs = QTabWidget()
            self.tabs.addTab(self.sections, "")
            self.tabs.addTab(self.team_page, "")
            outer.addWidget(self.tabs, 1)
        else:
            layout.setContentsMargins(0, 0, 0, 0)
            outer.addWidget(self.sections, 1)
        outer.addWidget(self.buttons)
        # once the section's layouts have taken its change in (their sizes are posted, not computed at once)
        self.advanced.toggled.connect(lambda _open: QTimer.singleShot(0, self, self.fit_to_screen))
        self._build_mail(settings, layout)
        self.retranslate()

    def _build_mail(self, settings: Settings, layout: QVBoxLayout) -> None:
        """The mail server a feed's mail goes through, folded away like the database."""
        self.smtp_host_edit = QLineEdit(settings.smtp_host)
        self.smtp_port_box = _spin(0, 65535, settings.smtp_port)
        self.smtp_security_box = QComboBox()
        for value in SMTP_SECURITY:
            self.smtp_security_box.addItem(value, value)
        self.smtp_security_box.setCurrentIndex(max(0, self.smtp_security_box.findData(settings.smtp_security)))
        self.smtp_user_edit = QLineEdit(settings.smtp_user)
        self.smtp_password_edit = QLineEdit()
        self.smtp_password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.mail_from_edit = QLineEdit(settings.mail_from)
        self.attach_box = QDoubleSpinBox()
        self.attach_box.setRange(0.0, float(MAIL_ATTACH_MAX_MB))
        self.attach_box.setDecimals(1)
        self.attach_box.setValue(settings.mail_attach_mb)
        self._mail_labels: list[tuple[QLabel, QWidget]] = []
        mail_form = QFormLayout()
        for field in (self.smtp_host_edit, self.smtp_port_box, self.smtp_security_box, self.smtp_user_edit,
                      self.smtp_password_edit, self.mail_from_edit, self.attach_box):  # fmt: skip
            label = QLabel()
            label.setBuddy(field)
            self._mail_labels.append((label, field))
            mail_form.addRow(label, field)
        self.mail_note = QLabel()
        self.mail_note.setWordWrap(True)
        self.test_button = QPushButton()
        self.test_button.setVisible(self._tester is not None)
        self.test_button.clicked.connect(self._send_test)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(12, 0, 0, 0)
        body_layout.addLayout(mail_form)
        body_layout.addWidget(self.mail_note)
        body_layout.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignLeft)
        body_layout.addWidget(self.test_result)
        self.mail = Collapsible(body)
        layout.insertWidget(layout.indexOf(self.advanced) + 1, self.mail)
        self.mail.toggled.connect(lambda _open: QTimer.singleShot(0, self, self.fit_to_screen))

    def fit_to_screen(self) -> None:
        """As tall as its sections want (an opened one grows it, a closed one shrinks it), within the screen's
        usable area, moved up where its bottom would pass it; what does not fit scrolls, the scroll bar
        beside the fields, not over them."""
        available = available_for(self)
        frame = self.frameGeometry().size() - self.geometry().size()
        if frame.height() <= 0:  # not framed yet (the window manager adds it after the first show): its usual room
            frame = FRAME_ROOM
        around = self.sizeHint() - self.sections.sizeHint()  # the buttons, the margins, a Team page's tab bar
        width = max(self.width(), self._general.sizeHint().width() + around.width())
        layout = self._general.layout()
        inner = width - around.width()
        # the notes wrap: their height at the width they get, not at the one they would like
        wanted = layout.totalHeightForWidth(inner) if layout is not None and layout.hasHeightForWidth() else -1
        height = (wanted if wanted > 0 else self._general.sizeHint().height()) + around.height()
        room = available.height() - frame.height()
        if height > room:
            width += self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
            height = room
        self.resize(min(width, available.width() - frame.width()), height)
        if self.isVisible():
            keep_on_screen(self)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted:  # the first show; later ones keep the size the clerk gave it
            self._fitted = True
            self.fit_to_screen()

    def accept(self) -> None:
        """Closes only with a sender that is a mail address (or none); else the note says why."""
        if self._sender_ok():
            super().accept()

    def _sender_ok(self) -> bool:
        sender = self.mail_from_edit.text().strip()
        try:
            if len(parse_addresses(sender)) > 1:
                raise PermanentError(ErrorCode.MAIL_ADDRESS_INVALID, address=sender)
        except PermanentError as exc:
            self.mail.set_expanded(True)
            self.test_result.setText(exc.text(window_lang()))
            self.mail_from_edit.setFocus()
            return False
        return True

    def _send_test(self) -> None:
        """A test mail to the sender address, through the server as set here (not saved yet)."""
        if self._tester is None or not self._sender_ok():
            return
        settings = self.result_settings()
        if not settings.mail_ready:
            self.test_result.setText(self.tr("Fill in the mail server and the sender address first."))
            return
        self.test_button.setEnabled(False)
        self.test_result.setText(self.tr("Sending a test mail to %1…").replace("%1", settings.mail_from))
        self._tester(settings, self.mail_password(), lambda problem: self._tested(settings.mail_from, problem))

    def _tested(self, to: str, problem: str | None) -> None:
        self.test_button.setEnabled(True)
        if problem is None:
            self.test_result.setText(self.tr("A test mail was sent to %1.").replace("%1", to))
        else:
            self.test_result.setText(self.tr("The test mail could not be sent: %1").replace("%1", problem))

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
            smtp_host=self.smtp_host_edit.text().strip(),
            smtp_port=self.smtp_port_box.value(),
            smtp_security=str(self.smtp_security_box.currentData() or "starttls"),
            smtp_user=self.smtp_user_edit.text().strip(),
            mail_from=self.mail_from_edit.text().strip(),
            mail_attach_mb=self.attach_box.value(),
        )

    def mail_password(self) -> str | None:
        """The mail user's password typed here (None: the one kept stays)."""
        return self.smtp_password_edit.text() or None

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
        if self.tabs is not None:
            self.tabs.setTabText(0, self.tr("&General"))
            self.tabs.setTabText(1, self.tr("&Team"))
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
        mail_texts = [self.tr("Mail &server:"), self.tr("P&ort:"), self.tr("Securit&y:"), self.tr("Mail &user:"),
                      self.tr("Mail pass&word:"), self.tr("Se&nder address:"),
                      self.tr("Attach error files up to (&MB):")]  # fmt: skip
        for (label, field), text in zip(self._mail_labels, mail_texts, strict=True):
            label.setText(text)
            field.setAccessibleName(text.replace("&", "").rstrip(":："))
        self.smtp_port_box.setSpecialValueText(self.tr("usual for the security"))
        self.smtp_host_edit.setPlaceholderText(self.tr("empty: feeds send no mail"))
        self.smtp_user_edit.setPlaceholderText(self.tr("empty: the server takes mail without signing in"))
        for index, words in enumerate((self.tr("None"), self.tr("STARTTLS"), self.tr("SSL/TLS"))):
            self.smtp_security_box.setItemText(index, words)
        for edit in (self.db_edit, self.smtp_host_edit, self.smtp_user_edit):
            _fit_placeholder(edit)
        self.mail.set_title(self.tr("Ma&il: the server a feed's mail goes through"))
        self.test_button.setText(self.tr("S&end a test mail to the sender"))
        self.mail_note.setText(self.tr("A feed mails its addresses when a file's import fails or has rows with "
                                       "errors. The mail server applies to tasks that start from now on.")
                               + " " + where)  # fmt: skip


PLACEHOLDER_PADDING = 24  # the field's frame, its text margins and a little air


def _fit_placeholder(edit: QLineEdit) -> None:
    """The field at least as wide as its placeholder: a field's own size hint leaves it out, and at 1024 x 700
    in Chinese the dialog came out ~370 px wide with "留空：使用数据目…" cut (fit_to_screen keeps it within the
    screen)."""
    edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance(edit.placeholderText()) + PLACEHOLDER_PADDING)
