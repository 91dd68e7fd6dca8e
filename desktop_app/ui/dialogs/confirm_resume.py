"""The question when the file of a stopped import is queued again: where it stopped, and its remaining rows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.ui.outcomes import stopped_at
from desktop_app.ui.texts import shown_error, task_numbers_whole


class ResumeQuestion(QMessageBox):
    """Window-modal (open it with open()). "Import the remaining rows" is the default; "Import it all again"
    (forced, every row already in then fails as already_exists) is offered but never the default; Escape
    queues nothing."""

    def __init__(self, record: TaskRecord, parent: QWidget | None = None) -> None:
        super().__init__(QMessageBox.Icon.Question, "", "", QMessageBox.StandardButton.NoButton, parent)
        self.record = record
        self.setWindowTitle(self.tr("Import stopped early"))
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setText(task_numbers_whole(self.what_happened(record)))
        self.setInformativeText(self.tr("Import the remaining rows? The rows already in stay and count as "
                                        "imported; the rest of the file is imported."))  # fmt: skip
        self.resume_button = self.addButton(self.tr("Import the &remaining rows"), QMessageBox.ButtonRole.AcceptRole)
        self.again_button = self.addButton(self.tr("Import it all &again"), QMessageBox.ButtonRole.DestructiveRole)
        self.keep_button = self.addButton(self.tr("&Do nothing"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.resume_button)
        self.setEscapeButton(self.keep_button)

    def what_happened(self, record: TaskRecord) -> str:
        """ "This file's import (task T…) was cancelled at 50,000 of 200,000 rows." """
        done, total = stopped_at(record)
        if record.status is TaskStatus.CANCELLED:
            text = (self.tr("This file's import (task %1) was cancelled at %2 of %3 rows.") if total
                    else self.tr("This file's import (task %1) was cancelled after %2 rows."))  # fmt: skip
        else:
            text = (self.tr("This file's import (task %1) stopped at %2 of %3 rows: %4") if total
                    else self.tr("This file's import (task %1) stopped after %2 rows: %4"))  # fmt: skip
        return (text.replace("%1", record.task_no).replace("%2", f"{done:,}").replace("%3", f"{total or 0:,}")
                .replace("%4", shown_error(record)))  # fmt: skip
