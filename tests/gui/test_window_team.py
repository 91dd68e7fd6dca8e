"""The window on a team database (issue 27, docs/TEAM.md): a clerk's desk connected as their own PostgreSQL
login lists only their tasks, its preview refuses before queueing what the login may not change, and only
an administrator's Settings has the Team page, through which a login is added and given rights."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from desktop_app.domain.viewer import Right
from desktop_app.ui.desk import Desk
from desktop_app.ui.dialogs.team import TeamPage
from tests.gui.test_window_queue import TIMEOUT, open_preview
from tests.support.customers import row, write_csv
from tests.support.team_pg import Team, queue, secure_with_clerks, team_schema


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Team]:
    """A secured PostgreSQL schema with two clerks (alice, bob: INSERT on customers) and boss, an
    administrator (skipped when PostgreSQL is not reachable, unless CI=true)."""
    with team_schema(tmp_path, monkeypatch) as made:
        secure_with_clerks(made)
        yield made


def desk_of(make_desk: Any, team: Team, who: str) -> Desk:
    desk: Desk = make_desk(data_dir=team.tmp / f"window-{who}", db_url=team.url_of(who))
    assert desk.core.login is not None and desk.core.login.name == team.name(who)
    return desk


def open_settings(qtbot: Any, desk: Desk) -> Any:
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=TIMEOUT)
    return dialog


def test_a_clerks_window_lists_only_their_tasks_and_refuses_a_mode_before_queueing(
    qtbot: Any, make_desk: Any, team: Team
) -> None:
    his = queue(team, "bob", 2)
    hers = queue(team, "alice", 1)
    window = desk_of(make_desk, team, "alice").window
    qtbot.waitUntil(lambda: window.model.rowCount() >= 1, timeout=TIMEOUT)
    qtbot.wait(300)  # a page with bob's task in it would have come by now
    listed = {window.model.record(r).task_no for r in range(window.model.rowCount())}
    assert listed == {hers["task_no"]} and his["task_no"] not in listed
    # her INSERT allows an insert: Queue is on once the rights are known
    path = write_csv(team.tmp / "mine.csv", [row(5)])
    dialog = open_preview(qtbot, window, path)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.waitUntil(ok.isEnabled, timeout=TIMEOUT)
    assert not dialog.missing_label.isVisible()
    # an update she may not make: said at once, Queue off, before anything is queued
    with qtbot.waitSignal(dialog.rights_checked, timeout=TIMEOUT):
        dialog.mode_box.setCurrentIndex(dialog.mode_box.findData("update"))
    says = "You may not change customers: ask an administrator for the right to update"
    assert says in dialog.missing_label.text() and dialog.missing_label.isVisible()
    assert not ok.isEnabled()
    dialog.mode_box.setCurrentIndex(dialog.mode_box.findData("insert"))  # known already: on again at once
    assert ok.isEnabled() and not dialog.missing_label.isVisible()
    dialog.reject()
    # her right to insert taken back (reading kept): the type is listed, but its preview refuses an insert
    team.ok(None, "admin", "revoke", team.name("alice"), "customers", "--insert")
    dialog = open_preview(qtbot, window, path)
    qtbot.waitUntil(lambda: "the right to insert" in dialog.missing_label.text(), timeout=TIMEOUT)
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    dialog.reject()
    assert [window.model.record(r).task_no for r in range(window.model.rowCount())] == [hers["task_no"]]
    # and a clerk's Settings has no Team page
    settings = open_settings(qtbot, window_desk := desk_of(make_desk, team, "bob"))
    assert settings.team_page is None and settings.tabs is None
    assert window_desk.team_admin is None
    settings.reject()


def test_an_administrators_settings_add_a_login_and_set_its_rights(qtbot: Any, make_desk: Any, team: Team) -> None:
    desk = desk_of(make_desk, team, "boss")
    settings = open_settings(qtbot, desk)
    page: TeamPage | None = settings.team_page
    assert page is not None and settings.tabs is not None
    settings.tabs.setCurrentWidget(page)
    qtbot.waitUntil(lambda: page.table.rowCount() >= 3, timeout=TIMEOUT)
    names = {u.name for u in page.users}
    assert {team.name(w) for w in ("alice", "bob", "boss")} <= names
    # fits a 1,024 x 700 screen, frame aside
    assert settings.sizeHint().width() <= 1024 and settings.sizeHint().height() <= 700
    # Add login…: a name, a generated password shown once
    carol = team.name("carol")
    page.open_add()
    add = page.add_dialog
    assert add is not None
    qtbot.keyClicks(add.name_edit, carol)
    with qtbot.waitSignal(page.added, timeout=TIMEOUT):
        add.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    shown = page.password_dialog
    assert shown is not None and shown.isVisible()
    password = shown.password_edit.text()
    assert len(password) >= 16 and shown.password_edit.isReadOnly()
    shown.copy()
    shown.reject()
    logs = [p.read_text(encoding="utf-8", errors="replace") for p in desk.core.paths.log_dir.rglob("*") if p.is_file()]
    assert logs and not any(password in text for text in logs)  # shown once, never logged
    qtbot.waitUntil(lambda: carol in {u.name for u in page.users}, timeout=TIMEOUT)
    users = {u["name"]: u for u in team.ok("boss", "admin", "users", "--json")}  # as team.users lists them
    assert users[carol]["login"] is True and users[carol]["admin"] is False
    # Rights…: insert and update on customers (reading implied)
    page.select(carol)
    page.open_rights()
    rights = page.rights_dialog
    assert rights is not None
    boxes = rights.boxes["customers"]
    boxes[Right.INSERT].setChecked(True)
    boxes[Right.UPDATE].setChecked(True)
    assert boxes[Right.SELECT].isChecked() and not boxes[Right.SELECT].isEnabled()
    with qtbot.waitSignal(page.rights_set, timeout=TIMEOUT):
        rights.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    users = {u["name"]: u for u in team.ok("boss", "admin", "users", "--json")}
    assert users[carol]["rights"]["customers"] == ["select", "insert", "update"]
    # a refusal from the server is said in words: a login that is no clerk's (the superuser)
    with qtbot.waitSignal(page.refused, timeout=TIMEOUT) as refused:
        page.add_login("postgres", None, admin=False)
    assert "does not allow this account" in refused.args[0] and "Traceback" not in refused.args[0]
    assert page.message_box is not None and page.message_box.isVisible()
    page.message_box.close()
    settings.reject()


def test_a_clerks_workbook_preview_refuses_a_sheet_she_may_not_write_before_queueing(
    qtbot: Any, make_desk: Any, team: Team
) -> None:
    from tests.support.customers import HEADER
    from tests.support.workbooks import write_book

    window = desk_of(make_desk, team, "alice").window
    book = write_book(team.tmp / "book.xlsx", [("客户", HEADER, [row(7), row(8)])])

    def open_book() -> Any:
        window.panel.set_path(book)
        window.menus.workbook_action.trigger()
        qtbot.waitUntil(lambda: window.workbook is not None, timeout=TIMEOUT)
        dialog = window.workbook
        qtbot.waitUntil(lambda: not dialog._checking, timeout=TIMEOUT)
        return dialog

    # her INSERT on customers: the sheet is matched and Queue is on once her rights are known
    dialog = open_book()
    assert dialog.cell(0, 2) == window.catalog.title("customers")
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert not dialog.problem_label.isVisibleTo(dialog)
    dialog.reject()
    qtbot.waitUntil(lambda: window.workbook is None, timeout=TIMEOUT)
    # her right to insert taken back (reading kept): the sheet is still matched, and refused before queueing
    team.ok(None, "admin", "revoke", team.name("alice"), "customers", "--insert")
    dialog = open_book()
    says = "Cannot queue: You may not change customers: ask an administrator for the right to insert"
    assert dialog.problem_label.text() == says and dialog.problem_label.isVisibleTo(dialog)
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert dialog.refused_types() == ["customers"]
    dialog.reject()
    assert window.model.rowCount() == 0  # nothing queued
