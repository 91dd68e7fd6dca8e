"""The preview's two tables: the first rows with each bad cell marked and its reason as a tooltip, and
the headers with what each fills (an ignored one says why, and which header already fills its column)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

from desktop_app.domain.errors import Lang
from desktop_app.imports.file_preview import SampleCheck
from desktop_app.imports.header import HeaderMapping
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.readers import SourceRow, cell_to_text

BAD = QColor("#ffcdd2")
RED = QColor("#c62828")
GREY = QColor("#8a8a8a")
AMBER = QColor("#9a6700")


def fill_rows(table: QTableWidget, header: Sequence[str], rows: Sequence[SourceRow]) -> None:
    """The rows as they will be read, numbered as Excel shows them."""
    table.clear()
    table.setColumnCount(len(header))
    table.setRowCount(len(rows))
    table.setHorizontalHeaderLabels(list(header))
    table.setVerticalHeaderLabels([str(row.row_number) for row in rows])
    for r, row in enumerate(rows):
        for c in range(len(header)):
            value = row.cells[c] if c < len(row.cells) else None
            table.setItem(r, c, QTableWidgetItem(cell_to_text(value)))
    table.resizeColumnsToContents()


def mark_rows(table: QTableWidget, check: SampleCheck | None, itype: ImportType | None, lang: Lang) -> int:
    """Mark the cells the validator refuses (reason as tooltip) and the rows refused whole; the count of
    rows with a problem."""
    by_number: dict[str, int] = {}
    for r in range(table.rowCount()):
        head = table.verticalHeaderItem(r)
        if head is not None:
            by_number[head.text()] = r
            head.setForeground(QBrush())
            head.setToolTip("")
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is not None:
                item.setBackground(QBrush())
                item.setToolTip("")
    if check is None or itype is None:
        return 0
    for problem in check.rows:
        found = by_number.get(str(problem.row_number))
        if found is None:
            continue
        r = found
        for c, errors in problem.cells.items():
            item = table.item(r, c)
            if item is not None:
                item.setBackground(BAD)
                item.setToolTip("\n".join(e.message(itype, lang) for e in errors))
        head = table.verticalHeaderItem(r)
        if head is not None:
            head.setForeground(RED)
            reasons = [e.message(itype, lang) for e in problem.whole_row]
            head.setToolTip(
                "\n".join(reasons)
                or QCoreApplication.translate("PreviewDialog", "This row has problems: hover its red cells")
            )
        if problem.whole_row:
            for c in range(table.columnCount()):
                item = table.item(r, c)
                if item is not None and c not in problem.cells:
                    item.setBackground(BAD)
                    item.setToolTip("\n".join(e.message(itype, lang) for e in problem.whole_row))
    return len(check.rows)


def mark_mapping(
    table: QTableWidget, header: Sequence[str], mapping: HeaderMapping, labels: Mapping[str, str], normal: QColor
) -> list[str]:
    """Grey the headers that fill nothing, each with why; the notes for headers whose column another
    header already fills (shown under the table, not only on hover)."""
    used = set(mapping.index_by_key.values())
    key_at = {index: key for key, index in mapping.index_by_key.items()}
    notes: list[str] = []
    for i in range(table.rowCount()):
        item = table.item(i, 0)
        if item is None:
            continue
        box = table.cellWidget(i, 1)
        taken = mapping.taken_by.get(i)
        if i in used:
            item.setForeground(QBrush(normal))
            tip = QCoreApplication.translate("PreviewDialog", "Fills the column %1").replace(
                "%1", labels.get(key_at[i], key_at[i])
            )
        elif taken is not None:
            item.setForeground(QBrush(AMBER))
            column = labels.get(key_at.get(taken, ""), "")
            tip = (QCoreApplication.translate("PreviewDialog", "Not used: the header “%1” already fills the column %2")
                   .replace("%1", header[taken]).replace("%2", column))  # fmt: skip
            notes.append(QCoreApplication.translate("PreviewDialog", "“%1” is not used: the header “%2” already "
                                                    "fills the column %3")
                         .replace("%1", header[i]).replace("%2", header[taken]).replace("%3", column))  # fmt: skip
        else:
            item.setForeground(QBrush(GREY))
            tip = QCoreApplication.translate("PreviewDialog", "Ignored: no column of this type")
        item.setToolTip(tip)
        if box is not None:
            box.setToolTip(tip)
    return notes
