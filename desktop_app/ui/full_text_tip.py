"""Combo boxes kept narrow so their dialog fits a small screen (1024 x 700), their choices still read whole:
the closed box cuts its choice with "…" (not mid-letter), its drop-down list is as wide as its longest
choice, and hovering a cut choice shows it whole."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QHelpEvent, QPaintEvent, QPalette
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QToolTip, QWidget

LABEL_INSET = 4  # the styles draw the closed box's text a little inside its edit field
ICON_GAP = 4  # between the current choice's icon and its text
ITEM_PADDING = 16  # a list item's margins around its text (the delegate's sizeHint usually says more)


def text_room(box: QComboBox) -> int:
    """The width the closed box has for its current choice's text."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                       QStyle.SubControl.SC_ComboBoxEditField, box)  # fmt: skip
    room = field.width() - LABEL_INSET
    if not option.currentIcon.isNull():
        room -= box.iconSize().width() + ICON_GAP
    return max(0, room)


def is_cut(box: QComboBox) -> bool:
    """Whether the closed box cannot show its current choice whole."""
    return box.fontMetrics().horizontalAdvance(box.currentText()) > text_room(box)


class FullTextTip(QObject):
    """Install on combo boxes: hovering one shows its current choice whole (at 1024 px the preview's encoding
    read "自动识别：Unicode（UTF-16）- Excel 的“Unicode 文本", its end cut), before the box's own tooltip when the
    choice is cut; a box with a tooltip of its own whose choice is shown whole shows only that."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(watched, QComboBox) and isinstance(event, QHelpEvent):
            own = watched.toolTip()
            if own and not is_cut(watched):
                return super().eventFilter(watched, event)
            QToolTip.showText(event.globalPos(), watched.currentText() + (f"\n{own}" if own else ""), watched)
            return True
        return super().eventFilter(watched, event)


class NarrowCombo(QComboBox):
    """A combo box as narrow as ``least_chars`` characters allow (its long choices never widen its dialog
    past a small screen), whose drop-down list is as wide as its longest choice, whose closed text is cut
    with "…", read whole on hover (FullTextTip)."""

    def __init__(self, parent: QWidget | None = None, *, least_chars: int = 18) -> None:
        super().__init__(parent)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(least_chars)
        self.full_text_tip = FullTextTip(self)
        self.installEventFilter(self.full_text_tip)

    def popup_width(self) -> int:
        """The drop-down list's width that shows every choice whole: the widest item as the list's own
        delegate sizes it (never less than its text and margins), a scroll bar when the list scrolls, the
        frame."""
        view = self.view()
        metrics = view.fontMetrics()
        widest = max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        width = max(view.sizeHintForColumn(0), widest + ITEM_PADDING)
        if self.count() > self.maxVisibleItems():
            width += view.verticalScrollBar().sizeHint().width()
        return width + 2 * view.frameWidth()

    def showPopup(self) -> None:
        # the list as its choices are now (they change with the language, the file, the detected encoding)
        self.view().setMinimumWidth(self.popup_width())
        super().showPopup()

    def paintEvent(self, event: QPaintEvent) -> None:
        """As QComboBox paints itself, the current choice cut with "…" where it does not fit."""
        painter = QStylePainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight,
                                                           text_room(self))  # fmt: skip
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
        painter.end()

    def elided_text(self) -> str:
        """The current choice as the closed box shows it."""
        return self.fontMetrics().elidedText(self.currentText(), Qt.TextElideMode.ElideRight, text_room(self))
