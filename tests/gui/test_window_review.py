"""What the window must survive: other desks' changes, quitting from the tray, slow stops, a dialog closed
while it reads, database errors, failed cancels, uncaught errors, and objects left behind."""

from __future__ import annotations

import argparse
import gc
import logging
import sqlite3
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, QTranslator
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox
from sqlalchemy.exc import OperationalError

from desktop_app.config import Settings, resolve_paths, save_settings
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, SubmitResult, TaskOutcome
from desktop_app.imports.options import ImportOptions
from desktop_app.store.tasks import Fence
from desktop_app.tasks.context import TaskContext
from desktop_app.ui.desk import Desk
from desktop_app.ui.file_open import FileOpenFilter
from tests.gui.conftest import SlowImport
from tests.gui.test_window_queue import CLEAN, TIMEOUT, wait_for_task, wait_status

SQL_TEXT = ("[SQL:", "sqlalche.me", "SELECT")


def locked() -> OperationalError:
    """What SQLAlchemy raises when SQLite is locked: the driver's message, the statement, a link."""
    return OperationalError("SELECT tasks.id FROM tasks WHERE tasks.id < ?", (5,),
                            sqlite3.OperationalError("database is locked"))  # fmt: skip


def running_desk(qtbot: Any, make_desk: Any, **kwargs: Any) -> tuple[Desk, SlowImport, str]:
    """A desk whose one import stays running (its handler waits at the gate)."""
    handler = SlowImport()
    handler.gate.clear()
    desk: Desk = make_desk([handler], **kwargs)
    desk.service.submit_import(ImportOptions(file=CLEAN, import_type="customers"))
    task = wait_for_task(qtbot, desk.window, 1)
    wait_status(qtbot, desk.window, task.task_no, TaskStatus.RUNNING)
    return desk, handler, task.task_no


# --- 1: the refresh sees what other desks changed --------------------------------------


def test_the_refresh_shows_a_task_another_desk_changed_before_an_event_of_ours(qtbot: Any, make_desk: Any) -> None:
    desk, _handler, ours = running_desk(qtbot, make_desk, refresh_ms=50)
    store = desk.core.store
    # Another desk queues, runs and finishes a task of its own (its host: this desk never claims it) ...
    other = store.submit(task_type="import", params={"file": "/elsewhere/a.csv", "import_type": "customers"},
                         creator="someone", host="another-desk").task  # fmt: skip
    claimed = store.claim("another-desk-worker", 1, only_ids=[other.id])
    assert [t.id for t in claimed] == [other.id]
    fence = Fence(other.id, "another-desk-worker", claimed[0].attempt)
    assert store.finish(fence, TaskStatus.SUCCEEDED, total=3, success=3, fail=0)
    # ... and before our refresh runs, one of this desk's own tasks changes (later in the table's clock).
    store.cancel(ours)
    mine = store.get(ours)
    assert mine is not None
    desk.executor.task_changed.emit(mine)
    model = desk.window.model
    # a refresh may show it pending first (it ran between the other desk's submit and finish, as the
    # refresh runs every 50 ms): what must not happen is that the finish is never shown
    def shown_finished() -> bool:
        row = model.row_of(other.id)
        return row is not None and model.record(row).status is TaskStatus.SUCCEEDED

    qtbot.waitUntil(shown_finished, timeout=5000)


def test_the_refresh_does_not_republish_rows_it_already_showed(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk(refresh_ms=30)
    store = desk.core.store
    other = store.submit(task_type="import", params={"file": "/elsewhere/b.csv", "import_type": "customers"},
                         creator="someone", host="another-desk").task  # fmt: skip
    published: list[int] = []
    desk.service.record_changed.connect(lambda record: published.append(record.id))
    qtbot.waitUntil(lambda: other.id in published, timeout=5000)
    qtbot.wait(300)  # several refreshes, all within the overlap: the row is read again, not shown again
    assert published.count(other.id) == 1


# --- 2 and 3: quitting ----------------------------------------------------------------


def test_quit_in_the_tray_asks_and_cancel_keeps_everything_running(qtbot: Any, make_desk: Any) -> None:
    desk, _handler, task_no = running_desk(qtbot, make_desk)
    window = desk.window
    asked: list[bool] = []
    window.ask_close = lambda: asked.append(True) or "cancel"  # type: ignore[method-assign]
    desk.tray.quit_requested.emit()
    assert asked == [True]
    assert not desk.quits  # type: ignore[attr-defined]
    assert window.isVisible() and desk.executor.running_count() == 1
    assert desk.core.store.get(task_no).status is TaskStatus.RUNNING  # type: ignore[union-attr]


def test_quit_in_the_tray_while_hidden_honours_keep_running_then_stop(qtbot: Any, make_desk: Any) -> None:
    desk, _handler, task_no = running_desk(qtbot, make_desk)
    window = desk.window
    window.ask_close = lambda: "tray"  # type: ignore[method-assign]
    window.close()
    assert not window.isVisible() or window.isMinimized()
    desk.tray.quit_requested.emit()
    assert not desk.quits and desk.executor.running_count() == 1  # type: ignore[attr-defined]
    window.ask_close = lambda: "stop"  # type: ignore[method-assign]
    desk.tray.quit_requested.emit()
    assert desk.quits == [True]  # type: ignore[attr-defined]
    assert desk.core.store.get(task_no).status is TaskStatus.PENDING  # type: ignore[union-attr]


def test_stopping_hides_the_window_before_waiting_for_the_workers(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk, _handler, _task_no = running_desk(qtbot, make_desk)
    window = desk.window
    visible_while_waiting: list[bool] = []
    real = desk.executor.shutdown

    def shutdown(timeout: float = 60.0) -> bool:
        visible_while_waiting.append(window.isVisible())
        return real(timeout)

    monkeypatch.setattr(desk.executor, "shutdown", shutdown)
    window.ask_close = lambda: "stop"  # type: ignore[method-assign]
    window.close()  # closeEvent -> close_decided("stop") -> Desk.quit, all inside the close
    assert visible_while_waiting == [False]
    assert desk.quits == [True]  # type: ignore[attr-defined]


class Stubborn:
    """An `import` that does not look at the stop request until it is released."""

    task_type = "import"
    lane = Lane.LONG

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def run(self, ctx: TaskContext) -> TaskOutcome:
        self.started.set()
        self.release.wait(30)
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=1, success_count=1)


def test_a_worker_outliving_the_stop_keeps_garbage_collection_on_the_gui_thread(
    qtbot: Any, make_desk: Any, caplog: pytest.LogCaptureFixture
) -> None:
    handler = Stubborn()
    desk: Desk = make_desk([handler])
    desk.service.submit_import(ImportOptions(file=CLEAN, import_type="customers"))
    qtbot.waitUntil(handler.started.is_set, timeout=TIMEOUT)
    assert not gc.isenabled(), "the window's timer collects while it lives"
    try:
        with caplog.at_level(logging.ERROR, logger="desktop_app.ui.desk"):
            assert desk.shutdown(0.2) is False
        assert not gc.isenabled(), "a worker still runs: automatic collection stays off"
        assert desk.gc._timer.isActive(), "and the GUI thread keeps collecting"
        assert any("still running" in r.getMessage() for r in caplog.records)
    finally:
        handler.release.set()
    assert desk.shutdown(20) is True
    assert gc.isenabled()


# --- 4: a dialog closed while it reads; uncaught errors -----------------------------------


def test_closing_the_preview_while_it_still_reads_drops_the_answer(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.imports import readers

    real = readers.preview
    finished = threading.Event()

    def slow_preview(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.5)
        try:
            return real(*args, **kwargs)
        finally:
            finished.set()

    desk: Desk = make_desk()
    window = desk.window
    monkeypatch.setattr(readers, "preview", slow_preview)
    window.open_preview(CLEAN, "customers", False)
    dialog = window.preview
    assert dialog is not None
    with qtbot.captureExceptions() as exceptions:
        dialog.reject()  # -> deleteLater
        qtbot.waitUntil(lambda: not shiboken6.isValid(dialog), timeout=TIMEOUT)
        qtbot.waitUntil(finished.is_set, timeout=TIMEOUT)
        qtbot.waitUntil(lambda: not desk.service.background.busy(), timeout=TIMEOUT)
        qtbot.wait(50)
    assert exceptions == []
    assert window.preview is None


def test_an_uncaught_error_is_logged_and_shown_as_one_plain_message(
    qtbot: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from desktop_app.ui.main import CrashReporter

    log_path = tmp_path / "logs" / "batchdesk.log"
    reporter = CrashReporter(log_path)
    try:
        raise RuntimeError("Internal C++ object (PreviewDialog) already deleted.")
    except RuntimeError as exc:
        with caplog.at_level(logging.ERROR):
            reporter(type(exc), exc, exc.__traceback__)
            reporter(type(exc), exc, exc.__traceback__)  # a second one while the first is shown
    crashes = [r for r in caplog.records if r.name == "desktop_app.crash"]
    assert len(crashes) == 2 and crashes[0].exc_info is not None, "the traceback goes to the log"
    box = reporter.box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.text() == f"BatchDesk hit an internal error; details are in the log: {log_path}"
    assert len([w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]) == 1
    box.close()


def test_run_installs_the_crash_reporter_and_restores_the_hook(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    from desktop_app.ui import main

    seen: list[Any] = []

    def fake_open(*_args: Any, **_kwargs: Any) -> int:
        seen.append(sys.excepthook)
        return 0

    monkeypatch.setattr(main, "_open", fake_open)
    before = sys.excepthook
    args = argparse.Namespace(data_dir=str(tmp_path / "data"), db=None, verbose=False, open=None)
    assert main.run(args) == 0
    assert isinstance(seen[0], main.CrashReporter)
    assert seen[0].log_path == resolve_paths(tmp_path / "data").log_dir / "batchdesk.log"
    assert sys.excepthook is before


# --- 5 and 9: database errors in plain words ----------------------------------------------


def test_a_database_error_reading_the_list_shows_no_sql(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    desk: Desk = make_desk()

    def broken_list(**_kwargs: Any) -> Any:
        raise locked()

    monkeypatch.setattr(desk.core.store, "list", broken_list)
    with caplog.at_level(logging.ERROR), qtbot.waitSignal(desk.service.page_failed, timeout=TIMEOUT):
        desk.service.load_page(None, 50)
    text = desk.window.statusBar().currentMessage()
    assert "The database cannot be reached: database is locked" in text
    assert not any(mark in text for mark in SQL_TEXT), text
    assert any(r.exc_info and "[SQL:" in str(r.exc_info[1]) for r in caplog.records), "the full error is logged"


def test_a_database_error_while_queueing_shows_no_sql(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    desk: Desk = make_desk()
    window = desk.window
    record = desk.core.store.submit(task_type="import", params={"file": str(CLEAN), "import_type": "customers"},
                                    creator="t", host="another-desk").task  # fmt: skip

    def broken_submit(**_kwargs: Any) -> SubmitResult:
        raise locked()

    monkeypatch.setattr(desk.core.store, "submit", broken_submit)
    with qtbot.waitSignal(desk.service.submit_failed, timeout=TIMEOUT):
        assert desk.service.complete_references(record)
    assert "database is locked" in window.last_message
    assert not any(mark in window.last_message for mark in SQL_TEXT), window.last_message


def test_a_cancel_that_fails_tells_the_clerk(qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    desk: Desk = make_desk()
    record = desk.core.store.submit(task_type="import", params={"file": str(CLEAN), "import_type": "customers"},
                                    creator="t", host="another-desk").task  # fmt: skip

    def broken_cancel(*_args: Any, **_kwargs: Any) -> Any:
        raise locked()

    monkeypatch.setattr(desk.core.store, "cancel", broken_cancel)
    with qtbot.waitSignal(desk.service.problem, timeout=TIMEOUT):
        desk.service.cancel(record)
    text = desk.window.last_message
    assert text.startswith(f"Task {record.task_no} could not be cancelled: ") and "database is locked" in text
    assert not any(mark in text for mark in SQL_TEXT), text


# --- 10: before the window, the settings' language ------------------------------------------


def test_start_up_errors_and_the_password_prompt_follow_the_settings_language(
    qtbot: Any, qapp: QApplication, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from desktop_app.ui import db_secret, main

    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    data = tmp_path / "data"
    save_settings(resolve_paths(data), Settings(language="zh"))
    args = argparse.Namespace(data_dir=str(data), db=None, verbose=False, open=None)

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(lambda _p, _t, text: shown.append(text)))

    def unusable(*_args: Any, **_kwargs: Any) -> Any:
        raise PermanentError(ErrorCode.DATA_DIR_UNUSABLE, path=str(data), detail="x")

    monkeypatch.setattr(main, "_build_core", unusable)
    assert main.run(args) == 1
    assert shown and shown[0].startswith("无法使用数据文件夹"), shown
    monkeypatch.undo()

    labels: list[str] = []
    monkeypatch.setattr(db_secret, "needs_password", lambda _url: True)
    monkeypatch.setattr(db_secret, "load_password", lambda _url: None)

    def get_text(_parent: Any, _title: str, label: str, _echo: Any) -> tuple[str, bool]:
        labels.append(label)
        return "", False

    monkeypatch.setattr("PySide6.QtWidgets.QInputDialog.getText", staticmethod(get_text))
    start = main.Startup(lang="zh", data_dir=data)
    url = "postgresql+psycopg://clerk@db.example/batchdesk"
    translators = len(qapp.findChildren(QTranslator))
    assert main._with_password(url, start) == url
    assert labels == [f"{url} 的密码："]
    qtbot.waitUntil(lambda: len(qapp.findChildren(QTranslator)) <= translators)  # the prompt's are gone again


# --- 11/12: nothing left behind --------------------------------------------------------------


def test_the_context_menu_is_built_once(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    window._context_menu(QPoint(5, 5))
    window.context_menu.hide()
    menus = len(window.findChildren(QMenu))
    for _ in range(3):
        window._context_menu(QPoint(5, 5))
        window.context_menu.hide()
    assert len(window.findChildren(QMenu)) == menus


def test_the_import_again_question_is_deleted_once_answered(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    window = desk.window
    task = desk.core.store.submit(task_type="import", params={"file": str(CLEAN), "import_type": "customers"},
                                  creator="t", host="another-desk").task  # fmt: skip
    window._ask_import_again(SubmitResult(task, duplicate_of=task.task_no, refused=True))
    box = window.question
    assert box is not None and box.isVisible()
    box.done(QMessageBox.StandardButton.No)
    qtbot.waitUntil(lambda: not shiboken6.isValid(box), timeout=TIMEOUT)
    assert window.question is None


def test_switching_languages_leaves_no_translators_behind(qtbot: Any, make_desk: Any, qapp: QApplication) -> None:
    desk: Desk = make_desk()
    before = len(qapp.findChildren(QTranslator))
    for lang in ("zh", "en", "zh", "en", "zh"):
        desk.set_language(lang)
    desk.set_language("en")
    qtbot.waitUntil(lambda: len(qapp.findChildren(QTranslator)) == before, timeout=TIMEOUT)


def test_shutdown_deletes_the_tray_menu(qtbot: Any, make_desk: Any) -> None:
    desk: Desk = make_desk()
    menu = desk.tray._menu
    assert menu is not None and shiboken6.isValid(menu)
    assert desk.shutdown(20)
    qtbot.waitUntil(lambda: not shiboken6.isValid(menu), timeout=TIMEOUT)


def test_the_file_open_filter_does_not_keep_its_owner_alive(qapp: QApplication, tmp_path: Path) -> None:
    opened: list[Path] = []

    class Owner(QObject):
        def open_file(self, path: Path) -> bool:
            opened.append(path)
            return True

    owner = Owner()
    event_filter = FileOpenFilter(owner.open_file)
    assert event_filter.eventFilter(owner, QFileOpenEvent(str(CLEAN)))
    assert opened == [CLEAN]
    gone = weakref.ref(owner)
    del owner
    assert gone() is None, "no strong reference back from the filter"
    assert not event_filter.eventFilter(event_filter, QFileOpenEvent(str(CLEAN)))
    assert not event_filter.eventFilter(event_filter, QEvent(QEvent.Type.Timer))
