"""Painting the task list's status as a coloured label and its progress as a bar."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionProgressBar, QStyleOptionViewItem

from desktop_app.domain.status import TaskStatus
from desktop_app.ui.outcomes import Tone
from desktop_app.ui.task_model import ToneRole

Index = QModelIndex | QPersistentModelIndex

# Background, text: readable on both light and dark themes.
TONE_COLORS: dict[Tone, tuple[QColor, QColor]] = {
    Tone.PENDING: (QColor("#e0e0e0"), QColor("#333333")),
    Tone.RUNNING: (QColor("#cfe3ff"), QColor("#0b4ea2")),
    Tone.GOOD: (QColor("#d3f2d8"), QColor("#1b6e2b")),
    Tone.WARNING: (QColor("#ffe8b3"), QColor("#7a4b00")),
    Tone.BAD: (QColor("#ffd6d6"), QColor("#a31515")),
    Tone.NEUTRAL: (QColor("#ececec"), QColor("#6b6b6b")),
}
STATUS_COLORS: dict[TaskStatus, tuple[QColor, QColor]] = {
    TaskStatus.PENDING: TONE_COLORS[Tone.PENDING],
    TaskStatus.RUNNING: TONE_COLORS[Tone.RUNNING],
    TaskStatus.SUCCEEDED: TONE_COLORS[Tone.GOOD],
    TaskStatus.PARTIALLY_SUCCEEDED: TONE_COLORS[Tone.WARNING],
    TaskStatus.FAILED: TONE_COLORS[Tone.BAD],
    TaskStatus.CANCELLED: TONE_COLORS[Tone.NEUTRAL],
}
TONE_VALUES = frozenset(t.value for t in Tone)


class StatusDelegate(QStyledItemDelegate):
    """The status text on a rounded background coloured by what it means (its Tone)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        value = index.data(ToneRole)  # a StrEnum crosses QVariant as a plain str
        if value not in TONE_VALUES:
            super().paint(painter, option, index)
            return
        base = QStyleOptionViewItem(option)
        self.initStyleOption(base, index)
        base.text = ""
        style = base.widget.style() if base.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, base, painter, base.widget)
        background, foreground = TONE_COLORS[Tone(value)]
        metrics = option.fontMetrics
        text = metrics.elidedText(str(index.data(Qt.ItemDataRole.DisplayRole) or ""), Qt.TextElideMode.ElideRight,
                                  option.rect.width() - 22)  # fmt: skip
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
    """A progress bar from the cell's integer 0..100, its percentage in the view's text colour ringed with its
    base colour, whole over the fill and the groove alike: the style's label is drawn in two colours split
    where the fill ends, and in a selected row (the fill and the row both the highlight colour) a digit the
    fill's edge crossed could not be read (seen: "34%" read as "4%")."""

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
        bar.textVisible = False
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, base.widget)
        text, metrics = f"{bar.progress}%", option.fontMetrics
        # whole pixels: glyphs at a fraction of a pixel blur
        left = bar.rect.center().x() - metrics.horizontalAdvance(text) // 2 + 1
        baseline = bar.rect.center().y() + (metrics.ascent() - metrics.descent()) // 2 + 1
        path = QPainterPath()
        path.addText(QPointF(left, baseline), option.font, text)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # Text on Base whatever the row's selection: the ring is what the glyphs stand on, over the fill too.
        ring = QPen(option.palette.color(QPalette.ColorRole.Base), 3)
        ring.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.strokePath(path, ring)
        painter.setPen(option.palette.color(QPalette.ColorRole.Text))
        painter.setFont(option.font)
        painter.drawText(QPointF(left, baseline), text)  # hinted glyphs read crisper than the path's
        painter.restore()
