"""A feed's mail through a local mail server (aiosmtpd): a file whose import had failed rows or failed is
mailed once to the feed's recipients, with its error file attached up to the limit; a clean import, a feed
with no recipients or a desk with no mail server mail nobody; a mail server that is down makes the mail
task retry and at last fail, and never touches the import nor the file's way; a refusal a retry cannot mend
fails the mail task at once, in words; a mail the server took is never sent again."""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import Core, build_core
from desktop_app.config import Settings
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.feeds import mail as feed_mail  # not its test_mail by name: pytest would collect it
from desktop_app.feeds import mail_secret
from desktop_app.feeds.notices import FeedTask, feeds_of_tasks
from desktop_app.log import task_log_lines
from desktop_app.store.feeds import FeedStore
from desktop_app.submission import submit_feed_mail
from tests.support.customers import row, write_csv
from tests.support.feeds import add_feed, drive, feed_imports, run_here, today
from tests.support.smtp import Inbox, mail_server, refusing_port

TO = ("clerk@bank.example", "boss@bank.example")


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with mail_server() as box:
        yield box


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "inbox"
    path.mkdir()
    return path


def _core(tmp_path: Path, db_url: str | None, **settings: Any) -> Core:
    return build_core(data_dir=tmp_path / "data", db_url=db_url, overrides=settings)


def mail_tasks(core: Core) -> list[TaskRecord]:
    return core.store.list(task_type="feed_mail", newest_first=False)


def send_all(core: Core, *, lang: str = "zh") -> list[TaskRecord]:
    """Every pending mail task run here now."""
    return [run_here(core, t.id, lang=lang) for t in mail_tasks(core) if t.status is TaskStatus.PENDING]


def _imports(core: Core) -> dict[str, TaskRecord]:
    return {Path(str(t.params["file"])).name: t for t in feed_imports(core)}


def test_a_file_with_bad_rows_is_mailed_once_with_its_error_file(db_url: str, tmp_path: Path, inbox: Inbox,
                                                                 folder: Path) -> None:  # fmt: skip
    core = _core(tmp_path, db_url, **inbox.settings())
    try:
        write_csv(folder / "june.csv", [row(i, 手机号="x") if i == 5 else row(i) for i in range(1, 11)])
        write_csv(folder / "may.csv", [row(i) for i in range(11, 16)])
        (folder / "empty.csv").write_bytes(b"")
        add_feed(core, folder, mail_to=TO)

        drive(core)

        imports = _imports(core)
        june, empty = imports["june.csv"], imports["empty.csv"]
        assert june.status is TaskStatus.PARTIALLY_SUCCEEDED and empty.status is TaskStatus.FAILED
        # one mail task for each import that went wrong, none for the clean one; the imports ended first
        queued = mail_tasks(core)
        assert sorted(str(t.params["task_no"]) for t in queued) == sorted([june.task_no, empty.task_no])
        assert {t.status for t in queued} == {TaskStatus.PENDING} and inbox.mails == []
        assert {t.status for t in send_all(core)} == {TaskStatus.SUCCEEDED}

        assert len(inbox.mails) == 2 and all(sorted(r) == sorted(TO) for r in inbox.recipients)
        # the window's look-up: which tasks imported a feed's file
        assert feeds_of_tasks(core.store.engine, [june.task_no, empty.task_no, "T000000-NOTONE"]) == {
            june.task_no: FeedTask("bank", "june.csv"),
            empty.task_no: FeedTask("bank", "empty.csv"),
        }
        by_task = {next(n for n in (june.task_no, empty.task_no) if n in str(m["Subject"])): m for m in inbox.mails}
        mail = by_task[june.task_no]
        assert "bank" in mail["Subject"] and "june.csv" in mail["Subject"] and "1 行出错" in mail["Subject"]
        body = mail.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        assert "june.csv" in body and "bank" in body and june.task_no in body
        assert "9 行已导入" in body and "1 行出错" in body and f"imported/{today()}/june.csv" in body
        (attachment,) = list(mail.iter_attachments())
        assert attachment.get_filename() == "june-errors.csv"
        assert june.error_csv and attachment.get_payload(decode=True) == Path(june.error_csv).read_bytes()
        failed = by_task[empty.task_no]
        assert "导入失败" in failed["Subject"] and "empty.csv" in failed["Subject"]
        assert "文件是空的" in failed.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        # the same import asked again (a scan redone after the mail went) is the same, sent, mail task
        feed = FeedStore(core.store.engine).get("bank")
        assert feed is not None
        again = submit_feed_mail(core.store, feed, june.task_no, "june.csv")
        assert again.refused and again.task.params["task_no"] == june.task_no
        assert again.task.status is TaskStatus.SUCCEEDED
        assert len(mail_tasks(core)) == 2 and len(inbox.mails) == 2
    finally:
        core.close()


def test_an_error_file_above_the_limit_is_not_attached_and_the_body_says_where_it_is(
    sqlite_url: str, tmp_path: Path, inbox: Inbox, folder: Path
) -> None:
    core = _core(tmp_path, sqlite_url, **inbox.settings(), mail_attach_mb=0.0001)  # about 100 bytes
    try:
        write_csv(folder / "june.csv", [row(i, 手机号="x") if i < 3 else row(i) for i in range(1, 11)])
        add_feed(core, folder, mail_to=TO[:1])
        drive(core)
        (ended,) = send_all(core, lang="en")
        assert ended.status is TaskStatus.SUCCEEDED and ended.summary["attached"] is False
        (mail,) = inbox.mails
        june = _imports(core)["june.csv"]
        assert mail["Subject"] == f"Feed bank: june.csv had 2 rows with errors (task {june.task_no})"
        assert list(mail.iter_attachments()) == []
        body = mail.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        assert "8 rows imported, 2 rows with errors" in body
        assert "above the mail's attachment limit of 0.0001 MB and is not attached" in body
        assert str(june.error_csv) in body
    finally:
        core.close()


def test_a_mail_server_that_is_down_retries_the_mail_alone_and_never_the_import(
    sqlite_url: str, tmp_path: Path, folder: Path
) -> None:
    with refusing_port() as port:
        _a_mail_server_that_is_down(sqlite_url, tmp_path, folder, port)


def _a_mail_server_that_is_down(sqlite_url: str, tmp_path: Path, folder: Path, port: int) -> None:
    settings = {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_security": "none",
                "mail_from": "batchdesk@desk.example", "smtp_timeout": 2.0}  # fmt: skip
    core = _core(tmp_path, sqlite_url, **settings)
    try:
        write_csv(folder / "june.csv", [row(i, 手机号="x") if i == 1 else row(i) for i in range(1, 6)])
        add_feed(core, folder, mail_to=TO)
        drive(core)
        june = _imports(core)["june.csv"]
        assert (june.status, june.success_count, june.fail_count) == (TaskStatus.PARTIALLY_SUCCEEDED, 4, 1)
        assert (folder / "imported" / today() / "june.csv").is_file() and not (folder / "june.csv").exists()
        (mail,) = mail_tasks(core)
        first = run_here(core, mail.id)
        # a passing problem: the engine's backoff, the reason in words
        assert (first.status, first.retries) == (TaskStatus.PENDING, 1) and first.next_run_at is not None
        assert "邮件没能通过邮件服务器" in (first.error_msg or "") and "稍后会再试" in (first.error_msg or "")
        for _ in range(3):
            last = run_here(core, mail.id)
        assert (last.status, last.error_code) == (TaskStatus.FAILED, "retries_exhausted")
        # the import and the file's way stand as they were
        again = core.store.get(june.task_no)
        assert again is not None and (again.status, again.success_count) == (TaskStatus.PARTIALLY_SUCCEEDED, 4)
        assert (folder / "imported" / today() / "june.csv").is_file() and len(mail_tasks(core)) == 1
        # the task log says what happened, each try
        logged = "\n".join(task_log_lines(core.paths.log_dir, mail.task_no))
        assert logged.count("mailing clerk@bank.example, boss@bank.example about") == 4
        assert "transient error" in logged
    finally:
        core.close()


@pytest.mark.parametrize("mail_to, settings", [((), True), (TO, False)], ids=["no recipients", "no mail server"])
def test_no_recipients_or_no_mail_server_queue_no_mail(sqlite_url: str, tmp_path: Path, inbox: Inbox,
                                                      folder: Path, mail_to: tuple[str, ...],
                                                      settings: bool) -> None:  # fmt: skip
    core = _core(tmp_path, sqlite_url, **(inbox.settings() if settings else {}))
    try:
        write_csv(folder / "june.csv", [row(i, 手机号="x") if i == 1 else row(i) for i in range(1, 6)])
        add_feed(core, folder, mail_to=mail_to)
        drive(core)
        assert _imports(core)["june.csv"].status is TaskStatus.PARTIALLY_SUCCEEDED
        assert mail_tasks(core) == [] and inbox.mails == []
    finally:
        core.close()


def test_a_clean_import_mails_nobody(sqlite_url: str, tmp_path: Path, inbox: Inbox, folder: Path) -> None:
    core = _core(tmp_path, sqlite_url, **inbox.settings())
    try:
        write_csv(folder / "may.csv", [row(i) for i in range(1, 6)])
        add_feed(core, folder, mail_to=TO)
        drive(core)
        assert _imports(core)["may.csv"].status is TaskStatus.SUCCEEDED
        assert mail_tasks(core) == [] and inbox.mails == []
    finally:
        core.close()


def test_a_scan_killed_after_it_queued_the_mail_does_not_mail_twice(
    sqlite_url: str, tmp_path: Path, inbox: Inbox, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = _core(tmp_path, sqlite_url, **inbox.settings())
    try:
        write_csv(folder / "june.csv", [row(i, 手机号="x") if i == 1 else row(i) for i in range(1, 6)])
        add_feed(core, folder, mail_to=TO)
        real = FeedStore.intend
        died: list[str] = []

        def dies_once(self: FeedStore, file: Any, *args: Any, **kwargs: Any) -> bool:
            if not died:  # the scan died after the mail was queued, before the outcome was written
                died.append(file.name)
                return False
            return real(self, file, *args, **kwargs)

        monkeypatch.setattr(FeedStore, "intend", dies_once)
        drive(core)
        assert died == ["june.csv"] and (folder / "imported" / today() / "june.csv").is_file()
        (mail,) = mail_tasks(core)  # the redone scan found the same mail task by its key
        assert mail.status is TaskStatus.PENDING and mail.params["file"] == "june.csv"
        send_all(core)
        drive(core)
        assert len(mail_tasks(core)) == 1 and len(inbox.mails) == 1
    finally:
        core.close()


def test_the_mail_signs_in_with_the_password_kept_outside_the_settings(
    sqlite_url: str, tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no keyring on this desk: the worker's environment holds the password (never the settings file)
    monkeypatch.setattr(mail_secret, "_keyring", lambda: None)
    monkeypatch.setenv(mail_secret.PASSWORD_ENV, "wrong")
    with mail_server(login=("batch", "s3cret")) as inbox:
        core = _core(tmp_path, sqlite_url, **inbox.settings(), smtp_user="batch")
        try:
            write_csv(folder / "june.csv", [row(i, 手机号="x") if i == 1 else row(i) for i in range(1, 6)])
            add_feed(core, folder, mail_to=TO[:1])
            drive(core)
            (refused,) = send_all(core)
            assert refused.status is TaskStatus.PENDING and "535" in (refused.error_msg or "") and not inbox.mails
            assert "wrong" not in (refused.error_msg or "")
            monkeypatch.setenv(mail_secret.PASSWORD_ENV, "s3cret")
            (sent,) = send_all(core)
            assert sent.status is TaskStatus.SUCCEEDED and len(inbox.mails) == 1
        finally:
            core.close()


def _one_mail(core: Core, folder: Path, mail_to: tuple[str, ...] = TO[:1], bad: int = 1) -> TaskRecord:
    """The pending mail task of a feed's file whose first `bad` rows had errors."""
    write_csv(folder / "june.csv", [row(i, 手机号="x") if i <= bad else row(i) for i in range(1, bad + 5)])
    add_feed(core, folder, mail_to=mail_to)
    drive(core)
    (mail,) = mail_tasks(core)
    assert mail.status is TaskStatus.PENDING
    return mail


@pytest.mark.parametrize("quit_fails", ["answer", "timeout"])
def test_a_mail_the_server_took_is_not_sent_again_whatever_befalls_its_quit(
    sqlite_url: str, tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, quit_fails: str
) -> None:
    with mail_server() as inbox:
        if quit_fails == "answer":  # not 221: smtplib's `with` raised it after the mail was delivered
            inbox.answers["QUIT"] = "421 4.3.2 shutting down"
        else:
            real = smtplib.SMTP.docmd

            def docmd(self: smtplib.SMTP, cmd: str, args: str = "") -> tuple[int, bytes]:
                if cmd.lower() == "quit":
                    raise TimeoutError("timed out")
                return real(self, cmd, args)

            monkeypatch.setattr(smtplib.SMTP, "docmd", docmd)
        core = _core(tmp_path, sqlite_url, **inbox.settings())
        try:
            mail = _one_mail(core, folder)
            ended = run_here(core, mail.id)
            assert (ended.status, ended.retries, ended.summary["sent"]) == (TaskStatus.SUCCEEDED, 0, True)
            assert len(inbox.mails) == 1 and send_all(core) == [] and len(inbox.mails) == 1
        finally:
            core.close()


@pytest.mark.parametrize("answers, mail_to, words", [
    ({"RCPT": "550 5.1.1 no such mailbox"}, TO,
     "不接受这封邮件的任何一个收件人（它的回答：clerk@bank.example: 550 5.1.1 no such mailbox; "
     "boss@bank.example: 550 5.1.1 no such mailbox）"),
    ({"MAIL": "553 5.7.1 sender not allowed"}, TO[:1], "不接受发件人地址（它的回答：553 5.7.1 sender not allowed）"),
    ({"DATA": "552 5.3.4 message too big"}, TO[:1],
     "认为这封邮件太大，拒绝了它（它的回答：552 5.3.4 message too big）"),
    ({"DATA": "554 5.7.1 looks like spam"}, TO[:1], "拒绝了这封邮件（它的回答：554 5.7.1 looks like spam）"),
    ({}, ("张三@bank.example",), "不支持发出这封邮件所需的功能（例如含中文的邮件地址"),
], ids=["recipients", "sender", "too large", "content", "SMTPUTF8"])  # fmt: skip
def test_a_refusal_a_retry_cannot_mend_fails_the_mail_at_once_in_words(
    sqlite_url: str, tmp_path: Path, folder: Path, answers: dict[str, str], mail_to: tuple[str, ...], words: str
) -> None:
    with mail_server(enable_SMTPUTF8=False) as inbox:  # a server that takes ASCII addresses only
        inbox.answers.update(answers)
        core = _core(tmp_path, sqlite_url, **inbox.settings())
        try:
            mail = _one_mail(core, folder, mail_to)
            ended = run_here(core, mail.id)
            assert (ended.status, ended.error_code, ended.retries) == (TaskStatus.FAILED, "mail_refused", 0)
            said = ended.error_msg or ""
            assert words in said and "重试也不会成功" in said and "稍后会再试" not in said, said
            assert f"邮件服务器 127.0.0.1:{inbox.port}" in said and inbox.mails == []
            assert "trying again would not help" in ended.error_in("en")
            june = _imports(core)["june.csv"]  # the import stands as it was
            assert (june.status, june.success_count, june.fail_count) == (TaskStatus.PARTIALLY_SUCCEEDED, 4, 1)
        finally:
            core.close()


@pytest.mark.parametrize("answers", [{"RCPT": "450 4.2.1 mailbox busy"}, {"DATA": "451 4.3.0 try later"}],
                         ids=["recipients", "data"])  # fmt: skip
def test_a_not_now_answer_is_tried_again(sqlite_url: str, tmp_path: Path, folder: Path,
                                         answers: dict[str, str]) -> None:  # fmt: skip
    with mail_server() as inbox:
        inbox.answers.update(answers)
        core = _core(tmp_path, sqlite_url, **inbox.settings())
        try:
            ended = run_here(core, _one_mail(core, folder).id)
            assert (ended.status, ended.retries) == (TaskStatus.PENDING, 1) and inbox.mails == []
            assert "邮件没能通过邮件服务器" in (ended.error_msg or "") and "稍后会再试" in (ended.error_msg or "")
            inbox.answers.clear()
            assert [t.status for t in send_all(core)] == [TaskStatus.SUCCEEDED] and len(inbox.mails) == 1
        finally:
            core.close()


def test_a_certificate_that_does_not_verify_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> smtplib.SMTP:
        error = ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed")
        error.verify_message = "self-signed certificate"
        raise error

    monkeypatch.setattr(smtplib, "SMTP_SSL", refused)
    settings = Settings(smtp_host="mail.bank.example", smtp_security="ssl", mail_from="desk@bank.example")
    with pytest.raises(PermanentError) as caught:
        feed_mail.send(feed_mail.test_mail(settings, "clerk@bank.example", "en"), settings)
    assert caught.value.code is ErrorCode.MAIL_REFUSED and caught.value.params["reason"] == "certificate"
    assert caught.value.text("en") == (
        "The certificate of the mail server mail.bank.example:465 could not be verified (self-signed "
        "certificate); check the server's name and security under Settings: trying again would not help"
    )


def test_a_user_or_password_beyond_ascii_fails_in_words_and_is_not_tried_again(
    sqlite_url: str, tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mail_secret, "_keyring", lambda: None)
    monkeypatch.setenv(mail_secret.PASSWORD_ENV, "密码")
    with mail_server(login=("batch", "s3cret")) as inbox:
        core = _core(tmp_path, sqlite_url, **inbox.settings(), smtp_user="批处理")
        try:
            ended = run_here(core, _one_mail(core, folder).id, lang="en")
            assert (ended.status, ended.error_code, ended.retries) == (TaskStatus.FAILED, "mail_refused", 0)
            assert ended.error_in("en").startswith(
                f"The user name or password for the mail server 127.0.0.1:"
                f"{inbox.port} has characters its sign-in cannot take"
            )
            assert "密码" not in (ended.error_msg or "") and inbox.mails == []
        finally:
            core.close()


def test_a_mail_the_servers_size_limit_would_refuse_goes_without_its_attachment(
    sqlite_url: str, tmp_path: Path, folder: Path
) -> None:
    limit = 20_000
    with mail_server(data_size_limit=limit) as inbox:
        core = _core(tmp_path, sqlite_url, **inbox.settings(), fail_threshold=1.0)  # 300 bad rows of 304 import
        try:
            mail = _one_mail(core, folder, bad=300)
            june = _imports(core)["june.csv"]
            assert june.error_csv and Path(june.error_csv).stat().st_size > limit  # within the desk's 5 MB
            ended = run_here(core, mail.id, lang="en")
            assert (ended.status, ended.summary["attached"]) == (TaskStatus.SUCCEEDED, False)
            (sent,) = inbox.mails
            assert list(sent.iter_attachments()) == []
            body = sent.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
            assert "would make the mail larger than the mail server takes (0.0191 MB) and is not attached" in body
            assert str(june.error_csv) in body
        finally:
            core.close()
