"""The preview's two tables: the first rows with each bad cell marked and its reason as a tooltip (and what
the mode does with a row already in the table), and the headers with what each fills (an ignored one says
why, and which header already fills its column)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

from desktop_app.domain.errors import Lang
from desktop_app.imports.file_preview import RowProblems, SampleCheck, TableVerdict
from desktop_app.imports.header import HeaderMapping
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.readers import SourceRow, cell_to_text
from desktop_app.imports.row_plans import Action

BAD = QColor("#ffcdd2")
WAIT = QColor("#fff4d6")  # a row imported that waits for a name: the notices' warning tone
RED = QColor("#c62828")
GREY = QColor("#8a8a8a")
AMBER = QColor("#9a6700")
BLUE = QColor("#1565c0")


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
    """Mark the cells the validator refuses (reason as tooltip) and the rows refused whole, and in amber the
    cells naming a reference the table lacks (their rows wait for the name); the count of rows with a problem."""
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
    # a row that waits for a name is marked as a failing one, in amber: it is imported, then waits
    wait = QCoreApplication.translate("PreviewDialog", "This row will wait until the name is added")
    for problems, background, colour, why in ((check.waiting, WAIT, AMBER, wait), (check.rows, BAD, RED, "")):
        for problem in problems:
            found = by_number.get(str(problem.row_number))
            if found is not None:
                _mark(table, found, problem, itype, lang, (background, colour, why))
    return len(check.rows)


def _mark(table: QTableWidget, r: int, problem: RowProblems, itype: ImportType, lang: Lang,
          marks: tuple[QColor, QColor, str]) -> None:  # fmt: skip
    """One row's cells marked with their reasons (``why`` after them), the whole row's problems on every other
    cell, its number in ``colour``."""
    background, colour, why = marks
    for c, errors in problem.cells.items():
        item = table.item(r, c)
        if item is not None:
            item.setBackground(background)
            item.setToolTip("\n".join([*(e.message(itype, lang) for e in errors), *([why] if why else [])]))
    head = table.verticalHeaderItem(r)
    if head is not None:
        head.setForeground(colour)
        reasons = [e.message(itype, lang) for e in problem.whole_row]
        head.setToolTip("\n".join(reasons) or why or QCoreApplication.translate(
            "PreviewDialog", "This row has problems: hover its red cells"))  # fmt: skip
    if problem.whole_row:
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is not None and c not in problem.cells:
                item.setBackground(background)
                item.setToolTip("\n".join(e.message(itype, lang) for e in problem.whole_row))


def mark_outcomes(table: QTableWidget, verdict: TableVerdict | None) -> None:
    """Say on each row that passes what the mode does with it for its key (a row that fails is marked by
    mark_rows): a skipped or unchanged row greyed, one that updates the stored row in blue, one whose stored
    row will be deleted in red and struck through, each with why on its row number and its cells."""
    for r in range(table.rowCount()):
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is not None:
                item.setForeground(QBrush())
                if item.font().strikeOut():  # struck through for a delete, another mode chosen since
                    font = item.font()
                    font.setStrikeOut(False)
                    item.setFont(font)
    if verdict is None:
        return
    said = {
        Action.SKIP.value: (GREY, QCoreApplication.translate("PreviewDialog", "Already in the table: this row "
                                                             "will be skipped")),
        Action.UPDATE.value: (BLUE, QCoreApplication.translate("PreviewDialog", "Already in the table: this row "
                                                               "will update it")),
        Action.UNCHANGED.value: (GREY, QCoreApplication.translate("PreviewDialog", "Already in the table with "
                                                                  "these values: nothing will change")),
        Action.DELETE.value: (RED, QCoreApplication.translate("PreviewDialog", "In the table: this row will be "
                                                              "deleted")),
    }  # fmt: skip
    for r in range(table.rowCount()):
        head = table.verticalHeaderItem(r)
        if head is None or not head.text().isdigit():
            continue
        outcome = verdict.outcomes.get(int(head.text()))
        if outcome not in said:
            continue
        colour, tip = said[outcome]
        head.setForeground(colour)
        head.setToolTip(tip)
        # a row to be deleted is struck through: red alone read like a failing row's (seen in a screenshot)
        gone = outcome == Action.DELETE.value
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is not None:
                item.setForeground(colour)
                item.setToolTip(tip)
                if item.font().strikeOut() != gone:
                    font = item.font()
                    font.setStrikeOut(gone)
                    item.setFont(font)


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
        elif i < len(header) and header[i] in mapping.ignored:
            item.setForeground(QBrush(GREY))
            tip = QCoreApplication.translate("PreviewDialog", "Ignored: a delete reads only the key's columns")
        else:
            item.setForeground(QBrush(GREY))
            tip = QCoreApplication.translate("PreviewDialog", "Ignored: no column of this type")
        item.setToolTip(tip)
        if box is not None:
            box.setToolTip(tip)
    return notes
