"""A feed in words for the command line's readable lines (`feed list`, `show`, `add`...), zh and en, so that a
line reads wholly in one language (its JSON keeps its codes and numbers)."""

from __future__ import annotations

from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang
from desktop_app.domain.feeds import FileState, Outcome


class FeedLine(StrEnum):
    EVERY = "feed_every"
    AT = "feed_at"
    TODAY = "feed_today"
    WAITING = "feed_waiting"
    LAST_SCAN = "feed_last_scan"
    SCANNING = "feed_scanning"
    NEXT = "feed_next"
    NEXT_NOW = "feed_next_now"
    NONE = "feed_none"
    SAME_BYTES = "feed_same_bytes"  # a file's: a duplicate of the import that took the same bytes
    MAILED_TO = "feed_mailed_to"


TEXTS: dict[FeedLine, tuple[str, str]] = {
    FeedLine.EVERY: ("每 {seconds} 秒查看", "every {seconds} s"),
    FeedLine.AT: ("每天 {times} 查看", "at {times}"),
    FeedLine.TODAY: (
        "今天：导入 {imported:,} 个，失败 {failed:,} 个，重复 {duplicates:,} 个",
        "today: {imported} imported, {failed} failed, {duplicates} duplicates",
    ),
    FeedLine.WAITING: ("等待 {count:,} 个", "waiting {count}"),
    FeedLine.LAST_SCAN: ("上次查看 {stamp}", "last scan {stamp}"),
    FeedLine.SCANNING: ("正在查看", "scanning now"),
    # one form for the next look, a time or now (seen: "next: now" after `add`, "next 2026-12-08 07:30:00" after)
    FeedLine.NEXT: ("下次查看：{stamp}", "next: {stamp}"),
    FeedLine.NEXT_NOW: ("下次查看：现在", "next: now"),
    # {command}: how to add one, its words for the name, the folder and the type in the same language
    FeedLine.NONE: ("没有自动导入（添加一个：{command}）", "no feeds (add one: {command})"),
    FeedLine.SAME_BYTES: ("与 {task_no} 的文件内容相同", "same bytes as {task_no}"),
    # {to}: the addresses, joined with the language's separator (LIST_SEPARATOR)
    FeedLine.MAILED_TO: ("导入失败时发邮件给 {to}", "failed imports are mailed to {to}"),
}

messages.register(FeedLine, TEXTS)

LIST_SEPARATOR = {"zh": "、", "en": ", "}

# a file of a feed (`feed show`): where it is on its way, then which folder it ended in; the English words are
# the JSON's codes, as the line said them before
FILE_STATE_TEXTS: dict[FileState, tuple[str, str]] = {
    FileState.SETTLING: ("等待写完", "settling"),
    FileState.READY: ("待导入", "ready"),
    FileState.QUEUED: ("导入中", "queued"),
    FileState.MOVING: ("移动中", "moving"),
    FileState.DONE: ("已处理", "done"),
}
OUTCOME_TEXTS: dict[Outcome, tuple[str, str]] = {
    Outcome.IMPORTED: ("已导入", "imported"),
    Outcome.FAILED: ("失败", "failed"),
    Outcome.DUPLICATE: ("重复", "duplicate"),
    Outcome.GONE: ("已被移走", "gone"),
}

messages.register(FileState, FILE_STATE_TEXTS)
messages.register(Outcome, OUTCOME_TEXTS)


ADD_COMMAND = {
    "zh": "batchdesk feed add 名称 --folder 文件夹 --type 导入类型",
    "en": "batchdesk feed add NAME --folder DIR --type T",
}


def feed_line_word(word: FeedLine, lang: Lang, **params: object) -> str:
    return messages.text(word, lang, **params)


def file_words(state: FileState, outcome: Outcome | None, lang: Lang) -> str:
    """A feed's file in a word: the folder it ended in, else where it is on its way."""
    return messages.text(outcome, lang) if outcome else messages.text(state, lang)
