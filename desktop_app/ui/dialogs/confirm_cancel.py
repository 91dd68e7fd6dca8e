"""Before a task is cancelled: which task, how many rows are already in, and a safe default."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.kinds import Stops, TaskKind
from desktop_app.tasks.shown_progress import file_rows
from desktop_app.ui.task_model import shown_file_name

REFRESH_MS = 200  # the rows-in count follows the running import while the question is open (as often as the list)


class CancelQuestion(QMessageBox):
    """Window-modal (open it with open()); "Keep running" is the default and the Escape answer, so an
    Enter pressed by habit cancels nothing. `cancel_button` is the one that cancels. With `fresh` (the
    task's newest snapshot), the rows-in count keeps up with the import while the clerk reads: the
    number they answer to is the one the task list shows, not the one of the moment the question opened."""

    def __init__(self, record: TaskRecord, parent: QWidget | None = None,
                 fresh: Callable[[], TaskRecord] | None = None, *, kind: TaskKind) -> None:  # fmt: skip
        super().__init__(QMessageBox.Icon.Question, "", "", QMessageBox.StandardButton.NoButton, parent)
        self._kind = kind
        self.record = record
        self._fresh = fresh
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        if fresh is not None and record.status.is_active:
            self._timer.start()
        name = shown_file_name(record)
        text = self.tr("Cancel task %1 (%2)?") if name else self.tr("Cancel task %1?")
        self.setWindowTitle(self.tr("Cancel the task?"))
        self.setText(text.replace("%1", record.task_no).replace("%2", name))
        self.setInformativeText(self.what_stays(record))
        self.cancel_button = self.addButton(self.tr("Cancel the &task"), QMessageBox.ButtonRole.DestructiveRole)
        self.keep_button = self.addButton(self.tr("&Keep running"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.keep_button)
        self.setEscapeButton(self.keep_button)

    def refresh(self) -> None:
        """Say again what stays, from the task's newest snapshot. A task that ended meanwhile has nothing left
        to cancel: the question goes (answered with neither button) and the notice of its end is what stays."""
        if self._fresh is None:
            return
        self.record = self._fresh()
        if not self.record.status.is_active:
            self._timer.stop()
            self.reject()
            return
        text = self.what_stays(self.record)
        if text != self.informativeText():
            self.setInformativeText(text)

    def what_stays(self, record: TaskRecord) -> str:
        """What cancelling leaves behind, in words: "12,000 of 200,000 rows are in; they stay …"."""
        if record.status is TaskStatus.PENDING:
            return self.tr("It has not started yet: nothing is imported.")
        if self._kind.stops is Stops.NO_FILE:
            return self.tr("The export stops; no file is written.")
        if self._kind.stops is not Stops.ROWS_STAY:
            return self.tr("The task stops where it is.")
        if record.params.get("dry_run"):
            return self.tr("It only checks the file: nothing was imported.")
        rows = file_rows(record)
        if record.params.get("mode") == "delete":  # its rows are gone, not "in"
            if rows:
                text = self.tr("%1 of %2 rows are deleted already. They stay deleted; the rest of the file's rows "
                               "are not deleted.")  # fmt: skip
            else:
                text = self.tr("%1 rows are deleted already. They stay deleted; the rest of the file's rows are "
                               "not deleted.")  # fmt: skip
        elif rows:
            text = self.tr("%1 of %2 rows are in. They stay in the table; the rest of the file is not imported.")
        else:
            text = self.tr("%1 rows are in. They stay in the table; the rest of the file is not imported.")
        return text.replace("%1", f"{record.success_count:,}").replace("%2", f"{rows or 0:,}")
