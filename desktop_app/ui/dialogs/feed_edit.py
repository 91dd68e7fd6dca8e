"""Add or edit a feed: its folder (with a folder picker), import type, profile, mode, pattern with a live
count of the files it matches now, settle time, when it looks, in order, leave files in place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.feeds import DEFAULT_EVERY, DEFAULT_PATTERN, DEFAULT_SETTLE, FeedSpec, Schedule
from desktop_app.domain.modes import ImportMode
from desktop_app.feeds.folder import MatchNow, matching_now
from desktop_app.feeds.rules import parse_at
from desktop_app.ui.background import Background
from desktop_app.ui.choosers import start_folder
from desktop_app.ui.grow import grow_to_fit
from desktop_app.ui.plain_errors import plain_error
from desktop_app.ui.texts import window_lang

# the modes `feed add --mode` offers: a file dropped into a folder never deletes rows
FEED_MODES = (ImportMode.INSERT, ImportMode.INSERT_NEW, ImportMode.UPDATE, ImportMode.UPSERT)
PREVIEW_DELAY_MS = 300  # typing in the folder or pattern field waits this long before the folder is listed
SHOWN_NAMES = 10  # the preview's tooltip names this many files at most


class FeedDialog(QDialog):
    """Non-blocking. OK does not close it: it emits save_requested(FeedSpec) and the Feeds view saves it
    off the GUI thread, then calls saved() (it closes) or keeps it open with the reason shown.

    ``types``: (name, title) of the import types to offer; ``profiles``: (name, import type) of the saved
    mapping profiles; ``spec``: the feed to edit (its name cannot change), None to add one.

    Signals:
        save_requested(object): the FeedSpec the clerk asks for.
    """

    save_requested = Signal(object)

    def __init__(
        self,
        types: Sequence[tuple[str, str]],
        profiles: Sequence[tuple[str, str]],
        background: Background,
        spec: FeedSpec | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("feed_dialog")
        self.editing = spec is not None
        self._original = spec  # what the dialog does not show (who is mailed) stays as it is
        self._profiles = list(profiles)
        self._background = background
        self._preview_turn = 0  # a newer listing's answer wins; an older one arriving late is dropped
        self._listing = False
        self.last_match: MatchNow | None = None

        self.name_edit = QLineEdit()
        self.name_edit.setMaxLength(100)
        self.folder_edit = QLineEdit()
        self.choose_button = QPushButton()
        self.type_box = QComboBox()
        for name, title in types:
            self.type_box.addItem(title, name)
        self.profile_box = QComboBox()
        self.mode_box = QComboBox()
        for mode in FEED_MODES:
            self.mode_box.addItem("", mode.value)
        self.pattern_edit = QLineEdit(DEFAULT_PATTERN)
        self.preview_label = QLabel()
        self.preview_label.setObjectName("feed_pattern_preview")
        self.preview_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.settle_box = QSpinBox()
        self.settle_box.setRange(0, 24 * 3600)
        self.settle_box.setValue(DEFAULT_SETTLE)
        self.every_radio, self.at_radio = QRadioButton(), QRadioButton()
        self._when = QButtonGroup(self)
        self._when.addButton(self.every_radio)
        self._when.addButton(self.at_radio)
        self.every_box = QSpinBox()
        self.every_box.setRange(1, 7 * 24 * 3600)
        self.every_box.setValue(DEFAULT_EVERY)
        self.at_edit = QLineEdit()
        self.at_edit.setPlaceholderText("07:30,13:00")
        self.every_radio.setChecked(True)
        self.in_order_box = QCheckBox()
        self.leave_box = QCheckBox()
        self.problem_label = QLabel()  # what keeps OK from saving, in words (a time that is not one)
        self.problem_label.setObjectName("feed_dialog_problem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet("color: #b3261e")
        self.problem_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)

        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(self.choose_button)
        every_row = QHBoxLayout()
        every_row.addWidget(self.every_radio)
        every_row.addWidget(self.every_box)
        self._seconds_label = QLabel()
        every_row.addWidget(self._seconds_label)
        every_row.addStretch(1)
        at_row = QHBoxLayout()
        at_row.addWidget(self.at_radio)
        at_row.addWidget(self.at_edit, 1)
        pattern_box = QVBoxLayout()
        pattern_box.setSpacing(2)
        pattern_box.addWidget(self.pattern_edit)
        pattern_box.addWidget(self.preview_label)
        self.form = QFormLayout()
        # each label, its field (or row of fields), and the widget its mnemonic goes to
        rows: list[tuple[QWidget | QHBoxLayout | QVBoxLayout, QWidget]] = [
            (self.name_edit, self.name_edit),
            (folder_row, self.folder_edit),
            (self.type_box, self.type_box),
            (self.profile_box, self.profile_box),
            (self.mode_box, self.mode_box),
            (pattern_box, self.pattern_edit),
            (self.settle_box, self.settle_box),
            (every_row, self.every_radio),
        ]
        self._labels = [QLabel() for _ in rows]
        for label, (field, buddy) in zip(self._labels, rows, strict=True):
            label.setBuddy(buddy)
            if isinstance(field, QWidget):  # two calls: Qt's overloads take a widget or a layout
                self.form.addRow(label, field)
            else:
                self.form.addRow(label, field)
        self.form.addRow("", at_row)
        self.form.addRow("", self.in_order_box)
        self.form.addRow("", self.leave_box)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.problem_label)
        layout.addWidget(self.buttons)

        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.refresh_preview)
        self.folder_edit.textChanged.connect(lambda _t: self._preview_timer.start())
        self.pattern_edit.textChanged.connect(lambda _t: self._preview_timer.start())
        # a problem said under the fields is about what they held at OK: mended, it goes (seen: a "folder not
        # found" that stayed after the folder was put right); OK says again what still stands
        for edit in (self.name_edit, self.folder_edit, self.pattern_edit, self.at_edit):
            edit.textChanged.connect(lambda _t: self.problem_label.hide())
        self.choose_button.clicked.connect(self.choose_folder)
        self.type_box.currentIndexChanged.connect(lambda _i: self._fill_profiles())
        self.every_radio.toggled.connect(lambda _on: self._when_changed())
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        if spec is not None:
            self._show(spec)
            self.folder_edit.setFocus()  # the name cannot change: the first field that can
        else:
            self._fill_profiles()
        self._when_changed()
        self.retranslate()
        self.refresh_preview()

    # --- filling it ----------------------------------------------------------------------

    def _show(self, spec: FeedSpec) -> None:
        self.name_edit.setText(spec.name)
        self.name_edit.setReadOnly(True)  # the name is the feed's key: another name is another feed
        self.folder_edit.setText(spec.folder)
        at = self.type_box.findData(spec.import_type)
        if at < 0:  # a type this desk does not know (any more): kept, so that saving does not change it
            self.type_box.addItem(spec.import_type, spec.import_type)
            at = self.type_box.count() - 1
        self.type_box.setCurrentIndex(at)
        self._fill_profiles(spec.profile)
        self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(spec.mode)))
        self.pattern_edit.setText(spec.pattern)
        self.settle_box.setValue(spec.settle)
        if spec.schedule.at:
            self.at_radio.setChecked(True)
            self.at_edit.setText(spec.schedule.at_text or "")
        else:
            self.every_box.setValue(spec.schedule.every or DEFAULT_EVERY)
        self.in_order_box.setChecked(spec.in_order)
        self.leave_box.setChecked(spec.leave)

    def _fill_profiles(self, chosen: str | None = None) -> None:
        """None, and the profiles of the chosen type (the one chosen before kept when it is one of them)."""
        chosen = chosen if chosen is not None else self.profile_box.currentData()
        import_type = self.type_box.currentData()
        self.profile_box.blockSignals(True)
        self.profile_box.clear()
        self.profile_box.addItem(self.tr("(none)"), None)
        names = sorted((n for n, t in self._profiles if t == import_type), key=str.casefold)
        if chosen and chosen.casefold() not in {n.casefold() for n in names}:
            names.append(chosen)  # the feed's own, even when it is gone: saving says why it cannot be used
        for name in names:
            self.profile_box.addItem(name, name)
        wanted = (chosen or "").casefold()
        items = [str(self.profile_box.itemData(i) or "").casefold() for i in range(self.profile_box.count())]
        found = [i for i, item in enumerate(items) if item == wanted]
        self.profile_box.setCurrentIndex(found[0] if wanted and found else 0)
        self.profile_box.blockSignals(False)

    def _when_changed(self) -> None:
        every = self.every_radio.isChecked()
        self.every_box.setEnabled(every)
        self.at_edit.setEnabled(not every)

    def choose_folder(self) -> None:
        typed = self.folder_edit.text().strip()
        start = start_folder(_expanded(typed) if typed else None)
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the folder to watch"), str(start))
        if folder:
            self.folder_edit.setText(folder)

    # --- the preview ---------------------------------------------------------------------

    def refresh_preview(self) -> None:
        """List the folder off the GUI thread (a slow disk never stalls typing); one listing at a time,
        the latest fields listed again once it answers."""
        self._preview_timer.stop()
        self._preview_turn += 1
        if self._listing:
            return  # listed again when the one under way answers
        self._listing = True
        turn, folder, pattern = self._preview_turn, self.folder_edit.text(), self.pattern_edit.text()
        self._background.call(lambda: matching_now(folder, pattern), lambda m: self._previewed(turn, m),
                              lambda exc: self._preview_failed(turn, exc), context=self)  # fmt: skip

    def _previewed(self, turn: int, match: MatchNow) -> None:
        self._listing = False
        if turn != self._preview_turn:
            self.refresh_preview()
            return
        self.last_match = match
        self.preview_label.setText(self.preview_text(match))
        names = match.names[:SHOWN_NAMES]
        more = len(match.names) - len(names)
        tip = "\n".join(names) + (f"\n… (+{more:,})" if more else "") if names else match.detail
        self.preview_label.setToolTip(tip)

    def _preview_failed(self, turn: int, exc: BaseException) -> None:
        self._listing = False
        if turn != self._preview_turn:
            self.refresh_preview()  # the fields changed meanwhile: what they say now is what to show
            return
        self.last_match = None
        self.preview_label.setText(self.tr("The folder cannot be read"))
        self.preview_label.setToolTip(plain_error(exc, window_lang(), "listing a feed's folder"))

    def preview_text(self, match: MatchNow) -> str:
        if match.problem == "empty":
            return self.tr("Choose a folder to see which files match")
        if match.problem == "pattern":
            return self.tr("The pattern names no files (e.g. *.csv;*.xlsx)")
        if match.problem == "network":
            return self.tr("A network folder: checked when the feed runs")
        if match.problem == "unreachable":
            return self.tr("The folder cannot be read")
        count = len(match.names)
        if count == 0:
            return self.tr("No file matches now")
        if count == 1:
            return self.tr("1 file matches now")
        return self.tr("%1 files match now").replace("%1", f"{count:,}")

    # --- saving --------------------------------------------------------------------------

    def spec(self) -> FeedSpec:
        """What the fields say; ValueError in plain words for a time of day that is not one."""
        if self.at_radio.isChecked():
            try:
                schedule = Schedule(at=parse_at(self.at_edit.text()))
            except ValueError:
                words = self.tr("Times of day are written HH:MM, separated by commas (e.g. 07:30,13:00)")
                raise ValueError(words) from None
        else:
            schedule = Schedule(every=self.every_box.value())
        profile = self.profile_box.currentData()
        return replace(
            self._original or FeedSpec(name="", folder="", import_type=""),
            name=self.name_edit.text().strip(),
            folder=self.folder_edit.text().strip(),
            import_type=str(self.type_box.currentData() or ""),
            pattern=self.pattern_edit.text().strip(),
            profile=str(profile) if profile else None,
            mode=str(self.mode_box.currentData() or ImportMode.INSERT.value),
            settle=self.settle_box.value(),
            schedule=schedule,
            in_order=self.in_order_box.isChecked(),
            leave=self.leave_box.isChecked(),
        )

    def accept(self) -> None:
        """Asks the Feeds view to save (the dialog stays open until it has)."""
        problem = None
        if not self.name_edit.text().strip():
            problem = self.tr("Give the feed a name.")
        elif not self.folder_edit.text().strip():
            problem = self.tr("Choose the folder to watch.")
        elif not _whole_path(self.folder_edit.text().strip()):
            # the window has no working folder a clerk knows of (the frozen app's is its own install folder)
            problem = self.tr("Type the folder's whole path (e.g. D:\\Imports\\Bank or /home/clerk/imports), "
                              "or choose it with Choose….")
        elif self.type_box.currentData() is None:
            problem = self.tr("There is no import type to choose.")
        spec = None
        if problem is None:
            try:
                spec = self.spec()
            except ValueError as exc:
                problem = str(exc)
        self.show_problem(problem)
        if spec is not None:
            self.buttons.setEnabled(False)
            self.save_requested.emit(spec)

    def show_problem(self, text: str | None) -> None:
        self.problem_label.setText(text or "")
        self.problem_label.setVisible(bool(text))
        self.buttons.setEnabled(True)
        grow_to_fit(self)  # the problem's lines added below, not taken from the fields above (seen squeezed)

    def saved(self) -> None:
        super().accept()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self.last_match is not None:
                self.preview_label.setText(self.preview_text(self.last_match))
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Edit feed %1").replace("%1", self.name_edit.text())
                            if self.editing else self.tr("Add a feed"))  # fmt: skip
        texts = (self.tr("&Name:"), self.tr("&Folder:"), self.tr("Import &type:"), self.tr("&Profile:"),
                 self.tr("&Rows already in the table:"), self.tr("Files to ta&ke:"),
                 self.tr("&Settle time (seconds):"), self.tr("&When to look:"))  # fmt: skip
        for label, text in zip(self._labels, texts, strict=True):
            label.setText(text)
        self.choose_button.setText(self.tr("Choose…"))
        self.profile_box.setItemText(0, self.tr("(none)"))
        mode_texts = {
            "insert": self.tr("Add new rows only (a row already in the table is an error)"),
            "insert_new": self.tr("Add new, skip existing"),
            "update": self.tr("Update existing (only rows already in the table)"),
            "upsert": self.tr("Add new and update existing"),
        }
        for i in range(self.mode_box.count()):
            self.mode_box.setItemText(i, mode_texts[str(self.mode_box.itemData(i))])
        self.pattern_edit.setToolTip(self.tr("Names to take, separated by ;, whatever their case (e.g. "
                                             "*.csv;*.xlsx). Hidden files, Office lock files and downloads under "
                                             "way are never taken."))  # fmt: skip
        self.settle_box.setToolTip(self.tr("A file is taken once its size and time stayed the same this long "
                                           "(a file still being copied is never taken half-written)"))  # fmt: skip
        self.every_radio.setText(self.tr("Every"))
        self._seconds_label.setText(self.tr("seconds"))
        self.at_radio.setText(self.tr("At these times of the day:"))
        self.in_order_box.setText(self.tr("One file at a time, the oldest first"))
        self.leave_box.setText(self.tr("Leave the files in the folder (do not move them after their import)"))


def _whole_path(folder: str) -> bool:
    """A folder named from a root (a drive, /, ~, or a network share: \\\\server\\share), not from a working folder
    (whatever drive that one is on)."""
    path = _expanded(folder)
    return path is not None and (path.is_absolute() or folder.startswith(("\\\\", "//")))


def _expanded(folder: str) -> Path | None:
    """The folder with ~ expanded; None for a ~user that this machine has not (Python raises then)."""
    try:
        return Path(folder).expanduser()
    except RuntimeError:
        return None
