"""The question before an import's missing names are added to master data: how many, where, which, what for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_app.domain.task import TaskRecord
from desktop_app.imports.missing_references import MissingReference

SHOWN_NAMES = 5  # the first names the question lists of each column


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
        add = self.tr("&Add 1 name") if count == 1 else self.tr("&Add %1 names").replace("%1", f"{count:,}")
        self.add_button = self.addButton(add, QMessageBox.ButtonRole.AcceptRole)
        self.keep_button = self.addButton(self.tr("&Do not add"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.keep_button)
        self.setEscapeButton(self.keep_button)

    def what_happens(self, record: TaskRecord, names: Sequence[MissingReference], labels: Mapping[str, str]) -> str:
        """Per table and column: how many names, the first few; then the rows of the import it completes."""
        groups: dict[tuple[str, str], list[MissingReference]] = {}
        for name in names:
            groups.setdefault((name.table, name.column), []).append(name)
        lines = []
        for (table, column), found in groups.items():
            line = (self.tr("1 name to the table %2 (column %3): %4") if len(found) == 1
                    else self.tr("%1 names to the table %2 (column %3): %4"))  # fmt: skip
            shown = ", ".join(n.value for n in found[:SHOWN_NAMES])
            if len(found) > SHOWN_NAMES:
                shown += self.tr(", … (%1 more)").replace("%1", f"{len(found) - SHOWN_NAMES:,}")
            lines.append(line.replace("%1", f"{len(found):,}").replace("%2", table)
                         .replace("%3", labels.get(column, column)).replace("%4", shown))  # fmt: skip
        # a row may wait on two names (two columns): the rows waiting are the most it completes
        rows = min(sum(n.rows for n in names), record.pending_completion_count or sum(n.rows for n in names))
        done = (self.tr("This completes up to 1 row of task %2 waiting on them.") if rows == 1
                else self.tr("This completes up to %1 rows of task %2 waiting on them."))  # fmt: skip
        lines.append(done.replace("%1", f"{rows:,}").replace("%2", record.task_no))
        lines.append(self.tr("The names are added to the table for everyone; undoing the import does not "
                             "remove them."))  # fmt: skip
        return "\n\n".join(lines)
