"""The preview's choices laid out as the file needs them: no line left half empty where a CSV's options would be."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel, QWidget

from desktop_app.ui.dialogs.preview import PreviewDialog
from tests.gui.test_window_queue import open_preview

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"


def choice_lines(dialog: PreviewDialog) -> dict[int, list[QWidget]]:
    """The choices on screen, by the line they sit on (the top of the line, in the dialog)."""
    c, p = dialog.choices, dialog.profile_choice
    widgets = [dialog.type_box, p.box, c.sheet_box, c.encoding_box, c.delimiter_box, dialog.mode_box,
               dialog.blank_box, c.date_order_box, c.decimal_comma_box]  # fmt: skip
    lines: dict[int, list[QWidget]] = {}
    for widget in widgets:
        if widget.isVisible():
            top = widget.mapTo(dialog, QPoint(0, 0)).y()
            line = next((y for y in lines if abs(y - top) < widget.height() // 2), top)
            lines.setdefault(line, []).append(widget)
    return lines


def left_of(widget: QWidget, dialog: PreviewDialog) -> int:
    """Where a choice's line starts: its label's left edge, else its own."""
    labels = [label for label in dialog.findChildren(QLabel) if label.buddy() is widget and label.isVisible()]
    return min(w.mapTo(dialog, QPoint(0, 0)).x() for w in [widget, *labels])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_workbooks_preview_has_no_line_left_empty_where_the_csv_options_would_be(
    qtbot: Any, make_desk: Any, lang: str
) -> None:
    """Seen by a clerk: an .xlsx file's preview left the encoding's place empty, the decimal comma alone on
    the right of a line. A workbook's choices close up: each line starts at the left like the first."""
    desk = make_desk()
    if lang != "en":
        desk.set_language(lang)
    dialog = open_preview(qtbot, desk.window, SAMPLES / "customers.xlsx")
    qtbot.wait(50)
    c = dialog.choices
    assert c.encoding_box.isHidden() and c.delimiter_box.isHidden(), "no encoding or separator for a workbook"
    lines = choice_lines(dialog)
    margin = left_of(dialog.type_box, dialog)
    assert len(lines) == 3, lines  # type | mode, profile | blank cells, then the decimal comma
    for top, widgets in lines.items():
        assert min(left_of(w, dialog) for w in widgets) == margin, (top, [type(w).__name__ for w in widgets])


def test_a_csvs_preview_keeps_its_encoding_and_separator_beside_the_rows_choices(qtbot: Any, make_desk: Any) -> None:
    dialog = open_preview(qtbot, make_desk().window, SAMPLES / "customers_clean.csv")
    qtbot.wait(50)
    c = dialog.choices
    assert c.encoding_box.isVisible() and c.delimiter_box.isVisible()
    lines = choice_lines(dialog)
    assert len(lines) == 4, "type, profile, encoding, separator on the left; the rows' choices beside them"
    margin = left_of(dialog.type_box, dialog)
    assert all(min(left_of(w, dialog) for w in widgets) == margin for widgets in lines.values())
