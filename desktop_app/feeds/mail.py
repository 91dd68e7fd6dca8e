"""A feed's mail: the feed_mail task type, which tells the feed's recipients that one of its files failed
to import or had rows with errors, through the company's mail server (docs/FEEDS.md "Mail and notices").

Queued by the feed's scan as it writes down the import's outcome (feeds/scan.py), under a key of the
import's number, so a scan killed and redone never mails twice. A mail server that is away, does not
answer or answers "not now" (4xx) is a TransientError: the engine retries it with its backoff and at last
fails the mail task alone; a refusal a retry cannot mend (a 5xx answer to the mail, a feature the server
lacks, a certificate that does not verify) is a PermanentError at once. The import and the feed's file
never wait for it.
"""

from __future__ import annotations

import contextlib
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import ClassVar

from desktop_app.config import Settings
from desktop_app.domain.errors import BatchDeskError, ErrorCode, Lang, PermanentError, TransientError
from desktop_app.domain.feed_mail import MailCode, mail_text
from desktop_app.domain.feeds import Feed, FeedFile
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskOutcome, TaskRecord
from desktop_app.feeds.mail_secret import load_mail_password
from desktop_app.store.feeds import FeedStore
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.kinds import TaskKind

MB = 1024 * 1024
PORTS = {"none": 25, "starttls": 587, "ssl": 465}


def wants_mail(task: TaskRecord) -> bool:
    """Whether a feed's ended import is worth a mail: it failed, or some of its rows did (a cancelled one
    was stopped by a person, who knows)."""
    return task.status is TaskStatus.FAILED or (task.status is not TaskStatus.CANCELLED and task.fail_count > 0)


class FeedMailHandler:
    """The feed_mail task type (see the module's words)."""

    kind: ClassVar[TaskKind] = builtin_kinds.FEED_MAIL
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def run(self, ctx: TaskContext) -> TaskOutcome:
        if (ctx.checkpoint or {}).get("sent"):  # sent before a crash: not again
            return TaskOutcome(TaskStatus.SUCCEEDED, total_count=1, success_count=1, summary=dict(ctx.checkpoint or {}))
        settings = ctx.settings
        if not settings.mail_ready:
            raise PermanentError(ErrorCode.MAIL_NOT_SET_UP)
        feeds = FeedStore(ctx.store.engine)
        feed = feeds.get_by_id(int(ctx.params["feed"]))
        task_no = str(ctx.params["task_no"])
        task = ctx.store.get(task_no)
        if feed is None or not feed.spec.mail_to or task is None:
            why = "feed removed" if feed is None else "no recipients" if not feed.spec.mail_to else "task gone"
            ctx.log.info("no mail about %s: %s", task_no, why)
            return TaskOutcome(TaskStatus.SUCCEEDED, summary={"sent": False, "why": why})
        row = feeds.files_of_tasks([task_no]).get(task_no)
        file_name = str(ctx.params.get("file") or "")
        message, attached = compose(feed, task, row, file_name, settings, ctx.lang)
        ctx.log.info("mailing %s about %s (%s) through %s", ", ".join(feed.spec.mail_to), task_no,
                     "error file attached" if attached else "no attachment", server_name(settings))  # fmt: skip

        def without_attachment(limit: int) -> EmailMessage:
            ctx.log.info("the mail server takes mails up to %d bytes: the error file is named, not attached", limit)
            return compose(feed, task, row, file_name, settings, ctx.lang, server_limit=limit)[0]

        sent = send(message, settings, smaller=without_attachment if attached else None)
        message, attached, refused = sent.message, attached and sent.message is message, sent.refused
        if refused:
            ctx.log.warning("the mail server refused %s", ", ".join(refused))
        summary = {"sent": True, "to": list(feed.spec.mail_to), "refused": sorted(refused), "attached": attached,
                   "subject": str(message["Subject"])}  # fmt: skip
        ctx.commit_batch(lambda _conn: None, checkpoint=summary, progress=100)
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=1, success_count=1, summary=summary)


def compose(
    feed: Feed,
    task: TaskRecord,
    row: FeedFile | None,
    file_name: str,
    settings: Settings,
    lang: Lang,
    *,
    server_limit: int | None = None,
) -> tuple[EmailMessage, bool]:
    """The mail in the desk's language, and whether the error file is attached (it is when it is on this
    desk and within the settings' limit; never with `server_limit`, the mail server's size limit in bytes
    that the mail with it would pass: the body then says where the file is)."""
    name = row.name if row is not None else file_name or Path(str(task.params.get("file", ""))).name
    failed = task.status is TaskStatus.FAILED
    reason = "failed" if failed else None
    counts = {"imported": task.success_count, "failed": task.fail_count}
    why = (task.error_in(lang) or task.error_code or "") if failed else ""
    words = {"feed": feed.name, "name": name, "task_no": task.task_no, "folder": feed.spec.folder}
    message = EmailMessage()
    message["Subject"] = mail_text(MailCode.SUBJECT, lang, reason=reason, **words, **counts)
    message["From"] = settings.mail_from
    message["To"] = ", ".join(feed.spec.mail_to)
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid(domain=settings.mail_from.rpartition("@")[2] or None)
    lines = [mail_text(MailCode.BODY, lang, reason=reason, why=why, **words, **counts), ""]
    moved = (row.moved_to or row.move_to) if row is not None else None
    if moved:
        lines += [mail_text(MailCode.MOVED, lang, path=moved), ""]
    attachment = _attachment(task, settings) if server_limit is None else None
    host = task.host or (task.owner or "").split(":", 1)[0] or "?"
    errors = task.error_csv
    if attachment is not None:
        lines.append(mail_text(MailCode.ATTACHED, lang, attachment=f"{Path(name).stem}-errors.csv"))
    elif errors and Path(errors).is_file():
        size = Path(errors).stat().st_size
        code, limit = (
            (MailCode.TOO_LARGE, f"{settings.mail_attach_mb:g}")
            if server_limit is None
            else (MailCode.SERVER_LIMIT, f"{server_limit / MB:.3g}")
        )
        lines.append(mail_text(code, lang, size_mb=f"{size / MB:.1f}", limit_mb=limit, host=host, path=errors))
    elif errors:
        lines.append(mail_text(MailCode.NOT_HERE, lang, task_no=task.task_no, host=host, path=errors))
    lines += ["", mail_text(MailCode.SIGNED, lang, host=host_name())]
    message.set_content("\n".join(lines) + "\n")
    if attachment is not None:
        message.add_attachment(attachment, maintype="text", subtype="csv", filename=f"{Path(name).stem}-errors.csv")
    return message, attachment is not None


def test_mail(settings: Settings, to: str, lang: Lang) -> EmailMessage:
    """A mail that says the settings can send ("Send test mail", `settings mail --test`)."""
    message = EmailMessage()
    message["Subject"] = mail_text(MailCode.TEST_SUBJECT, lang)
    message["From"] = settings.mail_from
    message["To"] = to
    message["Date"] = formatdate(localtime=True)
    message.set_content(mail_text(MailCode.TEST_BODY, lang, host=host_name(), server=server_name(settings)) + "\n")
    return message


def _attachment(task: TaskRecord, settings: Settings) -> bytes | None:
    """The error file's bytes when it is on this desk and within the limit."""
    errors = task.error_csv
    if not errors or task.summary.get("expired"):
        return None
    path = Path(errors)
    try:
        if path.stat().st_size > settings.mail_attach_mb * MB:
            return None
        return path.read_bytes()
    except OSError:
        return None


def server_name(settings: Settings) -> str:
    return f"{settings.smtp_host}:{settings.smtp_port or PORTS.get(settings.smtp_security, 25)}"


@dataclass(frozen=True)
class Sent:
    """What the mail server took: the mail that went (without its attachment when the server's size limit
    left no room for it) and the recipients it refused (the others got it)."""

    message: EmailMessage
    refused: dict[str, object]


def send(
    message: EmailMessage,
    settings: Settings,
    *,
    password: str | None = None,
    smaller: Callable[[int], EmailMessage] | None = None,
) -> Sent:
    """Send through the settings' mail server (signing in when a user is set, with `password` or the kept
    one); `smaller(limit)` gives the mail without its attachment when the server says (ESMTP SIZE) it takes
    no mail as large as this one. A failure to talk to the server is a TransientError naming it, a refusal a
    retry cannot mend a PermanentError (_failure)."""
    host, security = settings.smtp_host.strip(), settings.smtp_security
    port = settings.smtp_port or PORTS.get(security, 25)
    server = f"{host}:{port}"
    try:
        if security == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=settings.smtp_timeout,
                                                  context=ssl.create_default_context())  # fmt: skip
        else:
            smtp = smtplib.SMTP(host, port, timeout=settings.smtp_timeout)
    except (smtplib.SMTPException, OSError, UnicodeError) as exc:
        raise _failure(exc, server) from None
    try:
        try:
            if security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if settings.smtp_user:
                _login(smtp, settings.smtp_user, password or load_mail_password(settings) or "", server)
            smtp.ehlo_or_helo_if_needed()
            limit = _size_limit(smtp)
            if smaller is not None and limit and _size(message) > limit:
                message = smaller(limit)
            refused: dict[str, object] = dict(smtp.send_message(message))
        except (smtplib.SMTPException, OSError, UnicodeError) as exc:
            raise _failure(exc, server) from None
        # the mail is the server's now: an answer to QUIT other than 221, or the connection lost at this
        # point, must not make the task retry and send it a second time
        with contextlib.suppress(smtplib.SMTPException, OSError):
            smtp.quit()
    finally:
        smtp.close()
    return Sent(message, refused)


def _login(smtp: smtplib.SMTP, user: str, password: str, server: str) -> None:
    try:
        smtp.login(user, password)
    except UnicodeError:  # smtplib signs in in ASCII only: the same words fail the same way each time
        raise PermanentError(ErrorCode.MAIL_REFUSED, reason="login_not_ascii", server=server) from None


def _size(message: EmailMessage) -> int:
    """The mail's size as sent (CRLF lines; UTF-8 headers, which never fail to write, near enough)."""
    return len(message.as_bytes(policy=policy.SMTPUTF8))


def _size_limit(smtp: smtplib.SMTP) -> int:
    """The largest mail the server said it takes (ESMTP SIZE), in bytes; 0 when it named none."""
    try:
        return max(int(smtp.esmtp_features.get("size", "") or 0), 0)
    except ValueError:
        return 0


def _failure(exc: BaseException, server: str) -> BatchDeskError:
    """A failure to send as the task's error: a refusal a retry cannot mend is permanent (a 5xx answer to
    the sender, to every recipient or to the mail; a feature the server lacks, such as SMTPUTF8 for an
    address beyond ASCII; a certificate that does not verify; words it cannot take); the rest passes (a 4xx
    answer, a server away, slow or reset, and a refused sign-in, whose password may be mended meanwhile)."""
    reason = _permanent(exc)
    if reason is None:
        return TransientError(ErrorCode.MAIL_NOT_SENT, server=server, detail=_detail(exc))
    why = {"reason": reason} if reason else {}
    return PermanentError(ErrorCode.MAIL_REFUSED, server=server, detail=_detail(exc), **why)


def _permanent(exc: BaseException) -> str | None:
    """The catalog's reason of a permanent refusal ("": the code's own words), None for a passing one."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return "certificate"
    if isinstance(exc, UnicodeError):
        return "not_ascii"
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return "not_supported"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [answer[0] for answer in exc.recipients.values()]
        return "recipients" if codes and all(int(code) >= 500 for code in codes) else None
    if isinstance(exc, (smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) and exc.smtp_code >= 500:
        if exc.smtp_code == 552:  # "exceeded storage allocation": the mail is too large
            return "too_large"
        return "sender" if isinstance(exc, smtplib.SMTPSenderRefused) else ""
    return None


def _detail(exc: BaseException) -> str:
    """What went wrong in a few words (the server's own answer when it gave one; never a password)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{to}: {_answer(code, said)}" for to, (code, said) in exc.recipients.items())[:300]
    if isinstance(exc, smtplib.SMTPResponseException):
        return _answer(exc.smtp_code, exc.smtp_error)[:300]
    if isinstance(exc, ssl.SSLCertVerificationError) and exc.verify_message:
        return str(exc.verify_message)[:300]
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:300]
    return (str(exc) or type(exc).__name__)[:300]


def _answer(code: int, said: bytes | str) -> str:
    return f"{code} {said.decode('utf-8', 'replace') if isinstance(said, bytes) else said}"
