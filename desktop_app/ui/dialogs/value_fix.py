"""Fix values (issue 25): the values an import's enum columns refused, each mapped to one its column allows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.task import TaskRecord
from desktop_app.imports.value_fixes import BadValue

Mappings = dict[str, dict[str, str]]


def suggested_profile(record: TaskRecord) -> str:
    """Where the mappings are remembered unless the clerk says otherwise: the profile the import used, else
    one named after its type ("customers values")."""
    used = str(record.params.get("profile") or "").strip()
    if used:
        return used
    return f"{record.params.get('import_type') or 'import'} values"


def combo_width(combo: QComboBox) -> int:
    """Wide enough for its longest choice, its arrow and a character to spare: Qt's own hint left a
    full-width bracket out (seen: "（保持不变" in Chinese, on Linux with a CJK fallback font)."""
    fm = combo.fontMetrics()
    texts = [combo.itemText(i) for i in range(combo.count())]
    text_width = max((max(fm.horizontalAdvance(t), fm.boundingRect(t).width()) for t in texts), default=0)
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    size = combo.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option,
                                          QSize(text_width, fm.height()), combo)  # fmt: skip
    return max(combo.sizeHint().width(), size.width() + fm.horizontalAdvance("（"))


class ValueFixDialog(QDialog):
    """One line per distinct refused value (its column, its row count, a drop-down of the column's allowed
    values, none chosen); every value is listed, inside a scrolling area so that the dialog fits a small
    screen. ``mappings()`` is what the clerk chose (a value left unchosen is not mapped); ``remember_as()``
    the profile to save them into, or None."""

    def __init__(self, record: TaskRecord, bad: Sequence[BadValue], labels: Mapping[str, str],
                 parent: QWidget | None = None, *,
                 choices: Mapping[str, Sequence[tuple[str, str]]] | None = None) -> None:  # fmt: skip
        """``choices``: per column key, what its values may be changed to, each level once as (the value the
        fix maps to, its label in the window's language); a column without: its allowed values as they are."""
        super().__init__(parent)
        self.record = record
        self.bad = list(bad)
        self.setObjectName("value_fix_dialog")
        self.setWindowTitle(self.tr("Fix values of %1").replace("%1", record.task_no))
        rows = sum(b.rows for b in self.bad)
        words = (self.tr("1 row of this import failed for a value its column does not allow. Choose the right "
                         "value; a value left at “%2” is not changed, its row stays in the error file.") if rows == 1
                 else self.tr("%1 rows of this import failed for a value their column does not allow. Choose the "
                              "right value for each; a value left at “%2” is not changed, its rows stay in the "
                              "error file."))  # fmt: skip
        intro = QLabel(words.replace("%1", f"{rows:,}").replace("%2", self._leave_text()))
        intro.setWordWrap(True)

        grid_box = QWidget()
        grid = QGridLayout(grid_box)
        grid.setColumnStretch(1, 1)
        grid.setHorizontalSpacing(12)
        heads = (self.tr("Column"), self.tr("Value in the file"), self.tr("Rows"), self.tr("Change it to"))
        for col, text in enumerate(heads):
            head = QLabel(f"<b>{text}</b>")
            grid.addWidget(head, 0, col)
        self.combos: list[QComboBox] = []
        for row, value in enumerate(self.bad, start=1):
            grid.addWidget(QLabel(labels.get(value.column, value.column)), row, 0)
            shown = QLabel(value.value)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(shown, row, 1)
            count = QLabel(f"{value.rows:,}")
            count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(count, row, 2)
            combo = QComboBox()
            combo.addItem(self._leave_text(), None)
            # each level once, as the clerk reads it (seen: 普通/银卡/金卡 and standard/silver/gold, six choices)
            for target, label in (choices or {}).get(value.column) or [(a, a) for a in value.allowed]:
                combo.addItem(label, target)
            combo.setCurrentIndex(0)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            # never squeezed below its longest choice (seen: "（保持不变" cut off in Chinese): the values
            # column gives way, or the area scrolls sideways
            combo.setMinimumWidth(combo_width(combo))
            combo.setAccessibleName(self.tr("Change %1 to").replace("%1", value.value))
            combo.currentIndexChanged.connect(lambda _i: self._update_ok())
            grid.addWidget(combo, row, 3)
            self.combos.append(combo)
        grid.setRowStretch(len(self.bad) + 1, 1)
        self.value_area = QScrollArea()
        self.value_area.setWidgetResizable(True)
        self.value_area.setFrameShape(QFrame.Shape.StyledPanel)
        self.value_area.setWidget(grid_box)
        self.value_area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

        self.remember = QCheckBox(self.tr("&Remember for next time, in the profile:"))
        self.remember.setToolTip(self.tr("Save these mappings into the profile as its new version: the next import "
                                          "with it takes these values as the right ones"))  # fmt: skip
        self.profile_edit = QLineEdit(suggested_profile(record))
        self.profile_edit.setEnabled(False)
        self.remember.toggled.connect(self.profile_edit.setEnabled)
        self.remember.toggled.connect(lambda _c: self._update_ok())
        self.profile_edit.textChanged.connect(lambda _t: self._update_ok())
        remember_line = QHBoxLayout()
        remember_line.addWidget(self.remember)
        remember_line.addWidget(self.profile_edit, 1)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("&Fix the rows"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.value_area, 1)
        layout.addLayout(remember_line)
        layout.addWidget(self.buttons)
        self._update_ok()
        self._size_to_screen(grid_box)

    def _leave_text(self) -> str:
        return self.tr("(leave as is)")

    def _size_to_screen(self, grid_box: QWidget) -> None:
        """As tall as its lines need, at most 80 % of the screen (the rest scrolls inside)."""
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        self.ensurePolished()
        grid_box.ensurePolished()
        hint = grid_box.sizeHint()
        bar = self.value_area.verticalScrollBar().sizeHint().width()
        width = max(520, hint.width() + bar + 60)
        height = hint.height() + 200
        if screen is not None:
            width = min(width, int(screen.width() * 0.9))
            height = min(height, int(screen.height() * 0.8))
        self.resize(width, max(300, height))

    def mappings(self) -> Mappings:
        """column key -> {bad value: chosen value}, the values left unchosen left out."""
        found: Mappings = {}
        for value, combo in zip(self.bad, self.combos, strict=True):
            chosen = combo.currentData()
            if chosen:
                found.setdefault(value.column, {})[value.value] = str(chosen)
        return found

    def remember_as(self) -> str | None:
        name = self.profile_edit.text().strip()
        return name if self.remember.isChecked() and name else None

    def _update_ok(self) -> None:
        self.ok_button.setEnabled(bool(self.mappings()) and (not self.remember.isChecked()
                                                            or bool(self.profile_edit.text().strip())))  # fmt: skip
