"""The task list's painters: a progress bar's percentage reads whole in a selected row, wherever the fill ends."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView

from desktop_app.ui.delegates import ProgressDelegate

CELL = QRect(0, 0, 80, 26)
TEXT = QColor("#d00000")  # a text colour no other part of the cell is painted in


def blank() -> QImage:
    image = QImage(CELL.size(), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    return image


def painted(view: QTableView, percent: int) -> QImage:
    """The progress cell of a selected row as the list paints it, alone on an image."""
    model = QStandardItemModel(1, 1, view)
    item = QStandardItem()
    item.setData(percent, Qt.ItemDataRole.DisplayRole)
    model.setItem(0, 0, item)
    view.setModel(model)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.widget = view
    option.rect = CELL
    option.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Selected
    option.palette.setColor(QPalette.ColorRole.Text, TEXT)
    image = blank()
    painter = QPainter(image)
    ProgressDelegate(view).paint(painter, option, model.index(0, 0))
    painter.end()
    return image


def text_coloured(image: QImage) -> int:
    """How many pixels are (nearly) the text colour: the glyphs drawn in it."""
    return sum(1 for y in range(image.height()) for x in range(image.width())
               if (c := image.pixelColor(x, y)).red() > 150 and c.green() < 90 and c.blue() < 90)  # fmt: skip


@pytest.mark.parametrize("percent", [0, 34, 38, 42, 50, 100])
def test_the_percentage_reads_whole_over_the_fill_in_a_selected_row(qtbot: Any, percent: int) -> None:
    """Seen by a clerk: in a selected row the fill's edge hid the first digit ("34%" read as "4%"): the label
    was drawn in the text colour over the groove and in the highlighted text colour (the colour of the row
    around it) over the fill. Every glyph is drawn in the text colour, wherever the fill ends."""
    view = QTableView()
    qtbot.addWidget(view)
    alone = blank()  # the same words in the same font on white: all of their glyphs
    painter = QPainter(alone)
    painter.setFont(view.font())
    painter.setPen(TEXT)
    painter.drawText(CELL, int(Qt.AlignmentFlag.AlignCenter), f"{percent}%")
    painter.end()
    whole = text_coloured(alone)
    assert whole > 20
    assert text_coloured(painted(view, percent)) >= whole * 0.8, "about as many: the glyphs stand a pixel apart"
