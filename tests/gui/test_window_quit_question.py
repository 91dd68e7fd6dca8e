"""Quitting asks only about what the clerk would miss (a clerk's tryout of the frozen app: "Tasks are still
running" with nothing running in the list, only a feed's scan pending, hidden)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.domain.feeds import FEED_PARAM
from tests.gui.test_window_queue import TIMEOUT


def desk_with_a_feed_scan(qtbot: Any, make_desk: Any, tmp_path: Path, *, running: bool) -> tuple[Any, list[bool]]:
    """A desk whose list holds only a feed's scan (another desk's: never run here), pending or running."""
    store = make_desk().core.store
    scan = store.submit(task_type="feed_scan", params={FEED_PARAM: "invoices"}, creator="BatchDesk",
                        host="another-desk").task  # fmt: skip
    if running:
        assert [t.id for t in store.claim("another-desk-worker", 1, only_ids=[scan.id])] == [scan.id]
    desk = make_desk(data_dir=tmp_path / "data")
    window = desk.window
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=TIMEOUT)
    assert window.proxy.rowCount() == 0, "a feed's scan is a system task: hidden"
    asked: list[bool] = []
    window.ask_close = lambda: asked.append(True) or "cancel"  # type: ignore[method-assign]
    return desk, asked


def test_a_pending_feed_scan_does_not_ask_at_quit(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk, asked = desk_with_a_feed_scan(qtbot, make_desk, tmp_path, running=False)
    desk.window.close()
    assert asked == [], "the list shows nothing running; the scan runs again at the next start"
    assert desk.quits == [True]


def test_a_running_hidden_task_is_named_in_the_quit_question(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk, asked = desk_with_a_feed_scan(qtbot, make_desk, tmp_path, running=True)
    window = desk.window
    window.close()
    assert asked == [True]
    assert "Running in the background: A feed's look at its folder" in window.close_question_text()


def test_the_quit_question_names_the_unfinished_tasks(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    """Seen through the bundle: "Tasks are still running" with one import running, neither which nor how many."""
    from dataclasses import replace

    from desktop_app.domain.status import TaskStatus
    from tests.gui.test_window_queue import CLEAN, queue, wait_for_task, wait_status

    window = make_desk().window
    qtbot.waitUntil(window.isVisible)
    queue(qtbot, window, CLEAN)
    done = wait_status(qtbot, window, wait_for_task(qtbot, window, 1).task_no, TaskStatus.SUCCEEDED)
    service = window.service
    one = replace(done, status=TaskStatus.RUNNING)
    service._active = {one.id: one}  # as the list holds it while it runs
    text = window.close_question_text()
    assert text.startswith(f"Task {done.task_no} ({CLEAN.name}) has not finished. Stop it now"), text
    others = [replace(one, id=one.id + n, task_no=f"T261207-ABC00{n}") for n in range(1, 7)]
    service._active = {r.id: r for r in (one, *others)}
    text = window.close_question_text()
    assert text.startswith(f"7 tasks have not finished ({done.task_no}, T261207-ABC001, "), text
    assert "T261207-ABC004, …). Stop them now" in text, text


def _one_running_undo(qtbot: Any, window: Any) -> Any:
    """An import done, then an undo of it running (as the list holds it): the undo has no file of its own."""
    from dataclasses import replace

    from desktop_app.domain.status import TaskStatus
    from tests.gui.test_window_queue import CLEAN, queue, wait_for_task, wait_status

    qtbot.waitUntil(window.isVisible)
    queue(qtbot, window, CLEAN)
    done = wait_status(qtbot, window, wait_for_task(qtbot, window, 1).task_no, TaskStatus.SUCCEEDED)
    undo = replace(done, id=done.id + 1, task_no="T261207-UND001", task_type="undo", status=TaskStatus.RUNNING,
                   params={"undoes": done.task_no}, result_path=None, summary={})  # fmt: skip
    return undo


def test_the_quit_question_names_an_undos_file_as_its_row_does(qtbot: Any, make_desk: Any) -> None:
    """Seen in a second tryout: "Task T… has not finished." for an undo, where its row's File cell names the
    undone import's file."""
    from tests.gui.test_window_queue import CLEAN

    window = make_desk().window
    undo = _one_running_undo(qtbot, window)
    assert window.model.file_cell(undo) == CLEAN.name
    window.service._active = {undo.id: undo}
    text = window.close_question_text()
    assert text.startswith(f"Task {undo.task_no} ({CLEAN.name}) has not finished. Stop it now"), text


def test_a_chinese_quit_question_joins_the_task_numbers_with_the_chinese_separator(
    qtbot: Any, make_desk: Any
) -> None:
    """Seen in a second tryout: "T…, T…" in a Chinese question, where "、" is usual."""
    from dataclasses import replace

    window = make_desk(language="zh").window
    undo = _one_running_undo(qtbot, window)
    others = [replace(undo, id=undo.id + n, task_no=f"T261207-ABC00{n}") for n in range(1, 7)]
    window.service._active = {r.id: r for r in others}
    text = window.close_question_text()
    assert "（T261207-ABC001、T261207-ABC002、" in text and "T261207-ABC005、…）" in text, text
    assert ", " not in text, text
