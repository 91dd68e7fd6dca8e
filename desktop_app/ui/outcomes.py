"""How a task ended, in words: "Failed: 10 of 20 imported, 10 rows with errors", never a bare "Failed"."""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from PySide6.QtCore import QCoreApplication

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskLink, TaskRecord
from desktop_app.domain.task_words import LineWord, line_word, task_check_words
from desktop_app.tasks.kinds import TaskKind, Words
from desktop_app.tasks.shown_progress import file_rows
from desktop_app.ui.texts import TASK_NO_PATTERN, shown_error, status_text, window_lang


class Tone(StrEnum):
    """The colour a status is painted in: what it means to the clerk, not the engine's status."""

    PENDING = "pending"
    RUNNING = "running"
    GOOD = "good"
    WARNING = "warning"
    BAD = "bad"
    NEUTRAL = "neutral"


_TONES = {
    TaskStatus.PENDING: Tone.PENDING,
    TaskStatus.RUNNING: Tone.RUNNING,
    TaskStatus.SUCCEEDED: Tone.GOOD,
    TaskStatus.PARTIALLY_SUCCEEDED: Tone.WARNING,
    TaskStatus.FAILED: Tone.BAD,
    TaskStatus.CANCELLED: Tone.NEUTRAL,
}


def _n(value: int) -> str:
    return f"{value:,}"


def shown_total(record: TaskRecord) -> int | None:
    """The "of N" a clerk reads beside the rows processed: the file's rows when known; an ended task's
    total; None while a task runs without knowing its file's size (its total_count is then what it
    processed so far: "26,000 / 26,000" at 21 % read as a finished file, seen by a clerk)."""
    return file_rows(record) or (record.total_count if record.status.is_final else None)


def stopped_at(record: TaskRecord) -> tuple[int, int | None]:
    """(rows processed, rows in the file) where an import stopped, from its last committed checkpoint
    (its counts are the whole chain's for a resumed import); the task's own counts without one."""
    counted = (record.checkpoint or {}).get("total")
    done = counted if isinstance(counted, int) else record.success_count + record.fail_count
    return done, file_rows(record)


def value_fix(record: TaskRecord, kind: TaskKind) -> bool:
    """A completion task that fixes an import's values (its params map them: issue 25), not its references."""
    return kind.words is Words.COMPLETION and bool(record.params.get("values"))


def completed_nothing(record: TaskRecord, kind: TaskKind) -> bool:
    """A completion that "succeeded" without completing one of the references (or fixing one of the rows)
    it was asked for."""
    return (kind.words is Words.COMPLETION and record.status is TaskStatus.SUCCEEDED
            and record.total_count > 0 and record.success_count == 0)  # fmt: skip


def undone(record: TaskRecord, kind: TaskKind) -> bool:
    """An import an undo took back: its rows are no longer as it left them, whatever its status says."""
    return kind.undone(record)


def fixed_since(record: TaskRecord, kind: TaskKind) -> bool:
    """An import failed by its rows (too many bad ones: no error code) whose bad rows were all put in since by
    a value fix: every row is in, though its status stays the one it ended with."""
    return (kind.words is Words.IMPORT and record.status is TaskStatus.FAILED and not record.error_code
            and not record.params.get("dry_run") and record.fail_count == 0 and _fixed(record))  # fmt: skip


def _fixed(record: TaskRecord) -> bool:
    """Rows a value fix put in (its summary's fixed_rows, summed over the fixes)."""
    return int(record.summary.get("fixed_rows") or 0) > 0


def checked(record: TaskRecord, kind: TaskKind) -> bool:
    """A validate-only import that went through its rows: it wrote nothing, whatever its status says."""
    return kind.words is Words.IMPORT and record.checked_only


def tone(record: TaskRecord, kind: TaskKind) -> Tone:
    if fixed_since(record, kind):
        return Tone.GOOD
    if checked(record, kind):  # amber when rows would fail: nothing broke, nothing was written
        return Tone.WARNING if record.fail_count else Tone.GOOD
    if undone(record, kind):
        return Tone.NEUTRAL  # not a green success any more (seen: an undone import read "Succeeded" in green)
    return Tone.WARNING if completed_nothing(record, kind) else _TONES[record.status]


def shown_status(record: TaskRecord, kind: TaskKind) -> str:
    """The status cell: the status's word, except where that word would mislead."""
    if completed_nothing(record, kind):
        if value_fix(record, kind):
            return QCoreApplication.translate("Outcomes", "Nothing fixed")
        return QCoreApplication.translate("Outcomes", "Nothing completed")
    if checked(record, kind):  # seen: a validation read "Partially succeeded", as if rows went in
        return line_word(LineWord.CHECKED, window_lang())
    if undone(record, kind):  # the command line's word too (domain/task_words.py)
        return line_word(LineWord.UNDONE, window_lang())
    if fixed_since(record, kind):  # seen: a red "Failed" with every row in after "Fix values"
        return QCoreApplication.translate("Outcomes", "Fixed")
    return status_text(record.status)


def status_relabelled(record: TaskRecord, kind: TaskKind) -> bool:
    """Whether the status cell shows a word of its own (shown_status), not the status's: a check, an undone
    import, a fixed one, a completion that completed nothing. The list's status filters go by the cell."""
    return completed_nothing(record, kind) or checked(record, kind) or undone(record, kind) or fixed_since(record, kind)


def status_words() -> list[str]:
    """Every word the status column can show, in today's language."""
    return [status_text(s) for s in TaskStatus] + [QCoreApplication.translate("Outcomes", "Nothing completed"),
                                                   QCoreApplication.translate("Outcomes", "Nothing fixed"),
                                                   line_word(LineWord.UNDONE, window_lang()),
                                                   QCoreApplication.translate("Outcomes", "Fixed"),
                                                   line_word(LineWord.CHECKED, window_lang())]


def outcome_text(record: TaskRecord, kind: TaskKind) -> str | None:
    """The words for an ended task (its stage cell, the notices), in its kind's words; None while it is active."""
    if record.status.is_active:
        return None
    if kind.words is Words.IMPORT:
        lang = window_lang()
        checks = checked(record, kind)
        # a check's rows that would wait for names and the limit it went over are in its words
        outcome = task_check_words(record, lang) if checks else _import_outcome(record)
        waiting = record.rows_waiting_for_names
        if outcome is None or not waiting:
            return outcome
        # rows in with a name their reference table lacks: the list says so, not only the notice (seen: "Done").
        # The check's and the waiting rows' words are the command line's (domain/task_words.py): one table
        return line_word(LineWord.WITH_WAITING, lang, stage=outcome,
                         waiting=line_word(LineWord.WAITING, lang, rows=waiting))  # fmt: skip
    if kind.words is Words.UNDO and record.status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED):
        return _undo_outcome(record)
    if value_fix(record, kind) and record.status is TaskStatus.SUCCEEDED:
        return _value_fix_outcome(record)
    if kind.words is Words.COMPLETION and record.status is TaskStatus.SUCCEEDED:
        if completed_nothing(record, kind):
            return (QCoreApplication.translate("Outcomes", "Nothing completed: %1 references are still not found")
                    .replace("%1", _n(record.total_count)))  # fmt: skip
        return (QCoreApplication.translate("Outcomes", "Completed %1 of %2 references")
                .replace("%1", _n(record.success_count)).replace("%2", _n(record.total_count)))  # fmt: skip
    if kind.words is Words.EXPORT and record.status is TaskStatus.SUCCEEDED:
        if not record.total_count and record.params.get("filters"):
            # seen: part of a department's name exported nothing, "Done: 0 rows exported" and no word of why
            return QCoreApplication.translate("Outcomes",
                                              "Done: no row matches the filters (a text must match the whole value)")
        if record.total_count == 1:  # "1 row", never "1 rows"
            return QCoreApplication.translate("Outcomes", "Done: 1 row exported")
        return QCoreApplication.translate("Outcomes", "Done: %1 rows exported").replace("%1", _n(record.total_count))
    if record.status is TaskStatus.FAILED and record.error_msg:
        return QCoreApplication.translate("Outcomes", "Failed: %1").replace("%1", shown_error(record))
    return None


def _value_fix_outcome(r: TaskRecord) -> str:
    """ "Fixed values: 3 rows of T… imported", and the rows the database refused again."""
    source = str(r.params.get("task_no") or "")
    fixed, refused = r.success_count, r.fail_count
    if not r.total_count:
        text = QCoreApplication.translate("Outcomes", "Nothing fixed: no row of %2 failed only for these values")
    elif not fixed:
        text = QCoreApplication.translate("Outcomes", "Nothing fixed: %3 rows of %2 were refused again")
    elif refused:
        text = (
            QCoreApplication.translate("Outcomes", "Fixed values: 1 row of %2 imported, %3 refused again")
            if fixed == 1
            else QCoreApplication.translate("Outcomes", "Fixed values: %1 rows of %2 imported, %3 refused again")
        )
    else:
        text = (QCoreApplication.translate("Outcomes", "Fixed values: 1 row of %2 imported") if fixed == 1
                else QCoreApplication.translate("Outcomes", "Fixed values: %1 rows of %2 imported"))  # fmt: skip
    return text.replace("%1", _n(fixed)).replace("%2", source).replace("%3", _n(refused))


def _delete_outcome(status: TaskStatus, *, one: bool, deleted_one: bool = False) -> str | None:
    """A delete's words where an import's would say "imported" of rows it deleted."""
    if status is TaskStatus.SUCCEEDED:
        return (QCoreApplication.translate("Outcomes", "Done: 1 row deleted") if deleted_one
                else QCoreApplication.translate("Outcomes", "Done: %1 rows deleted"))  # fmt: skip
    if status is TaskStatus.PARTIALLY_SUCCEEDED:
        return (QCoreApplication.translate("Outcomes", "Done: %1 of %2 deleted, 1 row with errors") if one
                else QCoreApplication.translate("Outcomes", "Done: %1 of %2 deleted, %3 rows with errors"))  # fmt: skip
    if status is TaskStatus.FAILED:  # more rows failed than the threshold allows; the deleted ones stay deleted
        return (
            QCoreApplication.translate("Outcomes", "Failed: %1 of %2 deleted, 1 row with errors")
            if one
            else QCoreApplication.translate("Outcomes", "Failed: %1 of %2 deleted, %3 rows with errors")
        )
    return None


def _mode_counts(r: TaskRecord) -> str | None:
    """ "2 added, 3 updated, 20 unchanged": what an update, upsert or sync did to the rows it counted as
    imported (None for an insert, whose rows were all added, and for an import that updated nothing)."""
    counts = r.summary
    updated, unchanged = int(counts.get("updated_count") or 0), int(counts.get("unchanged_count") or 0)
    deleted = int(counts.get("deleted_count") or 0)
    if r.params.get("mode") in (None, "insert", "delete") or not (updated or unchanged or deleted):
        return None
    parts = []
    for key, words in (("inserted_count", QCoreApplication.translate("Outcomes", "%1 added")),
                       ("updated_count", QCoreApplication.translate("Outcomes", "%1 updated")),
                       ("unchanged_count", QCoreApplication.translate("Outcomes", "%1 unchanged")),
                       ("deleted_count", QCoreApplication.translate("Outcomes", "%1 deleted"))):  # fmt: skip
        value = int(counts.get(key) or 0)
        if value:
            parts.append(words.replace("%1", _n(value)))
    return QCoreApplication.translate("Outcomes", ", ").join(parts)


def _import_outcome(r: TaskRecord) -> str | None:
    # Spelled out call by call: pyside6-lupdate only finds QCoreApplication.translate literally.
    total, ok, bad = r.total_count, r.success_count, r.fail_count
    check = bool(r.params.get("dry_run"))
    one = bad == 1
    if r.params.get("mode") == "delete" and not check and ok and (bad or r.status is not TaskStatus.FAILED):
        deleted = _delete_outcome(r.status, one=one, deleted_one=ok == 1)
        if deleted is not None:
            return deleted.replace("%1", _n(ok)).replace("%2", _n(total)).replace("%3", _n(bad))
    ended = r.status is TaskStatus.SUCCEEDED or (r.status is TaskStatus.PARTIALLY_SUCCEEDED and bad)
    changed = _mode_counts(r) if ended and not check else None
    if changed and r.status is TaskStatus.SUCCEEDED:
        return QCoreApplication.translate("Outcomes", "Done: %1").replace("%1", changed)
    if changed:  # what the rows became, not "11 of 12 imported" when 4 of them were the same already
        text = (QCoreApplication.translate("Outcomes", "Done: %1, 1 row with errors") if one
                else QCoreApplication.translate("Outcomes", "Done: %1, %3 rows with errors"))  # fmt: skip
        return text.replace("%1", changed).replace("%3", _n(bad))
    if r.status is TaskStatus.SUCCEEDED and ok == 1:  # "1 row", never "1 rows"
        text = QCoreApplication.translate("Outcomes", "Done: 1 row imported")
    elif r.status is TaskStatus.SUCCEEDED:
        text = QCoreApplication.translate("Outcomes", "Done: %1 rows imported")
    elif r.status is TaskStatus.CANCELLED:
        deletes = r.params.get("mode") == "delete"  # its rows are gone, not "in" (seen: "imported; they stay")
        total = file_rows(r) or 0
        if check:
            text = QCoreApplication.translate("Outcomes", "Cancelled")
        elif not ok:
            text = (QCoreApplication.translate("Outcomes", "Cancelled before any row was deleted") if deletes
                    else QCoreApplication.translate("Outcomes", "Cancelled before any row was imported"))  # fmt: skip
        elif deletes and total:
            text = QCoreApplication.translate("Outcomes", "Cancelled: %1 of %2 deleted; they stay deleted")
        elif deletes:
            text = QCoreApplication.translate("Outcomes", "Cancelled: %1 deleted; they stay deleted")
        elif total:
            text = QCoreApplication.translate("Outcomes", "Cancelled: %1 of %2 imported; they stay")
        else:
            text = QCoreApplication.translate("Outcomes", "Cancelled: %1 imported; they stay")
    elif bad and r.status is TaskStatus.PARTIALLY_SUCCEEDED:  # "1 row", never "1 rows"
        text = (
            QCoreApplication.translate("Outcomes", "Done: %1 of %2 imported, 1 row with errors")
            if one
            else QCoreApplication.translate("Outcomes", "Done: %1 of %2 imported, %3 rows with errors")
        )
    elif bad and not check:  # failed above the threshold: the counts say why (a check failed so says why, below)
        if ok:
            text = (
                QCoreApplication.translate("Outcomes", "Failed: %1 of %2 imported, 1 row with errors")
                if one
                else QCoreApplication.translate("Outcomes", "Failed: %1 of %2 imported, %3 rows with errors")
            )
        else:
            text = (
                QCoreApplication.translate("Outcomes", "Failed: nothing imported, 1 row with errors")
                if one
                else QCoreApplication.translate("Outcomes", "Failed: nothing imported, %3 rows with errors")
            )
    elif r.status is TaskStatus.FAILED and not r.error_code and not check and ok and _fixed(r):
        # failed by its rows, all of them put in since by a value fix: its failure's words no longer hold
        text = QCoreApplication.translate("Outcomes", "Done after a fix: %1 rows imported")
    elif r.status is TaskStatus.FAILED:
        reason = shown_error(r) or status_text(r.status)
        if ok and not check:
            return (QCoreApplication.translate("Outcomes", "Failed after %1 rows were imported: %2")
                    .replace("%1", _n(ok)).replace("%2", reason))  # fmt: skip
        return QCoreApplication.translate("Outcomes", "Failed: %1").replace("%1", reason)
    else:
        return None
    return text.replace("%1", _n(ok)).replace("%2", _n(total)).replace("%3", _n(bad))


def _undo_outcome(r: TaskRecord) -> str:
    """What an undo did, as its question said it would (seen: its stage read only "Done"): "Done: 3 rows
    removed, 5 rows put back, 1 row kept (changed since)"."""
    # Spelled out call by call: pyside6-lupdate only finds QCoreApplication.translate literally.
    removed, restored, kept = (int(r.summary.get(k) or 0) for k in ("deleted_count", "restored_count", "kept_count"))
    parts = []
    if removed:
        parts.append(QCoreApplication.translate("Outcomes", "1 row removed") if removed == 1
                     else QCoreApplication.translate("Outcomes", "%1 rows removed")
                     .replace("%1", _n(removed)))  # fmt: skip
    if restored:
        parts.append(QCoreApplication.translate("Outcomes", "1 row put back") if restored == 1
                     else QCoreApplication.translate("Outcomes", "%1 rows put back")
                     .replace("%1", _n(restored)))  # fmt: skip
    if kept:
        parts.append(QCoreApplication.translate("Outcomes", "1 row kept (changed since)") if kept == 1
                     else QCoreApplication.translate("Outcomes", "%1 rows kept (changed since)")
                     .replace("%1", _n(kept)))  # fmt: skip
    if not parts:
        return QCoreApplication.translate("Outcomes", "Done: nothing to undo")
    return QCoreApplication.translate("Outcomes", "Done: %1").replace(
        "%1", QCoreApplication.translate("Outcomes", ", ").join(parts))


def linked_outcome(record: TaskRecord, kind: TaskKind) -> str | None:
    """The outcome of an import another task took further (or a dry run whose plan was applied: "Applied by
    T…"): "Undone by T…: Done: 60 rows imported", "Continued
    by T…: Cancelled: 300 of 1,000 imported; they stay" (an undone or resumed import read as it ended, seen
    by a clerk); outcome_text() for any other task."""
    outcome = outcome_text(record, kind)
    link = kind.link(record)
    if outcome is None or link is None or link[0] is TaskLink.REPLACED_BY:  # a replaced export reads expired_text
        return outcome
    word, other = link
    if word is TaskLink.UNDONE_BY:
        text = QCoreApplication.translate("Outcomes", "Undone by %1 — %2")
    elif word is TaskLink.APPLIED_BY:  # a dry run whose change plan an apply wrote
        text = QCoreApplication.translate("Outcomes", "Applied by %1 — %2")
    else:
        text = QCoreApplication.translate("Outcomes", "Continued by %1 — %2")
    return text.replace("%1", other).replace("%2", outcome)


def stage_heads(shown: Iterable[str], task_no: str = "T261206-K7Q2ZD") -> list[str]:
    """The beginnings of the stage texts a clerk must read whole ("Undone by T261206-K7Q2ZD"), in today's
    language, of those the rows ``shown`` hold: the Stage column keeps room for them, the file and type
    columns give way first (seen at 1024 x 700: "Undone…" in a Stage column of 90 px); with none shown the
    room goes back to the type (seen: "C…" for "Customer import" with no task undone)."""
    texts = (QCoreApplication.translate("Outcomes", "Undone by %1 — %2"),
             QCoreApplication.translate("Outcomes", "Continued by %1 — %2"),
             QCoreApplication.translate("Outcomes", "Applied by %1 — %2"))  # fmt: skip
    heads = [text.split(" — ")[0] for text in texts]
    patterns = [re.compile(re.escape(head).replace("%1", TASK_NO_PATTERN)) for head in heads if "%1" in head]
    if not any(p.match(text) for text in shown for p in patterns):
        return []
    # all of them once one is shown: the widest is room enough for either at 1024 x 700 (the file and the
    # type at their floors, measured: the "Undone by" head alone came out a character short)
    return [head.replace("%1", task_no) for head in heads]


def least_stage_heads(shown: Iterable[str]) -> list[str]:
    """The heads the rows show, cut to their words and the task number's first letter ("Undone by T"): what
    the Stage column keeps, an ellipsis after it, where room is short (the whole number is in the line below
    the list)."""
    texts = list(shown)
    return [head for head in stage_heads(texts, task_no="T") if any(t.startswith(head) for t in texts)]


def ended_text(record: TaskRecord, kind: TaskKind, file_name: str = "") -> str:
    """ "T250301-AB12CD (customers.csv) ended: Failed: 10 of 20 imported, 10 rows with errors", for a notice."""
    what = outcome_text(record, kind) or shown_status(record, kind)
    text = (QCoreApplication.translate("Outcomes", "%1 (%2) ended: %3") if file_name
            else QCoreApplication.translate("Outcomes", "%1 ended: %3"))  # fmt: skip
    return text.replace("%1", record.task_no).replace("%2", file_name).replace("%3", what)
