"""The system tray icon: a notification when a task ends unseen, and a home while the window is hidden."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.kinds import TaskKinds
from desktop_app.ui.outcomes import shown_status
from desktop_app.ui.texts import shown_error


class Tray(QObject):
    """Wraps QSystemTrayIcon; where the platform has no tray, notifications are only recorded.

    Signals:
        show_requested(): the clerk clicked the icon or chose "Show window".
        quit_requested(): the clerk chose "Quit" in the icon's menu.
    """

    show_requested = Signal()
    quit_requested = Signal()

    def __init__(self, icon: QIcon, kinds: TaskKinds, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._kinds = kinds
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.sent: list[tuple[str, str]] = []  # what was notified (also where no tray exists)
        self._icon = QSystemTrayIcon(icon, self) if self.available else None
        # A QMenu takes only a widget as parent: this one is deleted in shutdown().
        self._menu: QMenu | None = QMenu()
        self._show_action = QAction(self)
        self._quit_action = QAction(self)
        self._show_action.triggered.connect(self.show_requested)
        self._quit_action.triggered.connect(self.quit_requested)
        self._menu.addAction(self._show_action)
        self._menu.addAction(self._quit_action)
        if self._icon is not None:
            self._icon.setContextMenu(self._menu)
            self._icon.activated.connect(self._activated)
            self._icon.show()
        self.retranslate()

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.show_requested.emit()

    def task_ended(self, record: TaskRecord) -> None:
        status = shown_status(record, self._kinds.of(record))
        title = self.tr("%1: %2").replace("%1", record.task_no).replace("%2", status)
        text = (self.tr("%1 — %2 rows, %3 succeeded, %4 failed")
                .replace("%1", record.file_name)
                .replace("%2", f"{record.total_count:,}")
                .replace("%3", f"{record.success_count:,}")
                .replace("%4", f"{record.fail_count:,}"))  # fmt: skip
        if record.error_msg and record.status is TaskStatus.FAILED:
            text += "\n" + shown_error(record)
        self.notify(title, text, record.status)

    def notify(self, title: str, text: str, status: TaskStatus = TaskStatus.SUCCEEDED) -> None:
        self.sent.append((title, text))
        if self._icon is None:
            return
        icon = {
            TaskStatus.FAILED: QSystemTrayIcon.MessageIcon.Critical,
            TaskStatus.PARTIALLY_SUCCEEDED: QSystemTrayIcon.MessageIcon.Warning,
        }.get(status, QSystemTrayIcon.MessageIcon.Information)
        self._icon.showMessage(title, text, icon, 10_000)

    def shutdown(self) -> None:
        """Take the icon off the tray and delete its menu (a parentless widget); idempotent."""
        if self._icon is not None:
            self._icon.hide()
            self._icon.setContextMenu(None)  # type: ignore[arg-type]
        if self._menu is not None:
            self._menu.deleteLater()
            self._menu = None

    def retranslate(self) -> None:
        self._show_action.setText(self.tr("&Show window"))
        self._quit_action.setText(self.tr("&Quit"))
