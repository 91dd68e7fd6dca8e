"""A feed's mail about an import that failed or had failed rows: its recipients and its words (zh, en).

The words are catalog texts (code and params) rendered in the desk's language when the mail is written
(feeds/mail.py); the addresses are checked once, where a person types them (`feed add --mail`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from desktop_app.domain import messages
from desktop_app.domain.errors import ErrorCode, PermanentError

# one address as a mail server takes it: no spaces, no list separators, one @, a dot in the domain
_ADDRESS = re.compile(r"^[^@\s,;<>()\[\]\"]+@[^@\s,;<>()\[\]\"]+\.[^@\s,;<>()\[\]\".]+$")
MAX_ADDRESSES = 50
STORED_LENGTH = 2000  # feeds.mail_to (migration 0011)


def parse_addresses(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """The addresses of `a@x.com, b@y.com` (commas, semicolons or spaces between them; each once, in the
    order given); MAIL_ADDRESS_INVALID naming the first that is not one. Empty: nobody."""
    parts: list[str] = []
    for piece in [value] if isinstance(value, str) else list(value or ()):
        parts += [p for p in re.split(r"[,;\s]+", piece.strip()) if p]
    found: list[str] = []
    for part in parts:
        if not _ADDRESS.match(part):
            raise PermanentError(ErrorCode.MAIL_ADDRESS_INVALID, address=part)
        if part.casefold() not in {a.casefold() for a in found}:
            found.append(part)
    if len(found) > MAX_ADDRESSES or len(",".join(found)) > STORED_LENGTH:
        detail = f"a feed mails at most {MAX_ADDRESSES} addresses ({STORED_LENGTH} characters)"
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail=detail)
    return tuple(found)


class MailCode(StrEnum):
    """The parts of a feed's mail."""

    SUBJECT = "feed_mail_subject"  # reason: failed | rows
    BODY = "feed_mail_body"  # reason: failed | rows
    ATTACHED = "feed_mail_attached"
    TOO_LARGE = "feed_mail_too_large"
    SERVER_LIMIT = "feed_mail_server_limit"  # the mail server's own size limit (SIZE) left it out
    NOT_HERE = "feed_mail_not_here"
    MOVED = "feed_mail_moved"
    SIGNED = "feed_mail_signed"
    TEST_SUBJECT = "feed_mail_test_subject"
    TEST_BODY = "feed_mail_test_body"


TEXTS: dict[Any, tuple[str, str]] = {
    MailCode.SUBJECT: (
        "监视文件夹“{feed}”：{name} 有 {failed:,} 行出错（任务 {task_no}）",
        "Feed {feed}: {name} had {failed:,} {failed:plural:row|rows} with errors (task {task_no})",
    ),
    (MailCode.SUBJECT, "failed"): (
        "监视文件夹“{feed}”：{name} 导入失败（任务 {task_no}）",
        "Feed {feed}: {name} could not be imported (task {task_no})",
    ),
    MailCode.BODY: (
        "监视文件夹“{feed}”（{folder}）中的文件 {name} 已由任务 {task_no} 导入：{imported:,} 行已导入，"
        "{failed:,} 行出错。",
        "The file {name} of the feed {feed} ({folder}) was imported by task {task_no}: {imported:,} "
        "{imported:plural:row|rows} imported, {failed:,} {failed:plural:row|rows} with errors.",
    ),
    (MailCode.BODY, "failed"): (
        "监视文件夹“{feed}”（{folder}）中的文件 {name} 没能由任务 {task_no} 导入：{why}\n"
        "已导入 {imported:,} 行，{failed:,} 行出错。",
        "The file {name} of the feed {feed} ({folder}) could not be imported by task {task_no}: {why}\n"
        "{imported:,} {imported:plural:row|rows} imported, {failed:,} {failed:plural:row|rows} with errors.",
    ),
    MailCode.ATTACHED: (
        "出错的行及其原因见附件 {attachment}：改正后可以直接重新导入。",
        "The rows with errors, each with its reason, are in the attached {attachment}: corrected, it imports as it is.",
    ),
    MailCode.TOO_LARGE: (
        "错误明细文件有 {size_mb} MB，超过邮件附件上限 {limit_mb} MB，没有附上；它在电脑 {host} 上：{path}",
        "The error file ({size_mb} MB) is above the mail's attachment limit of {limit_mb} MB and is not "
        "attached; it is on the desk {host}: {path}",
    ),
    MailCode.SERVER_LIMIT: (
        "错误明细文件有 {size_mb} MB，附上后邮件会超过邮件服务器接受的大小（{limit_mb} MB），没有附上；它在电脑 "
        "{host} 上：{path}",
        "The error file ({size_mb} MB) would make the mail larger than the mail server takes ({limit_mb} MB) "
        "and is not attached; it is on the desk {host}: {path}",
    ),
    MailCode.NOT_HERE: (
        "错误明细文件保存在运行任务 {task_no} 的电脑 {host} 上：{path}",
        "The error file is kept on {host}, the desk that ran task {task_no}: {path}",
    ),
    MailCode.MOVED: ("文件已移到 {path}", "The file is moved to {path}"),
    MailCode.SIGNED: (
        "这封邮件由 BatchDesk 自动发出（电脑 {host}）。",
        "This mail was sent by BatchDesk (desk {host}).",
    ),
    MailCode.TEST_SUBJECT: ("BatchDesk 测试邮件", "BatchDesk test mail"),
    MailCode.TEST_BODY: (
        "这是一封测试邮件：电脑 {host} 上的 BatchDesk 可以通过邮件服务器 {server} 发信。",
        "This is a test mail: BatchDesk on the desk {host} can send mail through the mail server {server}.",
    ),
}

messages.register(MailCode, TEXTS)


def mail_text(code: MailCode, lang: messages.Lang, **params: object) -> str:
    return messages.text(code, lang, **params)
