"""Translated texts shared by several views: statuses and the engine's stage texts."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop_app.domain.status import TaskStatus


def status_text(status: TaskStatus) -> str:
    tr = QCoreApplication.translate
    texts = {
        TaskStatus.PENDING: tr("Status", "Pending"),
        TaskStatus.RUNNING: tr("Status", "Running"),
        TaskStatus.SUCCEEDED: tr("Status", "Succeeded"),
        TaskStatus.PARTIALLY_SUCCEEDED: tr("Status", "Partially succeeded"),
        TaskStatus.FAILED: tr("Status", "Failed"),
        TaskStatus.CANCELLED: tr("Status", "Cancelled"),
    }
    return texts[status]
