"""Painting the task list's status as a coloured label and its progress as a bar."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionProgressBar, QStyleOptionViewItem

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.task_model import StatusRole

Index = QModelIndex | QPersistentModelIndex

# Background, text: readable on both light and dark themes.
STATUS_COLORS: dict[TaskStatus, tuple[QColor, QColor]] = {
    TaskStatus.PENDING: (QColor("#e0e0e0"), QColor("#333333")),
    TaskStatus.RUNNING: (QColor("#cfe3ff"), QColor("#0b4ea2")),
    TaskStatus.SUCCEEDED: (QColor("#d3f2d8"), QColor("#1b6e2b")),
    TaskStatus.PARTIALLY_SUCCEEDED: (QColor("#ffe8b3"), QColor("#7a4b00")),
    TaskStatus.FAILED: (QColor("#ffd6d6"), QColor("#a31515")),
    TaskStatus.CANCELLED: (QColor("#ececec"), QColor("#6b6b6b")),
}
STATUS_VALUES = frozenset(s.value for s in TaskStatus)


class StatusDelegate(QStyledItemDelegate):
    """The status text on a rounded, coloured background."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        value = index.data(StatusRole)  # a StrEnum crosses QVariant as a plain str
        if value not in STATUS_VALUES:
            super().paint(painter, option, index)
            return
        status = TaskStatus(value)
        base = QStyleOptionViewItem(option)
        self.initStyleOption(base, index)
        base.text = ""
        style = base.widget.style() if base.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, base, painter, base.widget)
        background, foreground = STATUS_COLORS[status]
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        metrics = option.fontMetrics
        width = min(option.rect.width() - 6, metrics.horizontalAdvance(text) + 16)
        pill = QRect(option.rect.left() + 3, option.rect.top() + 3, width, option.rect.height() - 6)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(background)
        painter.drawRoundedRect(pill, 6, 6)
        painter.setPen(foreground)
        painter.drawText(pill, int(Qt.AlignmentFlag.AlignCenter), text)
        painter.restore()


class ProgressDelegate(QStyledItemDelegate):
    """A progress bar from the cell's integer 0..100."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        base = QStyleOptionViewItem(option)
        self.initStyleOption(base, index)
        base.text = ""
        style = base.widget.style() if base.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, base, painter, base.widget)
        value = index.data(Qt.ItemDataRole.DisplayRole)
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(3, 4, -3, -4)
        bar.minimum, bar.maximum = 0, 100
        bar.progress = int(value or 0)
        bar.text = f"{bar.progress}%"
        bar.textVisible = True
        bar.textAlignment = Qt.AlignmentFlag.AlignCenter
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, base.widget)
