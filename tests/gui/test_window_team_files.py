"""A task's files on another desk of its owner (issue 27, docs/TEAM.md): an error CSV the shared database keeps is
fetched off the GUI thread (a busy cursor and a status text meanwhile, a failure in words), and a dry run's plan,
which stays on the desk that made it, is said to be there, its change file offered instead and its apply refused
naming that desk. "Another desk" is simulated on SQLite: a record whose host differs and whose plan file is
absent; the database's fetch is monkeypatched."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from desktop_app.domain.errors import PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.change_plan import plan_path
from desktop_app.store.task_files import FileKind
from tests.gui.test_plan_view import dry_run_with_plan
from tests.gui.test_window_queue import ERRORS, TIMEOUT, qtbot_left, queue, wait_for_task, wait_status

OTHER_DESK = "desk-b.example"


def opened_paths(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    opened: list[Path] = []

    def open_url(url: QUrl) -> bool:
        opened.append(Path(url.toLocalFile()))
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(open_url))
    return opened


def busy_cursor() -> bool:
    cursor = QGuiApplication.overrideCursor()
    return cursor is not None and cursor.shape() == Qt.CursorShape.BusyCursor


def test_an_error_csv_kept_in_the_database_is_fetched_off_the_gui_thread_then_opened(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opened = opened_paths(monkeypatch)
    window = make_desk().window
    queue(qtbot, window, ERRORS)
    task = wait_for_task(qtbot, window, 1)
    done = wait_status(qtbot, window, task.task_no, TaskStatus.PARTIALLY_SUCCEEDED)
    window.select_task(done.id)
    qtbot.waitUntil(window.actions_.open_errors.isEnabled, timeout=TIMEOUT)
    # another desk of the owner's ran it: the file must come from the database (a slow fetch, here held)
    submitter = window.service.submitter
    fetched = tmp_path / "fetched.csv"
    fetched.write_text("row,reason\n", encoding="utf-8")
    gate, threads, asked = threading.Event(), [], []

    def task_file(record: TaskRecord, kind: FileKind, *, strict: bool = False) -> Path:
        threads.append(threading.current_thread())
        asked.append((record.task_no, kind, strict))
        assert gate.wait(20)
        return fetched

    monkeypatch.setattr(submitter, "task_file_at_hand", lambda _record, _kind: (False, None))
    monkeypatch.setattr(submitter, "task_file", task_file)
    window.actions_.open_errors.trigger()
    # the window is not frozen: it says what it does, with a busy cursor, and nothing is open yet
    says = f"Fetching the file of {done.task_no} from the database…"
    assert window.statusBar().currentMessage() == says and busy_cursor() and opened == []
    window.actions_.open_errors.trigger()  # asked again meanwhile: one fetch, one opening
    qtbot.wait(100)
    assert opened == []
    gate.set()
    qtbot.waitUntil(lambda: opened == [fetched], timeout=TIMEOUT)
    assert threads and all(t is not threading.main_thread() for t in threads)
    # one fetch for the opening (the window's look for values to fix may read the file too, off the GUI thread)
    assert [a for a in asked if a[2]] == [(done.task_no, FileKind.ERRORS, True)]
    assert not busy_cursor() and window.statusBar().currentMessage() == ""
    # re-importing it previews the fetched copy
    window.actions_.reimport.trigger()
    qtbot.waitUntil(lambda: window.preview is not None, timeout=TIMEOUT)
    assert window.preview is not None and window.preview.path == fetched
    window.preview.reject()

    # the database could not be reached: said in words, no SQL, the cursor back
    def unreachable(record: TaskRecord, kind: FileKind, *, strict: bool = False) -> Path:
        raise OperationalError("SELECT data FROM task_file_chunks", {}, Exception("connection refused"))

    monkeypatch.setattr(submitter, "task_file", unreachable)
    window.actions_.open_errors.trigger()
    qtbot.waitUntil(lambda: "could not be fetched" in window.last_message, timeout=TIMEOUT)
    assert window.last_message.startswith(f"The file of {done.task_no} could not be fetched from the database: ")
    assert "SELECT" not in window.last_message and "Traceback" not in window.last_message
    assert not busy_cursor() and opened == [fetched]


def test_a_plan_made_on_another_desk_is_said_to_be_there_and_its_change_file_opens(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opened = opened_paths(monkeypatch)
    desk = make_desk()
    window = desk.window
    done = dry_run_with_plan(qtbot, desk, tmp_path)
    # the dry run ran on another desk: its plan file is there, not here (the shared database keeps no plan)
    plan_path(desk.core.paths.results_dir, done.task_no).unlink()
    with desk.core.store.engine.begin() as conn:
        conn.execute(text("UPDATE tasks SET host = :h WHERE id = :i"), {"h": OTHER_DESK, "i": done.id})
    elsewhere = replace(done, host=OTHER_DESK, summary={**done.summary, "changes_csv": "/elsewhere/changes.csv",
                                                        "plan_counts": {"inserted": 2, "unchanged": 3}})  # fmt: skip
    window.service.record_changed.emit(elsewhere)
    window.select_task(done.id)
    qtbot.waitUntil(window.actions_.review_plan.isEnabled, timeout=TIMEOUT)
    window.actions_.review_plan.trigger()
    qtbot.waitUntil(lambda: window.plan_dialog is not None and window.plan_dialog.elsewhere is not None,
                    timeout=TIMEOUT)  # fmt: skip
    dialog = window.plan_dialog
    assert dialog is not None
    says = dialog.problem_label.text()
    assert says.startswith(f"The plan of {done.task_no} is kept on the desk {OTHER_DESK}, where its dry run ran")
    assert dialog.problem_label.isVisibleTo(dialog) and "gone" not in says
    assert not dialog.apply_button.isEnabled() and dialog.discard_button.isEnabled()
    assert not dialog.table.isVisibleTo(dialog) and dialog.counts_label.text() == "5 rows: 2 to insert · 3 unchanged"
    assert dialog.changes_button.isVisibleTo(dialog) and dialog.changes_button.text() == "&Open the change file"
    # "Open the change file": the copy the database keeps, fetched (monkeypatched) off the GUI thread
    changes = tmp_path / "changes.csv"
    changes.write_text("row,action\n", encoding="utf-8")
    submitter = window.service.submitter
    kinds: list[FileKind] = []

    def task_file(record: TaskRecord, kind: FileKind, *, strict: bool = False) -> Path:
        kinds.append(kind)
        return changes

    monkeypatch.setattr(submitter, "task_file_at_hand", lambda _record, _kind: (False, None))
    monkeypatch.setattr(submitter, "task_file", task_file)
    qtbot.mouseClick(dialog.changes_button, qtbot_left())
    qtbot.waitUntil(lambda: opened == [changes], timeout=TIMEOUT)
    assert kinds == [FileKind.CHANGES]
    dialog.reject()
    # the command line's `apply` (the same Submitter) needs the plan file here: refused, naming the desk
    with pytest.raises(PermanentError) as refused:
        submitter.submit_apply(done.task_no, user="tester")
    assert refused.value.text("en") == (f"The change plan of the dry run {done.task_no} is kept on the desk "
                                        f"{OTHER_DESK}, where it ran: review and apply it there (here you can "
                                        "open its change file)")  # fmt: skip
    assert OTHER_DESK in refused.value.text("zh")


def test_the_workbook_preview_refuses_a_sheet_the_login_may_not_write_before_queueing(qtbot: Any) -> None:
    """Team mode: each matched sheet's type asked of the rights check (off the GUI thread); one refused is
    said in words, its row marked, and Queue stays off (the workbook is queued whole)."""
    from desktop_app.domain.errors import ErrorCode
    from desktop_app.imports.workbook import MatchedBy, SheetPlan, Skip
    from desktop_app.ui.background import Background
    from desktop_app.ui.dialogs.workbook import TYPE, WorkbookDialog

    plans = [SheetPlan("客户", 0, "customers", MatchedBy.HEADER), SheetPlan("商品", 1, "goods", MatchedBy.HEADER),
             SheetPlan("notes", 2, skipped=Skip.NO_MATCH)]  # fmt: skip
    asked: list[tuple[str, str, bool]] = []

    def rights(import_type: str, mode: str) -> PermanentError | None:
        asked.append((import_type, mode, threading.current_thread() is threading.main_thread()))
        if import_type != "customers":
            return None
        return PermanentError(ErrorCode.TEAM_MAY_NOT, name="customers", rights_en="insert", rights_zh="插入")

    def dialog_with(check: Any) -> WorkbookDialog:
        background = Background(lambda work: threading.Thread(target=work).start())
        dialog = WorkbookDialog(Path("book.xlsx"), plans, plans[:2], title_of=str.title,
                                reason_of=lambda _plan: "no type", background=background, rights=check)  # fmt: skip
        dialog._keep = background  # type: ignore[attr-defined]  # alive as long as the dialog
        qtbot.addWidget(dialog)
        dialog.show()
        return dialog

    dialog = dialog_with(rights)
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    assert not ok.isEnabled()  # not known yet: not let through
    qtbot.waitUntil(lambda: not dialog._checking, timeout=TIMEOUT)
    assert sorted(asked) == [("customers", "insert", False), ("goods", "insert", False)]
    says = "Cannot queue: You may not change customers: ask an administrator for the right to insert"
    assert dialog.problem_label.text() == says and dialog.problem_label.isVisibleTo(dialog)
    assert dialog.refused_types() == ["customers"] and not ok.isEnabled()
    assert dialog.cell(0, TYPE) == "Customers (not allowed)" and dialog.cell(1, TYPE) == "Goods"
    # every type allowed: Queue on once known, nothing said
    allowed = dialog_with(lambda _t, _m: None)
    ok = allowed.buttons.button(allowed.buttons.StandardButton.Ok)
    qtbot.waitUntil(ok.isEnabled, timeout=TIMEOUT)
    assert not allowed.problem_label.isVisibleTo(allowed) and allowed.refused_types() == []

    # the rights could not be read: let through (the submission checks them again)
    def unreadable(_t: str, _m: str) -> PermanentError | None:
        raise OperationalError("SELECT has_table_privilege(...)", {}, Exception("gone"))

    let_through = dialog_with(unreadable)
    ok = let_through.buttons.button(let_through.buttons.StandardButton.Ok)
    qtbot.waitUntil(ok.isEnabled, timeout=TIMEOUT)
