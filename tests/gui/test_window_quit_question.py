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
