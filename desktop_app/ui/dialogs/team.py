"""Settings' Team page, for an administrator of a team database (docs/TEAM.md): the logins and their rights
per import type, adding a login (its generated password shown once) and setting a login's rights.

Every act goes to the database server through the Qt-free TeamAdmin (desktop_app/team_admin.py), off the GUI
thread; the server's refusal is said in words in a message box, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFontDatabase, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.viewer import Right, TeamUser
from desktop_app.team_admin import WRITE_RIGHTS, NewLogin, TeamAdmin
from desktop_app.ui.background import Background
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.texts import window_lang

log = logging.getLogger(__name__)

# the rights as the table and the rights dialog show them, in this order (reading first)
SHOWN_RIGHTS = (Right.SELECT, *WRITE_RIGHTS)
# the logins' table as wide as its columns need, within what a 1,024-pixel screen leaves the dialog
TABLE_WIDTH = (520, 860)


class TeamPage(QWidget):
    """The logins of the team database, one row each, with buttons to add one and to set one's rights.

    Signals:
        loaded(): the logins were read (or could not be: said in a message box).
        added(str): a login was added (its name); its generated password is on screen once.
        rights_set(str): a login's rights were applied (its name).
        refused(str): the server refused an act; the words shown.
    """

    loaded = Signal()
    added = Signal(str)
    rights_set = Signal(str)
    refused = Signal(str)

    def __init__(self, admin: TeamAdmin, background: Background, *, type_title: Callable[[str], str] | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self._admin = admin
        self._background = background
        self._type_title = type_title or (lambda name: name)
        self._types = list(admin.tables())
        self.users: list[TeamUser] = []
        self.message_box: QMessageBox | None = None  # the last refusal shown (tests read it)
        self.add_dialog: AddLoginDialog | None = None
        self.password_dialog: PasswordDialog | None = None
        self.rights_dialog: RightsDialog | None = None
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.table = QTableWidget(0, 2 + len(self._types))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMinimumSize(TABLE_WIDTH[0], 160)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.itemDoubleClicked.connect(lambda _item: self.open_rights())
        self.add_button = QPushButton()
        self.add_button.clicked.connect(self.open_add)
        self.rights_button = QPushButton()
        self.rights_button.setEnabled(False)
        self.rights_button.clicked.connect(self.open_rights)
        self.reload_button = QPushButton()
        self.reload_button.clicked.connect(self.reload)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.rights_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.reload_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.retranslate()
        self.reload()

    # --- reading ---------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the logins again (off the GUI thread)."""
        self.reload_button.setEnabled(False)

        def done(users: list[TeamUser]) -> None:
            self.reload_button.setEnabled(True)
            self._show(users)
            self.loaded.emit()

        def failed(exc: BaseException) -> None:
            self.reload_button.setEnabled(True)
            self._refused(exc, "reading the team's logins")
            self.loaded.emit()

        self._background.call(self._admin.users, done, failed, context=self)

    def _show(self, users: list[TeamUser]) -> None:
        chosen = self.selected()
        self.users = sorted(users, key=lambda u: u.name.lower())
        self.table.setRowCount(len(self.users))
        for row, user in enumerate(self.users):
            cells = [user.name, self._state_text(user)]
            cells += [self._rights_text(user.rights.get(name, ())) for name in self._types]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(row, column, item)
            if chosen is not None and user.name == chosen.name:
                self.table.selectRow(row)
        self._fit_table()
        self._selection_changed()

    def _fit_table(self) -> None:
        """Every column whole where the screen has room (the dialog grows with it): a login's rights cut
        to "read, insert, u" would hide exactly what the page is for."""
        header = self.table.horizontalHeader()
        needed = sum(max(header.sectionSizeHint(c), self.table.sizeHintForColumn(c))
                     for c in range(self.table.columnCount()))  # fmt: skip
        needed += 2 * self.table.frameWidth() + self.table.verticalScrollBar().sizeHint().width()
        self.table.setMinimumWidth(max(TABLE_WIDTH[0], min(needed, TABLE_WIDTH[1])))

    def _state_text(self, user: TeamUser) -> str:
        state = self.tr("administrator") if user.is_admin else self.tr("clerk")
        return state if user.can_login else self.tr("%1, no login yet").replace("%1", state)

    def _rights_text(self, held: tuple[Right, ...]) -> str:
        words = self._right_words()
        separator = "、" if window_lang() == "zh" else ", "  # a Chinese list reads with the enumeration comma
        return separator.join(words[r] for r in SHOWN_RIGHTS if r in held) or "—"

    def _right_words(self) -> dict[Right, str]:
        return {Right.SELECT: self.tr("read"), Right.INSERT: self.tr("insert"), Right.UPDATE: self.tr("update"),
                Right.DELETE: self.tr("delete")}  # fmt: skip

    def selected(self) -> TeamUser | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows or rows[0].row() >= len(self.users):
            return None
        return self.users[rows[0].row()]

    def select(self, name: str) -> None:
        for row, user in enumerate(self.users):
            if user.name == name:
                self.table.selectRow(row)

    def _selection_changed(self) -> None:
        self.rights_button.setEnabled(self.selected() is not None and bool(self._types))

    # --- adding a login --------------------------------------------------------------------

    def open_add(self) -> None:
        """Ask the new login's name (and whether it administers, and its password if the admin types one)."""
        dialog = AddLoginDialog(self)
        self.add_dialog = dialog
        dialog.accepted.connect(lambda: self.add_login(dialog.name(), dialog.password(), admin=dialog.is_admin()))
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        dialog.open()

    def add_login(self, name: str, password: str | None, *, admin: bool) -> None:
        """Add the login on the server (off the GUI thread); a generated password is then shown once."""
        self.add_button.setEnabled(False)

        def done(made: NewLogin) -> None:
            self.add_button.setEnabled(True)
            if made.password is not None:
                self._show_password(made)
            self.added.emit(made.name)
            self.reload()

        def failed(exc: BaseException) -> None:
            self.add_button.setEnabled(True)
            self._refused(exc, "adding a login")

        # the password travels only inside this call: never into a log line or a setting
        self._background.call(lambda: self._admin.add_user(name, password, admin=admin), done, failed, context=self)

    def _show_password(self, made: NewLogin) -> None:
        dialog = PasswordDialog(made, self)
        self.password_dialog = dialog
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        dialog.open()

    # --- rights ----------------------------------------------------------------------------

    def open_rights(self) -> None:
        """The selected login's rights per import type, as check boxes; OK applies what changed."""
        user = self.selected()
        if user is None or not self._types:
            return
        dialog = RightsDialog(user, [(n, self._type_title(n)) for n in self._types], self)
        self.rights_dialog = dialog
        dialog.accepted.connect(lambda: self.apply_rights(user.name, dialog.changed()))
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        dialog.open()

    def apply_rights(self, name: str, changes: dict[str, set[Right]]) -> None:
        """GRANT and REVOKE on the server so the login holds exactly these rights on each type's table."""
        if not changes:
            return
        self.rights_button.setEnabled(False)

        def run() -> None:
            for import_type, wanted in changes.items():
                self._admin.set_rights(name, import_type, wanted)

        def done(_none: object) -> None:
            self.rights_set.emit(name)
            self.reload()

        def failed(exc: BaseException) -> None:
            self._refused(exc, "setting a login's rights")
            self.reload()  # part of it may have been applied: show what holds now

        self._background.call(run, done, failed, context=self)

    # --- words -----------------------------------------------------------------------------

    def _refused(self, exc: BaseException, what: str) -> None:
        text = plain_error(exc, window_lang(), what)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Team"), text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.message_box = box
        box.open()
        self.refused.emit(text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.note.setText(self.tr("The database's logins and what each may change, per import type. Changes here "
                                  "apply at once on the database server."))  # fmt: skip
        self.table.setHorizontalHeaderLabels([self.tr("Login"), self.tr("Role"),
                                              *(self._type_title(n) for n in self._types)])  # fmt: skip
        self.table.setAccessibleName(self.tr("Logins"))
        self.add_button.setText(self.tr("&Add login…"))
        self.rights_button.setText(self.tr("&Rights…"))
        self.reload_button.setText(self.tr("Re&fresh"))
        if self.users:
            self._show(self.users)


class AddLoginDialog(QDialog):
    """A new login's name, whether it administers, and its password: generated (shown once) or typed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name_edit = QLineEdit()
        self.admin_box = QCheckBox()
        self.type_box = QCheckBox()
        self.password_edit = QLineEdit()
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_edit.setEnabled(False)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._name_label = QLabel()
        self._name_label.setBuddy(self.name_edit)
        self._password_label = QLabel()
        self._password_label.setBuddy(self.password_edit)
        form = QFormLayout()
        form.addRow(self._name_label, self.name_edit)
        form.addRow("", self.admin_box)
        form.addRow("", self.type_box)
        form.addRow(self._password_label, self.password_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.name_edit.textChanged.connect(lambda _t: self._update())
        self.password_edit.textChanged.connect(lambda _t: self._update())
        self.type_box.toggled.connect(self._typing)
        self.retranslate()
        self._update()

    def _typing(self, on: bool) -> None:
        self.password_edit.setEnabled(on)
        if on:
            self.password_edit.setFocus()
        else:
            self.password_edit.clear()
        self._update()

    def _update(self) -> None:
        ok = bool(self.name()) and (not self.type_box.isChecked() or bool(self.password_edit.text()))
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if button is not None:
            button.setEnabled(ok)

    def name(self) -> str:
        return self.name_edit.text().strip()

    def is_admin(self) -> bool:
        return self.admin_box.isChecked()

    def password(self) -> str | None:
        """The password typed, or None: one is generated and shown once."""
        return self.password_edit.text() if self.type_box.isChecked() else None

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Add a login"))
        self._name_label.setText(self.tr("&Name:"))
        self.name_edit.setAccessibleName(self.tr("Name"))
        self.admin_box.setText(self.tr("An a&dministrator (sees and manages every clerk's tasks)"))
        self.type_box.setText(self.tr("&Type the password instead of a generated one"))
        self._password_label.setText(self.tr("&Password:"))
        self.password_edit.setAccessibleName(self.tr("Password"))
        self.note.setText(self.tr("A name that owns tasks already (no login yet) gets its login: its tasks are "
                                  "kept. A generated password is shown once, to give to its clerk."))  # fmt: skip


class PasswordDialog(QDialog):
    """A generated password, shown this once (it is kept nowhere): selectable, with a Copy button."""

    def __init__(self, made: NewLogin, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._made = made
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.password_edit = QLineEdit(made.password or "")
        self.password_edit.setReadOnly(True)
        # the whole password in sight (a monospaced font: no 1/l or O/0 to mix up), never scrolled out of view
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.password_edit.setFont(fixed)
        self.password_edit.setMinimumWidth(QFontMetrics(fixed).horizontalAdvance(self.password_edit.text() + "MM")
                                           + 16)  # fmt: skip
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        line = QHBoxLayout()
        line.addWidget(self.password_edit, 1)
        line.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addLayout(line)
        layout.addWidget(self.buttons)
        self.retranslate()
        self.password_edit.selectAll()
        self.password_edit.setFocus()

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.password_edit.text())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("The new password"))
        what = self.tr("%1 was added.") if self._made.created else self.tr("%1 may log in now (its tasks were kept).")
        self.text.setText(
            what.replace("%1", self._made.name)
            + " "
            + self.tr("Its password is shown only this once: copy it and give it to its clerk.")
        )
        self.password_edit.setAccessibleName(self.tr("Password"))
        self.copy_button.setText(self.tr("&Copy"))


class RightsDialog(QDialog):
    """A login's rights per import type: read, insert, update, delete (any write right implies reading)."""

    def __init__(self, user: TeamUser, types: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._user = user
        self._types = types
        self.boxes: dict[str, dict[Right, QCheckBox]] = {}
        grid = QGridLayout()
        self._headers = [QLabel() for _ in SHOWN_RIGHTS]
        for column, label in enumerate(self._headers, start=1):
            grid.addWidget(label, 0, column, Qt.AlignmentFlag.AlignHCenter)
        for row, (name, title) in enumerate(types, start=1):
            grid.addWidget(QLabel(title), row, 0)
            held = user.rights.get(name, ())
            boxes: dict[Right, QCheckBox] = {}
            for column, right in enumerate(SHOWN_RIGHTS, start=1):
                box = QCheckBox()
                box.setChecked(right in held)
                box.toggled.connect(lambda _on, n=name: self._imply_reading(n))
                grid.addWidget(box, row, column, Qt.AlignmentFlag.AlignHCenter)
                boxes[right] = box
            self.boxes[name] = boxes
            self._imply_reading(name)
        body = QWidget()
        body.setLayout(grid)
        scroll = QScrollArea()  # many import types: the grid scrolls, the dialog stays on a small screen
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)  # its title (the login's name) whole in the window manager's frame
        self.retranslate()

    def _imply_reading(self, name: str) -> None:
        boxes = self.boxes[name]
        writes = any(boxes[r].isChecked() for r in WRITE_RIGHTS)
        if writes:
            boxes[Right.SELECT].setChecked(True)
        boxes[Right.SELECT].setEnabled(not writes)  # reading goes with any write right

    def wanted(self, name: str) -> set[Right]:
        return {r for r, box in self.boxes[name].items() if box.isChecked()}

    def set_wanted(self, name: str, rights: set[Right]) -> None:
        for right in WRITE_RIGHTS:
            self.boxes[name][right].setChecked(right in rights)
        self.boxes[name][Right.SELECT].setChecked(Right.SELECT in rights or bool(rights))
        self._imply_reading(name)

    def changed(self) -> dict[str, set[Right]]:
        """The types whose rights differ from what the login holds, with the rights wanted there."""
        return {name: self.wanted(name) for name, _ in self._types
                if self.wanted(name) != set(self._user.rights.get(name, ()))}  # fmt: skip

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Rights of %1").replace("%1", self._user.name))
        self.title.setText(self.tr("What %1 may do with each import type's table. Inserting, updating or deleting "
                                   "includes reading; a type it may not read is not in its lists.")
                           .replace("%1", self._user.name))  # fmt: skip
        words = (self.tr("Read"), self.tr("Insert"), self.tr("Update"), self.tr("Delete"))
        for label, text in zip(self._headers, words, strict=True):
            label.setText(text)
        for name, title in self._types:
            for right, text in zip(SHOWN_RIGHTS, words, strict=True):
                self.boxes[name][right].setAccessibleName(f"{title}: {text}")
