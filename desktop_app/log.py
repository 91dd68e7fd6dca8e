"""Logging: a rotating file in the log dir; every line about a task carries its task number."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from desktop_app.private import private_file

FORMAT = "%(asctime)s %(levelname)s [%(process)d %(threadName)s] %(name)s: %(message)s"


class TaskAdapter(logging.LoggerAdapter):
    """Prefixes each message with the task number so one grep finds a task's whole story."""

    def process(self, msg: object, kwargs: Any) -> tuple[object, Any]:
        extra = self.extra or {}
        return f"[{extra.get('task_no', '-')}] {msg}", kwargs


def task_logger(name: str, task_no: str) -> TaskAdapter:
    return TaskAdapter(logging.getLogger(name), {"task_no": task_no})


class _LogFile(logging.handlers.RotatingFileHandler):
    """The log file. A line it cannot write (its disk is full) is dropped: logging would print a
    traceback on the console for every such line, in a clerk's terminal, while the task ends as it
    should (disk_full) and the window says so."""

    def _open(self) -> Any:
        # created readable by its OS user alone (it names files and people); rotated files keep that
        private_file(Path(self.baseFilename))
        return super()._open()

    def emit(self, record: logging.LogRecord) -> None:
        # A line that reached this handler as it was closed (a worker of the first core logging while
        # a second core replaced the handler) must not open the file again: nobody would close it, and
        # its collection later raised a ResourceWarning in whatever ran then. The handler's lock is
        # held here and by close(), so the check cannot race the close.
        if self._closed:  # type: ignore[attr-defined]
            return
        super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handleError(record)


def setup_logging(log_dir: Path, *, verbose: bool = False, console: bool = False) -> Path:
    """Send logs to a rotating file (and stderr when asked); returns the log file path."""
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / "batchdesk.log"
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    close_logging()
    file_handler = _LogFile(path, maxBytes=5_000_000, backupCount=5, encoding="utf-8", delay=True)
    file_handler.setFormatter(logging.Formatter(FORMAT))
    file_handler._batchdesk = True  # type: ignore[attr-defined]
    root.addHandler(file_handler)
    if console or os.environ.get("BATCHDESK_LOG_STDERR"):
        stream = logging.StreamHandler()
        stream.setFormatter(logging.Formatter(FORMAT))
        stream._batchdesk = True  # type: ignore[attr-defined]
        root.addHandler(stream)
    return path


def our_handlers() -> tuple[logging.Handler, ...]:
    """The handlers setup_logging added to the root logger (and no one removed since)."""
    return tuple(h for h in logging.getLogger().handlers if getattr(h, "_batchdesk", False))


def close_logging(handlers: Iterable[logging.Handler] | None = None) -> None:
    """Take these handlers (default: every one setup_logging added) off the root logger and close them."""
    root = logging.getLogger()
    for handler in our_handlers() if handlers is None else handlers:
        root.removeHandler(handler)
        handler.close()


def task_log_lines(log_dir: Path, task_no: str, limit: int = 500) -> list[str]:
    """The log lines of one task (for the details panel), newest files last."""
    files = sorted(log_dir.glob("batchdesk.log*"), key=lambda p: p.stat().st_mtime)
    tag = f"[{task_no}]"
    lines: list[str] = []
    for file in files:
        try:
            with file.open(encoding="utf-8", errors="replace") as handle:
                lines.extend(line.rstrip("\n") for line in handle if tag in line)
        except OSError:
            continue
    return lines[-limit:]
