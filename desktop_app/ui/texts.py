"""Translated texts shared by several views: the task statuses."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop_app.domain.status import TaskStatus


def status_text(status: TaskStatus) -> str:
    # Spelled out call by call: pyside6-lupdate only finds QCoreApplication.translate literally.
    if status is TaskStatus.PENDING:
        return QCoreApplication.translate("Status", "Pending")
    if status is TaskStatus.RUNNING:
        return QCoreApplication.translate("Status", "Running")
    if status is TaskStatus.SUCCEEDED:
        return QCoreApplication.translate("Status", "Succeeded")
    if status is TaskStatus.PARTIALLY_SUCCEEDED:
        return QCoreApplication.translate("Status", "Partially succeeded")
    if status is TaskStatus.FAILED:
        return QCoreApplication.translate("Status", "Failed")
    return QCoreApplication.translate("Status", "Cancelled")
