"""The details panel: the fields of one task a clerk reads, and its technical details folded away."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.domain.feeds import FEED_PARAM
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.change_plan import PlanCounts
from desktop_app.imports.resume import RESUMES, stopped_early
from desktop_app.tasks.kinds import TaskKinds, Words
from desktop_app.tasks.shown_progress import file_rows, shown_progress
from desktop_app.ui.catalog import ImportCatalog
from desktop_app.ui.collapsible import Collapsible
from desktop_app.ui.dialogs.change_plan import counts_text
from desktop_app.ui.encodings import detected_words, encoding_words
from desktop_app.ui.outcomes import shown_status, stopped_at
from desktop_app.ui.task_model import format_created, format_elapsed, shown_stage, utc_now
from desktop_app.ui.texts import MAX_RETRIES, expired_text, expired_tip, format_text, retry_text, shown_error

# Rows shown only for the tasks they concern (an export's filters, an import's file and encoding; the
# error file is any task's that has one: an undo's names the rows it kept).
EXPORT_ONLY = frozenset({"export_filters", "export_format", "replaced", "result_path"})
IMPORT_ONLY = frozenset({"file", "feed", "dry_run", "encoding", "repairs", "pending_completion", "stopped", "continues",
                         "missing", "plan"})  # fmt: skip
# Rows hidden while they have nothing to say.
WHEN_SET = frozenset({"feed", "error", "warnings", "replaced", "repairs", "error_csv", "result_path", "next_run_at",
                      "started_at", "ended_at", "elapsed", "pending_completion", "encoding",
                      "summary_file", "stopped", "continues", "missing", "plan"})  # fmt: skip
EXCEL_SUFFIXES = frozenset({".xlsx", ".xls"})
LOG_HEIGHT = 180


class DetailsPanel(QWidget):
    """Read-only; shows the selected task and follows its changes. Everything scrolls inside the panel,
    so a long task never makes the window taller."""

    def __init__(self, catalog: ImportCatalog | None = None, parent: QWidget | None = None, *, kinds: TaskKinds,
                 actions: Sequence[QAction] = ()) -> None:  # fmt: skip
        """``actions``: the next steps a task may offer (import the remaining rows, ...), each a button
        shown while its action is enabled for the task shown."""
        super().__init__(parent)
        self._catalog = catalog
        self._kinds = kinds
        self.record: TaskRecord | None = None
        self._form, self._tech_form = QFormLayout(), QFormLayout()
        self._labels: dict[str, QLabel] = {}
        self._names: dict[str, QLabel] = {}
        self._form_of: dict[str, QFormLayout] = {}
        for key in FIELDS + TECHNICAL:
            self._add_row(key, self._tech_form if key in TECHNICAL else self._form)
        self.log_view = QPlainTextEdit()
        self.log_view.setReadOnly(True)
        self.log_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.log_view.setFixedHeight(LOG_HEIGHT)
        self._log_title = QLabel()
        technical_body = QWidget()
        tech_layout = QVBoxLayout(technical_body)
        tech_layout.setContentsMargins(0, 0, 0, 0)
        tech_layout.addLayout(self._tech_form)
        tech_layout.addWidget(self._log_title)
        tech_layout.addWidget(self.log_view)
        self.technical = Collapsible(technical_body)

        self.step_buttons: list[QToolButton] = []
        steps = QHBoxLayout()
        for action in actions:
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setVisible(action.isEnabled())
            action.changed.connect(lambda b=button, a=action: b.setVisible(a.isEnabled()))
            steps.addWidget(button)
            self.step_buttons.append(button)
        steps.addStretch(1)
        # no task selected: one plain line, not the fields' names beside nothing
        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        self.fields = QWidget()
        fields_layout = QVBoxLayout(self.fields)
        fields_layout.setContentsMargins(0, 0, 0, 0)
        fields_layout.addLayout(steps)  # first: at 700 px of height a next step is seen without scrolling
        fields_layout.addLayout(self._form)
        fields_layout.addWidget(self.technical)
        body = QWidget()
        body_layout = self._body_layout = QVBoxLayout(body)
        body_layout.addWidget(self.empty_label)
        body_layout.addWidget(self.fields)
        body_layout.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll_area)
        self.retranslate()

    def _add_row(self, key: str, form: QFormLayout) -> None:
        value = QLabel()
        value.setWordWrap(True)
        value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A long path or the parameters must not widen the panel: they wrap or are cut, with a tooltip.
        value.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        name = QLabel()
        self._labels[key], self._names[key], self._form_of[key] = value, name, form
        form.addRow(name, value)

    def empty_height(self) -> int:
        """The height the one line of no task selected takes, its margins included."""
        margins = self._body_layout.contentsMargins()
        return self.empty_label.sizeHint().height() + margins.top() + margins.bottom()

    def value(self, key: str) -> str:
        return self._labels[key].text()

    def shows(self, key: str) -> bool:
        """Whether the row of a field is shown (some rows concern only exports or only imports)."""
        return self._form_of[key].isRowVisible(self._labels[key])

    def show_record(self, record: TaskRecord | None) -> None:
        changed_task = record is None or self.record is None or record.id != self.record.id
        self.record = record
        self.empty_label.setVisible(record is None)
        self.fields.setVisible(record is not None)
        if record is None:
            for label in self._labels.values():
                label.setText("")
            self.log_view.clear()
            return
        words = self._kinds.of(record).words
        export, imported = words is Words.EXPORT, words is Words.IMPORT
        for key, label in self._labels.items():
            text = self._text(record, key)
            label.setText(text)
            label.setToolTip(text if len(text) > 40 else "")
            shown = (key not in EXPORT_ONLY or export) and (key not in IMPORT_ONLY or imported)
            shown = shown and (key not in WHEN_SET or text not in ("", "0"))
            self._form_of[key].setRowVisible(label, shown)
        if changed_task:
            self.log_view.setPlainText(self.tr("Loading…"))
            # another task reads from its top (its number first), not at the last one's scroll position
            self.scroll_area.verticalScrollBar().setValue(0)

    def show_log(self, task_no: str, lines: list[str]) -> None:
        if self.record is not None and self.record.task_no == task_no:
            self.log_view.setPlainText("\n".join(lines) if lines else self.tr("(no log lines)"))

    def _text(self, r: TaskRecord, key: str) -> str:
        kind = self._kinds.of(r)
        export = kind.words is Words.EXPORT
        values: dict[str, object] = {
            "task_no": r.task_no,
            "type": self._catalog.describe(r, kind) if self._catalog else r.params.get("import_type") or r.task_type,
            "export_filters": self._catalog.export_filter_text(r) if self._catalog and export else "",
            "export_format": format_text(r.params) if export else "",
            "replaced": self._replaced(r),
            # "(cancel requested)" only while the cancel has yet to land: an ended task's status says it all
            "status": shown_status(r, kind) + (self.tr(" (cancel requested)")
                                               if r.cancel_requested and r.status.is_active else ""),
            "stage": shown_stage(r, kind),
            "progress": f"{shown_progress(r, kind)}%",
            "counts": self._counts(r),
            "plan": self._plan(r),
            "pending_completion": r.pending_completion_count,
            "stopped": self._stopped(r),
            "missing": "\n".join(self._catalog.missing_reference_lines(r)) if self._catalog else "",
            "continues": self._continues(r),
            "file": r.params.get("file", ""),
            "feed": r.params.get(FEED_PARAM) or "",
            "dry_run": self.tr("yes") if r.params.get("dry_run") else self.tr("no"),
            "encoding": self._encoding(r),
            "repairs": r.params.get("repairs") or "",
            # the clean-up deleted them: a path would be a dead link
            "error_csv": (expired_text(r) if r.error_csv else None) or r.error_csv or "",
            "result_path": (expired_text(r) if r.result_path else None) or r.result_path or "",
            "error": shown_error(r),
            "warnings": "\n".join(str(w) for w in r.summary.get("warnings", [])),
            "attempts": self.tr("attempt %1, retries %2 of %4, recoveries %3")
            .replace("%1", str(r.attempt))
            .replace("%2", str(r.retries))
            .replace("%3", str(r.recoveries))
            .replace("%4", str(MAX_RETRIES)),
            "next_run_at": self._next_run(r),
            "creator": r.creator,
            "owner": r.owner or "",
            "created_at": format_created(r.created_at),
            "started_at": format_created(r.started_at),
            "ended_at": format_created(r.ended_at),
            "elapsed": format_elapsed(r.elapsed_seconds(utc_now())),
            "task_type": r.task_type,
            "summary_file": ((expired_text(r) if r.result_path else None) or r.result_path or "") if not export else "",
            "error_code": r.error_code or "",
            "params": json.dumps(r.params, ensure_ascii=False),
        }
        return str(values[key])

    @staticmethod
    def _encoding(r: TaskRecord) -> str:
        """The file's encoding in words: as forced in the preview, else as the import detected it; none
        for an Excel file."""
        if Path(str(r.params.get("file", ""))).suffix.lower() in EXCEL_SUFFIXES:
            return ""
        forced = r.params.get("encoding")
        return encoding_words(str(forced)) if forced else detected_words(r.summary.get("encoding"))

    @staticmethod
    def _next_run(r: TaskRecord) -> str:
        """ "Retry 2 of 3 at 14:05 (2025-03-01 14:05:31)" while waiting for a retry; the time alone for
        another delay; nothing once the task runs or ended."""
        if r.next_run_at is None or not r.status.is_active:
            return ""
        retry = retry_text(r)
        stamp = format_created(r.next_run_at)
        return f"{retry} ({stamp})" if retry else stamp

    def _counts(self, r: TaskRecord) -> str:
        """ "200,000 total, ..." for a task that went through its rows; "132,000 processed of 200,000, ..." for
        one that stopped before the end (a cancelled import's "共 132,000 行" read as the file's size)."""
        done, total = r.success_count + r.fail_count, file_rows(r)
        if r.status.is_final and total and done < total:
            text = self.tr("%1 processed of %2, %3 succeeded, %4 failed").replace("%1", f"{done:,}")
            text = text.replace("%2", f"{total:,}").replace("%3", f"{r.success_count:,}")
            return text.replace("%4", f"{r.fail_count:,}")
        if not r.status.is_final:  # running: what it processed so far, of the file's rows when known
            text = (self.tr("%1 processed of %2, %3 succeeded, %4 failed") if total
                    else self.tr("%1 processed so far, %3 succeeded, %4 failed"))  # fmt: skip
            text = text.replace("%1", f"{done:,}").replace("%2", f"{total or 0:,}")
            return text.replace("%3", f"{r.success_count:,}").replace("%4", f"{r.fail_count:,}")
        text = self.tr("%1 total, %2 succeeded, %3 failed").replace("%1", f"{r.total_count:,}")
        return text.replace("%2", f"{r.success_count:,}").replace("%3", f"{r.fail_count:,}")

    def _plan(self, r: TaskRecord) -> str:
        """A dry run's change plan in counts, and what became of it; an apply's dry run."""
        parts = []
        counts = r.summary.get("plan_counts")
        if isinstance(counts, dict):
            parts.append(counts_text(PlanCounts.from_json(counts)))
            if r.applied_by:
                parts.append(self.tr("Applied by task %1.").replace("%1", r.applied_by))
            elif r.summary.get("plan_discarded"):
                parts.append(self.tr("Discarded: it can no longer be applied."))
        if r.params.get("plan_of"):
            parts.append(self.tr("Applies the change plan of dry run %1.").replace("%1", str(r.params["plan_of"])))
        if len(parts) > 1 and not parts[0].endswith((".", "。")):  # the counts, a sentence of their own
            parts[0] = self.tr("%1.").replace("%1", parts[0])  # seen: "13 failing Applied by task T…"
        text = parts[0] if parts else ""
        for part in parts[1:]:  # sentences: Chinese puts no space after its full stop
            text = self.tr("%1 %2").replace("%2", part).replace("%1", text)
        return text

    def _stopped(self, r: TaskRecord) -> str:
        """Where a stopped import stopped, and what finishes it: "Stopped at 50,000 of 200,000 rows; …"."""
        if not stopped_early(r) or not r.checkpoint:
            return ""
        done, total = stopped_at(r)
        text = self.tr("Stopped at %1 of %2 rows.") if total else self.tr("Stopped after %1 rows.")
        text = text.replace("%1", f"{done:,}").replace("%2", f"{total or 0:,}")
        if not r.resumed_by:
            text += " " + self.tr("Import the remaining rows to finish the file: the rows already in stay.")
        return text

    def _continues(self, r: TaskRecord) -> str:
        parts = []
        if r.params.get(RESUMES):
            parts.append(self.tr("Imports the remaining rows of task %1.").replace("%1", str(r.params[RESUMES])))
        if r.resumed_by:
            parts.append(self.tr("Its remaining rows are imported by task %1.").replace("%1", r.resumed_by))
        return " ".join(parts)

    def _replaced(self, r: TaskRecord) -> str:
        parts = []
        if r.summary.get("expired"):
            parts.append(expired_tip(r) or "")
        replaces = r.summary.get("replaces") or []
        if replaces:
            parts.append(self.tr("Its file replaced the file of %1.").replace("%1", ", ".join(map(str, replaces))))
        return " ".join(parts)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        titles = {
            "task_no": self.tr("Task number"), "type": self.tr("Type"), "status": self.tr("Status"),
            "stage": self.tr("Stage"), "progress": self.tr("Progress"), "counts": self.tr("Rows"),
            "plan": self.tr("Change plan"),
            "export_filters": self.tr("Filters"), "export_format": self.tr("Format"),
            "replaced": self.tr("File replaced"),
            "pending_completion": self.tr("Rows awaiting references"), "file": self.tr("File"),
            "stopped": self.tr("Stopped"), "continues": self.tr("Continues"), "missing": self.tr("Not found"),
            "feed": self.tr("Feed"),
            "dry_run": self.tr("Validate only"), "encoding": self.tr("Encoding"),
            "repairs": self.tr("Repairs task"), "error_csv": self.tr("Error CSV"),
            "result_path": self.tr("Result"), "error": self.tr("Reason"), "warnings": self.tr("Warnings"),
            "attempts": self.tr("Attempts"), "next_run_at": self.tr("Next try"), "creator": self.tr("Submitted by"),
            "owner": self.tr("Run by"), "created_at": self.tr("Created"), "started_at": self.tr("Started"),
            "ended_at": self.tr("Ended"), "elapsed": self.tr("Elapsed"), "params": self.tr("Parameters"),
            "task_type": self.tr("Task type"), "error_code": self.tr("Error code"),
            "summary_file": self.tr("Summary file"),
        }  # fmt: skip
        for key, label in self._names.items():
            label.setText(titles[key] + ":")
        self.technical.set_title(self.tr("Technical details"))
        self.empty_label.setText(self.tr("Select a task to see its details."))
        self._log_title.setText(self.tr("Log of this task:"))
        self.log_view.setAccessibleName(self.tr("Log of this task"))
        self.show_record(self.record)


# What a clerk reads, in the order they read it; then what only a developer or the help desk needs.
FIELDS = (
    "task_no", "type", "status", "stage", "error", "stopped", "continues", "progress", "counts", "plan", "warnings",
    "export_filters",
    "export_format", "replaced", "pending_completion", "missing", "file", "feed", "dry_run", "encoding", "repairs",
    "error_csv",
    "result_path", "next_run_at", "creator", "created_at", "started_at", "ended_at", "elapsed",
)  # fmt: skip
TECHNICAL = ("task_type", "owner", "attempts", "error_code", "summary_file", "params")
