"""The window's task list shows the clerk's own tasks (an administrator's: everyone's) on every back-end,
and its View menu can show the archive; expired files say so instead of offering a dead link."""

from __future__ import annotations

from typing import Any

from desktop_app.domain.status import TaskStatus
from desktop_app.store.task_rows import new_task_no
from desktop_app.tasks.submit import current_user
from desktop_app.ui.desk import Desk
from desktop_app.ui.task_model import STAGE
from tests.gui.conftest import SlowImport, row_of
from tests.support.planted import plant

TIMEOUT = 10_000


def queued(desk: Desk, creator: str) -> Any:
    """A pending import of another desk (so this one never runs it) submitted by `creator`."""
    return desk.core.store.submit(task_type="import", params={"file": f"/elsewhere/{creator}.csv",
                                  "import_type": "customers"}, creator=creator, host="another-desk").task  # fmt: skip


def test_the_list_shows_the_clerks_own_tasks(qtbot: Any, db_url: str, make_desk: Any) -> None:
    desk: Desk = make_desk([SlowImport()], db_url=db_url, refresh_ms=50)
    model, me = desk.window.model, current_user()
    mine, theirs = queued(desk, me), queued(desk, "someone else")
    shared = db_url.split(":", 1)[0] != "sqlite"
    qtbot.waitUntil(lambda: model.row_of(mine.id) is not None, timeout=TIMEOUT)
    # another clerk's task this desk happens to hear of (its worker ran it) does not show either
    other = desk.core.store.get(theirs.task_no)
    desk.executor.task_changed.emit(other)
    qtbot.wait(300)  # several refreshes
    if shared:
        assert model.row_of(theirs.id) is None and not desk.service.viewer.is_admin
        desk.service.cancel(other)  # the service would not cancel it either
        qtbot.wait(200)
        assert desk.core.store.get(theirs.task_no).status is TaskStatus.PENDING  # type: ignore[union-attr]
        from desktop_app.store import admins

        admins.add(desk.core.store.engine, me, by=me)  # the first administrator: sees everyone's
        model.reload()
        model.fetchMore()
    qtbot.waitUntil(lambda: model.row_of(theirs.id) is not None, timeout=TIMEOUT)
    assert desk.service.viewer.is_admin
    assert desk.shutdown(20)
    desk.core.store.engine.dispose()  # before the database is dropped


def test_the_view_menu_shows_the_archive(qtbot: Any, make_desk: Any) -> None:
    from desktop_app.store.archive import archive_ended_before

    desk: Desk = make_desk([SlowImport()], refresh_ms=50)
    store, window = desk.core.store, desk.window
    old = plant(store, new_task_no(), ended_days_ago=120, summary={"expired": True, "error_csv": "/gone.csv"})
    live = queued(desk, current_user())
    qtbot.waitUntil(lambda: window.model.row_of(live.id) is not None, timeout=TIMEOUT)
    assert archive_ended_before(store, store.now(-90 * 86400)) == 1
    assert window.menus.archived_action in window.menus.view_menu.actions() and window.menus.archived_action.text()
    window.menus.archived_action.setChecked(True)
    qtbot.waitUntil(lambda: window.model.rowCount() == 1 and window.model.record(0).id == old.id, timeout=TIMEOUT)
    qtbot.wait(200)  # refreshes do not bring the live tasks back in
    assert window.model.row_of(live.id) is None
    # an expired task says so, and offers no dead link to its files
    assert window.model.index(row_of(window.model, old.task_no), STAGE).data() == "Expired: its files were deleted"
    assert window.select_task(old.id)
    assert not window.actions_.open_errors.isEnabled() and not window.actions_.open_folder.isEnabled()
    window.menus.archived_action.setChecked(False)
    qtbot.waitUntil(lambda: window.model.row_of(live.id) is not None, timeout=TIMEOUT)
    assert window.model.row_of(old.id) is None


def test_tasks_the_clean_up_archives_leave_the_list(qtbot: Any, make_desk: Any) -> None:
    """A task the daily clean-up moves to the archive leaves the open window's list when the clean-up
    ends (before: its row stayed, with a results link to deleted files, until a restart)."""
    desk: Desk = make_desk(refresh_ms=50)
    store, window = desk.core.store, desk.window
    old = plant(store, new_task_no(), ended_days_ago=120)
    window.model.reload()  # planted after the first page was read
    window.model.fetchMore()
    qtbot.waitUntil(lambda: window.model.row_of(old.id) is not None, timeout=TIMEOUT)
    cleanup = store.submit(task_type="cleanup", params={"retention_days": 7, "archive_days": 90},
                           creator="BatchDesk").task  # fmt: skip
    qtbot.waitUntil(lambda: store.get(cleanup.task_no).status is TaskStatus.SUCCEEDED, timeout=TIMEOUT)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: window.model.row_of(old.id) is None, timeout=TIMEOUT)
    assert window.model.row_of(cleanup.id) is not None  # the list was read again, not emptied
    assert desk.shutdown(20)
