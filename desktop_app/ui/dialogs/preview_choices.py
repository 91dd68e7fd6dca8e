"""The preview's choices about the file itself: sheet, encoding, delimiter, day/month order, decimal
comma and a raised size or row limit, each offered only where the file needs it, in the clerk's words."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QCheckBox, QLabel, QWidget

from desktop_app.imports.file_preview import FileSample
from desktop_app.imports.readers import DELIMITERS, CsvDialect
from desktop_app.imports.regional import DateOrder, DayMonthEvidence
from desktop_app.ui.encodings import detected_words, encoding_words
from desktop_app.ui.full_text_tip import NarrowCombo

# The codecs offered by name (gb18030 is what gbk is read as: one entry, in the clerk's words)
ENCODINGS = ["utf-8", "utf-8-sig", "gbk", "big5", "utf-16", "shift_jis", "cp1252", "latin-1"]


class FileChoices(QObject):
    """The widgets the dialog lays out; what the clerk chose, as task parameters.

    Signals:
        reread(): the file must be read again (another encoding, delimiter or sheet).
        changed(): the rows must be checked again (the date order, the decimal mark, the limit).
    """

    reread = Signal()
    changed = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.sheet_box = NarrowCombo()
        self.encoding_box = NarrowCombo()
        self.delimiter_box = NarrowCombo()
        self.date_order_box = NarrowCombo()
        self.decimal_comma_box = QCheckBox()
        self.raise_limit_box = QCheckBox()
        self.raise_rows_box = QCheckBox()
        self.sheet_label, self.encoding_label = QLabel(), QLabel()
        self.delimiter_label, self.date_order_label = QLabel(), QLabel()
        for label, box in ((self.sheet_label, self.sheet_box), (self.encoding_label, self.encoding_box),
                           (self.delimiter_label, self.delimiter_box),
                           (self.date_order_label, self.date_order_box)):  # fmt: skip
            label.setBuddy(box)
        self._detected: str | None = None
        self._auto: CsvDialect | None = None
        self._sample: FileSample | None = None
        self._evidence: DayMonthEvidence | None = None
        self._size_mb = 0
        self._rows_needed = 0
        self.encoding_box.activated.connect(lambda _i: self.reread.emit())
        self.delimiter_box.activated.connect(lambda _i: self.reread.emit())
        self.sheet_box.activated.connect(lambda _i: self.reread.emit())
        self.date_order_box.activated.connect(lambda _i: self.changed.emit())
        self.decimal_comma_box.toggled.connect(lambda _on: self.changed.emit())
        self.raise_limit_box.toggled.connect(lambda _on: self.changed.emit())
        self.raise_rows_box.toggled.connect(lambda _on: self.changed.emit())
        self.show_sample(None, over_limit=False, numbers=False)
        self.show_rows_needed(0)
        self.show_day_month(None)

    # --- what the clerk chose ------------------------------------------------------------

    def encoding(self) -> str | None:
        value = self.encoding_box.currentData()
        return str(value) if value else None

    def delimiter(self) -> str | None:
        value = self.delimiter_box.currentData()
        return str(value) if value else None

    def sheet(self) -> str | None:
        value = self.sheet_box.currentData()
        return str(value) if value and self.sheet_box.currentIndex() > 0 else None  # the first: the default

    def date_order(self) -> DateOrder | None:
        value = self.date_order_box.currentData()
        return DateOrder(value) if value and not self.date_order_box.isHidden() else None

    def decimal_comma(self) -> bool:
        return self.decimal_comma_box.isChecked() and not self.decimal_comma_box.isHidden()

    def raised_mb(self) -> int | None:
        """The limit raised for this file (its size, rounded up), or None."""
        return self._size_mb if self.raise_limit_box.isChecked() and not self.raise_limit_box.isHidden() else None

    def raised_rows(self) -> int | None:
        """The row limit raised for this import (the rows the file has, or may have), or None."""
        return self._rows_needed if self.raise_rows_box.isChecked() and not self.raise_rows_box.isHidden() else None

    def date_order_missing(self) -> bool:
        """The file's day/month dates read both ways and the clerk has not said which."""
        return (not self.date_order_box.isHidden() and self._evidence is not None and self._evidence.must_ask
                and self.date_order_box.currentData() is None)  # fmt: skip

    # --- the file as read ----------------------------------------------------------------

    def show_sample(self, sample: FileSample | None, *, over_limit: bool, numbers: bool) -> None:
        """Offer what this file needs: encoding and delimiter for a CSV, sheets for a workbook of several,
        a raised limit for a file over it, the decimal mark when the type has numbers."""
        self._sample = sample
        csv_file = sample is not None and sample.format == "csv"
        if sample is not None and self.encoding() is None:
            self._detected = sample.encoding
        if sample is not None and self.delimiter() is None:
            self._auto = sample.dialect  # what the file says or the sniffing found, shown as "detected"
        for widget in (self.encoding_box, self.encoding_label, self.delimiter_box, self.delimiter_label):
            widget.setVisible(csv_file)
        several = sample is not None and len(sample.sheets) > 1
        if several and sample is not None and self.sheet_box.count() != len(sample.sheets):
            self.sheet_box.clear()
            for name in sample.sheets:
                self.sheet_box.addItem(name, name)
        self.sheet_box.setVisible(several)
        self.sheet_label.setVisible(several)
        self._size_mb = sample.size_mb if sample is not None else 0
        self.raise_limit_box.setVisible(over_limit)
        self.decimal_comma_box.setVisible(numbers)
        self.retranslate()

    def show_rows_needed(self, rows: int) -> None:
        """Offer the row limit that lets the file through (0: it is within the settings' limit, or not counted)."""
        self._rows_needed = rows
        self.raise_rows_box.setVisible(rows > 0)
        self.retranslate()

    def prefer(self, order: DateOrder | None) -> None:
        """The order an earlier import of this file's rows was given (a re-import starts from it)."""
        self._preferred = order.value if order is not None else None

    _preferred: str | None = None

    def show_day_month(self, evidence: DayMonthEvidence | None) -> None:
        """Ask the day/month order when the file's dates need it; the clerk's answer is kept."""
        chosen = self.date_order_box.currentData() or self._preferred
        self._evidence = evidence
        box = self.date_order_box
        box.blockSignals(True)
        box.clear()
        if evidence is not None and evidence.ambiguous is not None:
            if evidence.must_ask:
                box.addItem("", None)  # "Choose…": nothing until the clerk says
            box.addItem("", DateOrder.DMY.value)
            box.addItem("", DateOrder.MDY.value)
            wanted = chosen or (evidence.suggested.value if evidence.suggested else None)
            box.setCurrentIndex(max(0, box.findData(wanted)))
        box.blockSignals(False)
        visible = box.count() > 0
        box.setVisible(visible)
        self.date_order_label.setVisible(visible)
        self.retranslate()

    # --- words ---------------------------------------------------------------------------

    def retranslate(self) -> None:
        self.sheet_label.setText(self.tr("&Sheet:"))
        self.encoding_label.setText(self.tr("&Encoding:"))
        self.delimiter_label.setText(self.tr("&Separator:"))
        self.date_order_label.setText(self.tr("&Dates such as %1:").replace("%1", self._example()))
        self._fill_encodings()
        self._fill_delimiters()
        self._word_date_orders()
        self.decimal_comma_box.setText(self.tr("Numbers use a decimal &comma (1 234,50 or 1.234,50)"))
        self.raise_limit_box.setText(self.tr("Raise the size &limit to %1 MB for this file").replace(
            "%1", str(self._size_mb)))  # fmt: skip
        self.raise_rows_box.setText(self.tr("Raise the ro&w limit to %1 rows for this import").replace(
            "%1", f"{self._rows_needed:,}"))  # fmt: skip
        self.sheet_box.setAccessibleName(self.tr("Sheet of the workbook"))
        self.encoding_box.setAccessibleName(self.tr("Encoding"))
        self.delimiter_box.setAccessibleName(self.tr("Separator between the fields"))
        self.date_order_box.setAccessibleName(self.tr("Order of day and month in the file's dates"))

    def _fill_encodings(self) -> None:
        box, chosen = self.encoding_box, self.encoding()
        box.blockSignals(True)
        box.clear()
        box.addItem(detected_words(self._detected), None)
        for name in ENCODINGS:
            box.addItem(encoding_words(name), name)
        box.setCurrentIndex(max(0, box.findData(chosen)))
        box.blockSignals(False)

    def delimiter_words(self, delimiter: str) -> str:
        words = {",": self.tr("Comma (,)"), ";": self.tr("Semicolon (;)"), "\t": self.tr("Tab"),
                 "|": self.tr("Vertical bar (|)")}  # fmt: skip
        return words.get(delimiter, repr(delimiter))

    def _fill_delimiters(self) -> None:
        box, chosen, auto = self.delimiter_box, self.delimiter(), self._auto
        box.blockSignals(True)
        box.clear()
        if auto is None:
            box.addItem(self.tr("Detected from the file"), None)
        elif auto.sep_line:
            words = self.delimiter_words(auto.delimiter)
            box.addItem(self.tr("As the file's sep= line says: %1").replace("%1", words), None)
        else:
            box.addItem(self.tr("Detected: %1").replace("%1", self.delimiter_words(auto.delimiter)), None)
        for delimiter in DELIMITERS:
            box.addItem(self.delimiter_words(delimiter), delimiter)
        box.setCurrentIndex(max(0, box.findData(chosen)))
        box.blockSignals(False)

    def _example(self) -> str:
        evidence = self._evidence
        return evidence.ambiguous[1] if evidence is not None and evidence.ambiguous else "03/05/2024"

    def _word_date_orders(self) -> None:
        evidence = self._evidence
        readings = evidence.readings() if evidence is not None else None
        if readings is None:
            return
        example = self._example()
        texts = {
            None: self.tr("Choose: the file does not say"),
            DateOrder.DMY.value: self.tr("Day first: %1 is %2").replace("%1", example).replace(
                "%2", readings[0].isoformat()),
            DateOrder.MDY.value: self.tr("Month first: %1 is %2").replace("%1", example).replace(
                "%2", readings[1].isoformat()),
        }  # fmt: skip
        for i in range(self.date_order_box.count()):
            self.date_order_box.setItemText(i, texts[self.date_order_box.itemData(i)])

    def date_order_note(self) -> str:
        """Why the order is asked, or how the file shows it (an example with its row)."""
        evidence = self._evidence
        if evidence is None or evidence.ambiguous is None or self.date_order_box.isHidden():
            return ""
        row, text = evidence.ambiguous
        if evidence.must_ask:
            return self.tr("Row %1 has the date %2, which can be read day first or month first, and the file "
                           "does not show which: choose the order of its dates.").replace("%1", str(row)).replace(
                "%2", text)  # fmt: skip
        shown = evidence.day_first or evidence.month_first
        assert shown is not None
        return self.tr("Dates such as %1 are read %2, as row %3 (%4) shows.").replace("%1", text).replace(
            "%2", self.tr("day first") if evidence.day_first else self.tr("month first")).replace(
            "%3", str(shown[0])).replace("%4", shown[1])  # fmt: skip
