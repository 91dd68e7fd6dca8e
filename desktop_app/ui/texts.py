"""Translated texts shared by several views: the task statuses, retries, expired files, formats."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale

from desktop_app.domain.errors import Lang
from desktop_app.domain.retry import BASE_DELAYS
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.domain.task_words import check_reason, status_word
from desktop_app.ui.encodings import encoding_words

MAX_RETRIES = len(BASE_DELAYS)  # a transient error is retried this often, then the task fails


def status_text(status: TaskStatus) -> str:
    """The status in the window's language: the command line's words too (domain/task_words), one table."""
    return status_word(status, window_lang())


def window_lang() -> Lang:
    """The language the window shows now. Translations.switch() sets Qt's default locale as it swaps the
    translators, so a task's stage and error (rendered from their codes) follow every tr() text around
    them, older tasks included, from the moment of a switch."""
    return "zh" if QLocale().language() == QLocale.Language.Chinese else "en"


def shown_error(record: TaskRecord) -> str:
    """A task's error message in the window's language ("" without one): a check over the failed-rows limit says
    what the import would do (domain/task_words.check_reason), as the command line's line does."""
    lang = window_lang()
    return check_reason(record, lang) or record.error_in(lang) or ""


def without_mnemonic(text: str) -> str:
    """A menu text for a toolbar or a list: "导出(&X)…" -> "导出…", "E&xport…" -> "Export…"."""
    return re.sub(r"\(&[^)]\)", "", text).replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def local_time(stamp: dt.datetime, fmt: str = "%H:%M") -> str:
    """A database stamp (UTC without a zone) in the clerk's local time."""
    return stamp.replace(tzinfo=dt.UTC).astimezone().strftime(fmt)


def retry_text(record: TaskRecord) -> str | None:
    """ "Retry 2 of 3 at 14:05" for a task waiting for a retry after a transient error, else None."""
    if record.status is not TaskStatus.PENDING or record.retries < 1 or record.next_run_at is None:
        return None
    return (
        QCoreApplication.translate("TaskTexts", "Retry %1 of %2 at %3")
        .replace("%1", str(record.retries))
        .replace("%2", str(MAX_RETRIES))
        .replace("%3", local_time(record.next_run_at))
    )


def expired_text(record: TaskRecord) -> str | None:
    """ "Replaced by T…" for an export whose file a newer export replaced, "Expired" for a task whose
    files the retention clean-up deleted; None while its files are there."""
    if not record.summary.get("expired"):
        return None
    replaced_by = record.replaced_by
    if replaced_by:
        return QCoreApplication.translate("TaskTexts", "Replaced by %1").replace("%1", replaced_by)
    return QCoreApplication.translate("TaskTexts", "Expired: its files were deleted")


def expired_tip(record: TaskRecord) -> str | None:
    """The longer explanation of expired_text(), for a tooltip."""
    if not record.summary.get("expired"):
        return None
    replaced_by = record.replaced_by
    if replaced_by:
        return QCoreApplication.translate(
            "TaskTexts", "A newer export with the same filters (task %1) replaced this file; it was deleted."
        ).replace("%1", replaced_by)
    return QCoreApplication.translate("TaskTexts", "The retention clean-up deleted this task's files.")


def format_text(params: dict[str, Any]) -> str:
    """An export's format as the clerk reads it: "CSV, UTF-8 with BOM (Excel)" or "XLSX"."""
    fmt = str(params.get("format", "csv"))
    if fmt == "csv":
        return f"CSV, {encoding_words(str(params.get('encoding', 'utf-8-sig')))}"
    return fmt.upper()


TASK_NO_PATTERN = r"T\d{6,8}-[0-9A-Z]{4,6}"  # a task number as the window's texts name it
_TASK_NUMBER = re.compile(TASK_NO_PATTERN)


def task_numbers_whole(text: str) -> str:
    """A plain text as rich text (for a label set to Qt.TextFormat.RichText) whose task numbers never break at
    their hyphen: a message box wrapped "as task T261207-" / "NYJZN0" (seen at 1400x900). Not a word joiner in
    the text: a number copied from the box must paste into Find as it is."""
    escaped = html.escape(text, quote=False)
    return _TASK_NUMBER.sub(lambda m: f'<span style="white-space:nowrap">{m.group(0)}</span>', escaped)
