"""The task commands: import, submit, export, undo, apply, worker, tasks, status, cancel (each clerk's own tasks)."""

from __future__ import annotations

import argparse
import logging
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from desktop_app.app import Core, build_executor
from desktop_app.cli.output import SYSTEM_TYPES, print_json, show, task_line
from desktop_app.cli.parser import EXIT_OK, EXIT_TASK_FAILED, EXIT_USAGE
from desktop_app.domain.errors import ErrorCode, PermanentError, message
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import SubmitResult, TaskRecord
from desktop_app.domain.task_words import LineWord, line_word
from desktop_app.domain.viewer import Viewer
from desktop_app.exports.definition import IMPORTED_BY
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.regional import DateOrder
from desktop_app.imports.resume import stopped_counts, stopped_early
from desktop_app.store import admins
from desktop_app.store.db_errors import is_passing
from desktop_app.tasks.submit import current_user

log = logging.getLogger(__name__)

LOOK_EVERY = 0.2  # seconds to the first look at a task another desk's worker may run
LOOK_AT_MOST = 1.0  # the looks grow apart to this: each one is a read on the main thread, which the import shares


def _stop_on_signals() -> threading.Event:
    """SIGTERM and Ctrl-C set an event the main thread polls, so shutdown is graceful, not abrupt."""
    stop = threading.Event()

    def handler(signum: int, _frame: Any) -> None:
        log.info("signal %s received: stopping at the next batch boundary", signum)
        stop.set()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    return stop


def _qt_core() -> Any:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.instance() or QCoreApplication(["batchdesk"])


# the reading options a flag gives, by the flag's name: given, it wins over a profile's (docs/PROFILES.md)
READING_FLAGS = ("encoding", "delimiter", "sheet", "date_order", "decimal_comma", "mode", "blank")


def import_request(args: argparse.Namespace) -> ImportOptions:
    """The import the command line asks for; limits not given take the settings' defaults."""
    return ImportOptions(
        file=Path(args.file).expanduser(),
        import_type=args.import_type or "",
        mode=ImportMode(args.mode or ImportMode.INSERT),
        blank=BlankPolicy(args.blank or BlankPolicy.KEEP),
        dry_run=bool(args.dry_run),
        encoding=args.encoding,
        sheet=args.sheet,
        max_rows=args.max_rows or 0,
        max_file_mb=args.max_file_mb or 0,
        batch_size=args.batch_size or 0,
        repairs=args.repairs,
        date_order=DateOrder(args.date_order) if args.date_order else None,
        delimiter=args.delimiter,
        decimal_comma=bool(args.decimal_comma),
        # a sync's scope as written (COLUMN=VALUE): the submission holds each column to the type
        scope={k.strip(): v for k, _, v in (item.partition("=") for item in getattr(args, "scope", None) or [])},
        confirm_deletes=getattr(args, "confirm_deletes", None),
    )


def cmd_submit(core: Core, args: argparse.Namespace) -> int:
    """`import` (with --wait: run to the end) and `submit` (queue only)."""
    wait = bool(getattr(args, "wait", False))
    if args.all_sheets:
        return _submit_workbook(core, args, wait=wait)
    if args.sheet_type:
        raise PermanentError(ErrorCode.WORKBOOK_OPTIONS, reason="sheet_type_alone")
    if not args.import_type:
        sys.stderr.write("batchdesk: the following arguments are required: --type (see --help)\n")
        return EXIT_USAGE
    submitter = core.submitter()
    request = import_request(args)
    if getattr(args, "profile", None):
        # the profile's reading options, below the flags given (a flag left out is None, or False)
        given = {name for name in READING_FLAGS if getattr(args, name, None) not in (None, False)}
        request = submitter.with_profile(request, args.profile, keep=given)
    result = submitter.submit_import(request, user=core.user(args.user), force=args.force)
    task = result.task
    if result.refused:
        show(task, as_json=args.json, lang=core.lang, duplicate_of=result.duplicate_of,
             error_code=ErrorCode.ALREADY_IMPORTED.value, error_msg=refusal_text(core, task))  # fmt: skip
        return EXIT_TASK_FAILED
    return _wait_and_show(core, args, result, wait=wait)


def _submit_workbook(core: Core, args: argparse.Namespace, *, wait: bool) -> int:
    """`import BOOK.xlsx --all-sheets`: one workbook task, an import of each matched sheet under it."""
    from desktop_app.imports.workbook import given_types

    if args.import_type:
        raise PermanentError(ErrorCode.WORKBOOK_OPTIONS, reason="type")
    submitter = core.submitter()
    request = import_request(args)
    plans = submitter.plan_workbook(request, given_types(args.sheet_type))
    if not any(p.import_type for p in plans):
        for plan in plans:  # why each one was skipped, before the one line that says nothing was queued
            sys.stderr.write(f"batchdesk: {plan.reason_text(core.lang)}\n")
    result = submitter.submit_workbook(request, plans, user=core.user(args.user), force=args.force)
    task = result.task
    if result.refused:
        show_task(core, task, as_json=args.json, duplicate_of=result.duplicate_of,
                  error_code=ErrorCode.ALREADY_IMPORTED.value, error_msg=refusal_text(core, task))  # fmt: skip
        return EXIT_TASK_FAILED
    task = run_until_done(core, task) if wait else task
    show_task(core, task, as_json=args.json, duplicate_of=result.duplicate_of)
    return EXIT_OK if not wait or task.status in ENDED_WELL else EXIT_TASK_FAILED


def show_task(core: Core, task: TaskRecord, *, as_json: bool, duplicate_of: str | None = None, **extra: Any) -> None:
    """A task as `show` prints it; a workbook's with its sheets (JSON: `sheets`; lines: one per sheet)."""
    from desktop_app.imports.workbook_task import sheets_json

    sheets = sheets_json(core.store, task, core.lang)
    if sheets is None:
        show(task, as_json=as_json, lang=core.lang, duplicate_of=duplicate_of, **extra)
    elif as_json:
        show(task, as_json=True, lang=core.lang, duplicate_of=duplicate_of, sheets=sheets, **extra)
    else:
        show(task, as_json=False, lang=core.lang, duplicate_of=duplicate_of, **extra)
        for sheet in sheets:
            sys.stdout.write("  " + sheet_line(core, sheet) + "\n")


def sheet_line(core: Core, sheet: dict[str, Any]) -> str:
    """One sheet of a workbook for people: its import's line, or why it was skipped."""
    if sheet["skipped"]:
        return f"[{sheet['sheet']}] {sheet['reason_text']}"
    child = core.store.get(str(sheet["task_no"])) if sheet.get("task_no") else None
    head = f"[{sheet['sheet']}] {sheet.get('import_type')}"
    return f"{head}: {task_line(child, core.lang)}" if child else head


def refusal_text(core: Core, task: TaskRecord) -> str:
    """Why the same bytes are refused: imported on a date, or (a stopped import) where it stopped and
    the command that imports the remaining rows."""
    if stopped_early(task):
        done, total = stopped_counts(core.store, task)
        reason = "cancelled" if task.status is TaskStatus.CANCELLED else "failed"
        why = task.error_in(core.lang) or task.error_code or ""
        return message(ErrorCode.ALREADY_IMPORTED, core.lang, reason=reason, task_no=task.task_no,
                       done=f"{done:,}", total=f"{total or done:,}", why=why)  # fmt: skip
    ended = task.ended_at.date().isoformat() if task.ended_at else ""
    return message(ErrorCode.ALREADY_IMPORTED, core.lang, date=ended, task_no=task.task_no)


def cmd_resume(core: Core, args: argparse.Namespace) -> int:
    """Import the remaining rows of a stopped import (a new task from its last committed batch)."""
    viewer = viewer_of(core, args)
    result = core.submitter().submit_resume(args.task_no.strip().upper(), user=viewer.user,
                                            creator=viewer.creator_filter)  # fmt: skip
    return _wait_and_show(core, args, result, wait=args.wait)


ENDED_WELL = (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED)


def _wait_and_show(
    core: Core, args: argparse.Namespace, result: SubmitResult, *, wait: bool, ok: tuple[TaskStatus, ...] = ENDED_WELL
) -> int:
    task = run_until_done(core, result.task) if wait else result.task
    show(task, as_json=args.json, lang=core.lang, duplicate_of=result.duplicate_of)
    if not wait:
        return EXIT_OK
    return EXIT_OK if task.status in ok else EXIT_TASK_FAILED


def run_until_done(core: Core, task: TaskRecord) -> TaskRecord:
    """Run this one task here (or wait while another worker runs it) until it ends."""
    _qt_core()
    stop = _stop_on_signals()
    executor = build_executor(core, only_task_ids=[task.id])
    ended = threading.Event()

    def changed(record: TaskRecord) -> None:  # on the worker's thread, as the task ends
        if record.id == task.id and record.status.is_final:
            ended.set()

    from PySide6.QtCore import Qt

    # Direct: the command line runs no event loop, so a queued call would never come and the end would
    # wait for the next 0.2 s look (measured: 40-190 ms of every import and export --wait).
    executor.task_changed.connect(changed, Qt.ConnectionType.DirectConnection)
    executor.start()
    executor.wake()
    try:
        for pause in look_pauses():
            current = _read_quietly(core, task)
            if current.status.is_final:
                return current
            if stop.is_set():
                break
            ended.wait(pause)  # the end wakes us at once; another desk's worker ending it, at the next look
    finally:
        executor.shutdown()
    return core.store.get_by_id(task.id) or task


def look_pauses() -> Iterator[float]:
    """The pauses between looks at a waited-for task: LOOK_EVERY, doubling to LOOK_AT_MOST. Our own
    worker's end wakes the wait at once; the looks are for another desk's worker, and for a stop. Every
    0.2 s, they cost a million-row import on PostgreSQL ~25 reads of the task row (SQLAlchemy's Python
    on the GIL the import's threads need)."""
    pause = LOOK_EVERY
    while True:
        yield pause
        pause = max(pause, min(pause * 2, LOOK_AT_MOST))  # never shorter than the first (a test sets it long)


def _read_quietly(core: Core, task: TaskRecord) -> TaskRecord:
    """The task as stored; while the database is away (a passing error) the last known state, so the
    wait goes on until the task ends instead of dying with the task still running."""
    try:
        return core.store.get_by_id(task.id) or task
    except SQLAlchemyError as exc:
        if not is_passing(exc):
            raise
        return task


EXPORT_FILTER_FLAGS = ("level", "department", "opened_from", "opened_to", "imported_by")


def cmd_export(core: Core, args: argparse.Namespace) -> int:
    filters: dict[str, str] = {name: getattr(args, name) for name in EXPORT_FILTER_FLAGS if getattr(args, name)}
    for item in args.filter:
        name, sep, value = item.partition("=")
        if not sep:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"--filter takes NAME=VALUE, not {item!r}")
        filters[name.strip()] = value
    if args.wait and IMPORTED_BY not in filters:
        # the worker runs it here: PostgreSQL's reader opened meanwhile (a read row by row needs none)
        from desktop_app.exports import adbc_ahead

        adbc_ahead.begin(core.db_url)
    result = core.submitter().submit_export(args.export_name, filters=filters, fmt=args.format,
                                            encoding=args.encoding, user=core.user(args.user),
                                            output=args.output, replace=args.replace)  # fmt: skip
    return _wait_and_show(core, args, result, wait=args.wait, ok=(TaskStatus.SUCCEEDED,))


def cmd_apply(core: Core, args: argparse.Namespace) -> int:
    """Apply a dry run's change plan (a new import task holding each row to the plan); refused in words,
    exit 2, nothing queued, when it cannot be applied."""
    viewer = viewer_of(core, args)
    result = core.submitter().submit_apply(args.task_no.strip().upper(), user=viewer.user,
                                           creator=viewer.creator_filter)  # fmt: skip
    return _wait_and_show(core, args, result, wait=args.wait)


def cmd_undo(core: Core, args: argparse.Namespace) -> int:
    viewer = viewer_of(core, args)
    result = core.submitter().submit_undo(args.task_no.strip().upper(), user=viewer.user,
                                          creator=viewer.creator_filter)  # fmt: skip
    return _wait_and_show(core, args, result, wait=args.wait)


def cmd_worker(core: Core, args: argparse.Namespace) -> int:
    _qt_core()
    stop = _stop_on_signals()
    executor = build_executor(core)
    executor.start()
    sys.stderr.write(f"batchdesk worker {executor.owner} running; Ctrl-C or SIGTERM stops it\n")
    sys.stderr.flush()
    try:
        while not stop.is_set():
            stop.wait(0.5)
    finally:
        executor.shutdown()
    return EXIT_OK


def viewer_of(core: Core, args: argparse.Namespace, *, admin_names: bool = False) -> Viewer:
    """Who runs the command (--user, else the OS login name) and whether they administer the database. In
    team mode the database login, as the server says: --user naming anyone else is refused in words, except
    where `admin_names` lets an administrator name whose tasks to look at (`tasks`, `status`)."""
    login = core.login
    if login is not None:
        if admin_names and login.is_admin:
            return login.viewer
        return Viewer(login.user(args.user), is_admin=login.is_admin)
    return admins.viewer(core.store.engine, args.user or current_user())


def cmd_tasks(core: Core, args: argparse.Namespace) -> int:
    try:
        statuses = [TaskStatus(s) for s in args.status] if args.status else None
    except ValueError:
        allowed = ", ".join(s.value for s in TaskStatus)
        sys.stderr.write(f"batchdesk: unknown status in {args.status}; use one of: {allowed}\n")
        return EXIT_USAGE
    viewer = viewer_of(core, args, admin_names=True)
    named = args.creator
    if core.login is not None and args.user and args.user != viewer.user and named is None and not args.all:
        named = args.user  # an administrator's `tasks --user NAME` in team mode: NAME's tasks
    creator = viewer.listing(everyone=args.all, creator=named)
    # the readable listing leaves out the system tasks as the window's list does (seen: a feed's look at its
    # folder every minute burying the clerk's imports); the JSON lists every task, as it always has
    hide = () if args.json or args.system else SYSTEM_TYPES
    found = core.store.list(statuses=statuses, limit=args.limit, creator=creator, archived=args.archived,
                            other_than=hide)  # fmt: skip
    if args.json:
        print_json([t.to_json(lang=core.lang) for t in found])
    else:
        # a workbook's sheets under it, indented (a sheet whose workbook is not on the page stands alone)
        shown = {t.task_no for t in found}
        parts: dict[str, list[TaskRecord]] = {}
        for task in found:
            if task.parent in shown:
                parts.setdefault(str(task.parent), []).append(task)
        for task in found:
            if task.parent in shown:
                continue
            sys.stdout.write(task_line(task, core.lang) + "\n")
            for part in sorted(parts.get(task.task_no, []), key=lambda t: t.id):
                sys.stdout.write("    " + task_line(part, core.lang) + "\n")
        # the system tasks among those listed: a listing cut at --limit ends at its oldest task, and a
        # feed's checks since the first day are not "hidden" from the newest twenty
        cut = found[-1].id if found and len(found) >= args.limit else None
        hidden = (core.store.count_of_types(hide, statuses=statuses, creator=creator, archived=args.archived,
                                            newer_than=cut) if hide else 0)  # fmt: skip
        if hidden:
            sys.stdout.write(line_word(LineWord.SYSTEM_HIDDEN, core.lang, count=hidden) + "\n")
    return EXIT_OK


def cmd_status(core: Core, args: argparse.Namespace) -> int:
    # Another user's task is answered as no task at all: its number says nothing about it.
    task = core.store.find(args.task_no, creator=viewer_of(core, args, admin_names=True).creator_filter)
    if task is None:
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=args.task_no)
    show_task(core, task, as_json=args.json)
    return EXIT_OK


def cmd_errors(core: Core, args: argparse.Namespace) -> int:
    """A task's error CSV (or change file) on this desk: the local file, or the copy a shared database keeps
    for its owner and the administrators, fetched; with --save, written where asked."""
    from desktop_app.store.task_files import FileKind

    task = core.store.find(args.task_no, creator=viewer_of(core, args, admin_names=True).creator_filter)
    if task is None:  # another's task is answered as no task at all
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=args.task_no)
    kind = FileKind.CHANGES if args.changes else FileKind.ERRORS
    submitter = core.submitter()
    # a change file in the command line's language (its failed rows' reasons too), where its plan is at hand
    path = submitter.changes_file(task, core.lang) if args.changes else submitter.task_file(task, kind)
    if path is None:
        what = ("变更文件", "change file") if args.changes else ("错误文件", "error CSV")
        raise PermanentError(ErrorCode.TASK_FILE_GONE, task_no=task.task_no, what_zh=what[0], what_en=what[1])
    saved = None
    if args.save:
        saved = Path(args.save).expanduser()
        if saved.is_dir():
            saved = saved / path.name
        try:
            shutil.copyfile(path, saved)
        except OSError as exc:
            detail = f"cannot write {saved}: {exc.strerror or exc}"
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=detail) from exc
    where = saved or path
    if args.json:
        print_json({"task_no": task.task_no, "kind": kind.value, "path": str(where), "size": where.stat().st_size})
    else:
        sys.stdout.write(f"{where}\n")
    return EXIT_OK


def cmd_cancel(core: Core, args: argparse.Namespace) -> int:
    creator = viewer_of(core, args).creator_filter
    task = core.store.cancel(args.task_no, stage=stage_text(Stage.CANCELLED, core.lang), creator=creator)
    if task is None:
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=args.task_no)
    if task.status is TaskStatus.RUNNING:
        # Give the worker a moment to reach its batch boundary, so the answer is usually final.
        deadline = time.monotonic() + 10
        while task.status is TaskStatus.RUNNING and time.monotonic() < deadline:
            time.sleep(0.2)
            task = core.store.get(args.task_no) or task
    show(task, as_json=args.json, lang=core.lang)
    return EXIT_OK if task.status in (TaskStatus.CANCELLED, TaskStatus.RUNNING) else EXIT_TASK_FAILED
