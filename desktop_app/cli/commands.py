"""The task commands: import, submit, worker, tasks, status, cancel (each clerk's own tasks)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from desktop_app.app import Core, build_executor
from desktop_app.cli.output import print_json, show, task_line
from desktop_app.cli.parser import EXIT_OK, EXIT_TASK_FAILED, EXIT_USAGE
from desktop_app.domain.errors import ErrorCode, PermanentError, message
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.domain.viewer import Viewer
from desktop_app.store import admins
from desktop_app.tasks.submit import current_user

log = logging.getLogger(__name__)
IMPORT_TASK = "import"
EXPORT_TASK = "export"


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


def import_params(core: Core, args: argparse.Namespace) -> dict[str, Any]:
    """The import task's parameters from the command line, limits defaulting to the settings."""
    if hasattr(core.registry, "get") and IMPORT_TASK in core.registry:
        handler = core.registry.get(IMPORT_TASK)
        check = getattr(handler, "check_import_type", None)
        if check is not None:
            check(args.import_type)
    return {
        "import_type": args.import_type,
        "dry_run": bool(args.dry_run),
        "encoding": args.encoding,
        "max_rows": args.max_rows or core.settings.max_rows,
        "max_file_mb": args.max_file_mb or core.settings.max_file_mb,
        "batch_size": args.batch_size or core.settings.batch_size,
        "repairs": args.repairs,
        "sheet": args.sheet,
    }


def cmd_submit(core: Core, args: argparse.Namespace, *, wait: bool) -> int:
    from desktop_app.tasks.submit import submit_file

    params = import_params(core, args)
    result = submit_file(core.store, core.registry, task_type=IMPORT_TASK, path=Path(args.file),
                         user=args.user or current_user(), params=params, force=args.force)  # fmt: skip
    task = result.task
    if result.refused:
        ended = task.ended_at.date().isoformat() if task.ended_at else ""
        show(task, as_json=args.json, duplicate_of=result.duplicate_of,
             error_code=ErrorCode.ALREADY_IMPORTED.value,
             error_msg=message(ErrorCode.ALREADY_IMPORTED, core.lang, date=ended, task_no=task.task_no))  # fmt: skip
        return EXIT_TASK_FAILED
    if wait:
        task = _run_until_done(core, task)
    show(task, as_json=args.json, duplicate_of=result.duplicate_of)
    if not wait:
        return EXIT_OK
    return EXIT_OK if task.status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED) else EXIT_TASK_FAILED


def _run_until_done(core: Core, task: TaskRecord) -> TaskRecord:
    """Run this one task here (or wait while another worker runs it) until it ends."""
    _qt_core()
    stop = _stop_on_signals()
    executor = build_executor(core, only_task_ids=[task.id])
    executor.start()
    executor.wake()
    try:
        while True:
            current = core.store.get_by_id(task.id) or task
            if current.status.is_final:
                return current
            if stop.is_set():
                break
            stop.wait(0.2)
    finally:
        executor.shutdown()
    return core.store.get_by_id(task.id) or task


EXPORT_FILTER_FLAGS = ("level", "department", "opened_from", "opened_to", "imported_by")


def cmd_export(core: Core, args: argparse.Namespace) -> int:
    filters: dict[str, str] = {name: getattr(args, name) for name in EXPORT_FILTER_FLAGS if getattr(args, name)}
    for item in args.filter:
        name, sep, value = item.partition("=")
        if not sep:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"--filter takes NAME=VALUE, not {item!r}")
        filters[name.strip()] = value
    handler = core.registry.get(EXPORT_TASK)
    result = handler.submit(core.store, name=args.export_name, filters=filters, fmt=args.format,  # type: ignore[attr-defined]
                            encoding=args.encoding, user=args.user or current_user())  # fmt: skip
    task = _run_until_done(core, result.task) if args.wait else result.task
    show(task, as_json=args.json, duplicate_of=result.duplicate_of)
    if not args.wait:
        return EXIT_OK
    return EXIT_OK if task.status is TaskStatus.SUCCEEDED else EXIT_TASK_FAILED


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


def viewer_of(core: Core, args: argparse.Namespace) -> Viewer:
    """Who runs the command (--user, else the OS login name) and whether they administer the database."""
    return admins.viewer(core.store.engine, args.user or current_user())


def cmd_tasks(core: Core, args: argparse.Namespace) -> int:
    try:
        statuses = [TaskStatus(s) for s in args.status] if args.status else None
    except ValueError:
        allowed = ", ".join(s.value for s in TaskStatus)
        sys.stderr.write(f"batchdesk: unknown status in {args.status}; use one of: {allowed}\n")
        return EXIT_USAGE
    creator = viewer_of(core, args).listing(everyone=args.all, creator=args.creator)
    found = core.store.list(statuses=statuses, limit=args.limit, creator=creator, archived=args.archived)
    if args.json:
        print_json([t.to_json() for t in found])
    else:
        for task in found:
            sys.stdout.write(task_line(task) + "\n")
    return EXIT_OK


def cmd_status(core: Core, args: argparse.Namespace) -> int:
    # Another user's task is answered as no task at all: its number says nothing about it.
    task = core.store.find(args.task_no, creator=viewer_of(core, args).creator_filter)
    if task is None:
        raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=args.task_no)
    show(task, as_json=args.json)
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
    show(task, as_json=args.json)
    return EXIT_OK if task.status in (TaskStatus.CANCELLED, TaskStatus.RUNNING) else EXIT_TASK_FAILED
