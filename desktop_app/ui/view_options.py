"""What the task list shows besides the filters: system tasks (on request) and finished tasks not cleared."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QObject, QSettings, Signal

from desktop_app.domain.task import TaskRecord
from desktop_app.ui.menus import WindowMenus
from desktop_app.ui.notice_bar import NoticeBar
from desktop_app.ui.outcomes import Tone
from desktop_app.ui.task_filter import TaskFilterProxy
from desktop_app.ui.task_model import TaskTableModel


class ViewOptions(QObject):
    """Owns View > Show system tasks, Clear finished tasks and Show cleared tasks, and remembers them.
    Clearing hides the tasks that ended up to now (nothing is deleted); a task ending later stays in view.

    Signals:
        told(str): something to tell the clerk in the status bar (nothing to clear).
    """

    told = Signal(str)

    def __init__(self, model: TaskTableModel, proxy: TaskFilterProxy, menus: WindowMenus, notice: NoticeBar,
                 qsettings: QSettings, parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self._model, self._proxy, self._menus, self._notice, self._q = model, proxy, menus, notice, qsettings
        self.last_text = ""
        menus.system_action.toggled.connect(self._show_system)
        menus.clear_action.triggered.connect(self.clear_finished)
        menus.cleared_action.toggled.connect(self._show_cleared)

    def restore(self) -> None:
        self._menus.system_action.setChecked(flag(self._q.value("tasks/show_system")))
        self._show_cleared(False)

    def hides_for_good(self, record: TaskRecord) -> bool:
        """A system task while they are not shown: selecting it must not turn them all on."""
        return self._model.kinds.of(record).system and not self._menus.system_action.isChecked()

    def show_cleared_if_hidden(self) -> bool:
        """Show the cleared tasks (to select one of them); False when none were cleared."""
        if self._proxy.cleared_before is None:
            return False
        self._menus.cleared_action.setChecked(True)
        return True

    def _show_system(self, shown: bool) -> None:
        self._proxy.set_system_shown(shown)
        self._q.setValue("tasks/show_system", shown)

    def clear_finished(self) -> None:
        """Hide every task that has ended so far; "Show cleared tasks" lists them again."""
        ended = [r.ended_at for r in self._model.records() if r.status.is_final and r.ended_at is not None]
        if not ended:
            self.told.emit(self.tr("No finished task to clear."))
            return
        stamp = max(ended)  # the database's own clock: a desk's clock running late changes nothing
        shown_before = self._proxy.rowCount()
        self._q.setValue("tasks/cleared_before", stamp.isoformat())
        self._menus.cleared_action.blockSignals(True)
        self._menus.cleared_action.setChecked(False)
        self._menus.cleared_action.blockSignals(False)
        self._proxy.set_cleared_before(stamp)
        hidden = shown_before - self._proxy.rowCount()
        self.last_text = self.tr("Finished tasks cleared from the list: %1. Nothing is deleted.").replace(
            "%1", str(hidden)
        )
        again = self.tr("Show them again")
        self._notice.show_notice(
            self.last_text, Tone.NEUTRAL, [(again, lambda: self._menus.cleared_action.setChecked(True))]
        )

    def _show_cleared(self, shown: bool) -> None:
        saved = self._q.value("tasks/cleared_before")
        self._proxy.set_cleared_before(None if shown or not saved else dt.datetime.fromisoformat(str(saved)))


def flag(value: object) -> bool:
    """A bool read back from QSettings (an INI file gives "true"/"false")."""
    return value is True or str(value).lower() == "true"
