"""Entry point: parse arguments, hand over to a command or the window; errors in one plain line."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from desktop_app import startup_gc
from desktop_app.cli.parser import EXIT_OK, EXIT_TASK_FAILED, EXIT_USAGE, build_parser
from desktop_app.domain.errors import BatchDeskError, ErrorCode, Lang

log = logging.getLogger(__name__)

# Problems with what was asked (a missing file, an unknown task) are usage errors: exit 2.
USAGE_CODES = {
    ErrorCode.FILE_NOT_FOUND,
    ErrorCode.FILE_UNREADABLE,
    ErrorCode.UNKNOWN_IMPORT_TYPE,
    ErrorCode.UNKNOWN_TASK_TYPE,
    ErrorCode.TASK_NOT_FOUND,
    ErrorCode.TASK_FILE_GONE,
    ErrorCode.INVALID_PARAMS,
    ErrorCode.DATA_DIR_UNUSABLE,
    ErrorCode.IMPORT_TYPE_INVALID,
    ErrorCode.NOT_UNDOABLE,
    ErrorCode.NOT_RESUMABLE,
    ErrorCode.PLAN_NOT_APPLICABLE,
    ErrorCode.NOT_ADDABLE,
    ErrorCode.NOT_ADMIN,
    ErrorCode.LAST_ADMIN,
    ErrorCode.PROFILE_NOT_FOUND,
    ErrorCode.PROFILE_INVALID,
    ErrorCode.PROFILE_TYPE_MISMATCH,
    ErrorCode.PROFILE_UNFIT,
    ErrorCode.VALUES_NOT_FIXABLE,
    ErrorCode.VALUE_COLUMN_UNKNOWN,
    ErrorCode.VALUE_NOT_ALLOWED,
    ErrorCode.FEED_NOT_FOUND,
    ErrorCode.FEED_EXISTS,
    ErrorCode.FEED_FOLDER_MISSING,
    ErrorCode.FEED_PAUSED,
    ErrorCode.FEED_FILES_UNDER_WAY,
    ErrorCode.FEED_NEVER_DELETES,
    ErrorCode.SYNC_CONFIRM_DELETES,
    ErrorCode.SYNC_SCOPE_INVALID,
    ErrorCode.FEED_SCANNING,
    ErrorCode.FEED_NAME_INVALID,
    ErrorCode.FEED_PATTERN_EMPTY,
    ErrorCode.FEED_MODE_INVALID,
    ErrorCode.FEED_SETTLE_INVALID,
    ErrorCode.MAIL_ADDRESS_INVALID,
    ErrorCode.MAIL_NOT_SET_UP,
    ErrorCode.WORKBOOK_NEEDS_BOOK,
    ErrorCode.WORKBOOK_OPTIONS,
    ErrorCode.WORKBOOK_UNKNOWN_SHEET,
    ErrorCode.WORKBOOK_NO_SHEET_MATCHED,
    ErrorCode.TEAM_USER_REFUSED,
    ErrorCode.TEAM_MAY_NOT,
    ErrorCode.TEAM_NOT_SECURED,
}


def main(argv: Sequence[str] | None = None, *, window: Callable[[argparse.Namespace], int] | None = None,
         leave_when_done: bool = False) -> int:
    """Run a command, or with none the `window` the program's entry hands over (desktop_app/__main__.py:
    the command line never imports the window); its exit code. `leave_when_done` (the program's own
    entry, never a test): a command ends the process at once when it is done (see leave())."""
    for stream in (sys.stdout, sys.stderr):
        # JSON and messages carry Chinese text: a redirected stream on Windows would use the code page.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")
    # Until the log file is set up, nothing may fall back to Python's last-resort handler, which
    # would print a traceback in the clerk's face.
    logging.getLogger().addHandler(logging.NullHandler())
    # before any connection opens (and before the threads below start): SQLite's process-wide settings
    from desktop_app.store.sqlite_config import quiet_memory_statistics

    quiet_memory_statistics()
    args = build_parser().parse_args(argv)
    if args.command == "import" and leave_when_done:
        # the file's hash (its idempotency key) and its line count, each on a thread of its own, while
        # the program loads
        from pathlib import Path

        from desktop_app.imports.precount import count_ahead
        from desktop_app.tasks.file_hash import hash_ahead

        path = Path(args.file).expanduser().resolve()
        hash_ahead(path)
        count_ahead(path)
    code = _run(args, window)
    if leave_when_done and args.command is not None:
        leave(code)
    return code


def leave(code: int) -> NoReturn:
    """End the process now, its output and log written: a command's last work is done, its threads have
    ended and its connections are closed, and the interpreter's own teardown (every module's objects
    freed one by one) took 0.1-0.2 s of each import and export on the command line, measured."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can reach it
            stream.flush()
    logging.shutdown()
    os._exit(code)


def _run(args: argparse.Namespace, window: Callable[[argparse.Namespace], int] | None) -> int:
    lang: Lang = "en"
    core = None
    try:
        if args.command is None:
            startup_gc.resume()  # the window manages collection on its own thread (ui/main_thread_gc.py)
            if window is None:  # a caller with no window (a test, a script): the commands it could run
                build_parser().print_help(sys.stderr)
                return EXIT_USAGE
            return window(args)
        from desktop_app.app import build_core, system_lang

        overrides = {"max_workers": getattr(args, "workers", None)}
        core = build_core(data_dir=getattr(args, "data_dir", None), db_url=getattr(args, "db", None),
                          overrides=overrides, log_to_stderr=getattr(args, "verbose", False))  # fmt: skip
        startup_gc.resume()  # loaded: what runs from here collects as usual
        lang = system_lang(core.settings.language)
        for problem in core.setting_problems:  # a warning, not a failure: the default is in use
            print(f"BatchDesk: {problem.text(lang)}", file=sys.stderr)
        return int(args.func(core, args))  # each command names its function (parser.py set_defaults)
    except BatchDeskError as exc:
        sys.stderr.write("batchdesk: " + " ".join(exc.text(lang).split()) + "\n")
        return EXIT_USAGE if exc.code in USAGE_CODES else EXIT_TASK_FAILED
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: the log has the traceback, the clerk gets one line
        log.exception("unexpected error")
        sys.stderr.write(f"batchdesk: internal error ({type(exc).__name__}: {exc}); details are in the log\n")
        return EXIT_TASK_FAILED
    finally:
        if core is not None:
            core.close()  # the connections and the log file close now, not whenever they are collected
    return EXIT_OK
