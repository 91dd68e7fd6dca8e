"""A file handed over from outside: `--open FILE` (the installers' "Import with BatchDesk" verb and the
Linux menu entry) and macOS Finder's QFileOpenEvent both put it in the file field and open its preview."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from desktop_app.cli.parser import build_parser
from desktop_app.ui.dialogs.preview import PreviewDialog
from desktop_app.ui.main import run
from desktop_app.ui.main_window import MainWindow
from tests.gui.test_window_queue import CLEAN, ERRORS, TIMEOUT, open_preview, qtbot_left, wait_for_task


def wait_preview(qtbot: Any, window: MainWindow, path: Path) -> PreviewDialog:
    """The preview of `path`, once its first rows are shown."""
    qtbot.waitUntil(lambda: window.preview is not None and window.preview.rows_table.rowCount() > 0, timeout=TIMEOUT)
    assert window.preview is not None
    assert window.preview.path == path
    return window.preview


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """QMessageBox.warning's texts, the box itself not shown (it would block the test)."""
    shown: list[str] = []

    def warning(_parent: Any, _title: str, text: str, *_args: Any) -> QMessageBox.StandardButton:
        shown.append(text)
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    return shown


def test_the_parser_takes_open_file_and_a_bare_open() -> None:
    parser = build_parser()
    assert parser.parse_args(["--open", "a.csv"]).open == "a.csv"
    assert parser.parse_args(["--open"]).open is None, "a menu entry's `--open %f` launched without a file"
    assert parser.parse_args([]).open is None
    assert "--open" in parser.format_help()


def test_open_file_puts_it_in_the_field_and_shows_its_preview(qtbot: Any, make_desk: Any) -> None:
    desk = make_desk()
    window = desk.window
    assert desk.open_file(CLEAN)
    dialog = wait_preview(qtbot, window, CLEAN)
    assert window.panel.path_edit.text() == str(CLEAN)
    assert dialog.import_type() == "customers"
    assert not window.panel.queue_button.isEnabled(), "the preview is open: Queue cannot submit twice"
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), qtbot_left())
    task = wait_for_task(qtbot, window, 1)
    assert task.task_type == "import" and task.file_name == CLEAN.name


def test_a_file_open_event_sent_to_the_app_opens_the_preview(qtbot: Any, make_desk: Any, qapp: QApplication) -> None:
    window = make_desk().window
    window.hide()  # e.g. kept running in the tray: Finder's file brings it back
    assert QApplication.sendEvent(qapp, QFileOpenEvent(str(ERRORS))), "the filter takes the event"
    wait_preview(qtbot, window, ERRORS)
    assert window.isVisible()
    assert window.panel.path_edit.text() == str(ERRORS)
    # A URL that is not a local file is not BatchDesk's: the event goes on to Qt.
    assert not QApplication.sendEvent(qapp, QFileOpenEvent(QUrl("https://example.com/x.csv")))


def test_a_missing_file_shows_a_message_and_the_window_stays_usable(
    qtbot: Any, make_desk: Any, warnings: list[str], tmp_path: Path
) -> None:
    window = make_desk().window
    missing = tmp_path / "gone.csv"
    assert not window.open_file(missing)
    assert warnings == [f"File not found: {missing}"]
    assert window.preview is None and window.panel.path_edit.text() == ""
    assert window.isVisible()
    dialog = open_preview(qtbot, window, CLEAN)  # the clerk carries on as usual
    assert dialog.path == CLEAN


def test_an_unreadable_file_shows_a_message(
    make_desk: Any, warnings: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked.csv"
    locked.write_bytes(CLEAN.read_bytes())
    real_open = Path.open

    def open_(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path == locked:  # chmod 0 does not bind for root: refuse this one file as the system would
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    window = make_desk().window
    assert not window.open_file(locked)
    assert warnings == [f"{locked} cannot be read: Permission denied"]
    assert window.preview is None and window.panel.path_edit.text() == ""


def test_a_file_arriving_while_a_preview_is_open_waits_in_the_field(qtbot: Any, make_desk: Any) -> None:
    window = make_desk().window
    first = open_preview(qtbot, window, CLEAN)
    assert not window.open_file(ERRORS)
    assert window.preview is first, "the open preview stays; no second one"
    assert window.panel.path_edit.text() == str(ERRORS)
    assert ERRORS.name in window.last_message
    first.reject()
    qtbot.waitUntil(lambda: window.panel.queue_button.isEnabled(), timeout=TIMEOUT)
    qtbot.mouseClick(window.panel.queue_button, qtbot_left())
    wait_preview(qtbot, window, ERRORS)


def _run_window(qtbot: Any, qapp: QApplication, monkeypatch: pytest.MonkeyPatch, argv: list[str],
                drive: Callable[[MainWindow], None]) -> int:  # fmt: skip
    """`run(args)` as `python -m desktop_app ARGV` does (with --demo: a temp data dir and window settings,
    here without the demo's sample tasks); `drive(window)` runs inside the event loop, then the window quits."""
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    monkeypatch.setattr("desktop_app.ui.demo.sample_jobs", lambda _settings: [])
    monkeypatch.setattr("desktop_app.ui.main.freeze_startup_heap", lambda: None)  # no gc.freeze in the test run
    errors: list[BaseException] = []

    def step() -> None:
        windows = [w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        try:
            assert len(windows) == 1, windows
            drive(windows[0])
        except BaseException as exc:  # re-raised after the loop ends
            errors.append(exc)
        finally:
            for window in windows:
                window.allow_close = True
                window.close()
            qapp.quit()

    QTimer.singleShot(0, step)
    code = run(build_parser().parse_args(argv))
    if errors:
        raise errors[0]
    return code


def test_run_with_open_shows_the_window_with_the_files_preview(
    qtbot: Any, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def drive(window: MainWindow) -> None:
        dialog = wait_preview(qtbot, window, CLEAN)
        seen.append(window.panel.path_edit.text())
        dialog.reject()
        qtbot.waitUntil(lambda: window.preview is None, timeout=TIMEOUT)
        # The same window takes Finder's documents (the filter is installed by the run).
        QApplication.sendEvent(qapp, QFileOpenEvent(str(ERRORS)))
        wait_preview(qtbot, window, ERRORS).reject()

    assert _run_window(qtbot, qapp, monkeypatch, ["--demo", "--open", str(CLEAN)], drive) == 0
    assert seen == [str(CLEAN)]


def test_run_with_open_of_a_missing_file_still_opens_the_window(
    qtbot: Any, qapp: QApplication, monkeypatch: pytest.MonkeyPatch, warnings: list[str], tmp_path: Path
) -> None:
    missing = tmp_path / "gone.csv"

    def drive(window: MainWindow) -> None:
        qtbot.waitUntil(lambda: bool(warnings), timeout=TIMEOUT)
        assert window.isVisible() and window.preview is None
        open_preview(qtbot, window, CLEAN).reject()

    assert _run_window(qtbot, qapp, monkeypatch, ["--demo", "--open", str(missing)], drive) == 0
    assert warnings == [f"File not found: {missing}"]
