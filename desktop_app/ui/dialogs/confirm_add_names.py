"""The question before an import's missing names are added to master data: how many, where, which, what for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from desktop_app.domain.task import TaskRecord
from desktop_app.imports.missing_references import MissingReference

SHOWN_NAMES = 5  # the first names the question lists of each column
SIDE = 160  # the question's icon, margins and frame beside its text: its lines are at most the screen less this


class AddNamesQuestion(QMessageBox):
    """Window-modal (open it with open()). Adding master data is not undone with the import: "Add" is never
    the default; "Do not add" is the default and the Escape answer. `add_button` is the one that adds."""

    def __init__(self, record: TaskRecord, names: Sequence[MissingReference], labels: Mapping[str, str],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(QMessageBox.Icon.Warning, "", "", QMessageBox.StandardButton.NoButton, parent)
        self.record = record
        self.setWindowTitle(self.tr("Add to the master data?"))
        count = len({(n.table, n.value) for n in names})
        text = (self.tr("Add 1 name to the master data?") if count == 1
                else self.tr("Add %1 names to the master data?").replace("%1", f"{count:,}"))  # fmt: skip
        self.setText(text)
        self.setInformativeText(self.what_happens(record, names, labels))
        self._unbroken()
        add = self.tr("&Add 1 name") if count == 1 else self.tr("&Add %1 names").replace("%1", f"{count:,}")
        self.add_button = self.addButton(add, QMessageBox.ButtonRole.AcceptRole)
        self.keep_button = self.addButton(self.tr("&Do not add"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.keep_button)
        self.setEscapeButton(self.keep_button)

    def what_happens(self, record: TaskRecord, names: Sequence[MissingReference], labels: Mapping[str, str]) -> str:
        """Per reference column, in the words the clerk knows (its label, as the preview and the error file
        name it; never the database's table name): how many names, the first few; then the rows of the import
        it completes."""
        groups: dict[str, list[MissingReference]] = {}
        for name in names:
            groups.setdefault(name.column, []).append(name)
        lines = []
        for column, found in groups.items():
            line = self.tr("%3 (1 new name): %4") if len(found) == 1 else self.tr("%3 (%1 new names): %4")
            # the names the clerk's list separator apart: "、" in Chinese
            shown = self.tr(", ").join(n.value for n in found[:SHOWN_NAMES])
            if len(found) > SHOWN_NAMES:
                shown += self.tr(", … (%1 more)").replace("%1", f"{len(found) - SHOWN_NAMES:,}")
            lines.append(line.replace("%1", f"{len(found):,}").replace("%3", labels.get(column, column))
                         .replace("%4", shown))  # fmt: skip
        # a row may wait on two names (two columns): the rows waiting are the most it completes
        rows = min(sum(n.rows for n in names), record.pending_completion_count or sum(n.rows for n in names))
        done = (self.tr("This completes up to 1 row of task %2 waiting on them.") if rows == 1
                else self.tr("This completes up to %1 rows of task %2 waiting on them."))  # fmt: skip
        lines.append(done.replace("%1", f"{rows:,}").replace("%2", record.task_no))
        lines.append(self.tr("The names are added to the table for everyone; undoing the import does not "
                             "remove them."))  # fmt: skip
        return "\n\n".join(lines)

    def _unbroken(self) -> None:
        """Each line of the text on one line, as wide as the screen allows: a message box wraps its text at the
        width of its one-line question (seen: a Chinese column label broken over two lines)."""
        label = self.findChild(QLabel, "qt_msgbox_informativelabel")
        if label is None:
            return
        metrics = label.fontMetrics()
        widest = max((metrics.horizontalAdvance(line) for line in self.informativeText().splitlines()), default=0)
        screen = self.screen().availableGeometry().width()
        label.setMinimumWidth(min(widest + metrics.averageCharWidth(), max(screen - SIDE, 0)))
