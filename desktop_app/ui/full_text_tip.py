"""A combo box's choice, cut by a box kept narrow so its dialog fits a small screen, read whole as its tooltip."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QComboBox, QToolTip


class FullTextTip(QObject):
    """Install on combo boxes: hovering one shows its current choice whole (at 1024 px the preview's encoding
    read "自动识别：Unicode（UTF-16）- Excel 的“Unicode 文本", its end cut)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(watched, QComboBox) and isinstance(event, QHelpEvent):
            QToolTip.showText(event.globalPos(), watched.currentText(), watched)
            return True
        return super().eventFilter(watched, event)
