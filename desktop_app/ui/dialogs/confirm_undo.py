"""The question before an undo: which import, how many rows go and how many get their old values back."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_app.domain.task import TaskRecord
from desktop_app.ui.task_model import shown_file_name


class UndoQuestion(QMessageBox):
    """Window-modal (open it with open()); "Keep the rows" is the default and the Escape answer.
    `undo_button` is the one that undoes."""

    def __init__(self, record: TaskRecord, parent: QWidget | None = None) -> None:
        super().__init__(QMessageBox.Icon.Question, "", "", QMessageBox.StandardButton.NoButton, parent)
        self.record = record
        name = shown_file_name(record)
        text = self.tr("Undo import %1 (%2)?") if name else self.tr("Undo import %1?")
        self.setWindowTitle(self.tr("Undo this import?"))
        self.setText(text.replace("%1", record.task_no).replace("%2", name))
        self.setInformativeText(self.what_happens(record))
        self.undo_button = self.addButton(self.tr("&Undo the import"), QMessageBox.ButtonRole.DestructiveRole)
        self.keep_button = self.addButton(self.tr("&Keep the rows"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.keep_button)
        self.setEscapeButton(self.keep_button)

    def what_happens(self, record: TaskRecord) -> str:
        """'1,200 rows it added will be removed and 300 rows it changed get their old values back …'."""
        counts = record.to_json()
        inserted, updated = int(counts.get("inserted_count") or 0), int(counts.get("updated_count") or 0)
        parts = []
        deleted = int(counts.get("deleted_count") or 0)
        # "1 row", never "1 rows": each sentence has its own words for one
        if inserted == 1:
            parts.append(self.tr("The 1 row it added will be removed."))
        elif inserted:
            parts.append(self.tr("%1 rows it added will be removed.").replace("%1", f"{inserted:,}"))
        if updated == 1:
            parts.append(self.tr("The 1 row it changed gets its old values back."))
        elif updated:
            parts.append(self.tr("%1 rows it changed get their old values back.").replace("%1", f"{updated:,}"))
        if deleted == 1:
            parts.append(self.tr("The 1 row it deleted will be put back."))
        elif deleted:
            parts.append(self.tr("%1 rows it deleted will be put back.").replace("%1", f"{deleted:,}"))
        parts.append(self.tr("A row changed since the import (by hand or by a later import) is kept as it is and "
                             "listed in the undo's error file."))  # fmt: skip
        return " ".join(parts).replace("。 ", "。")  # Chinese sentences run on without a space
