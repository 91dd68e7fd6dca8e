"""The preview's mapping profile (issue 25): the profile whose header mapping fits the file, said in one line;
a "Profile:" choice among the type's profiles or none; "Save as profile for the team…" for the clerk's
header choices. The profiles are read and saved off the GUI thread (the dialog's Background)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QInputDialog, QLabel, QLineEdit, QPushButton, QWidget

from desktop_app.domain.profiles import Profile, ProfileVersion
from desktop_app.imports.import_type import fold_header
from desktop_app.ui.full_text_tip import NarrowCombo

# every profile's latest version (asks the database: never called on the GUI thread)
ListProfiles = Callable[[], list[ProfileVersion]]
# saves a profile's next version (asks the database: never called on the GUI thread)
SaveProfile = Callable[[str, Profile], ProfileVersion]


def matching_profile(
    profiles: Sequence[ProfileVersion], import_type: str, header: Sequence[str]
) -> ProfileVersion | None:
    """The profile of this type whose mapped headers are all in the file's header (compared as headers are:
    trimmed, full-width folded, case-insensitive); of several, the one that maps the most headers, then the
    newest. A profile that maps no header (constants or value mappings only) fits every file: it is never
    chosen by itself."""
    present = {fold_header(h) for h in header}
    fitting = [p for p in profiles if p.import_type == import_type and p.profile.columns
               and all(fold_header(h) in present for h in p.profile.columns)]  # fmt: skip
    if not fitting:
        return None
    return max(fitting, key=lambda p: (len(p.profile.columns), p.saved_at is not None, p.saved_at or 0, p.version))


class ProfileChoice(QObject):
    """The widgets the dialog lays out: the "Profile:" box (None first, then the type's profiles), the
    line naming the profile in use, and the save button with its name dialog.

    Signals:
        chosen(): the clerk chose another profile (or none) in the box.
    """

    chosen = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self.box = NarrowCombo()
        self.label = QLabel()
        self.label.setBuddy(self.box)
        self.line = QLabel()  # "Using profile 'Branch customers' v3", or what became of a save
        self.line.setWordWrap(True)
        self.save_button = QPushButton()
        self.name_dialog: QInputDialog | None = None  # open while the clerk names a profile to save
        self._profiles: list[ProfileVersion] = []
        self._said = ""  # a line that is not the profile in use (a save's answer), until the next choice
        self.box.activated.connect(lambda _i: self._chosen())
        self.fill([], None)

    # --- what is offered and chosen ------------------------------------------------------

    def fill(self, profiles: Sequence[ProfileVersion], current: ProfileVersion | None) -> None:
        """Offer these profiles (one import type's) with ``current`` chosen (None: "None")."""
        self._profiles = list(profiles)
        self._said = ""
        box = self.box
        box.blockSignals(True)
        box.clear()
        box.addItem("", None)
        for version in self._profiles:
            box.addItem(version.name, version.name)
        box.setCurrentIndex(max(0, box.findData(current.name)) if current is not None else 0)
        box.blockSignals(False)
        self.retranslate()

    def current(self) -> ProfileVersion | None:
        name = self.box.currentData()
        return next((p for p in self._profiles if p.name == name), None)

    def _chosen(self) -> None:
        self._said = ""
        self.retranslate()
        self.chosen.emit()

    def say(self, text: str) -> None:
        """A line in place of the profile's (a save's answer); the profile's again after the next choice."""
        self._said = text
        self.retranslate()

    def show_line(self) -> None:
        self._said = ""
        self.retranslate()

    # --- the name of a profile to save ---------------------------------------------------

    def ask_name(self, default: str, answer: Callable[[str], None]) -> None:
        """Ask the name to save under (non-blocking: open(), so tests drive it); ``answer`` gets it, trimmed."""
        dialog = QInputDialog(self._parent)
        dialog.setWindowTitle(self.tr("Save as profile for the team"))
        dialog.setLabelText(self.tr("Name of the profile (an existing name gets its next version):"))
        dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
        dialog.setTextValue(default)
        dialog.setOkButtonText(self.tr("Save"))
        dialog.setCancelButtonText(self.tr("Cancel"))
        self.name_dialog = dialog

        def done(text: str) -> None:
            if text.strip():
                answer(text.strip())

        dialog.textValueSelected.connect(done)
        dialog.finished.connect(lambda _r: self._name_dialog_closed(dialog))
        dialog.open()

    def _name_dialog_closed(self, dialog: QInputDialog) -> None:
        if self.name_dialog is dialog:
            self.name_dialog = None
        dialog.deleteLater()

    # --- words ---------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.label.setText(self.tr("&Profile:"))
        self.box.setItemText(0, self.tr("None"))
        self.box.setAccessibleName(self.tr("Mapping profile"))
        self.save_button.setText(self.tr("Save as profile for the &team…"))
        self.save_button.setToolTip(self.tr("Save these header choices and reading options as a profile that "
                                            "every desk on this database can use"))  # fmt: skip
        current = self.current()
        if self._said:
            self.line.setText(self._said)
        elif current is not None:
            self.line.setText(self.using_words(current))
        else:
            self.line.setText("")
        self.line.setVisible(bool(self.line.text()))

    def using_words(self, version: ProfileVersion) -> str:
        return self.tr("Using profile '%1' v%2").replace("%1", version.name).replace("%2", str(version.version))

    def saved_words(self, version: ProfileVersion) -> str:
        return self.tr("Saved as '%1' v%2").replace("%1", version.name).replace("%2", str(version.version))
