"""The window's Feeds view (issue 25): the list with each feed's state and today's files, add and edit with
a folder preview, pause / resume / run now / remove, problems in words; a feed's import named in the list."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from desktop_app.domain.feeds import FEED_PARAM, FeedSpec, FeedState, Schedule
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.store.feeds import FeedStore
from desktop_app.tasks.builtin_kinds import builtin_task_kinds
from desktop_app.ui.desk import Desk
from desktop_app.ui.details import DetailsPanel
from desktop_app.ui.dialogs.feed_edit import FeedDialog
from desktop_app.ui.dialogs.feeds import FeedsWindow
from desktop_app.ui.feeds_model import COLUMN_COUNT, FOLDER, NAME, PROFILE, STATE, TODAY, TYPE, WAITING
from desktop_app.ui.task_model import FILE, TaskTableModel
from tests.support.customers import row, write_csv

WAIT = 30_000


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def add(desk: Desk, folder: Path, name: str = "Bank", **spec: Any) -> None:
    spec.setdefault("settle", 0)
    full = FeedSpec(name=name, folder=str(folder), import_type="customers", **spec)
    desk.core.feeds().add(full, user=desk.service.viewer.user)


def open_feeds(qtbot: Any, desk: Desk) -> FeedsWindow:
    desk.window.menus.feeds_action.trigger()
    window = desk.feeds_window
    assert window is not None and window.isVisible()
    return window


def cell(window: FeedsWindow, name: str, column: int) -> str:
    row = window.model.row_of(name)
    return "" if row < 0 else str(window.model.index(row, column).data())


def select(qtbot: Any, window: FeedsWindow, name: str) -> None:
    qtbot.waitUntil(lambda: window.model.row_of(name) >= 0, timeout=WAIT)
    window.select(name)
    assert window.selected() is not None and window.selected().feed.name == name  # type: ignore[union-attr]


def editor(qtbot: Any, window: FeedsWindow) -> FeedDialog:
    qtbot.waitUntil(lambda: window.editor is not None and window.editor.isVisible(), timeout=WAIT)
    assert window.editor is not None
    return window.editor


def ok(dialog: FeedDialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def stored(desk: Desk, name: str = "Bank") -> Any:
    return FeedStore(desk.core.store.engine).get(name)


def paused(qtbot: Any, desk: Desk, folder: Path) -> FeedsWindow:
    """The Feeds view with the feed Bank on `folder` added, selected and paused with its button."""
    add(desk, folder)
    window = open_feeds(qtbot, desk)
    select(qtbot, window, "Bank")
    window.pause_button.click()
    qtbot.waitUntil(lambda: cell(window, "Bank", STATE) == "Paused", timeout=WAIT)
    return window


def test_the_list_shows_a_feeds_state_and_todays_files_and_its_imports_name_it(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    desk = make_desk()
    write_csv(inbox / "good.csv", [row(i) for i in range(1, 4)])
    write_csv(inbox / "bad.csv", [row(i, 手机号="x") for i in range(4, 6)])
    add(desk, inbox)
    window = open_feeds(qtbot, desk)
    # the desk's own executor runs the feed's scans and imports; the list follows as they end
    qtbot.waitUntil(lambda: cell(window, "Bank", TODAY) == "1 / 1 / 0", timeout=WAIT)
    assert cell(window, "Bank", STATE) in ("Watching", "Scanning now")
    assert (cell(window, "Bank", FOLDER), cell(window, "Bank", TYPE)) == (str(inbox.resolve()), "Customer import")
    assert cell(window, "Bank", PROFILE) == "(none)" and cell(window, "Bank", NAME) == "Bank"
    # a task from a feed says so in the task list and in its details
    model = desk.window.model
    qtbot.waitUntil(lambda: any(model.record(r).params.get("feed_name") for r in range(model.rowCount())), timeout=WAIT)
    rows = [r for r in range(model.rowCount()) if model.record(r).params.get("feed_name") == "Bank"]
    files = sorted(str(model.index(r, FILE).data()) for r in rows)
    assert files[0] in ("bad.csv · feed Bank", "good.csv · feed Bank"), files
    details = DetailsPanel(desk.catalog, kinds=desk.kinds)
    details.show_record(model.record(rows[0]))
    assert details._labels["feed"].text() == "Bank" and details._names["feed"].text().startswith("Feed")
    # in Chinese too
    desk.set_language("zh")
    qtbot.waitUntil(lambda: cell(window, "Bank", STATE) in ("在监视", "正在查看"), timeout=WAIT)
    qtbot.waitUntil(lambda: window.add_button.text() == "添加(&A)…", timeout=WAIT)
    assert window.model.headers()[0] == "名称"
    assert str(model.index(rows[0], FILE).data()).endswith("· 监视文件夹 Bank")


def test_the_file_cell_names_the_feed_only_of_a_feeds_import(qapp: Any) -> None:
    model = TaskTableModel(lambda _before, _limit: None, kinds=builtin_task_kinds())
    stamp = dt.datetime(2025, 3, 1, 12, 0)
    by_hand = TaskRecord(id=1, task_no="T1", task_type="import", lane=Lane.LONG, status=TaskStatus.PENDING,
                         params={"file": "/in/bank-05-01.csv", "import_type": "customers"}, created_at=stamp,
                         updated_at=stamp)  # fmt: skip
    from_feed = replace(by_hand, id=2, task_no="T2", params={**by_hand.params, FEED_PARAM: "Bank"})
    model.add_page(None, [from_feed, by_hand])
    assert [model.index(r, FILE).data() for r in range(2)] == ["bank-05-01.csv · feed Bank", "bank-05-01.csv"]


def test_adding_a_feed_in_the_dialog_previews_the_files_its_pattern_takes(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    desk = make_desk()
    for name in ("a.csv", "b.CSV", "c.xlsx", "notes.txt", "~$c.xlsx", ".hidden.csv"):
        (inbox / name).write_text("x")
    window = open_feeds(qtbot, desk)
    assert not window.empty_label.isHidden()
    window.add_button.click()
    dialog = editor(qtbot, window)
    assert dialog.windowTitle() == "Add a feed" and dialog.pattern_edit.text() == "*.csv;*.xlsx;*.xls"
    qtbot.waitUntil(lambda: dialog.preview_label.text() == "Choose a folder to see which files match", timeout=WAIT)
    dialog.name_edit.setText("Bank")
    dialog.folder_edit.setText(str(inbox))
    qtbot.waitUntil(lambda: dialog.preview_label.text() == "3 files match now", timeout=WAIT)
    dialog.pattern_edit.setText("*.txt")
    qtbot.waitUntil(lambda: dialog.preview_label.text() == "1 file matches now", timeout=WAIT)
    dialog.pattern_edit.setText("*.json")
    qtbot.waitUntil(lambda: dialog.preview_label.text() == "No file matches now", timeout=WAIT)
    dialog.folder_edit.setText(str(inbox / "missing"))
    qtbot.waitUntil(lambda: dialog.preview_label.text() == "The folder cannot be read", timeout=WAIT)
    dialog.folder_edit.setText(str(inbox))
    dialog.pattern_edit.setText("*.csv")
    dialog.settle_box.setValue(0)
    dialog.mode_box.setCurrentIndex(dialog.mode_box.findData("upsert"))
    dialog.in_order_box.setChecked(True)
    ok(dialog)
    qtbot.waitUntil(lambda: window.editor is None and window.model.row_of("Bank") >= 0, timeout=WAIT)
    spec = stored(desk).spec
    assert (spec.folder, spec.pattern, spec.mode, spec.settle, spec.in_order) == (str(inbox.resolve()), "*.csv",
                                                                                    "upsert", 0, True)  # fmt: skip
    assert window.selected() is not None and window.empty_label.isHidden()


def test_editing_a_feed_changes_it_and_a_problem_is_said_in_words(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path, tmp_path: Path
) -> None:
    desk = make_desk()
    add(desk, inbox, schedule=Schedule(every=600), mail_to=("clerk@bank.example",))
    # its first scan over: a folder change while a scan runs is refused (feed_scanning), rightly
    feeds, viewer = desk.core.feeds(), desk.service.viewer
    qtbot.waitUntil(lambda: feeds.view("Bank", viewer).feed.last_scan_at is not None
                    and not feeds.view("Bank", viewer).scanning, timeout=WAIT)  # fmt: skip
    window = open_feeds(qtbot, desk)
    select(qtbot, window, "Bank")
    window.edit_button.click()
    dialog = editor(qtbot, window)
    assert dialog.name_edit.isReadOnly() and dialog.name_edit.text() == "Bank"
    assert dialog.every_radio.isChecked() and dialog.every_box.value() == 600
    # a time of day that is not one: said under the fields, nothing saved
    dialog.at_radio.setChecked(True)
    dialog.at_edit.setText("7h30")
    ok(dialog)
    assert dialog.isVisible() and "HH:MM" in dialog.problem_label.text() and not dialog.problem_label.isHidden()
    # the service's refusal: in words, the dialog stays open to mend it
    dialog.at_edit.setText("07:30, 13:00")
    dialog.folder_edit.setText(str(tmp_path / "gone"))
    ok(dialog)
    qtbot.waitUntil(lambda: "does not exist" in dialog.problem_label.text(), timeout=WAIT)
    assert dialog.isVisible() and "Traceback" not in window.last_message
    other = tmp_path / "other"
    other.mkdir()
    dialog.folder_edit.setText(str(other))
    ok(dialog)
    qtbot.waitUntil(lambda: window.editor is None, timeout=WAIT)
    spec = stored(desk).spec
    assert spec.folder == str(other.resolve()) and spec.schedule.at == (dt.time(7, 30), dt.time(13, 0))
    assert spec.mail_to == ("clerk@bank.example",)  # not in the dialog: kept as it was


def test_a_name_in_use_is_refused_in_words(qtbot: Any, make_desk: Callable[..., Desk], inbox: Path) -> None:
    desk = make_desk()
    add(desk, inbox)
    window = open_feeds(qtbot, desk)
    window.add_button.click()
    dialog = editor(qtbot, window)
    dialog.name_edit.setText("BANK")
    dialog.folder_edit.setText(str(inbox))
    ok(dialog)
    qtbot.waitUntil(lambda: dialog.problem_label.text() == "A feed named BANK exists already", timeout=WAIT)
    assert window.last_message == "A feed named BANK exists already"


def test_pause_resume_run_now_open_folder_and_remove(qtbot: Any, make_desk: Callable[..., Desk], inbox: Path) -> None:
    desk = make_desk()
    window = paused(qtbot, desk, inbox)
    assert stored(desk).paused and window.resume_button.isEnabled() and not window.pause_button.isEnabled()
    assert not window.run_button.isEnabled()
    window.resume_button.click()
    qtbot.waitUntil(lambda: not stored(desk).paused and window.pause_button.isEnabled(), timeout=WAIT)
    requests = stored(desk).run_requests
    window.run_button.click()
    qtbot.waitUntil(lambda: stored(desk).run_requests == requests + 1, timeout=WAIT)
    opened: list[Path] = []
    window._open_folder = lambda path: opened.append(path) or True
    window.folder_button.click()
    assert opened == [inbox.resolve()]
    window._open_folder = lambda path: False
    window.folder_button.click()
    assert window.last_message == f"The folder {inbox.resolve()} could not be opened."
    # remove asks first, naming the feed; Cancel keeps it
    window.remove_button.click()
    question = window.question
    assert question is not None and "“Bank”" in question.text() and "stay" in question.text()
    question.button(QMessageBox.StandardButton.Cancel).click()
    assert stored(desk) is not None
    window.remove_button.click()
    assert window.question is not None
    window.question.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: stored(desk) is None and window.model.row_of("Bank") < 0, timeout=WAIT)


def test_a_feed_whose_folder_went_away_says_why_in_its_tooltip(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    desk = make_desk()
    add(desk, inbox)
    inbox.rmdir()
    window = open_feeds(qtbot, desk)
    qtbot.waitUntil(lambda: cell(window, "Bank", STATE) == "Folder not reachable", timeout=WAIT)
    tip = window.model.index(window.model.row_of("Bank"), STATE).data(3)  # ToolTipRole
    assert "is not reachable; looking again in" in tip
    assert window.model.view_at(window.model.row_of("Bank")).state is FeedState.OFFLINE  # type: ignore[union-attr]


def test_the_feeds_view_fits_a_small_screen(qtbot: Any, make_desk: Callable[..., Desk]) -> None:
    """Its first size is wider than a 1,024-px screen: it opens cut to the screen, frame included."""
    desk = make_desk()
    view = open_feeds(qtbot, desk)
    screen = view.screen().availableGeometry()
    qtbot.waitUntil(lambda: view.frameGeometry().width() <= screen.width(), timeout=WAIT)
    assert screen.contains(view.frameGeometry()), (view.frameGeometry(), screen)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024_px_every_column_title_of_the_feeds_reads_whole(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path, lang: str
) -> None:
    """Seen at 1024 x 700: the Feeds view's titles were cut ("Next run" at the edge, a sideways scroll bar)
    as each column took its contents' width. The folder gives way (its path whole in its tooltip), each
    title reads whole, and nothing scrolls sideways."""
    desk = make_desk()
    if lang != "en":
        desk.set_language(lang)
    deep = inbox / "branches" / "east-region" / "customers" / "daily-files-from-the-bank"
    deep.mkdir(parents=True)
    add(desk, deep)
    add(desk, inbox, name="East branch")
    view = open_feeds(qtbot, desk)
    qtbot.waitUntil(lambda: view.model.row_of("Bank") >= 0 and not view._reading, timeout=WAIT)
    view.screen_keeper.release()  # type: ignore[attr-defined]
    view.resize(1024 - 2, 600)  # as cut to a 1,024-px screen, its frame included
    qtbot.waitUntil(lambda: view.width() == 1022)
    table, header = view.table, view.table.horizontalHeader()
    qtbot.wait(50)
    assert table.horizontalScrollBar().maximum() == 0, "no sideways scrolling"
    for column in range(view.model.columnCount()):
        title = str(view.model.headerData(column, Qt.Orientation.Horizontal))
        assert header.fontMetrics().horizontalAdvance(title) + 8 <= header.sectionSize(column), (title, column)
    assert header.sectionViewportPosition(COLUMN_COUNT - 1) + header.sectionSize(COLUMN_COUNT - 1) <= (
        table.viewport().width())  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_1024_px_the_feeds_titles_read_whole_with_a_row_selected(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path, lang: str
) -> None:
    """Seen at 1024 x 700: once a feed was selected, the header's titles turned bold (the sections of a
    selected row highlighted) and "Today: imported / failed / duplicates" read "oday: imported / failed /
    duplicate". Each title reads whole in the font it is painted with, a row selected or not."""
    desk = make_desk()
    if lang != "en":
        desk.set_language(lang)
    add(desk, inbox)
    view = open_feeds(qtbot, desk)
    qtbot.waitUntil(lambda: view.model.row_of("Bank") >= 0 and not view._reading, timeout=WAIT)
    view.screen_keeper.release()  # type: ignore[attr-defined]
    view.resize(1024 - 2, 600)
    qtbot.waitUntil(lambda: view.width() == 1022)
    select(qtbot, view, "Bank")
    qtbot.wait(50)
    header = view.table.horizontalHeader()
    font = header.font()
    # QHeaderView paints a section bold when it highlights sections and the selection crosses it
    font.setBold(header.highlightSections() and view.table.selectionModel().hasSelection())
    metrics = QFontMetrics(font)
    for column in range(view.model.columnCount()):
        title = str(view.model.headerData(column, Qt.Orientation.Horizontal))
        assert metrics.horizontalAdvance(title) + 8 <= header.sectionSize(column), (title, column)


def test_a_column_width_set_by_hand_survives_the_lists_refresh(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    desk = make_desk()
    add(desk, inbox)
    window = open_feeds(qtbot, desk)
    qtbot.waitUntil(lambda: window.model.row_of("Bank") >= 0 and not window._reading, timeout=WAIT)
    header = window.table.horizontalHeader()
    fitted = header.sectionSize(FOLDER)
    header.resizeSection(FOLDER, fitted + 77)  # the clerk drags the folder column wider
    window.refresh()
    assert window._reading
    qtbot.waitUntil(lambda: not window._reading and not window._read_again, timeout=WAIT)
    assert header.sectionSize(FOLDER) == fitted + 77


def test_a_listing_that_fails_says_why_in_words_and_newer_fields_are_listed_then(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import desktop_app.ui.dialogs.feed_edit as feed_edit
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from desktop_app.feeds.folder import MatchNow

    release = threading.Event()
    calls: list[str] = []

    def listing(folder: str, pattern: str) -> MatchNow:
        calls.append(pattern)
        if pattern == "*.slow":
            release.wait(WAIT / 1000)  # still listing when the clerk types on
        if pattern in ("*.slow", "*.bad"):
            raise PermanentError(ErrorCode.FEED_FOLDER_MISSING, folder=folder)
        return MatchNow(names=("a.csv",))

    monkeypatch.setattr(feed_edit, "matching_now", listing)
    desk = make_desk()
    desk.set_language("zh")
    window = open_feeds(qtbot, desk)
    window.add_button.click()
    dialog = editor(qtbot, window)
    dialog.folder_edit.setText(str(inbox))
    dialog.pattern_edit.setText("*.bad")
    qtbot.waitUntil(lambda: calls[-1:] == ["*.bad"] and not dialog._listing, timeout=WAIT)
    # the reason in the window's language, not the exception's text
    assert dialog.preview_label.text() == dialog.tr("The folder cannot be read")
    missing = PermanentError(ErrorCode.FEED_FOLDER_MISSING, folder=str(inbox))
    assert dialog.preview_label.toolTip() == missing.text("zh") != str(missing)
    # a listing that fails after the fields changed: the fields as they are now are listed then
    dialog.pattern_edit.setText("*.slow")
    qtbot.waitUntil(lambda: calls[-1:] == ["*.slow"], timeout=WAIT)
    turn = dialog._preview_turn
    dialog.pattern_edit.setText("*.csv")
    qtbot.waitUntil(lambda: dialog._preview_turn > turn, timeout=WAIT)
    release.set()
    qtbot.waitUntil(lambda: calls[-1:] == ["*.csv"] and not dialog._listing, timeout=5000)
    assert dialog.preview_label.text() == dialog.preview_text(MatchNow(names=("a.csv",)))


def test_after_pause_the_focus_is_on_resume_not_on_remove(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    """Seen under Xvfb: pressed from the keyboard, Pause went grey and the focus moved on to Remove…, one
    stray Enter from the question that removes the feed. It goes to Resume, and back to Pause."""
    desk = make_desk()
    add(desk, inbox)
    window = open_feeds(qtbot, desk)
    select(qtbot, window, "Bank")
    window.activateWindow()
    window.pause_button.setFocus()
    qtbot.waitUntil(window.pause_button.hasFocus, timeout=WAIT)
    qtbot.keyClick(window.pause_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: cell(window, "Bank", STATE) == "Paused", timeout=WAIT)
    assert window.resume_button.hasFocus() and not window.remove_button.hasFocus()
    qtbot.keyClick(window.resume_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not stored(desk).paused and window.pause_button.isEnabled(), timeout=WAIT)
    assert window.pause_button.hasFocus()


def test_a_paused_feed_shows_the_files_waiting_in_its_folder(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    """Seen by a clerk: a paused feed read "Waiting 0" with a file in its folder; it counts it, imports nothing,
    and its tooltip says the files wait for it to be resumed."""
    desk = make_desk()
    window = paused(qtbot, desk, inbox)
    write_csv(inbox / "bank-05-01.csv", [row(1)])
    window.refresh()
    qtbot.waitUntil(lambda: cell(window, "Bank", WAITING) == "1", timeout=WAIT)
    tip = window.model.index(window.model.row_of("Bank"), WAITING).data(Qt.ItemDataRole.ToolTipRole)
    assert "resumed" in str(tip), tip
    assert not [r for r in desk.window.model.records() if r.params.get("feed_name")]  # nothing imported
    desk.set_language("zh")
    qtbot.waitUntil(lambda: "恢复" in str(window.model.index(window.model.row_of("Bank"), WAITING)
                                          .data(Qt.ItemDataRole.ToolTipRole)), timeout=WAIT)  # fmt: skip


def test_a_relative_folder_is_refused_and_a_problem_goes_once_its_field_is_mended(
    qtbot: Any, make_desk: Callable[..., Desk], inbox: Path
) -> None:
    """Seen through the frozen app: a folder typed as a bare name was taken in the program's own folder, and the
    red "folder not found" stayed under the fields after the folder was put right, the pattern field squeezed."""
    desk = make_desk()
    window = open_feeds(qtbot, desk)
    window.add_button.click()
    dialog = editor(qtbot, window)
    dialog.name_edit.setText("Bank")
    dialog.folder_edit.setText("inbox")
    ok(dialog)
    # the window has no "current folder" a clerk knows of: the whole path is asked for, in words
    assert dialog.isVisible() and "whole path" in dialog.problem_label.text(), dialog.problem_label.text()
    assert not dialog.problem_label.isHidden() and window.model.row_of("Bank") < 0
    # the fields keep their heights beside the problem
    assert dialog.pattern_edit.height() >= dialog.pattern_edit.minimumSizeHint().height()
    # a ~user this machine has not: a problem in words, not an exception (found in review)
    dialog.folder_edit.setText("~nosuchuser_bd/in")
    ok(dialog)
    assert dialog.isVisible() and "whole path" in dialog.problem_label.text()
    dialog.folder_edit.setText(str(inbox))  # mended: the old problem no longer stands
    assert dialog.problem_label.isHidden()
    ok(dialog)
    qtbot.waitUntil(lambda: window.editor is None and window.model.row_of("Bank") >= 0, timeout=WAIT)
    assert stored(desk).spec.folder == str(inbox.resolve())


@pytest.mark.parametrize(("folder", "whole"), [
    ("Imports", False), ("in/bank", False), ("~/imports", True), ("/srv/imports", True),
    ("\\\\fs01\\bank", True), ("//fs01/bank", True), ("~nosuchuser_bd/x", False),
])  # fmt: skip
def test_a_feed_folder_is_whole_from_a_root_whatever_drive_the_program_runs_from(folder: str, whole: bool) -> None:
    """Found in review: a bare name was let through when the program's own folder was on a network drive."""
    from desktop_app.ui.dialogs.feed_edit import _whole_path

    assert _whole_path(folder) is whole
