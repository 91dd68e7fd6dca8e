"""`python -m desktop_app` without a command: open the window (also --demo, --self-test and --open FILE)."""

from __future__ import annotations

import argparse
import csv
import gc
import logging
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from desktop_app import APP_NAME
from desktop_app.domain.errors import Lang

log = logging.getLogger(__name__)

SELF_TEST_SAMPLE = "customers_clean.csv"
SELF_TEST_TIMEOUT_S = 120


def run(args: argparse.Namespace) -> int:
    """Open the window; returns the process exit code."""
    if getattr(args, "self_test", False):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop_app.domain.errors import BatchDeskError

    app = QApplication.instance() or QApplication([sys.argv[0], *_qt_args()])
    assert isinstance(app, QApplication)
    app.setOrganizationName(APP_NAME)
    app.setApplicationName(APP_NAME)
    app.setQuitOnLastWindowClosed(False)  # "keep running in the tray" hides the last window

    temp_dir = None
    if getattr(args, "demo", False) or getattr(args, "self_test", False):
        temp_dir = tempfile.mkdtemp(prefix="batchdesk-demo-")
    start = _startup(args, temp_dir)
    previous_hook = sys.excepthook
    sys.excepthook = CrashReporter(start.log_path, show=not getattr(args, "self_test", False), chain=previous_hook)
    try:
        try:
            core = _build_core(args, temp_dir, start)
        except BatchDeskError as exc:
            text = exc.text(start.lang)  # the settings' language, else the system's
            sys.stderr.write(f"batchdesk: {text}\n")
            if not getattr(args, "self_test", False):
                QMessageBox.critical(None, APP_NAME, text)
            return 1
        if temp_dir is not None:
            qsettings = QSettings(str(Path(temp_dir) / "window.ini"), QSettings.Format.IniFormat)
        else:
            qsettings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, APP_NAME, APP_NAME)
        if getattr(args, "self_test", False):
            return _self_test(app, core, qsettings)
        return _open(app, core, qsettings, demo=bool(getattr(args, "demo", False)), open_path=_open_path(args))
    finally:
        sys.excepthook = previous_hook
        if temp_dir is not None:  # the demo's and the self-test's data leave with the window
            shutil.rmtree(temp_dir, ignore_errors=True)


def _open_path(args: argparse.Namespace) -> Path | None:
    """`--open FILE`, made absolute against the directory BatchDesk was started in."""
    name = getattr(args, "open", None)
    return Path(name).expanduser().absolute() if name else None


def _qt_args() -> list[str]:
    # Qt's own options (-platform, -style) may follow `--`; BatchDesk's parser owns the rest.
    return sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []


@dataclass(frozen=True)
class Startup:
    """What is known before the core is built: the settings' language, database URL and log file."""

    lang: Lang = "en"
    db_url: str | None = None
    data_dir: Path | None = None
    log_path: Path | None = None


def _startup(args: argparse.Namespace, temp_dir: str | None) -> Startup:
    """The settings file read once before the core: messages before the window follow its language."""
    from desktop_app.app import system_lang
    from desktop_app.config import load_settings, resolve_paths

    try:
        paths = resolve_paths(temp_dir or getattr(args, "data_dir", None))
    except Exception:  # an unusable data dir: build_core reports it in plain words
        return Startup(lang=system_lang(""))
    try:
        settings = load_settings(paths)
    except Exception:
        return Startup(lang=system_lang(""), data_dir=paths.data_dir, log_path=paths.log_dir / "batchdesk.log")
    return Startup(lang=system_lang(settings.language), db_url=settings.db_url, data_dir=paths.data_dir,
                   log_path=paths.log_dir / "batchdesk.log")  # fmt: skip


def crash_text(log_path: Path | None) -> str:
    from PySide6.QtCore import QCoreApplication

    if log_path is None:
        return QCoreApplication.translate("Startup", "BatchDesk hit an internal error; details are in its log.")
    return QCoreApplication.translate("Startup", "BatchDesk hit an internal error; details are in the log: %s") % (
        log_path
    )


class CrashReporter:
    """sys.excepthook while the window runs: an exception nobody caught (in a slot, a Qt virtual) goes
    to the log with its traceback; the clerk sees one plain message, never the traceback. The message
    is not modal to the event loop (no exec() inside a hook); a second error while it is up adds none."""

    def __init__(self, log_path: Path | None, *, show: bool = True, chain: Any = None) -> None:
        self.log_path = log_path
        self.show = show
        # A hook installed before (pytest-qt's, a debugger's) still hears of it; Python's default
        # one, which only prints the traceback to stderr, does not.
        self._chain = chain if chain is not sys.__excepthook__ else None
        self.box: Any = None

    def __call__(self, kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        logging.getLogger("desktop_app.crash").error("unhandled exception", exc_info=(kind, exc, tb))
        text = crash_text(self.log_path)
        sys.stderr.write(f"batchdesk: {text}\n")
        if self._chain is not None:
            self._chain(kind, exc, tb)
        if self.show:
            self._show(text)

    def _show(self, text: str) -> None:
        try:
            import shiboken6
            from PySide6.QtCore import Qt
            from PySide6.QtWidgets import QApplication, QMessageBox

            if QApplication.instance() is None:
                return
            if self.box is not None and shiboken6.isValid(self.box) and self.box.isVisible():
                return
            box = QMessageBox(QMessageBox.Icon.Critical, APP_NAME, text, QMessageBox.StandardButton.Ok)
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.show()
            self.box = box
        except Exception:
            logging.getLogger("desktop_app.crash").exception("the crash message could not be shown")


def _build_core(args: argparse.Namespace, temp_dir: str | None, start: Startup | None = None):
    from desktop_app.app import build_core

    start = start or _startup(args, temp_dir)
    data_dir = temp_dir or getattr(args, "data_dir", None)
    url = getattr(args, "db", None)
    if url is None and temp_dir is None:
        url = start.db_url
    url = _with_password(url, start) if url else None
    # A throw-away data dir (demo, self-test) has nothing to clean up: no daily clean-up task there.
    overrides = {"daily_cleanup": False} if temp_dir is not None else None
    return build_core(data_dir=data_dir, db_url=url, overrides=overrides,
                      log_to_stderr=bool(getattr(args, "verbose", False)))  # fmt: skip


def _with_password(url: str, start: Startup | None = None) -> str:
    """A server URL without a password gets the keyring's, or the clerk types it (not stored)."""
    from desktop_app.ui.db_secret import load_password, needs_password, with_password

    if not needs_password(url):
        return url
    password = load_password(url)
    if password is None:
        typed = _ask_password(url, start or Startup())
        if typed is None:
            return url
        password = typed
    return with_password(url, password)


def _ask_password(url: str, start: Startup) -> str | None:
    """The password prompt, in the settings' language (the window's translations are not up yet)."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    from desktop_app.ui.i18n import Translations

    app = QCoreApplication.instance()
    translations = None
    if app is not None and start.data_dir is not None and start.lang != "en":
        translations = Translations(app, start.data_dir / "cache" / "i18n")
        translations.switch(start.lang)
    try:
        label = QCoreApplication.translate("Startup", "Password for %s:") % url
        password, ok = QInputDialog.getText(None, APP_NAME, label, QLineEdit.EchoMode.Password)
    finally:
        if translations is not None:
            translations.switch("en")  # the window installs its own
    return password if ok else None


def freeze_startup_heap() -> None:
    """Move everything built at start-up (Qt wrappers, modules, SQLAlchemy metadata) out of the garbage
    collector's reach: a full collection then walks only what the tasks allocate, so its pause, which
    stops the GUI thread too, stays short while big imports run (bench/bench_gui_lag.py)."""
    gc.collect()
    gc.freeze()


def settle_startup() -> None:
    """Once the window is built: load the import pipeline, then freeze the start-up heap.

    The pipeline (its readers, Arrow) is loaded here, before the window's loop runs, not when the first
    import starts: the command line loads it only for an import (imports.task), but in the window a first
    import would load it on a worker thread, holding the GIL the window's thread needs (the lag
    benchmark's spikes of 0.13-0.7 s, 0.4-1.3 s in, came in three runs of five after the import went
    lazy), and what it built would stay outside the frozen heap."""
    import desktop_app.imports.pipeline  # noqa: F401

    freeze_startup_heap()


def _open(app, core, qsettings, *, demo: bool, open_path: Path | None = None) -> int:
    from PySide6.QtCore import QTimer

    from desktop_app.ui.demo import sample_jobs
    from desktop_app.ui.desk import Desk

    desk = Desk(app, core, qsettings)
    desk.start()
    desk.window.show()
    settle_startup()
    if demo:
        desk.service.submit_many(sample_jobs(core.settings))
    if open_path is not None:  # once the loop runs: the window is drawn under the preview (or the message)
        QTimer.singleShot(0, lambda: desk.open_file(open_path))
    try:
        return int(app.exec())
    finally:
        desk.shutdown()
        _dispose(desk)


def _dispose(desk: Any) -> None:
    """The window goes with its desk (whose tray it still uses), not at some later garbage collection."""
    from PySide6.QtCore import QCoreApplication, QEvent

    desk.window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _expected_rows(path: Path) -> int:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return sum(1 for _ in csv.reader(handle)) - 1


def _self_test(app, core, qsettings) -> int:
    """Import a bundled sample through the real window, service, executor and pipeline."""
    from PySide6.QtCore import QEventLoop, QTimer

    from desktop_app.domain.status import TaskStatus
    from desktop_app.domain.task import TaskRecord
    from desktop_app.ui.demo import sample_path, sample_request
    from desktop_app.ui.desk import Desk
    from desktop_app.ui.task_model import STATUS
    from desktop_app.ui.task_service import IMPORT_TASK

    if IMPORT_TASK not in core.registry:
        sys.stdout.write("self-test FAILED: the import task type is not registered\n")
        return 1
    sample = sample_path(SELF_TEST_SAMPLE)
    expected = _expected_rows(sample)
    desk = Desk(app, core, qsettings, refresh_ms=0)
    ended: list[TaskRecord | str] = []
    loop = QEventLoop()

    def answer(result: TaskRecord | str) -> None:
        if isinstance(result, TaskRecord) and desk.kinds.of(result).system:
            return  # another task (a clean-up) ended: not the sample's
        ended.append(result)
        loop.quit()

    desk.service.task_ended.connect(answer)
    desk.service.submit_failed.connect(lambda _path, reason: answer(reason))
    try:
        started = time.monotonic()
        desk.start()
        desk.window.show()
        desk.service.submit_import(sample_request(sample, core.settings))
        QTimer.singleShot(SELF_TEST_TIMEOUT_S * 1000, loop.quit)
        loop.exec()
        result = ended[0] if ended else None
        if result is None:
            reason = f"no result within {SELF_TEST_TIMEOUT_S} s"
        elif isinstance(result, str):
            reason = f"the sample could not be queued: {result}"
        else:
            row = desk.window.model.row_of(result.id)
            shown = desk.window.model.index(row, STATUS).data() if row is not None else None
            if result.status is not TaskStatus.SUCCEEDED:
                reason = f"task {result.task_no} ended {result.status.value}: {result.error_msg}"
            elif result.success_count != expected or result.fail_count:
                reason = f"expected {expected} rows imported, got {result.success_count} and {result.fail_count} failed"
            elif not shown:
                reason = "the task's row is missing from the window"
            else:
                took = time.monotonic() - started
                sys.stdout.write(f"self-test ok: {sample.name} imported {expected} rows as task {result.task_no} "
                                 f"in {took:.1f} s\n")  # fmt: skip
                return 0
        sys.stdout.write(f"self-test FAILED: {reason}\n")
        return 1
    finally:
        desk.window.allow_close = True
        desk.window.close()
        desk.shutdown()
        _dispose(desk)
