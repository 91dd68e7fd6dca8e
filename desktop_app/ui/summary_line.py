"""The line under the task list: what happened to the selected task and why, without hovering."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from desktop_app.domain.task import TaskRecord
from desktop_app.domain.task_words import over_limit_check
from desktop_app.tasks.kinds import TaskKind, TaskKinds
from desktop_app.ui.task_model import shown_file_name, shown_stage
from desktop_app.ui.texts import shown_error


def summary_html(record: TaskRecord, kind: TaskKind, speed: str | None = None) -> str:
    """ "<b>T…</b> customers.csv: Failed: 10 of 20 imported, 10 rows with errors. 10 rows failed (…)"."""
    stage = shown_stage(record, kind)
    parts = [stage] if stage else []
    if speed and record.status.is_active:
        parts.append(speed)
    # a check over the failed-rows limit: its stage says so already (seen: "… so the import would count as
    # failed — 5 rows would fail (50.0%, above 30%): the import would count as failed; …"); Details has both
    reason = "" if over_limit_check(record) else shown_error(record)
    if reason and reason not in stage:
        parts.append(reason)
    name = shown_file_name(record)
    head = f"<b>{html.escape(record.task_no)}</b>" + (f" {html.escape(name)}" if name else "")
    return head + (": " + html.escape(" — ".join(parts)) if parts else "")


class SummaryLine(QLabel):
    """Rich text, wrapped, selectable; empty while no task is selected."""

    def __init__(self, kinds: TaskKinds, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kinds = kinds
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.setContentsMargins(4, 2, 4, 2)

    def show_record(self, record: TaskRecord | None, speed: str | None = None) -> None:
        self.setText(summary_html(record, self._kinds.of(record), speed) if record is not None else "")

    def plain_text(self) -> str:
        """The line without its markup (for tests and the accessible description)."""
        return html.unescape(self.text().replace("<b>", "").replace("</b>", ""))
