"""A feed's imports in the window: one with failed rows, or that failed, is told in the feed's words (the
feed, the file, the counts) with "Open error file", and the tray says the same; a clean one says nothing;
several at once make one notice for the feed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import build_core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.ui import feed_notices
from tests.support.customers import row, run_import, write_csv
from tests.support.feeds import add_feed, drive, feed_imports

TIMEOUT = 10_000


def fed(tmp_path: Path, files: dict[str, list[list[str]]]) -> tuple[Path, dict[str, TaskRecord], TaskRecord]:
    """A data folder whose feed `bank` imported these files (and one import by hand), ended before the
    window opens: its imports by file name, and the hand's."""
    data_dir, folder = tmp_path / "data", tmp_path / "inbox"
    folder.mkdir()
    for name, rows in files.items():
        write_csv(folder / name, rows)
    core = build_core(data_dir=data_dir, overrides={"daily_cleanup": False})
    try:
        add_feed(core, folder)
        drive(core)
        imports = {Path(str(t.params["file"])).name: t for t in feed_imports(core)}
        by_hand = run_import(core, write_csv(tmp_path / "by_hand.csv", [row(900), row(901, 手机号="x")] +
                                             [row(i) for i in range(902, 910)]))  # fmt: skip
    finally:
        core.close()
    return data_dir, imports, by_hand


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[str]]]:
    """Every notice the window showed: its text and its buttons' words."""
    from desktop_app.ui.notice_bar import NoticeBar

    said: list[tuple[str, list[str]]] = []
    real = NoticeBar.show_notice

    def spy(self: NoticeBar, text: str, *args: Any, **kwargs: Any) -> None:
        actions = args[1] if len(args) > 1 else kwargs.get("actions") or []
        said.append((text, [words for words, _ in actions]))
        real(self, text, *args, **kwargs)

    monkeypatch.setattr(NoticeBar, "show_notice", spy)
    return said


def _bad(start: int) -> list[list[str]]:
    return [row(i, 手机号="x") if i == start else row(i) for i in range(start, start + 10)]


def test_a_feed_file_with_bad_rows_is_told_in_the_feeds_words_and_a_clean_one_not_at_all(
    qtbot: Any, make_desk: Any, tmp_path: Path, shown: list[tuple[str, list[str]]]
) -> None:
    data_dir, imports, by_hand = fed(tmp_path, {"june.csv": _bad(1), "may.csv": [row(i) for i in range(20, 25)]})
    june, may = imports["june.csv"], imports["may.csv"]
    assert june.status is TaskStatus.PARTIALLY_SUCCEEDED and may.status is TaskStatus.SUCCEEDED
    desk = make_desk(data_dir=data_dir)
    window = desk.window
    service = desk.service
    window.hide()  # out of sight: the tray speaks too
    service.task_ended.emit(may)
    service.task_ended.emit(june)
    want = "Feed bank: june.csv was imported with errors (imported: 9, rows with errors: 1)"
    qtbot.waitUntil(lambda: window.notice.text() == want, timeout=TIMEOUT)
    assert shown == [(want, ["Open error file", "Show the task"])]  # the clean may.csv said nothing
    # the tray says the same words once
    qtbot.waitUntil(lambda: bool(desk.tray.sent), timeout=TIMEOUT)
    assert desk.tray.sent == [("Feed bank", want)]
    # "Show the task" finds the feed's import in the list
    window.show()
    qtbot.waitUntil(lambda: window.model.row_of(june.id) is not None, timeout=TIMEOUT)
    (show,) = [b for b in window.notice.buttons if b.text() == "Show the task"]
    show.click()
    qtbot.waitUntil(lambda: window.selected_record() is not None and window.selected_record().id == june.id,
                    timeout=TIMEOUT)  # fmt: skip
    # a task not from a feed is told as always
    service.task_ended.emit(by_hand)
    qtbot.waitUntil(lambda: by_hand.task_no in window.notice.text(), timeout=TIMEOUT)


def test_several_feed_files_with_errors_at_once_make_one_notice_for_the_feed(
    qtbot: Any,
    make_desk: Any,
    tmp_path: Path,
    shown: list[tuple[str, list[str]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data_dir, imports, _ = fed(tmp_path, {"a.csv": _bad(1), "b.csv": _bad(20), "c.csv": [], "d.csv": [row(50)]})
    assert imports["c.csv"].status is TaskStatus.FAILED
    desk = make_desk(data_dir=data_dir, language="zh")
    window = desk.window
    window.hide()
    for name in ("a.csv", "b.csv", "d.csv", "c.csv"):
        desk.service.task_ended.emit(imports[name])
    want = "监视文件夹 bank：3 个文件有错误"
    qtbot.waitUntil(lambda: window.notice.text() == want, timeout=TIMEOUT)
    # the last one's error file (c.csv failed: no rows, no error file) is not offered
    assert window.notice.text() == want and shown[-1][1] == ["显示任务"]
    qtbot.waitUntil(lambda: bool(desk.tray.sent), timeout=TIMEOUT)
    qtbot.wait(feed_notices.TRAY_MS + 200)
    assert desk.tray.sent == [("监视文件夹 bank", want)]


def test_the_settings_dialog_sets_the_mail_server_without_its_password_in_the_file(
    qtbot: Any, make_desk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.ui import desk as desk_module

    kept: list[tuple[str, str]] = []
    monkeypatch.setattr(desk_module, "store_mail_password",
                        lambda settings, password: kept.append((settings.smtp_user, password)) or True)  # fmt: skip
    desk = make_desk()
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None and not dialog.mail.expanded()
    dialog.smtp_host_edit.setText("mail.bank.example")
    dialog.smtp_port_box.setValue(2525)
    dialog.smtp_security_box.setCurrentIndex(dialog.smtp_security_box.findData("ssl"))
    dialog.smtp_user_edit.setText("batch")
    dialog.smtp_password_edit.setText("s3cret-pw")
    dialog.mail_from_edit.setText("batchdesk@bank")  # not an address: the dialog stays and says why
    dialog.accept()
    assert dialog.isVisible() and dialog.mail.expanded()
    assert dialog.test_result.text().startswith('"batchdesk@bank" is not a valid mail address')
    dialog.mail_from_edit.setText("batchdesk@bank.example")
    dialog.accept()
    assert not dialog.isVisible()
    saved = desk.core.paths.settings_file.read_text(encoding="utf-8")
    assert "s3cret-pw" not in saved and kept == [("batch", "s3cret-pw")]
    assert '"smtp_host": "mail.bank.example"' in saved and '"smtp_port": 2525' in saved
    assert '"smtp_security": "ssl"' in saved and '"mail_from": "batchdesk@bank.example"' in saved
    # the tasks that start from now on send through it
    assert desk.executor.settings.smtp_host == "mail.bank.example" and desk.executor.settings.mail_ready


def test_a_feed_file_that_failed_is_told_with_its_reason(
    qtbot: Any, make_desk: Any, tmp_path: Path, shown: list[tuple[str, list[str]]]
) -> None:
    data_dir, imports, _ = fed(tmp_path, {"empty.csv": []})
    desk = make_desk(data_dir=data_dir)
    desk.service.task_ended.emit(imports["empty.csv"])
    want = "Feed bank: empty.csv could not be imported (imported: 0, rows with errors: 0): The file is empty"
    qtbot.waitUntil(lambda: desk.window.notice.text().startswith(want), timeout=TIMEOUT)
    assert shown[-1][1] == ["Show the task"]  # no error file: nothing to open


def _mail_section(make_desk: Any) -> Any:
    """The Settings dialog of a new desk, its Mail section open."""
    desk = make_desk()
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    dialog.mail.set_expanded(True)
    return dialog


def _send_through(dialog: Any, inbox: Any) -> None:
    """Type in the local mail server and the sender, and send the test mail."""
    dialog.smtp_host_edit.setText(inbox.host)
    dialog.smtp_port_box.setValue(inbox.port)
    dialog.smtp_security_box.setCurrentIndex(dialog.smtp_security_box.findData("none"))
    dialog.mail_from_edit.setText("batchdesk@bank.example")
    dialog.test_button.click()


def test_the_settings_dialog_sends_a_test_mail_through_the_server_typed_in(qtbot: Any, make_desk: Any) -> None:
    from tests.support.smtp import mail_server, refusing_port

    dialog = _mail_section(make_desk)
    assert dialog.test_button.isVisibleTo(dialog)
    dialog.test_button.click()
    assert dialog.test_result.text() == "Fill in the mail server and the sender address first."
    with mail_server() as inbox:
        _send_through(dialog, inbox)
        qtbot.waitUntil(lambda: dialog.test_result.text() == "A test mail was sent to batchdesk@bank.example.",
                        timeout=TIMEOUT)  # fmt: skip
        (mail,) = inbox.mails
        assert mail["To"] == "batchdesk@bank.example" and mail["Subject"] == "BatchDesk test mail"
    # a server that is not there: said in words, the dialog stays
    with refusing_port() as port:
        dialog.smtp_port_box.setValue(port)
        dialog.test_button.click()
        qtbot.waitUntil(lambda: dialog.test_result.text().startswith("The test mail could not be sent: The mail "
                                                                     "could not be sent through the mail server"),
                        timeout=TIMEOUT)  # fmt: skip
    assert dialog.isVisible() and dialog.test_button.isEnabled()


def test_a_test_mail_signing_in_with_a_user_beyond_ascii_says_so_in_words(qtbot: Any, make_desk: Any) -> None:
    from tests.support.smtp import mail_server

    dialog = _mail_section(make_desk)
    assert dialog.attach_box.maximum() == 25  # what the settings file and the command line take at most
    with mail_server(login=("batch", "s3cret")) as inbox:
        dialog.smtp_user_edit.setText("批处理")
        dialog.smtp_password_edit.setText("密码")
        _send_through(dialog, inbox)
        want = (f"The test mail could not be sent: The user name or password for the mail server 127.0.0.1:"
                f"{inbox.port} has characters its sign-in cannot take")  # fmt: skip
        qtbot.waitUntil(lambda: dialog.test_result.text() != "Sending a test mail to batchdesk@bank.example…",
                        timeout=TIMEOUT)  # fmt: skip
        assert dialog.test_result.text().startswith(want), dialog.test_result.text()
        assert "Error" not in dialog.test_result.text() and inbox.mails == []


def test_the_mail_sections_keys_take_no_letter_of_the_dialogs_other_fields(make_desk: Any) -> None:
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QLabel

    desk = make_desk()
    desk.open_settings()
    dialog = desk.settings_dialog
    assert dialog is not None
    mail = {label.text() for label, _ in dialog._mail_labels} | {dialog.test_button.text(), dialog.mail.button.text()}
    others = {w.text() for w in dialog.findChildren(QLabel) if w.text() not in mail} | {dialog.advanced.button.text()}

    def letters(texts: set[str]) -> list[str]:
        return [QKeySequence.mnemonic(t).toString() for t in texts if "&" in t.replace("&&", "")]

    ours = letters(mail)
    assert len(ours) == len(set(ours)) == 9 and not set(ours) & set(letters(others)), (ours, letters(others))
